// What a table says about itself: the metrics it carries and, per side to move, how many entries
// have each value and the deepest DTM and DTS. Stored in the file header (format.hpp) and
// recomputed from the entries when a whole table is loaded, as a cross-check.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "egtb/store/score.hpp"

namespace egtb {

// The depths a table stores: DTM for values 4 and 0, DTS for 3 and 1. A DTM-only table has no
// values 3 and 1 (ordinary chess: its draws are all 2).
struct Metrics {
  bool dtm = true;
  bool dts = true;

  bool operator==(const Metrics&) const = default;
};

// "dtm,dts", "dtm", "dts" or "none".
[[nodiscard]] std::string to_string(Metrics m);

// Counts and maxima of one side to move.
struct SideStats {
  static constexpr int NoDepth = -1;

  std::array<uint64_t, 5> values{};  // entries of each Lasker value, indexed by to_index(Lasker)
  uint64_t invalid = 0;              // entries that are not positions
  int max_dtm = NoDepth;             // deepest DTM among values 4 and 0, NoDepth when there is none
  int max_dts = NoDepth;             // deepest DTS among values 3 and 1, NoDepth when there is none

  // Entries with a Lasker value (every entry but the invalid ones).
  [[nodiscard]] uint64_t positions() const;
  [[nodiscard]] uint64_t entries() const { return positions() + invalid; }
  // Counts `count` entries of score s.
  void add(Score s, uint64_t count = 1);
  void merge(const SideStats& other);
  bool operator==(const SideStats&) const = default;
};

// Statistics of raw scores. Precondition: none of them is Score::unknown() (Unknown entries are
// counted as invalid).
[[nodiscard]] SideStats compute_stats(std::span<const uint16_t> raw_scores);

}  // namespace egtb
