#include "egtb/store/table_stats.hpp"

#include <algorithm>
#include <array>
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
  // Histograms of raw codes: one increment per entry, then one add() per distinct code. Entries
  // alternate between two histograms, so that a run of equal scores (a block of draws) does not
  // wait on each increment of one count. A histogram's counts are left zero after each call, so
  // the thread's pair is reused without clearing; `seen` lists the codes of each as they first
  // count. Example: scores {5, 5, 5} count 2 in the first and 1 in the second; code 5 is added
  // once, with 3, from the first list, and found zero in the second.
  thread_local std::array<std::vector<uint32_t>, 2> counts{std::vector<uint32_t>(1u << 16),
                                                           std::vector<uint32_t>(1u << 16)};
  thread_local std::array<std::vector<uint16_t>, 2> seen;
  SideStats stats;
  constexpr size_t Chunk = size_t{1} << 31;  // keeps every count below 2^32
  const auto count = [&](size_t h, uint16_t raw) {
    if (counts[h][raw]++ == 0) seen[h].push_back(raw);
  };
  for (size_t begin = 0; begin < raw_scores.size(); begin += Chunk) {
    const std::span<const uint16_t> part =
        raw_scores.subspan(begin, std::min(Chunk, raw_scores.size() - begin));
    size_t i = 0;
    for (; i + 1 < part.size(); i += 2) {
      count(0, part[i]);
      count(1, part[i + 1]);
    }
    if (i < part.size()) count(0, part[i]);
    for (const std::vector<uint16_t>& codes : seen)
      for (uint16_t raw : codes) {
        const uint64_t n = uint64_t{counts[0][raw]} + counts[1][raw];
        if (n != 0) stats.add(Score::from_raw(raw), n);
        counts[0][raw] = counts[1][raw] = 0;
      }
    for (auto& codes : seen) codes.clear();
  }
  return stats;
}

}  // namespace egtb
