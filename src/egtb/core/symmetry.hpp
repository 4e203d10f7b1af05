// The eight symmetries of the board, applied to squares, bitboards and positions.
//
// A Symmetry is three bits applied in this order: bit 2 transposes the board (the a1-h8 diagonal
// mirror, b1 <-> a2), then bit 0 mirrors the files (a <-> h), then bit 1 mirrors the ranks
// (1 <-> 8). Example: RotateLeft = 5 = transpose then mirror the files: a1 -> a1 -> h1, and
// c2 (file 2, rank 1) -> b3 -> g3, a quarter turn counter-clockwise as seen on a diagram.
// Positions with pawns only have Identity and FlipFiles (pawns move up the board). The colour flip
// is color_flipped() in position.hpp.
#pragma once

#include <array>
#include <cstdint>

#include "egtb/core/bitboard.hpp"
#include "egtb/core/position.hpp"
#include "egtb/core/types.hpp"

namespace egtb {

enum class Symmetry : uint8_t {
  Identity = 0,
  FlipFiles = 1,
  FlipRanks = 2,
  Rotate180 = 3,
  FlipDiag = 4,
  RotateLeft = 5,
  RotateRight = 6,
  FlipAntiDiag = 7
};

constexpr int SymmetryCount = 8;
constexpr std::array<Symmetry, SymmetryCount> AllSymmetries = {
    Symmetry::Identity, Symmetry::FlipFiles,  Symmetry::FlipRanks,   Symmetry::Rotate180,
    Symmetry::FlipDiag, Symmetry::RotateLeft, Symmetry::RotateRight, Symmetry::FlipAntiDiag};

constexpr int to_index(Symmetry s) { return static_cast<int>(s); }

namespace detail {

// The image of square index i under the symmetry with bits `bits`, by the rule above.
constexpr int square_image(int bits, int i) {
  if (bits & 4) i = ((i & 7) << 3) | (i >> 3);
  if (bits & 1) i ^= 7;
  if (bits & 2) i ^= 56;
  return i;
}

// SquareImages[s][sq]: the image of every square under every symmetry, so that the index's inner
// loops map a square with one load instead of three data-dependent branches.
inline constexpr auto SquareImages = [] {
  std::array<std::array<Square, SquareCount>, SymmetryCount> images{};
  for (int s = 0; s < SymmetryCount; ++s)
    for (int i = 0; i < SquareCount; ++i)
      images[static_cast<size_t>(s)][static_cast<size_t>(i)] = square_at(square_image(s, i));
  return images;
}();

}  // namespace detail

constexpr Square apply(Symmetry s, Square sq) {
  return detail::SquareImages[static_cast<size_t>(to_index(s))][static_cast<size_t>(to_index(sq))];
}

// The a1-h8 transposition of a whole set by three delta swaps.
constexpr Bitboard transpose(Bitboard b) {
  constexpr Bitboard k1 = 0x5500550055005500ULL;
  constexpr Bitboard k2 = 0x3333000033330000ULL;
  constexpr Bitboard k4 = 0x0f0f0f0f00000000ULL;
  Bitboard t = k4 & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = k2 & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = k1 & (b ^ (b << 7));
  b ^= t ^ (t >> 7);
  return b;
}

constexpr Bitboard apply(Symmetry s, Bitboard b) {
  const int bits = to_index(s);
  if (bits & 4) b = transpose(b);
  if (bits & 1) b = flip_files(b);
  if (bits & 2) b = flip_ranks(b);
  return b;
}

namespace detail {

// Compositions[a][b]: the symmetry "first b, then a", found by comparing images of all squares.
inline constexpr auto Compositions = [] {
  std::array<std::array<Symmetry, SymmetryCount>, SymmetryCount> table{};
  for (Symmetry a : AllSymmetries)
    for (Symmetry b : AllSymmetries)
      for (Symmetry c : AllSymmetries) {
        bool same = true;
        for (int i = 0; i < SquareCount && same; ++i)
          same = apply(c, square_at(i)) == apply(a, apply(b, square_at(i)));
        if (same) table[static_cast<size_t>(to_index(a))][static_cast<size_t>(to_index(b))] = c;
      }
  return table;
}();

}  // namespace detail

// The symmetry "first b, then a".
constexpr Symmetry compose(Symmetry a, Symmetry b) {
  return detail::Compositions[static_cast<size_t>(to_index(a))][static_cast<size_t>(to_index(b))];
}

constexpr Symmetry inverse(Symmetry s) {
  for (Symmetry c : AllSymmetries)
    if (compose(c, s) == Symmetry::Identity) return c;
  return Symmetry::Identity;
}

// The image of a position: every man and the e.p. square moved, side to move and counters kept.
// Castling rights survive only the identity (a mirrored castling right means nothing).
inline Position apply(Symmetry s, const Position& pos) {
  Position out;
  Bitboard men = pos.pieces();
  while (men) {
    const Square sq = pop_lsb(men);
    out.put_piece(pos.piece_on(sq), apply(s, sq));
  }
  out.set_side_to_move(pos.side_to_move());
  if (pos.ep_square() != Square::None) out.set_ep_square(apply(s, pos.ep_square()));
  out.set_castling_rights(s == Symmetry::Identity ? pos.castling_rights() : 0);
  out.set_counters(pos.halfmove_clock(), pos.fullmove_number());
  return out;
}

}  // namespace egtb
