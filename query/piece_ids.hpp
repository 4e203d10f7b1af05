// CQL's piece identity: every man of a game has a number, given at the game's start, that follows
// him through his moves (CQL 6.2's "pieceid"; piece variables hold one).
//
// The men of the start position are numbered in the order of their squares: a1 = 0, b1, ..., h1,
// a2, ..., h8. A move carries the number of the man moved to his new square (a promoted pawn keeps
// his number, the rook of a castling his own); a man captured has none any more, and a null move
// changes nothing. Example, from the initial position: the rook on a1 is 0, the king on e1 4, the
// pawn on e2 12, the pawn on a7 16, the black king on e8 28; after 1. e4 the man on e4 is 12 and e2
// has none; after 1. e4 d5 2. exd5 the man on d5 is 12 and number 19 (the pawn of d7) is gone.
//
// A position off a game (a table entry, a FEN, a position that imagine or move legal makes) starts
// a game of its own: its men are numbered as at a start.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"
#include "pgn/game.hpp"

namespace egtb::query::detail {

// By square (a1 = 0 ... h8 = 63): the number of the man there, or NoPieceId on an empty square.
inline constexpr int8_t NoPieceId = -1;
using PieceIds = std::array<int8_t, 64>;

// The number of the man on `s` when `pos` starts a game (NoPieceId on an empty square): the men
// on the squares before his.
[[nodiscard]] inline int8_t start_piece_id(const Position& pos, Square s) {
  if (pos.empty(s)) return NoPieceId;
  return static_cast<int8_t>(std::popcount(pos.pieces() & (square_bb(s) - 1)));
}
// The square of the man numbered `id` when `pos` starts a game, if there is one.
[[nodiscard]] std::optional<Square> start_piece_square(const Position& pos, int id);
// The numbers of the men of `pos` when it starts a game.
[[nodiscard]] PieceIds start_piece_ids(const Position& pos);
// The numbers after `m` (legal or null) is played from `before`, whose men have the numbers `ids`.
[[nodiscard]] PieceIds after_move(PieceIds ids, const Position& before, Move m);
// The square of the man numbered `id` in `ids`, if he is on the board.
[[nodiscard]] std::optional<Square> square_of(const PieceIds& ids, int id);

// The numbers at every node of one game (64 bytes a node), built once for it.
struct GamePieceIds {
  const pgn::Game* game = nullptr;
  uint64_t number = 0;
  size_t size = 0;
  std::vector<PieceIds> by_node;

  // Those of `g`, built unless they are already.
  const GamePieceIds& of(const pgn::Game& g);
};

}  // namespace egtb::query::detail
