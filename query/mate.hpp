// CQL 6.2's pure, model and ideal mates and stalemates, with their participant sets.
//
// Each set is empty when the position is not such a (stale)mate, else the squares of its
// participants. The rules (for a checkmated or stalemated side to move, "they" being the other
// side; "guard" of a square in the king's field = attack, or attack through the king):
//
// Pure mate: every empty square or square of theirs in the king's field is guarded exactly once;
// a man of ours there is unguarded, or (single check only) guarded once, pinned, and able to
// move pseudo-legally to a checker or between checker and king (or capture e.p.); a double check
// is pure only when each checker is necessary: some unpinned man of ours (not the king) attacks
// the other checker or a square between it and the king.
// Participants of a pure mate: their men that check, attack the king's field, are pinned, or
// (single check) pin a possible refuter or stand between a possible refuter (a man of ours
// that reaches a refutation square pseudo-legally: their king, a checker or a square between
// checker and king) and a refutation square; our king, our men in the king's field, our men
// that block one of our sliders from their king, and (single check) our men that block one of
// our sliders from a refutation square.
// Model mate: a pure mate in which every knight, bishop, rook and queen of theirs participates;
// ideal mate: every man of both sides participates.
//
// Pure stalemate: every empty square or square of theirs in the king's field is attacked exactly
// once, an unpinned man of ours there is not attacked, a pinned man of ours there is attacked
// exactly once (by its pinner: CQL 6.2's code, docs/design.md §5). Participants: their men that
// are pinned, pin a man, or attack the king's field, and all our men. Model and ideal stalemate
// as for mates, ideal counting only their men.
//
// Example: "k7/1Q6/2K5/8/8/8/8/8 b" is an ideal mate with participants [c6,b7,a8].
#pragma once

#include "egtb/core/position.hpp"

namespace egtb::query {

struct MateSets {
  Bitboard pure = 0;
  Bitboard model = 0;
  Bitboard ideal = 0;
};

// puremate, modelmate, idealmate. Precondition: the position is legal (validate() is silent).
[[nodiscard]] MateSets mate_sets(const Position& pos);
// purestalemate, modelstalemate, idealstalemate, with the same precondition.
[[nodiscard]] MateSets stalemate_sets(const Position& pos);

}  // namespace egtb::query
