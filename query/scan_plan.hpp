// What a table scan can learn from a query before running it on any position.
//
// 1. A necessary condition on the stored score (ScoreCondition). The top-level conjunction of a
//    query (its top-level filters, { } blocks and `and`) is searched for filters that a table
//    entry's score alone decides:
//      wtm, btm                              the side to move;
//      mate, puremate, modelmate, idealmate  checkmated: the rules' score of a checkmate
//                                            (rules.hpp, terminal_score; Lasker: 0 with DTM 0);
//      stalemate, purestalemate, ...         stalemated: the rules' score of a stalemate, when
//                                            it ends the game (Lasker: 1 with DTS 0);
//      dtm, dts (alone), dtmend, dtsend      the depth is defined: values 4/0, 3/1;
//      a comparison of dtm, dts, lasker, maxdtm, maxdts and numbers, such as `dts == maxdts`,
//      `lasker == 3` or `dtm <= 9` (a comparison fails when a side is undefined, as in CQL).
//    Every entry failing the condition fails the query, so the scan drops it before decoding its
//    position. Example: `btm purestalemate` keeps only Black-to-move entries scored (1, DTS 0).
//    A table without DTS (DTM only) scores stalemates as draws: stalemate conditions are then
//    not used, and likewise mate conditions without DTM.
// 2. Whether the query gives the same answer on every symmetric image of a position (the eight
//    board symmetries without pawns, the a-h mirror with pawns). Then the physical count of an
//    entry is its weight (IndexScheme::weights) when the query matches its stored image, and the
//    scan evaluates one image instead of up to eight. The test is conservative: square sets that
//    a symmetry moves, light/dark, one-sided ray directions, a FEN placement, shift transforms,
//    imagine and reachableposition make a query count as not invariant.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "egtb/core/types.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table_stats.hpp"
#include "query/ast.hpp"

namespace egtb::query {

// What a table says about all its entries: its metrics and its deepest DTM and DTS (both sides).
struct TableFacts {
  Rules rules = Rules::Lasker;
  MetricSet metrics;
  std::array<int, MetricCount> max_depth{SideStats::NoDepth, SideStats::NoDepth};  // by Metric
};

// ScoreTerm, the numbers a score and its table define, is in keywords.hpp.

// The value of a term for a score, or nothing when undefined (dtm of a draw, a metric the table
// lacks, an invalid entry). A Constant term has no value here (see ScoreOperand).
[[nodiscard]] std::optional<int64_t> score_term(ScoreTerm term, Score score, const TableFacts& facts);

struct ScoreOperand {
  ScoreTerm term = {};  // None: the constant
  int64_t constant = 0;
};

struct ScoreComparison {
  CompareOp op = CompareOp::Eq;
  ScoreOperand left;
  ScoreOperand right;
};

class ScoreCondition {
public:
  // The condition a query's syntax tree (analysed by sema) implies; true for any entry when the
  // query implies nothing about scores.
  [[nodiscard]] static ScoreCondition of(const Node& root);

  // True unless the entry of side to move `stm` (in the scanned orientation) with `score` fails
  // the query for sure. Invalid scores never pass.
  [[nodiscard]] bool accepts(Color stm, Score score, const TableFacts& facts) const;
  // True when the condition restricts nothing but validity.
  [[nodiscard]] bool trivial() const;

private:
  uint8_t sides_ = 3;  // bit 0: White to move, bit 1: Black to move
  bool mated_ = false;
  bool stalemated_ = false;
  std::vector<ScoreComparison> comparisons_;

  void add(const Node& n);
  void add_keyword(const KeywordInfo& keyword);
  void add_comparison(const Node& n);
};

// True when the query answers alike on every symmetric image of a position of a table with
// (pawns) or without pawns (see above).
[[nodiscard]] bool symmetry_invariant(const Node& root, bool pawns);

}  // namespace egtb::query
