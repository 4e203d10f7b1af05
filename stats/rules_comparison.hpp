// One endgame under the three rule sets side by side (docs/design.md §4.3, store/rules.hpp): how
// many positions change value, the deepest win per winner under each, the mates that a stalemate
// replaces with a shorter win, and the positions whose result passing changes, with examples and
// their optimal lines. The tables of the three rule sets must all be in the tablebase directory
// (`egtb generate SIG --rules R` for each R); `egtb compare` prints this, and
// tools/docs/rules_findings.sh writes docs/rules-findings.md from it.
//
// Example (KBkp, both sides to move): the Lasker value 3 of 8/8/8/8/8/8/1p6/kBK5 w (White
// freezes Black's king and pawn: stalemate for ever) becomes a loss under stalemate-passes
// (Black passes until White must let the pawn through: mated in 26 plies); it counts in
// `changed[Passes][3][0]`, and the deepest such position is an example.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::stats {

// An example position with its score under the rules it illustrates and its optimal line there.
struct RulesExample {
  Position position;
  Score lasker;  // its Lasker score
  Score other;   // its score under the other rules
  std::vector<Move> lasker_line;
  std::vector<Move> other_line;
};

// The deepest win of one winner colour under one rule set, over both sides to move (as Table 1).
struct DeepestWin {
  Metric metric = Metric::Dtm;
  int plies = 0;
  uint64_t positions = 0;  // positions at that depth
};

struct RulesComparison {
  Material material;
  uint64_t positions = 0;  // valid entries of both sides to move
  // Entries by Lasker value (index 0..4) and value under StalemateWins / StalematePasses (0..4).
  std::array<std::array<uint64_t, 5>, 5> wins_matrix{};
  std::array<std::array<uint64_t, 5>, 5> passes_matrix{};
  // Lasker wins by mate (4) that stalemate-wins ends sooner (DTE < DTM), and the one with the
  // largest gap (smallest index on ties).
  uint64_t mates_shortened = 0;
  std::optional<RulesExample> shortened_example;
  // Positions whose three-valued result differs under stalemate-passes from Lasker's (4 and 3
  // win, 1 and 0 lose), and an example: the deepest under stalemate-passes whose win and loss
  // swap, or else the deepest Lasker win or loss that becomes a draw.
  uint64_t passes_changed = 0;
  std::optional<RulesExample> passes_example;
  // The deepest win per rule set and winner: [rules][winner]; Lasker has DTM and DTS rows.
  std::array<std::array<std::optional<DeepestWin>, 2>, 2> lasker_deepest{};  // [DTM, DTS][winner]
  std::array<std::optional<DeepestWin>, 2> wins_deepest{};                   // DTE, by winner
  std::array<std::optional<DeepestWin>, 2> passes_deepest{};                 // DTM, by winner
};

// Compares the tables of `material` under the three rule sets in `directory`. Throws IoError or
// FormatError for a missing or damaged table, std::runtime_error when a line cannot be probed.
[[nodiscard]] RulesComparison compare_rules(const std::filesystem::path& directory, const Material& material);

// Markdown: a table of value changes, a table of deepest wins, and the examples with their lines.
[[nodiscard]] std::string rules_report(const std::vector<RulesComparison>& tables);

}  // namespace egtb::stats
