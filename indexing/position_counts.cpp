// Counting the positions of a signature from its index, without visiting its entries.
//
// The normal entries of one king pair: the men but one are placed in every way their groups
// allow (the last group lends one man, the "free man"), and for each such placement the squares
// where the free man completes a valid entry are found in one bitboard: the squares of its domain
// the placement leaves empty, less those from which it would attack the king of the side not to
// move (when it belongs to the side to move), and, when a man of the side to move already gives
// that king check, only the squares between the checker and the king (a block; against two
// checkers no square helps). A last group of k identical men reaches each of its k-sets k times
// (each man once the free one), so the pair's total is divided by k.
//
// Worked example, KRk with White to move, kings Ka1 kh8 (both on the diagonal): no man but the
// free rook, which must not attack h8: the 7 squares a8-g8 and the 7 squares h1-h7 are out, so
// the pair has 62 - 14 = 48 valid entries; with Black to move no white man can be in check from a
// black one, and all 62 are valid.
//
// Weights (pawnless_index.cpp, pawn_index.cpp): a pair with both kings on the a1-h8 diagonal
// counts 4 physical positions per entry and, in classes, one per pair of mirror-image entries and
// one per entry that is its own mirror image; those are counted apart by placing the men on the
// diagonal or on pairs of mirror squares (KRk, Ka1 kh8, White to move: a rook on any of the 6
// free diagonal squares b2-g7 leaves h8 alone, so 6 entries are their own mirror image and
// classes = (48 + 6) / 2 = 27).
// The e.p. section and the unplayable e.p. rights are counted entry by entry (about 1.5 million
// entries of a 5-man table).
#include "egtb/core/attacks.hpp"
#include "indexing/index.hpp"

