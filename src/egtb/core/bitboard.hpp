// Bitboards: one bit per square, bit i set when square i (a1 = 0 ... h8 = 63) is in the set.
// Example: the set {a1, e4} is (1 << 0) | (1 << 28) = 0x0000'0000'1000'0001.
#pragma once

#include <bit>
#include <cstdint>

#include "egtb/core/types.hpp"

namespace egtb {

using Bitboard = uint64_t;

constexpr Bitboard FileABB = 0x0101010101010101ULL;
constexpr Bitboard FileHBB = FileABB << 7;
constexpr Bitboard Rank1BB = 0xFFULL;
constexpr Bitboard Rank8BB = Rank1BB << 56;

constexpr Bitboard square_bb(Square s) { return Bitboard{1} << to_index(s); }
constexpr Bitboard file_bb(int file) { return FileABB << file; }
constexpr Bitboard rank_bb(int rank) { return Rank1BB << (8 * rank); }
constexpr bool contains(Bitboard b, Square s) { return (b & square_bb(s)) != 0; }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// The lowest square in a non-empty set.
constexpr Square lsb(Bitboard b) { return square_at(std::countr_zero(b)); }

// Removes and returns the lowest square of a non-empty set.
constexpr Square pop_lsb(Bitboard& b) {
  const Square s = lsb(b);
  b &= b - 1;
  return s;
}

// Shifts every square one step in a direction, dropping what leaves the board.
enum class Direction : int8_t {
  North = 8,
  South = -8,
  East = 1,
  West = -1,
  NorthEast = 9,
  NorthWest = 7,
  SouthEast = -7,
  SouthWest = -9
};

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == Direction::North) return b << 8;
  if constexpr (D == Direction::South) return b >> 8;
  if constexpr (D == Direction::East) return (b & ~FileHBB) << 1;
  if constexpr (D == Direction::West) return (b & ~FileABB) >> 1;
  if constexpr (D == Direction::NorthEast) return (b & ~FileHBB) << 9;
  if constexpr (D == Direction::NorthWest) return (b & ~FileABB) << 7;
  if constexpr (D == Direction::SouthEast) return (b & ~FileHBB) >> 7;
  if constexpr (D == Direction::SouthWest) return (b & ~FileABB) >> 9;
}

// Board mirrors of a whole set: ranks reversed, files reversed, a1-h8 diagonal transposed.
constexpr Bitboard flip_ranks(Bitboard b) { return __builtin_bswap64(b); }
constexpr Bitboard flip_files(Bitboard b) {
  constexpr Bitboard k1 = 0x5555555555555555ULL;
  constexpr Bitboard k2 = 0x3333333333333333ULL;
  constexpr Bitboard k4 = 0x0f0f0f0f0f0f0f0fULL;
  b = ((b >> 1) & k1) | ((b & k1) << 1);
  b = ((b >> 2) & k2) | ((b & k2) << 2);
  b = ((b >> 4) & k4) | ((b & k4) << 4);
  return b;
}
constexpr Bitboard flip_diag(Bitboard b) {
  Bitboard out = 0;
  while (b) out |= square_bb(flip_diag(pop_lsb(b)));
  return out;
}

}  // namespace egtb
