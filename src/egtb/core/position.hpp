// Position: the placement of the men, the side to move, the en passant square, the castling
// rights and the two FEN counters.
//
// The e.p. square is the square a pawn skipped with a double step, as FEN writes it. Moves made
// with do_move() record it only when the side to move then has a legal e.p. capture, so that
// two positions reached by play compare equal exactly when they have the same moves available;
// a FEN may still carry an e.p. square without a capture (it round-trips), and has_ep_capture()
// tells the two apart.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "egtb/core/attacks.hpp"
#include "egtb/core/bitboard.hpp"
#include "egtb/core/move.hpp"
#include "egtb/core/types.hpp"

namespace egtb {

// Castling rights as four bits: K = 1 (White short), Q = 2, k = 4, q = 8.
enum class CastlingRight : uint8_t { WhiteShort = 1, WhiteLong = 2, BlackShort = 4, BlackLong = 8 };
using CastlingRights = uint8_t;

class Position {
public:
  Position() = default;

  [[nodiscard]] Piece piece_on(Square s) const { return board_[static_cast<size_t>(to_index(s))]; }
  [[nodiscard]] bool empty(Square s) const { return piece_on(s) == Piece::None; }
  [[nodiscard]] Bitboard pieces() const { return by_color_[0] | by_color_[1]; }
  [[nodiscard]] Bitboard pieces(Color c) const { return by_color_[static_cast<size_t>(to_index(c))]; }
  [[nodiscard]] Bitboard pieces(PieceType pt) const { return by_type_[static_cast<size_t>(to_index(pt))]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType pt) const { return pieces(c) & pieces(pt); }
  [[nodiscard]] int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }
  // The king's square, or Square::None when that colour has no king or several (boards no game
  // reaches, see FenCheck::Board: such a side is never in check).
  [[nodiscard]] Square king_square(Color c) const {
    const Bitboard k = pieces(c, PieceType::King);
    return k && !more_than_one(k) ? lsb(k) : Square::None;
  }

  [[nodiscard]] Color side_to_move() const { return side_to_move_; }
  [[nodiscard]] Square ep_square() const { return ep_square_; }
  [[nodiscard]] CastlingRights castling_rights() const { return castling_; }
  [[nodiscard]] bool can_castle(CastlingRight r) const { return (castling_ & static_cast<uint8_t>(r)) != 0; }
  [[nodiscard]] int halfmove_clock() const { return halfmove_clock_; }
  [[nodiscard]] int fullmove_number() const { return fullmove_number_; }

  // Men of colour `by` that attack s, with `occupied` as the blockers.
  [[nodiscard]] Bitboard attackers_to(Square s, Color by, Bitboard occupied) const;
  [[nodiscard]] Bitboard attackers_to(Square s, Color by) const { return attackers_to(s, by, pieces()); }
  // Men of the opponent that give check to the side to move (none when it has no king or several).
  [[nodiscard]] Bitboard checkers() const;
  [[nodiscard]] bool in_check() const { return checkers() != 0; }
  // True when the king of colour c stands attacked (for the side not to move: an illegal position);
  // false when that colour has no king or several.
  [[nodiscard]] bool king_attacked(Color c) const;
  // True when the side to move has at least one legal en passant capture.
  [[nodiscard]] bool has_ep_capture() const;

  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void set_side_to_move(Color c) { side_to_move_ = c; }
  void set_ep_square(Square s) { ep_square_ = s; }
  void set_castling_rights(CastlingRights r) { castling_ = r; }
  void set_counters(int halfmove, int fullmove) {
    halfmove_clock_ = halfmove;
    fullmove_number_ = fullmove;
  }

  // Plays a legal move, or a pass for the null move Move() (the other side to move, no e.p. right:
  // how a stalemated side moves under the stalemate-passes rules). The caller guarantees legality
  // (see movegen.hpp).
  void do_move(Move m);
  // The pass: the same placement with the other side to move, no e.p. right.
  void pass();
  // The position after a legal move.
  [[nodiscard]] Position after(Move m) const {
    Position p = *this;
    p.do_move(m);
    return p;
  }
  // Sets the e.p. square after a double step only when a legal e.p. capture follows.
  void normalize_ep_square();

  // Same men, side to move, castling rights and e.p. capture possibilities; counters ignored,
  // and an e.p. square with no legal capture counts as none.
  [[nodiscard]] bool same_position(const Position& other) const;

private:
  std::array<Piece, SquareCount> board_{};
  std::array<Bitboard, 2> by_color_{};
  std::array<Bitboard, PieceTypeCount> by_type_{};
  Color side_to_move_ = Color::White;
  Square ep_square_ = Square::None;
  CastlingRights castling_ = 0;
  int halfmove_clock_ = 0;
  int fullmove_number_ = 1;

  void move_piece(Square from, Square to);
  void update_castling_rights(Square from, Square to);
};

// The same position seen from the other side: colours swapped, board flipped vertically (a white
// king on e1 becomes a black king on e8), side to move swapped, e.p. square and castling rights
// mirrored. Its value for the side to move equals the original's.
[[nodiscard]] Position color_flipped(const Position& pos);

// Why a position cannot arise in a game (as FEN validation reports it), or nothing when legal.
// Checks: one king per side, at most 8 pawns per side and 16 men, no pawn on rank 1 or 8, side not
// to move not in check, at most two men checking the side to move, castling rights with king and
// rook at home, a consistent e.p. square.
std::optional<std::string> validate(const Position& pos);
// validate() without the rule against three or more checks: the positions the tables hold
// (docs/design.md §3 counts every placement whose side not to move is not in check, so KQQQk keeps
// its positions where three queens check the black king; only king moves answer them).
std::optional<std::string> validate_table_position(const Position& pos);

}  // namespace egtb
