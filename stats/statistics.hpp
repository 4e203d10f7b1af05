// Statistics of endgame tables for articles: the article's Tables 1 and 2 (Müller & Haworth 2020,
// "Stalemate and DTS depth to stalemate endgame tables") and depth histograms, in one of the three
// counting conventions of indexing/index.hpp.
//
// Every number is a sum of entry weights: a valid entry i of a table, whose position P the index
// scheme decodes, adds IndexScheme::weights(i, P).get(convention) to its side to move, its Lasker
// value and its depth. So index462 counts every valid entry once (the article's count, the
// duplicate entries of pawnless positions with both kings on the a1-h8 diagonal included),
// physical counts every legal placement, classes each symmetry class once. The weight depends on
// the king pair alone for nearly every entry (IndexScheme::weight_run), so the scan reads validity
// and score from the table and decodes positions only in the runs where it does not: the classes
// of pawnless pairs with both kings on the diagonal; index462's unplayable e.p. rights come from
// the e.p. section's index space (IndexScheme::unplayable_ep_entries).
//
// maxDTS and maxDTM, as the article's Table 1 takes them: for each winner colour (the stalemater,
// or the mater), the deepest DTS (DTM) of the positions that colour wins by stalemate (mate),
// over both sides to move: the winner to move (value 3 or 4, an odd depth) and the loser to move
// (value 1 or 0, an even depth). `positions` counts the positions at that depth; its parity tells
// the side to move. Examples: KBk, stalemater White: 17 plies, White to move, 37 positions in
// index462; KQk, mater White: 20 plies with Black to move (mated in 10), deeper than White's
// mate in 10 (19 plies); KPk has its deepest stalemate with the stalemated side to move. An
// endgame where both colours can force stalemate (a pawn ending) has a row for each. A winner that
// can force no stalemate (mate) has none: KQk has no maxDTS (its only DTS positions are the
// stalemates on the board, depth 0, which nobody forces), KBk no maxDTM.
//
// The example position of a maximum is the valid entry of smallest index among those of that side
// to move, value and depth with a non-zero weight in the convention, its index taken with the king
// pair leading (then the other men in index order, see indexing/index.hpp) whatever order the
// file's index digits have: the scheme's canonical image (for pawnless tables the white king in
// a1-d1-d4), so the example is the same on every run and machine and in every order.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "egtb/core/cancellation.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table_stats.hpp"
#include "egtb/store/tablebase.hpp"
#include "indexing/index.hpp"

namespace egtb::stats {

using indexing::Convention;

// Positions per depth in plies, in ascending order of depth.
using DepthHistogram = std::map<int, uint64_t>;

// The positions of one side to move.
struct SideSummary {
  std::array<uint64_t, 5> lasker{};      // positions of each value, indexed by to_index(Lasker)
  std::array<DepthHistogram, 5> depths;  // per value, its depths (DTM for 4 and 0, DTS for 3 and
                                         // 1); empty for 2

  [[nodiscard]] uint64_t positions() const;
  // The depths of one metric under the rules: wins at odd plies, losses at even plies (Lasker DTM:
  // values 4 and 0; DTS: 3 and 1).
  [[nodiscard]] DepthHistogram histogram(Rules rules, Metric m) const;
};

// The deepest positions of one metric won by one colour (see the comment at the top).
struct Deepest {
  Metric metric = Metric::Dts;
  Color winner = Color::White;  // the stalemater (DTS) or the mater (DTM)
  int plies = 0;                // odd: the winner moves; even: the loser moves
  uint64_t positions = 0;       // at this depth, in the convention
  Color side_to_move = Color::White;
  Position example;
  std::vector<Move> line;  // the optimal line from the example to the (stale)mate
};

struct TableStatistics {
  Material material;
  Convention convention = Convention::Index462;
  Rules rules = Rules::Lasker;
  MetricSet metrics;                 // what the table stores: without DTS, values 3 and 1 appear as draws
  std::array<SideSummary, 2> sides;  // indexed by to_index(Color)
  // The deepest positions, indexed [to_index(metric)][to_index(winner)].
  std::array<std::array<std::optional<Deepest>, 2>, MetricCount> deepest;

  [[nodiscard]] const SideSummary& side(Color c) const { return sides[static_cast<size_t>(to_index(c))]; }
  [[nodiscard]] const std::optional<Deepest>& deepest_of(Metric m, Color winner) const {
    return deepest[to_index(m)][static_cast<size_t>(to_index(winner))];
  }
};

struct StatsOptions {
  Convention convention = Convention::Index462;
  int threads = 0;                             // 0: every core
  const Cancellation* cancellation = nullptr;  // may be null; asked before each block is read
};

// The statistics of the table of `material` (either colour orientation; the canonical one is
// reported) in the tablebase's directory, with the optimal line of each example
// (egtb/store/line.hpp: DTS-optimal for maxDTS, DTM-optimal for maxDTM; it may leave the table by
// a capture or promotion, so those tables must be there too). Throws IoError or FormatError for a
// missing or damaged file (check has_table first), std::runtime_error when a line cannot be probed,
// Cancelled once options.cancellation is requested.
[[nodiscard]] TableStatistics compute_statistics(const Tablebase& tablebase, const Material& material,
                                                 const StatsOptions& options = {});

// The optimal line of an example position (egtb/store/line.hpp); throws std::runtime_error naming
// the position when it cannot be followed (a table it leads into is missing, say).
[[nodiscard]] std::vector<Move> example_line(const Tablebase& tablebase, const Position& example);

// The depth of a Table 1 row as a table's header records it (its maxima per side to move and value,
// table_stats.hpp), without reading the table: the deepest depth in metric m that `winner` forces
// and the side to move there, or nothing when it forces none. These are the plies and side_to_move
// of compute_statistics's Deepest in index462 (the header counts every valid entry). Example: KQk,
// winner White, DTM: 20 plies, Black to move.
struct DeepestDepth {
  int plies = 0;
  Color side_to_move = Color::White;
};
[[nodiscard]] std::optional<DeepestDepth> deepest_depth(Rules rules, const std::array<SideStats, 2>& sides,
                                                        Metric metric, Color winner);

}  // namespace egtb::stats
