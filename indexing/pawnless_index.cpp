// Pawnless tables: the eight board symmetries.
//
// index_of() maps a position by the symmetry its kings choose (kk_map.hpp): the first symmetry, in
// the order of AllSymmetries, that brings the white king into the triangle a1-d1-d4 and, when the
// white king lands on the a1-h8 diagonal, the black king on or below it. The other men are not
// looked at ("no further reduction", as in the article's Nalimov-style index).
//
// Worked example, KQk: Kg6 Qf7 kh8, Black to move (a stalemate). The first seven symmetries leave
// the white king outside the triangle; FlipAntiDiag, (file, rank) -> (7 - rank, 7 - file), maps
// g6 -> c2, h8 -> a1, f7 -> b3. Kc2 ka1 is king pair 237; the queen on b3 (square 17) is free
// square 17 - 2 = 15 (a1 and c2 lie below it), so the index is 237 * 62 + 15 = 14,709, and
// position_at(14709, Black) is Kc2 Qb3 ka1.
//
// Symmetric duplicates. When both kings stand on the a1-h8 diagonal (Kb2 kd4, say) the diagonal
// mirror keeps the kings in place, so a position E and its mirror image D(E) both have valid
// entries. index_of() keeps the orientation the kings' symmetry gives (a position with canonical
// kings keeps its own entry); position_at(index_of(P)) is always a symmetric image of P. When D(E)
// equals E (every other man on the diagonal, or identical men swapped, e.g. rooks on b1 and a2)
// the two are one entry.
//
// Weights of a valid entry E:
//   index462  1 (when D(E) differs from E the article's index counts both);
//   physical  8 = the 8 images of E, or 4 when both kings are on the diagonal: then E and D(E) share
//             the 8 images (4 each), or E = D(E) has only 4 distinct images;
//   classes   1, but when both kings are on the diagonal and D(E) != E, only the smaller of the two
//             indices counts (1 for it, 0 for the other).
// Check, KQk White to move: 18,492 valid entries (index462), 857 of them with both kings on the
// diagonal, so physical = 8 * 17,635 + 4 * 857 = 144,508; the 857 are 35 symmetric entries and 411
// pairs E, D(E), so classes = 18,492 - 411 = 18,081: the published figures.
#include "indexing/index.hpp"

namespace egtb::indexing {

EntryWeights IndexScheme::pawnless_weights(Index i, const Position& pos) const {
  if (!on_diagonal(pos.king_square(Color::White)) || !on_diagonal(pos.king_square(Color::Black)))
    return PawnlessWeights;
  const Index mirror = encode(pos, Symmetry::FlipDiag);
  return {PawnlessWeights.index462, PawnlessWeights.physical / 2, mirror >= i ? 1u : 0u};
}

}  // namespace egtb::indexing
