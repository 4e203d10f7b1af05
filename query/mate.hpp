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

#include <optional>
#include <string>

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

// A stalemate classified as the article's Appendix A writes it, "vs-b-sb, p-bm" (Müller & Haworth
// 2020), with its purity. The stalemated king's field (the squares next to it) by what keeps the
// king off each square, and the stalemated side's other men by what keeps them still:
//   vs  vacant squares: empty, so attacked by the stalemating side
//   b   blocks: squares held by a man of the stalemating side, so guarded
//   sb  self-blocks: squares held by a man of the stalemated side
//   p   men of the stalemated side (not the king) pinned to their king
//   bm  blocked men: its other men (not the king), which have no move of their own
// vs + b + sb is the size of the field (3 in a corner, 5 on an edge, 8 elsewhere), p + bm the
// stalemated side's men besides its king. Examples: "k7/2K5/8/8/3B4/8/8/8 b" is 3-0-0, 0-0, a
// pure and model stalemate (Kc7 covers b7 and b8 once each, Bd4 a7); "k7/p1B5/K7/8/8/8/8/8 b" is
// 2-0-1, 0-1 and not pure (the self-blocking pawn a7, blocked by Ka6, is attacked by it).
struct StalemateClass {
  int vacant = 0;       // vs
  int blocks = 0;       // b
  int self_blocks = 0;  // sb
  int pinned = 0;       // p
  int blocked_men = 0;  // bm
  bool pure = false;    // purestalemate
  bool model = false;   // modelstalemate

  // "3-0-0, 0-0" (vs-b-sb, p-bm).
  [[nodiscard]] std::string counts() const;
  // "stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), pure, model" ("..., not pure" when it is not).
  [[nodiscard]] std::string words() const;
};

// The class of a stalemate; nothing when the side to move is not stalemated. Precondition as above.
[[nodiscard]] std::optional<StalemateClass> stalemate_class(const Position& pos);

}  // namespace egtb::query
