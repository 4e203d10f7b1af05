// Legal move generation for full chess (castling, en passant, promotions), mate and stalemate
// detection, and perft.
#pragma once

#include <cstdint>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb {

// Appends every legal move of the side to move. Precondition: validate(pos) found nothing.
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
