// The layout positions (indexing/word_layout.hpp) of the solver's e.p. nodes (solver.cpp,
// EpNode): a position with an e.p. right is solved apart from the layout, and reaches the layout
// through two positions, its base (the same men without the right, whose moves it shares) and the
// position before the double step (its only predecessor). Both are 64-bit: in a 6-man table with
// pawns of both colours they pass 2^32 from king pair 455 on (KRPkrp: a king pair is 64 * 48 * 48
// words of 64 positions, and 2^32 / (147,456 * 64) = 455.1).
//
// The layout numbers every order of identical men (white pawns on b2 and c2 are two positions:
// the first pawn on b2, or the first on c2), and the solver's targets must hold all of them:
// ep_positions gives the one with identical men in ascending square order, for_each_labelling
// every one.
//
// Worked example, KPkp (men K k P p, the black pawn the innermost, 48 words per king pair),
// "8/8/8/3pP3/8/8/8/K6k w - d6": Ka1 kh1 is pair 5, the white pawn's digit is e5 - 8 = 28, so
// the base "8/8/8/3pP3/8/8/8/K6k w - -" is word 5 * 48 + 28 = 268, bit d5 = 35: position
// 268 * 64 + 35 = 17,187; the position before the step, "8/3p4/8/4P3/8/8/8/K6k b - -", has the
// black pawn on d7 = 51: position 268 * 64 + 51 = 17,203.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "egtb/core/position.hpp"
#include "indexing/word_layout.hpp"

namespace egtb::retro {

// The men of a position of the material of `men_order` (a WordLayout or the IndexScheme it lays
// out: both name the same men in the same order), identical men in ascending square order.
template <class MenOrder>
[[nodiscard]] indexing::IndexScheme::Men men_of(const MenOrder& men_order, const Position& pos) {
  indexing::IndexScheme::Men men;
  std::array<Bitboard, PieceIndexCount> left{};
  for (int j = 0; j < men_order.man_count(); ++j) {
    const Piece p = men_order.man_piece(j);
    Bitboard& b = left[static_cast<size_t>(to_index(p))];
    if (!b) b = pos.pieces(color_of(p), type_of(p));
    men.squares[static_cast<size_t>(j)] = pop_lsb(b);
  }
  return men;
}

struct EpPositions {
  uint64_t base = 0;    // the same men without the e.p. right, the same side to move
  uint64_t before = 0;  // the position before the double step, the other side to move
  // The position before lies in the layout's slice: not when a digit pawn of a placement slice
  // stepped (its step leads here from a slice solved later, as an exit).
  bool before_inside = true;
};

// The positions of `pos`, which has an e.p. right, a legal e.p. capture and the kings on a
// canonical pair of the layout (as the storage index's e.p. entries hold them).
[[nodiscard]] EpPositions ep_positions(const indexing::WordLayout& layout, const Position& pos);

// Calls f(men) for every order of the identical men of `men` from man `from` on (the men of one
// piece are consecutive in the layout).
template <class F>
void for_each_labelling(const indexing::WordLayout& layout, indexing::WordLayout::Men men, int from, F&& f) {
  if (from >= layout.man_count()) {
    f(men);
    return;
  }
  int end = from + 1;
  while (end < layout.man_count() && layout.man_piece(end) == layout.man_piece(from)) ++end;
  auto* first = men.squares.data() + from;
  std::sort(first, men.squares.data() + end);
  do {
    for_each_labelling(layout, men, end, f);
  } while (std::next_permutation(first, men.squares.data() + end));
}

// Calls f(q) for layout position p and every other position q of the same men in another order
// of identical men, each once. Example, KPPkp: p with the white pawns on b2 and c2 gives p and the
// position with the two pawns swapped.
template <class F>
void for_each_labelling(const indexing::WordLayout& layout, uint64_t p, F&& f) {
  indexing::WordLayout::Men men;
  layout.decode(p / 64, men);
  men.squares[static_cast<size_t>(layout.inner())] = square_at(static_cast<int>(p % 64));
  for_each_labelling(layout, men, 2, [&](const indexing::WordLayout::Men& m) { f(layout.position_of(m)); });
}

}  // namespace egtb::retro