namespace egtb::indexing {

namespace {

constexpr Bitboard PawnSquares = ~(Rank1BB | Rank8BB);

// The squares from which a man `p` attacks `target` when the other men stand on `occupied`.
Bitboard attacking_squares(Piece p, Square target, Bitboard occupied) {
  if (type_of(p) == PieceType::Pawn) return pawn_attacks(~color_of(p), target);
  return piece_attacks(type_of(p), target, occupied);
}

// Men placed so far, for the check tests.
struct Placed {
  std::array<Piece, MaxIndexMen> pieces{};
  std::array<Square, MaxIndexMen> squares{};
  int count = 0;
  Bitboard occupied = 0;
};

// The men of `attacker` that attack `king`.
Bitboard checkers(const Placed& men, Color attacker, Square king) {
  Bitboard out = 0;
  for (int j = 0; j < men.count; ++j) {
    const Piece p = men.pieces[static_cast<size_t>(j)];
    const Square s = men.squares[static_cast<size_t>(j)];
    if (color_of(p) == attacker && contains(attacking_squares(p, king, men.occupied), s)) out |= square_bb(s);
  }
  return out;
}

}  // namespace

Counts IndexScheme::count_pair(int pair, Color stm) const {
  const auto [wk, bk] = kings_->kings[static_cast<size_t>(pair)];
  const Square target = stm == Color::White ? bk : wk;
  const Group& last = normal_.groups[static_cast<size_t>(normal_.group_count - 1)];
  // One slot per man but the free one: its piece and domain; men of a group in ascending squares.
  std::array<Group, MaxIndexMen> slots{};
  int slot_count = 0;
  for (int g = 0; g < normal_.group_count; ++g) {
    const Group& group = normal_.groups[static_cast<size_t>(g)];
    const int n = group.count - (g == normal_.group_count - 1 ? 1 : 0);
    for (int k = 0; k < n; ++k) slots[static_cast<size_t>(slot_count++)] = group;
  }
  const auto domain = [](const Group& g) {
    return type_of(g.piece) == PieceType::Pawn ? PawnSquares : ~Bitboard{0};
  };
  uint64_t sets = 0;
  Placed men;
  men.occupied = square_bb(wk) | square_bb(bk);
  // Places slot `slot` on the squares of `from` and the slots after it, then counts the free man.
  const auto place = [&](auto& self, int slot) -> void {
    if (slot == slot_count) {
      Bitboard free = domain(last) & ~men.occupied;
      if (color_of(last.piece) == stm) free &= ~attacking_squares(last.piece, target, men.occupied);
      const Bitboard check = checkers(men, stm, target);
      if (check) free &= more_than_one(check) ? 0 : between(lsb(check), target);
      sets += static_cast<uint64_t>(popcount(free));
      return;
    }
    const Group& g = slots[static_cast<size_t>(slot)];
    Bitboard squares = domain(g) & ~men.occupied;
    // The men of a group stand in ascending order: above the previous man of the same group.
    if (slot > 0 && slots[static_cast<size_t>(slot - 1)].piece == g.piece)
      squares &= ~((square_bb(men.squares[static_cast<size_t>(men.count - 1)]) << 1) - 1);
    for (; squares;) {
      const Square s = pop_lsb(squares);
      men.pieces[static_cast<size_t>(men.count)] = g.piece;
      men.squares[static_cast<size_t>(men.count++)] = s;
      men.occupied |= square_bb(s);
      self(self, slot + 1);
      men.occupied ^= square_bb(s);
      --men.count;
    }
  };
  place(place, 0);
  const uint64_t n = sets / static_cast<uint64_t>(last.count);
  if (kings_->pawns)
    return {n * PawnNormalWeights.index462, n * PawnNormalWeights.physical, n * PawnNormalWeights.classes};
  if (!on_diagonal(wk) || !on_diagonal(bk))
    return {n * PawnlessWeights.index462, n * PawnlessWeights.physical, n * PawnlessWeights.classes};
  return {n * PawnlessWeights.index462, n * PawnlessWeights.physical / 2,
          (n + count_symmetric(pair, stm)) / 2};
}

uint64_t IndexScheme::count_symmetric(int pair, Color stm) const {
  const auto [wk, bk] = kings_->kings[static_cast<size_t>(pair)];
  const Square target = stm == Color::White ? bk : wk;
  // The units a symmetric placement is made of: a free diagonal square, or a square below the
  // diagonal with its mirror image above it.
  std::array<Bitboard, 64> units{};
  int unit_count = 0;
  for (int i = 0; i < 64; ++i) {
    const Square s = square_at(i);
    if (s == wk || s == bk || rank_of(s) > file_of(s)) continue;
    units[static_cast<size_t>(unit_count++)] = square_bb(s) | square_bb(apply(Symmetry::FlipDiag, s));
  }
  uint64_t symmetric = 0;
  Placed men;
  men.occupied = square_bb(wk) | square_bb(bk);
  // Gives group g its men left to place (`left`) from the units from `unit` on, then the groups after it.
  const auto place = [&](auto& self, int g, int left, int unit) -> void {
    if (g == normal_.group_count) {
      if (!checkers(men, stm, target)) ++symmetric;
      return;
    }
    const Group& group = normal_.groups[static_cast<size_t>(g)];
    if (left == 0) {
      const int next = g + 1 < normal_.group_count ? normal_.groups[static_cast<size_t>(g + 1)].count : 0;
      self(self, g + 1, next, 0);
      return;
    }
    for (int u = unit; u < unit_count; ++u) {
      const Bitboard squares = units[static_cast<size_t>(u)];
      const int size = popcount(squares);
      if (size > left || (squares & men.occupied)) continue;
      const Placed before = men;
      for (Bitboard b = squares; b;) {
        men.pieces[static_cast<size_t>(men.count)] = group.piece;
        men.squares[static_cast<size_t>(men.count++)] = pop_lsb(b);
      }
      men.occupied |= squares;
      self(self, g, left - size, u + 1);
      men = before;
    }
  };
  place(place, 0, normal_.groups[0].count, 0);
  return symmetric;
}

Counts IndexScheme::count_ep_section(Color stm) const {
  Counts counts;
  Position pos;
  for (Index j = 0; j < ep_size_; ++j) {
    const EpPlacement e = place_ep(j, stm, pos);
    if (e == EpPlacement::Playable) counts.add(PawnEpWeights);
    if (e != EpPlacement::Unplayable) continue;
    pos.set_ep_square(Square::None);
    if (index_of(pos)) ++counts.index462;
  }
  return counts;
}

Counts count_positions(const IndexScheme& scheme, Color stm) {
  Counts counts = scheme.count_ep_section(stm);
  for (int pair = 0; pair < scheme.king_pairs(); ++pair) counts += scheme.count_pair(pair, stm);
  return counts;
}

}  // namespace egtb::indexing
