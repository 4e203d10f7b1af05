#include "egtb/store/table_stats.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace egtb {

uint64_t SideStats::positions() const { return std::accumulate(values.begin(), values.end(), uint64_t{0}); }

int SideStats::max_depth(Rules r, Metric m) const {
  int deepest = NoDepth;
  for (Lasker v : {Lasker::Mated, Lasker::Stalemated, Lasker::Stalemates, Lasker::Mates})
    if (metric_of(r, v) == m) deepest = std::max(deepest, max_depths[static_cast<size_t>(to_index(v))]);
  return deepest;
}

void SideStats::add(Score s, uint64_t count) {
  if (!s.is_valid()) {
    invalid += count;
    return;
  }
  const auto v = static_cast<size_t>(to_index(s.value()));
  values[v] += count;
  max_depths[v] = std::max(max_depths[v], s.depth());
}

void SideStats::merge(const SideStats& other) {
  for (size_t v = 0; v < values.size(); ++v) values[v] += other.values[v];
  invalid += other.invalid;
  for (size_t v = 0; v < max_depths.size(); ++v) max_depths[v] = std::max(max_depths[v], other.max_depths[v]);
}

SideStats compute_stats(std::span<const uint16_t> raw_scores) {
  // A histogram of raw codes: one increment per entry, then one add() per distinct code. The
  // counts are left zero after each call, so the thread's histogram is reused without clearing.
  thread_local std::vector<uint32_t> counts(1u << 16);
  thread_local std::vector<uint16_t> seen;
  SideStats stats;
  constexpr size_t Chunk = size_t{1} << 31;  // keeps every count below 2^32
  for (size_t begin = 0; begin < raw_scores.size(); begin += Chunk) {
    for (uint16_t raw : raw_scores.subspan(begin, std::min(Chunk, raw_scores.size() - begin)))
      if (counts[raw]++ == 0) seen.push_back(raw);
    for (uint16_t raw : seen) {
      stats.add(Score::from_raw(raw), counts[raw]);
      counts[raw] = 0;
    }
    seen.clear();
  }
  return stats;
}

}  // namespace egtb
