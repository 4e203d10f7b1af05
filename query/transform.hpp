// The geometric and colour transforms of CQL (flipcolor, flip, shift, rotate90, ...), applied to
// the constants of a filter when it is compiled: a transformed filter is the same filter with its
// square designators moved, its colours swapped (flipcolor) and its directions turned.
//
// A Step is a board symmetry (symmetry.hpp), optionally with the colours swapped, followed by a
// shift; squares shifted off the board are dropped. A SquareTransform applies its steps innermost
// first. Example: flipcolor is {identity, colours swapped + ranks mirrored}, so under its second
// step "Ka1" becomes "ka8", "wtm" becomes "btm" and "light" stays "light" only if the mirror
// keeps square colours (it does not: a1 is dark, a8 light).
//
// rotate45's steps turn directions only, by 45 degrees anticlockwise per eighth: under its second
// step (one eighth) "right 1 Q" becomes "northeast 1 Q" and "orthogonal" becomes "diagonal". No
// square has an image under them, so a filter that names particular squares or their colours
// ("Qd4", "light") is refused under rotate45 (turns_45), as CQL 6.2 refuses it.
#pragma once

#include <string>
#include <vector>

#include "egtb/core/symmetry.hpp"
#include "query/ast.hpp"
#include "query/chess_sets.hpp"

namespace egtb::query {

struct TransformStep {
  Symmetry symmetry = Symmetry::Identity;
  bool colors = false;
  int dx = 0;
  int dy = 0;
  int eighths = 0;  // rotate45: directions turned by 45 degrees anticlockwise this many times
};

class SquareTransform {
public:
  SquareTransform() = default;

  // This transform applied after `step`.
  [[nodiscard]] SquareTransform after(const TransformStep& step) const;

  // The image of a set; the set of all squares is its own image (".", "A" with no squares).
  [[nodiscard]] Bitboard squares(Bitboard b) const;
  [[nodiscard]] PieceMask pieces(PieceMask m) const;
  [[nodiscard]] DirectionSet directions(DirectionSet d) const;
  [[nodiscard]] bool swaps_colors() const;
  [[nodiscard]] bool swaps_square_colors() const;  // light <-> dark
  // Whether a step turns by 45 degrees (some eighths): squares and their colours have no image.
  [[nodiscard]] bool turns_45() const;
  // CQL's text of the transform (currenttransform): its steps from the outermost in, each in
  // CQL's words, the identities left out, in '<' '>'. Example: "flipcolor flip" at the steps
  // {FlipDiag} (inner) and {FlipRanks, colours} (outer) is "<invertcolor reflect_h reflect_a1h8>";
  // no transform, or identities only, "<>".
  [[nodiscard]] std::string cql_text() const;

private:
  std::vector<TransformStep> steps_;  // innermost first
};

// The steps of a transform, the identity first (except for reversecolor).
[[nodiscard]] std::vector<TransformStep> transform_family(Transform transform);

}  // namespace egtb::query
