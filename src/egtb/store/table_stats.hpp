// What a table says about itself: per side to move, how many entries have each value and the
// deepest depth of each value. Stored in the file header (format.hpp) and recomputed from the
// entries when a table is read whole, as a cross-check.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"

namespace egtb {

// Counts and maxima of one side to move. They are kept per value code, not per metric, so that
// the file format does not depend on the rules: max_depth(r, m) reads them through the rules.
// Example, KQk with Black to move under Lasker: values {25,691, 115, 2,838, 0, 0} (the draws:
// Black takes the queen), max_depths {20, 0, 0, -1, -1}: max DTM 20 (mated in 10), max DTS 0 (the
// stalemates on the board).
struct SideStats {
  static constexpr int NoDepth = -1;

  std::array<uint64_t, 5> values{};  // entries of each value, indexed by to_index(Lasker)
  uint64_t invalid = 0;              // entries that are not positions
  std::array<int, 5> max_depths{NoDepth, NoDepth, NoDepth, NoDepth, NoDepth};  // per value

  // Entries with a value (every entry but the invalid ones).
  [[nodiscard]] uint64_t positions() const;
  [[nodiscard]] uint64_t entries() const { return positions() + invalid; }
  // The deepest depth of metric m among the values that carry it under rules r; NoDepth when none.
  [[nodiscard]] int max_depth(Rules r, Metric m) const;
  // Counts `count` entries of score s.
  void add(Score s, uint64_t count = 1);
  void merge(const SideStats& other);
  bool operator==(const SideStats&) const = default;
};

// Statistics of raw scores. Precondition: none of them is Score::unknown() (Unknown entries are
// counted as invalid).
[[nodiscard]] SideStats compute_stats(std::span<const uint16_t> raw_scores);

}  // namespace egtb
