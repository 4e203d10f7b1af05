#include "query/chess_sets.hpp"

namespace egtb::query {

namespace {

// The next square from (file, rank) in direction d, or Square::None off the board.
Square step(Square s, int d) {
  const int f = file_of(s) + DirectionSteps[static_cast<size_t>(d)][0];
  const int r = rank_of(s) + DirectionSteps[static_cast<size_t>(d)][1];
  return f < 0 || f > 7 || r < 0 || r > 7 ? Square::None : make_square(f, r);
}

bool slides_along(PieceType pt, int d) {
  if (pt == PieceType::Queen) return true;
  if (pt == PieceType::Rook) return d % 2 == 0;
  if (pt == PieceType::Bishop) return d % 2 == 1;
  return false;
}

// The last-mask squares reached from `s` (the square before masks[index]) along d; an empty
// square of an inner mask is both matched and passed over, so the search may branch.
Bitboard continue_ray(Square s, size_t index, std::span<const Bitboard> masks, int d, Bitboard occupied) {
  Bitboard found = 0;
  const size_t last = masks.size() - 1;
  while (true) {
    s = step(s, d);
    if (s == Square::None) return found;
    const bool in_mask = contains(masks[index], s);
    const bool empty = !contains(occupied, s);
    if (index == last) {
      if (in_mask) found |= square_bb(s);
      if (!empty) return found;
      continue;
    }
    if (in_mask && empty) {
      found |= continue_ray(s, index + 1, masks, d, occupied);
    } else if (in_mask) {
      ++index;
    } else if (!empty) {
      return found;
    }
  }
}

// Pins from the sliders of `from` (one colour) through men of the other colour in `through` to
// squares of `to` (other colour or empty).
void find_pins(const Position& pos, Bitboard from, Bitboard through, Bitboard to, Bitboard out[3]) {
  const Bitboard occupied = pos.pieces();
  while (from) {
    const Square f = pop_lsb(from);
    const PieceType pt = type_of(pos.piece_on(f));
    Bitboard lines = 0;
    if (pt == PieceType::Rook || pt == PieceType::Queen) lines |= rook_attacks(f, 0);
    if (pt == PieceType::Bishop || pt == PieceType::Queen) lines |= bishop_attacks(f, 0);
    Bitboard targets = lines & to;
    while (targets) {
      const Square t = pop_lsb(targets);
      const Bitboard path = between(f, t);
      const Bitboard pinned = path & through;
      if (!pinned || more_than_one(path & occupied)) continue;
      out[0] |= square_bb(f);
      out[1] |= pinned;
      out[2] |= square_bb(t);
    }
  }
}

}  // namespace

Bitboard attacks_from(const Position& pos, Square s) {
  const Piece p = pos.piece_on(s);
  switch (type_of(p)) {
    case PieceType::None: return 0;
    case PieceType::Pawn: return pawn_attacks(color_of(p), s);
    default: return piece_attacks(type_of(p), s, pos.pieces());
  }
}

Bitboard attackers_in(const Position& pos, Bitboard from, Bitboard targets) {
  Bitboard result = 0;
  Bitboard men = from & pos.pieces();
  while (men) {
    const Square s = pop_lsb(men);
    if (attacks_from(pos, s) & targets) result |= square_bb(s);
  }
  return result;
}

Bitboard attacked_in(const Position& pos, Bitboard targets, Bitboard from) {
  Bitboard attacked = 0;
  Bitboard men = from & pos.pieces();
  while (men) attacked |= attacks_from(pos, pop_lsb(men));
  return attacked & targets;
}

RayMatch match_rays(const Position& pos, std::span<const Bitboard> masks, DirectionSet directions,
                    bool attack) {
  RayMatch result;
  if (masks.size() < 2) return result;
  const Bitboard occupied = pos.pieces();
  Bitboard starts = masks[0];
  while (starts) {
    const Square s = pop_lsb(starts);
    for (int d = 0; d < 8; ++d) {
      if (!(directions & (1 << d))) continue;
      if (attack && !slides_along(type_of(pos.piece_on(s)), d)) continue;
      const Bitboard reached = continue_ray(s, 1, masks, d, occupied);
      if (!reached) continue;
      result.first |= square_bb(s);
      result.last |= reached;
    }
  }
  return result;
}

Bitboard pin_squares(const Position& pos, Bitboard from, Bitboard through, Bitboard to, PinRole role) {
  Bitboard found[3] = {0, 0, 0};
  const Bitboard empty = ~pos.pieces();
  for (Color c : {Color::White, Color::Black}) {
    const Bitboard sliders =
        from & pos.pieces(c) &
        (pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen));
    find_pins(pos, sliders, through & pos.pieces(~c), to & (pos.pieces(~c) | empty), found);
  }
  return found[static_cast<size_t>(role)];
}

Bitboard pinned_men(const Position& pos) {
  return pin_squares(pos, ~Bitboard{0}, ~Bitboard{0}, pos.pieces(PieceType::King), PinRole::Through);
}

Bitboard pseudolegal_targets(const Position& pos, Square s) {
  const Piece p = pos.piece_on(s);
  if (p == Piece::None) return 0;
  const Color c = color_of(p);
  const Bitboard own = pos.pieces(c);
  if (type_of(p) != PieceType::Pawn) return attacks_from(pos, s) & ~own;
  Bitboard targets = pawn_attacks(c, s) & pos.pieces(~c);
  const Square ep = pos.ep_square();
  if (ep != Square::None && contains(pawn_attacks(c, s), ep)) targets |= square_bb(ep);
  const int push = pawn_push(c);
  const int one = to_index(s) + push;
  if (one >= 0 && one < SquareCount && pos.empty(square_at(one))) {
    targets |= square_bb(square_at(one));
    const int two = one + push;
    if (relative_rank(c, s) == 1 && pos.empty(square_at(two))) targets |= square_bb(square_at(two));
  }
  return targets;
}

std::vector<Move> pseudolegal_moves(const Position& pos, Square ep) {
  std::vector<Move> moves;
  const Color us = pos.side_to_move();
  Bitboard men = pos.pieces(us);
  while (men) {
    const Square from = pop_lsb(men);
    const bool pawn = type_of(pos.piece_on(from)) == PieceType::Pawn;
    Bitboard targets = pseudolegal_targets(pos, from);
    if (pawn && pos.ep_square() != Square::None) targets &= ~square_bb(pos.ep_square());
    while (targets) {
      const Square to = pop_lsb(targets);
      if (!pawn || relative_rank(us, to) != 7) {
        moves.emplace_back(from, to);
        continue;
      }
      for (PieceType p : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
        moves.emplace_back(from, to, MoveKind::Promotion, p);
    }
    if (pawn && ep != Square::None && contains(pawn_attacks(us, from), ep))
      moves.emplace_back(from, ep, MoveKind::EnPassant);
  }
  return moves;
}

Bitboard between_sets(Bitboard a, Bitboard b) {
  Bitboard result = 0;
  while (a) {
    const Square s = pop_lsb(a);
    Bitboard t = b;
    while (t) result |= between(s, pop_lsb(t));
  }
  return result;
}

}  // namespace egtb::query
