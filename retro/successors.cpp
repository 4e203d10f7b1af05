#include "retro/successors.hpp"

#include "egtb/core/attacks.hpp"
#include "retro/side_men.hpp"

namespace egtb::retro {

using Men = indexing::IndexScheme::Men;

namespace {

constexpr PieceType Promotions[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight};

// The men of an entry as the move counter sees them.
struct Board {
  const indexing::IndexScheme& scheme;
  const Men& men;
  Color us = Color::White;
  Square king = Square::None;  // ours
  Square their_king = Square::None;
  Bitboard occupied = 0;
  Bitboard own = 0;  // our men, king included
  SideMen theirs;

  Board(const indexing::IndexScheme& s, const Men& m, Color stm)
      : scheme(s),
        men(m),
        us(stm),
        king(m.squares[static_cast<size_t>(to_index(stm))]),
        their_king(m.squares[static_cast<size_t>(to_index(~stm))]) {
    for (int j = 0; j < scheme.man_count(); ++j) {
      const Piece p = scheme.man_piece(j);
      const Bitboard square = square_bb(men.squares[static_cast<size_t>(j)]);
      occupied |= square;
      if (color_of(p) == us) own |= square;
      if (j >= 2 && color_of(p) != us) theirs.toggle(type_of(p), square);
    }
  }

  // The squares our king may not step to: those their men would attack once it has left its
  // square, and those next to their king.
  [[nodiscard]] Bitboard king_danger() const {
    return theirs.attacks(~us, occupied ^ square_bb(king)) | king_attacks(their_king);
  }
};

// Counts the moves of our man of type pt on `from` to `targets`, listing the captures and
// promotions.
int add_moves(const Board& b, PieceType pt, Square from, Bitboard targets, MoveList& exits) {
  const Bitboard promoting = pt == PieceType::Pawn ? targets & (Rank1BB | Rank8BB) : 0;
  for (Bitboard t = promoting; t;) {
    const Square to = pop_lsb(t);
    for (PieceType promotion : Promotions) exits.push_back(Move(from, to, MoveKind::Promotion, promotion));
  }
  for (Bitboard t = targets & ~promoting & b.occupied; t;) exits.push_back(Move(from, pop_lsb(t)));
  return popcount(targets) + 3 * popcount(promoting);
}

// The squares our pawn on `from` moves to: captures, and one or two steps ahead.
Bitboard pawn_targets(const Board& b, Square from) {
  Bitboard targets = pawn_attacks(b.us, from) & b.occupied & ~b.own;
  const Square one = square_at(to_index(from) + pawn_push(b.us));
  if (!contains(b.occupied, one)) {
    targets |= square_bb(one);
    const Square two = square_at(to_index(one) + pawn_push(b.us));
    if (relative_rank(b.us, from) == 1 && !contains(b.occupied, two)) targets |= square_bb(two);
  }
  return targets;
}

}  // namespace

Successors::Successors(const indexing::IndexScheme& scheme) : scheme_(scheme) {}

EntryMoves Successors::moves(Color stm, SuccessorWorkspace& ws) const {
  ws.exits.clear();
  const Board b(scheme_, ws.men, stm);
  const Bitboard checkers = b.theirs.attackers(stm, b.king, b.occupied);
  EntryMoves result{0, checkers != 0};
  const Bitboard king_targets = king_attacks(b.king) & ~b.own & ~b.king_danger();
  for (Bitboard t = king_targets & b.occupied; t;) ws.exits.push_back(Move(b.king, pop_lsb(t)));
  result.count = popcount(king_targets);
  if (more_than_one(checkers)) return result;
  const Bitboard check_mask = checkers ? between(b.king, lsb(checkers)) | checkers : ~Bitboard{0};
  const Bitboard pinned = pinned_men(b.king, b.own, b.occupied, b.theirs.straight, b.theirs.diagonal);
  for (int j = 2; j < scheme_.man_count(); ++j) {
    const Piece p = scheme_.man_piece(j);
    if (color_of(p) != stm) continue;
    const Square from = ws.men.squares[static_cast<size_t>(j)];
    const Bitboard allowed = check_mask & (contains(pinned, from) ? line(b.king, from) : ~Bitboard{0});
    const PieceType pt = type_of(p);
    const Bitboard targets =
        pt == PieceType::Pawn ? pawn_targets(b, from) : piece_attacks(pt, from, b.occupied) & ~b.own;
    result.count += add_moves(b, pt, from, targets & allowed, ws.exits);
  }
  return result;
}

}  // namespace egtb::retro
