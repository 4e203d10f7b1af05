// Legal move generation for full chess (castling, en passant, promotions), mate and stalemate
// detection, and perft.
#pragma once

#include <cstdint>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb {

// Appends every legal move of the side to move: the moves that do not leave its king attacked.
// Any board is taken, with CQL's semantics for positions no game reaches (CQLi's manual, "Filter
// Semantics in Illegal Positions"; FenCheck::Board reads such boards):
// * a side with no king or with several is never in check: every pseudo-legal move of its men,
//   its kings' steps included, is legal, and it has no castling;
// * the other side's king, when it stands attacked, may be captured (so may a king of a side
//   with several); a king in check by three men or more has its king moves alone, as in double
//   check;
// * a pawn on its own first rank steps one or two squares or captures, as from the second rank
//   (Position::do_move gives no e.p. right after its double step); a pawn on its last rank does
//   not move;
// * castling needs the king on e1/e8 and the rook in its corner, whatever the castling rights
//   say, and an e.p. square counts only on the sixth rank (third for Black) behind the pawn that
//   stepped past it.
// Example: "8/8/8/3k4/1N6/2N1N3/8/7K b" (three knights check d5) has the five king steps to
// squares no knight attacks, Kc5 Kd4 Kd6 Ke5 Ke6; "k7/1Q6/8/8/8/8/8/7K w" (Black in check, White
// to move) has Qxa8 among its moves.
void generate_legal_moves(const Position& pos, MoveList& list);

[[nodiscard]] inline MoveList legal_moves(const Position& pos) {
  MoveList list;
  generate_legal_moves(pos, list);
  return list;
}

[[nodiscard]] bool has_legal_move(const Position& pos);
[[nodiscard]] bool is_legal_move(const Position& pos, Move m);
// Side to move in check with no legal move.
[[nodiscard]] bool is_checkmate(const Position& pos);
// Side to move not in check with no legal move.
[[nodiscard]] bool is_stalemate(const Position& pos);
// Neither side can ever checkmate the other, as chess (and the lichess tablebase API's
// "insufficient_material") counts it. A side cannot mate with no pawn, rook or queen and either
// a lone king; a king and one knight against a king and queens at most (other men of the
// opponent's could box its own king in); or bishops all on one colour of square while the board
// has no pawn, no knight and no bishop of the other colour. Insufficient: KNk, KBk, KBkb with both
// bishops light; sufficient: KNNk, KNkr, KBkn, KBkb on opposite colours. Stalemate is another
// matter: in KNk White can still stalemate.
[[nodiscard]] bool is_insufficient_material(const Position& pos);

// Leaf nodes of the legal move tree of the given depth (depth 0 counts the position itself).
[[nodiscard]] uint64_t perft(const Position& pos, int depth);

// One legal move and the leaf count of the tree below it.
struct PerftEntry {
  Move move;
  uint64_t nodes = 0;
};

// perft split by the legal moves of pos, in generation order: the entries sum to
// perft(pos, depth). Empty when depth < 1.
[[nodiscard]] std::vector<PerftEntry> perft_divide(const Position& pos, int depth);

}  // namespace egtb
