#include "egtb/store/table_stats.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace egtb {

std::string to_string(Metrics m) {
  if (m.dtm && m.dts) return "dtm,dts";
  if (m.dtm) return "dtm";
  if (m.dts) return "dts";
  return "none";
}

uint64_t SideStats::positions() const { return std::accumulate(values.begin(), values.end(), uint64_t{0}); }

void SideStats::add(Score s, uint64_t count) {
  if (!s.is_valid()) {
    invalid += count;
    return;
  }
  const Lasker v = s.value();
  values[static_cast<size_t>(to_index(v))] += count;
  if (is_mate_value(v)) max_dtm = std::max(max_dtm, s.depth());
  if (v == Lasker::Stalemates || v == Lasker::Stalemated) max_dts = std::max(max_dts, s.depth());
}

void SideStats::merge(const SideStats& other) {
  for (size_t v = 0; v < values.size(); ++v) values[v] += other.values[v];
  invalid += other.invalid;
  max_dtm = std::max(max_dtm, other.max_dtm);
  max_dts = std::max(max_dts, other.max_dts);
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
