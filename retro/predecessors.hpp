// The predecessors of an entry inside its own table: what the solver visits for every position
// it resolves.
//
// A position resolved at ply k updates every entry one quiet move before it (the reverse of a
// capture or a promotion leads into another table, never into this one). Predecessors::collect
// lists them as (entry, weight) pairs, where the weight counts how many moves of the
// predecessor's entry the un-move stands for (1, or 0 and 2 around positions that are their own
// mirror image; see move_weight in predecessors.cpp).
//
// Two ways lead to the same list:
//   general  builds every predecessor as a Position (generate_unmoves) and looks its entry up
//            with IndexScheme::index_of(Position); it handles everything, e.p. rights included;
//   fast     moves bare squares (IndexScheme::Men) and tests legality with bitboards: no position
//            is built, and a piece's un-move costs a few table lookups.
// The fast way serves every entry except, in tables with pawns of both colours, those with an
// e.p. right or with a white and a black pawn side by side on rank 4 or 5, now or after a pawn's
// step back (only there can a double step have given an e.p. capture). In pawnless tables whose
// kings share a long diagonal, where a position may be its own mirror image, it looks each
// predecessor's entry up whole and weighs it as the general way does.
// Example, KRkr, Black to move in Kb1 Rd4 kh8 rc7: White's last move was a king move from a1,
// c1, a2, b2 or c2, or a rook move from one of the 14 squares the rook on d4 sees, except h4 and
// d8, from where it would give check with White to move: 17 predecessors of weight 1. The tests
// (tests/retro/test_predecessors.cpp) check that both ways
// agree on every entry of several tables.
#pragma once

#include <vector>

#include "egtb/core/position.hpp"
#include "egtb/core/unmovegen.hpp"
#include "indexing/index.hpp"

namespace egtb::retro {

struct Predecessor {
  indexing::Index entry = 0;
  int weight = 1;
  bool operator==(const Predecessor&) const = default;
  auto operator<=>(const Predecessor&) const = default;
};

// The scratch space of one thread.
struct PredecessorWorkspace {
  indexing::IndexScheme::Men men;
  Position pos;
  std::vector<Unmove> unmoves;
  std::vector<Predecessor> found;
};

class Predecessors {
public:
  explicit Predecessors(const indexing::IndexScheme& scheme);

  // Fills ws.found with the predecessors of valid entry i with `stm` to move (weights of 0 are
  // left out). ws.pos is unspecified afterwards.
  void collect(indexing::Index i, Color stm, PredecessorWorkspace& ws) const;
  // The two ways, for the tests. fast_path tells whether the men of a normal-section entry (as
  // men_at gave them) may take the fast way; collect_fast requires it, after men_at(i, ws.men).
  [[nodiscard]] bool fast_path(const indexing::IndexScheme::Men& men) const;
  void collect_fast(indexing::Index i, Color stm, PredecessorWorkspace& ws) const;
  void collect_general(indexing::Index i, Color stm, PredecessorWorkspace& ws) const;

private:
  const indexing::IndexScheme& scheme_;
  // True when the men of a pawnless table are their own mirror image.
  [[nodiscard]] bool self_symmetric(const indexing::IndexScheme::Men& men) const;
  // True when the reflection g maps every man onto a man of the same piece.
  [[nodiscard]] bool fixed_by(Symmetry g, const indexing::IndexScheme::Men& men) const;
  // Adds the predecessor whose man j (not a king) stood on `from`; `twins` when the child's kings
  // share a long diagonal (then its entry is looked up whole and weighed).
  void add_moved(indexing::Index i, int j, Square from, bool twins, bool child_symmetric,
                 PredecessorWorkspace& ws) const;
  bool pawnless_;
  bool ep_section_;
};

}  // namespace egtb::retro
