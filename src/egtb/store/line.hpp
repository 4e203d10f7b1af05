// Optimal play read from a Tablebase: the score every legal move leads to, and the line that
// realises a position's Lasker value (docs/design.md §2).
//
// Move order ("best first"). A move is worth 4 - v to its mover, where v is the value of the
// position after it for the opponent, then moves to play on come first: with a win (4 mate, 3
// stalemate) the shortest depth, with a loss (0, 1) the longest, since the winner minimises DTM
// or DTS and the loser maximises it; drawing moves have no depth. Remaining ties go by UCI text,
// so the order never depends on move generation. Example, White to move with Kb6, Qc1 v Ka8:
// Qc8# (child mated, DTM 0) comes first, then the other mating moves by their DTM, then Qc7
// (child stalemated, DTS 0: worth 3 to White); moves to a draw, if any, would come last.
//
// The optimal line follows the first move of that order from each position until the game ends:
// a mate (value 4 or 0) follows DTM-optimal moves, a stalemate (3 or 1) DTS-optimal moves among
// those that keep the value. Moves leaving the table (captures, promotions) continue in the
// subtables. Its length equals the starting depth; a draw has no line (empty). The depth must
// fall by exactly one per ply and the last position must be the promised checkmate or stalemate;
// otherwise the tables contradict each other and the result is a ProbeError of kind
// Inconsistent naming the position, so a damaged set of tables never makes the line run forever.
#pragma once

#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/move.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb {

struct MoveValue {
  Move move;
  Score score;  // of the position after the move, from that position's side to move

  // The value of the move for the side playing it: 4 - score.value().
  [[nodiscard]] Lasker value() const { return negate(score.value()); }
};

// The moves of pos under the rules: its legal moves, or the pass (the null move Move()) when it has
// none, is not in check and the rules let a stalemated side pass.
[[nodiscard]] MoveList rule_moves(Rules rules, const Position& pos);

// True when move a is to be preferred to move b (the order above).
[[nodiscard]] bool better_move(const MoveValue& a, const MoveValue& b);

// Every move of pos (rule_moves) with the score it leads to, best first; empty when pos has no
// move. Fails when pos cannot be probed or a position after a move needs a missing table.
[[nodiscard]] Expected<std::vector<MoveValue>, ProbeError> move_values(const Tablebase& tb,
                                                                       const Position& pos);

// The optimal line from pos to the mate or stalemate its value promises (empty for a draw and
// for a position already checkmated or stalemated).
[[nodiscard]] Expected<std::vector<Move>, ProbeError> optimal_line(const Tablebase& tb, const Position& pos);

}  // namespace egtb
