// Chess vocabulary: colours, piece types, pieces, squares, files and ranks.
//
// Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63, so that
// file = sq % 8 and rank = sq / 8. Example: e4 is file 4, rank 3, square 3 * 8 + 4 = 28.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace egtb {

enum class Color : uint8_t { White, Black };

constexpr Color operator~(Color c) { return c == Color::White ? Color::Black : Color::White; }
constexpr int to_index(Color c) { return static_cast<int>(c); }
constexpr char color_char(Color c) { return c == Color::White ? 'w' : 'b'; }

enum class PieceType : uint8_t { None, Pawn, Knight, Bishop, Rook, Queen, King };

constexpr int to_index(PieceType pt) { return static_cast<int>(pt); }
constexpr int PieceTypeCount = 7;
// Bishops, rooks and queens, whose moves other men can block.
constexpr bool is_slider(PieceType pt) {
  return pt == PieceType::Bishop || pt == PieceType::Rook || pt == PieceType::Queen;
}

// A piece packs colour and type into one byte: (colour << 3) | type; 0 is "no piece".
// Example: the black rook is (1 << 3) | 4 = 12.
enum class Piece : uint8_t { None = 0 };

constexpr Piece make_piece(Color c, PieceType pt) {
  return static_cast<Piece>((to_index(c) << 3) | to_index(pt));
}
constexpr PieceType type_of(Piece p) { return static_cast<PieceType>(static_cast<int>(p) & 7); }
constexpr Color color_of(Piece p) { return static_cast<Color>(static_cast<int>(p) >> 3); }
constexpr int to_index(Piece p) { return static_cast<int>(p); }
constexpr int PieceIndexCount = 16;

// Upper case for White, lower case for Black: "PNBRQK" / "pnbrqk".
char piece_char(Piece p);
std::optional<Piece> piece_from_char(char c);
char piece_type_char(PieceType pt);                     // upper case: 'P', 'N', ...
std::optional<PieceType> piece_type_from_char(char c);  // either case

enum class Square : uint8_t {
  // clang-format off
  A1, B1, C1, D1, E1, F1, G1, H1,
  A2, B2, C2, D2, E2, F2, G2, H2,
  A3, B3, C3, D3, E3, F3, G3, H3,
  A4, B4, C4, D4, E4, F4, G4, H4,
  A5, B5, C5, D5, E5, F5, G5, H5,
  A6, B6, C6, D6, E6, F6, G6, H6,
  A7, B7, C7, D7, E7, F7, G7, H7,
  A8, B8, C8, D8, E8, F8, G8, H8,
  None
  // clang-format on
};

constexpr int SquareCount = 64;

constexpr int to_index(Square s) { return static_cast<int>(s); }
constexpr Square square_at(int index) {
  assert(index >= 0 && index < SquareCount);
  return static_cast<Square>(index);
}
constexpr int file_of(Square s) { return to_index(s) & 7; }
constexpr int rank_of(Square s) { return to_index(s) >> 3; }
constexpr Square make_square(int file, int rank) { return square_at(rank * 8 + file); }
constexpr bool is_ok(Square s) { return to_index(s) < SquareCount; }
// The square delta squares further in index order, which must be on the board: offset(e2, 8) = e3.
constexpr Square offset(Square s, int delta) { return square_at(to_index(s) + delta); }

// Mirror images of a square: a1 <-> a8 (ranks), a1 <-> h1 (files), b1 <-> a2 (a1-h8 diagonal).
constexpr Square flip_rank(Square s) { return square_at(to_index(s) ^ 56); }
constexpr Square flip_file(Square s) { return square_at(to_index(s) ^ 7); }
constexpr Square flip_diag(Square s) { return make_square(rank_of(s), file_of(s)); }

// The rank as seen from colour c: rank 0 is White's first rank, Black's eighth.
constexpr int relative_rank(Color c, Square s) { return c == Color::White ? rank_of(s) : 7 - rank_of(s); }
// One step forward for a pawn of colour c: +8 for White, -8 for Black.
constexpr int pawn_push(Color c) { return c == Color::White ? 8 : -8; }

constexpr int square_distance(Square a, Square b) {
  const int df = file_of(a) > file_of(b) ? file_of(a) - file_of(b) : file_of(b) - file_of(a);
  const int dr = rank_of(a) > rank_of(b) ? rank_of(a) - rank_of(b) : rank_of(b) - rank_of(a);
  return df > dr ? df : dr;
}

// "e4" and back; std::nullopt for anything that is not a square name.
std::string square_name(Square s);
std::optional<Square> parse_square(std::string_view text);

}  // namespace egtb
