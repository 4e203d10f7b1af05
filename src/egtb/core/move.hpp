// Moves packed into 16 bits.
//
//   bits 0-5   origin square (a1 = 0 ... h8 = 63)
//   bits 6-11  destination square
//   bits 12-13 promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen (only with the promotion flag)
//   bits 14-15 kind: 0 normal, 1 promotion, 2 en passant, 3 castling
//
// Example: e7xd8=Q is origin e7 (52), destination d8 (59), queen (3), promotion (1):
// 52 | 59 << 6 | 3 << 12 | 1 << 14 = 0x7ef4. Castling is stored as the king's move (e1g1).
// The value 0 (a1a1) is the null move, never a legal move.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "egtb/core/types.hpp"

namespace egtb {

enum class MoveKind : uint8_t { Normal, Promotion, EnPassant, Castling };

class Move {
public:
  constexpr Move() = default;
  constexpr Move(Square from, Square to, MoveKind kind = MoveKind::Normal,
                 PieceType promotion = PieceType::Knight)
      : data_(static_cast<uint16_t>(to_index(from) | (to_index(to) << 6) |
                                    ((to_index(promotion) - to_index(PieceType::Knight)) << 12) |
                                    (static_cast<int>(kind) << 14))) {}

  [[nodiscard]] constexpr Square from() const { return square_at(data_ & 63); }
  [[nodiscard]] constexpr Square to() const { return square_at((data_ >> 6) & 63); }
  [[nodiscard]] constexpr MoveKind kind() const { return static_cast<MoveKind>(data_ >> 14); }
  // The piece promoted to; meaningful only when kind() is Promotion.
  [[nodiscard]] constexpr PieceType promotion() const {
    return static_cast<PieceType>(((data_ >> 12) & 3) + to_index(PieceType::Knight));
  }
  [[nodiscard]] constexpr bool is_null() const { return data_ == 0; }
  [[nodiscard]] constexpr uint16_t raw() const { return data_; }
  constexpr bool operator==(const Move&) const = default;

private:
  uint16_t data_ = 0;
};

// The rook's move of a castling king's move m, its from and to squares: e1g1 moves the rook from h1
// to f1, e8c8 from a8 to d8.
constexpr std::pair<Square, Square> castling_rook(Move m) {
  const bool short_side = file_of(m.to()) > file_of(m.from());
  const int rank = rank_of(m.from());
  return {make_square(short_side ? 7 : 0, rank), make_square(short_side ? 5 : 3, rank)};
}

// A fixed-capacity list of moves; no legal chess position has more than 218.
class MoveList {
public:
  static constexpr size_t Capacity = 256;

  void push_back(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const Move* begin() const { return moves_.data(); }
  [[nodiscard]] const Move* end() const { return moves_.data() + size_; }
  [[nodiscard]] Move operator[](size_t i) const { return moves_[i]; }
  [[nodiscard]] bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }

private:
  std::array<Move, Capacity> moves_{};
  size_t size_ = 0;
};

}  // namespace egtb
