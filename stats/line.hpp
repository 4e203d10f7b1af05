// The optimal line of a position, probed move by move through a tablebase.
//
// From a position of value v and depth d (DTM for v = 4 or 0, DTS for v = 3 or 1), each step plays
// the move to a child of value 4 - v and depth d - 1, which exists because the depths are exact
// minimax depths: the winner's best move and the loser's longest resistance both lead one ply
// closer. Among several such moves the first in UCI order is played, so the line is
// deterministic. The line ends at the checkmate or stalemate (depth 0); a draw has no line.
#pragma once

#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::stats {

// The moves from `pos` to the (stale)mate. Throws std::runtime_error when a probe fails (a table
// of the line is missing) and FormatError / IoError for a damaged table.
[[nodiscard]] std::vector<Move> optimal_line(const Tablebase& tablebase, const Position& pos);

}  // namespace egtb::stats
