// The legal moves of a position as the solver needs them when it looks at one position alone:
// how many there are, whether the side to move stands in check, and which of them leave the
// table (captures and promotions), whose values the subtables hold.
//
// The moves are counted on bare squares (IndexScheme::Men): legality comes from checks and pins
// worked out with bitboards, and only the moves that leave the table are listed.
// Example, KQkr, White to move in Ka1 Qd4 kh7 rd8: the king has 3 moves (a2, b1, b2), the queen
// 26 along its file, rank and diagonals; of the 29 legal moves one, Qxd8, leaves the table (into
// KQk). tests/retro/test_successors.cpp checks the counts against the general move generator.
#pragma once

#include "egtb/core/move.hpp"
#include "indexing/index.hpp"

namespace egtb::retro {

// What a position's legal moves are, for the solver.
struct EntryMoves {
  int count = 0;          // legal moves
  bool in_check = false;  // the side to move stands in check
};

// The scratch space of one thread.
struct SuccessorWorkspace {
  indexing::IndexScheme::Men men;  // the position's men, in the scheme's order
  MoveList exits;                  // the legal moves that leave the table
};

class Successors {
public:
  explicit Successors(const indexing::IndexScheme& scheme);

  // The legal moves of the legal position whose men ws.men holds, with `stm` to move and no e.p.
  // right, and in ws.exits those of them that leave the table.
  EntryMoves moves(Color stm, SuccessorWorkspace& ws) const;

private:
  const indexing::IndexScheme& scheme_;
};

}  // namespace egtb::retro
