// The placements of the two kings, the outermost digit of every index.
//
// Without pawns the board has eight symmetries, and every legal pair of kings has an image with
// the white king in the triangle a1-d1-d4 (a1 b1 c1 d1 b2 c2 d2 c3 d3 d4) and, when the white king
// stands on the a1-h8 diagonal, the black king on or below that diagonal (rank <= file). There are
// 462 such pairs. With pawns only the left-right mirror remains: the white king on files a-d, the
// black king anywhere, 1806 pairs. Pairs whose kings share a square or touch are left out.
//
// Each map lists its canonical pairs in ascending (white king, black king) square order: pawnless
// pair 0 is Ka1 kc1 (a1 = 0, c1 = 2; b1 and b2 touch a1), pair 1 is Ka1 kd1. For every physical pair
// it also holds the symmetry that maps it to a canonical pair — the first one in the order of
// AllSymmetries, so a canonical pair keeps its orientation — and that pair's number.
// Example: for Kh8 kh1, Rotate180 gives Ka1 ka8 with the black king above the diagonal, so the
// symmetry is the next that works, FlipAntiDiag, which gives Ka1 kh1.
#pragma once

#include <array>
#include <cstdint>

#include "egtb/core/symmetry.hpp"
#include "egtb/core/types.hpp"

namespace egtb::indexing {

struct KkMap {
  static constexpr uint16_t None = 0xFFFF;
  static constexpr int Capacity = 1806;

  int size = 0;
  bool pawns = false;
  std::array<std::array<Square, 2>, Capacity> kings{};         // pair number -> {white king, black king}
  std::array<uint16_t, SquareCount * SquareCount> pair{};      // [wk * 64 + bk] -> pair number of the image
  std::array<Symmetry, SquareCount * SquareCount> symmetry{};  // [wk * 64 + bk] -> symmetry to the image

  [[nodiscard]] static constexpr size_t at(Square wk, Square bk) {
    return static_cast<size_t>(to_index(wk) * SquareCount + to_index(bk));
  }
};

constexpr bool on_diagonal(Square s) { return file_of(s) == rank_of(s); }

// True when (wk, bk) is one of the map's canonical pairs.
constexpr bool is_canonical_kings(bool pawns, Square wk, Square bk) {
  if (wk == bk || square_distance(wk, bk) <= 1 || file_of(wk) > 3) return false;
  if (pawns) return true;
  if (rank_of(wk) > file_of(wk)) return false;
  return !on_diagonal(wk) || rank_of(bk) <= file_of(bk);
}

constexpr KkMap make_kk_map(bool pawns) {
  KkMap m;
  m.pawns = pawns;
  m.pair.fill(KkMap::None);
  for (int w = 0; w < SquareCount; ++w)
    for (int b = 0; b < SquareCount; ++b) {
      if (!is_canonical_kings(pawns, square_at(w), square_at(b))) continue;
      m.kings[static_cast<size_t>(m.size)] = {square_at(w), square_at(b)};
      m.pair[KkMap::at(square_at(w), square_at(b))] = static_cast<uint16_t>(m.size++);
    }
  for (int w = 0; w < SquareCount; ++w)
    for (int b = 0; b < SquareCount; ++b) {
      const Square wk = square_at(w), bk = square_at(b);
      if (wk == bk || square_distance(wk, bk) <= 1) continue;
      for (Symmetry s : AllSymmetries) {
        if (pawns && s != Symmetry::Identity && s != Symmetry::FlipFiles) continue;
        if (!is_canonical_kings(pawns, apply(s, wk), apply(s, bk))) continue;
        m.symmetry[KkMap::at(wk, bk)] = s;
        m.pair[KkMap::at(wk, bk)] = m.pair[KkMap::at(apply(s, wk), apply(s, bk))];
        break;
      }
    }
  return m;
}

inline constexpr KkMap PawnlessKings = make_kk_map(false);
inline constexpr KkMap PawnKings = make_kk_map(true);
static_assert(PawnlessKings.size == 462);
static_assert(PawnKings.size == 1806);

}  // namespace egtb::indexing
