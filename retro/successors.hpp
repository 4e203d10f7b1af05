// The legal moves of an entry as the solver needs them: how many there are, whether the side to
// move stands in check, and which of them leave the table (captures, promotions, e.p. captures),
// whose values the subtables hold.
//
// Two ways lead to the same answer:
//   general  builds the Position and generates its legal moves (egtb/core/movegen.hpp);
//   fast     counts the moves on bare squares (IndexScheme::Men): legality comes from checks and
//            pins worked out with bitboards, and only the moves that leave the table are listed.
// The fast way serves every normal-section entry; e.p. entries take the general way.
// Example, KQkr, White to move in Ka1 Qd4 kh7 rd8: the king has 3 moves (a2, b1, b2), the queen
// 26 along its file, rank and diagonals; of the 29 legal moves one, Qxd8, leaves the table (into
// KQk). tests/retro/test_successors.cpp
// checks that both ways agree on every entry of several tables.
#pragma once

#include <optional>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"
#include "indexing/index.hpp"

namespace egtb::retro {

// What an entry's legal moves are, for the solver.
struct EntryMoves {
  int count = 0;          // legal moves
  bool in_check = false;  // the side to move stands in check
};

// The scratch space of one thread.
struct SuccessorWorkspace {
  indexing::IndexScheme::Men men;  // the men, after the fast way
  Position pos;                    // the position, after the general way
  bool general = false;            // which way the last call took
  MoveList exits;                  // the legal moves that leave the table
};

class Successors {
public:
  explicit Successors(const indexing::IndexScheme& scheme);

  // The legal moves of entry i with `stm` to move, and ws.exits those of them that leave the
  // table; nothing for an invalid entry or the duplicate of a symmetric position (whose twin
  // stands for it). ws.general tells whether ws.pos or ws.men holds the entry.
  std::optional<EntryMoves> moves(indexing::Index i, Color stm, SuccessorWorkspace& ws) const;
  // The two ways, for the tests.
  std::optional<EntryMoves> moves_fast(indexing::Index i, Color stm, SuccessorWorkspace& ws) const;
  std::optional<EntryMoves> moves_general(indexing::Index i, Color stm, SuccessorWorkspace& ws) const;
  // moves_fast for men already decoded: ws.men holds those of normal-section entry i, as men_at
  // gave them (no two on one square).
  std::optional<EntryMoves> moves_of_men(indexing::Index i, Color stm, SuccessorWorkspace& ws) const;
  // The legal moves of the legal position whose men ws.men holds, with `stm` to move (no e.p.
  // right), and ws.exits those of them that leave the table.
  EntryMoves legal_moves_of_men(Color stm, SuccessorWorkspace& ws) const;

private:
  const indexing::IndexScheme& scheme_;
};

}  // namespace egtb::retro
