#include "egtb/core/unmovegen.hpp"

#include <cassert>

namespace egtb {

namespace {

// What the generators of one call share. "We" move in pos; "they" just moved.
struct UnmoveContext {
  const Position& pos;
  const UnmoveOptions& options;
  std::vector<Unmove>& out;
  Color us;
  Color them;
  Square our_king;
  Bitboard occupied;
  PieceTypeSet uncaptures;     // the allowed types of which validate() accepts one more of ours
  bool unpromotions;           // allowed, and they have fewer than 8 pawns
  bool ep_uncaptures;          // allowed, and we have room for one more pawn
  bool triple_check_possible;  // Q must not give three checks, and we may have three men in Q
};

// The context of one call, with the options cut down to what validate() allows.
UnmoveContext make_context(const Position& pos, const UnmoveOptions& options, std::vector<Unmove>& out) {
  const Color us = pos.side_to_move();
  const bool room_for_man = popcount(pos.pieces(us)) < 16;
  const bool room_for_pawn = room_for_man && pos.count(us, PieceType::Pawn) < 8;
  PieceTypeSet uncaptures = room_for_man ? options.uncaptures : PieceTypeSet{};
  uncaptures = uncaptures.without(PieceType::None).without(PieceType::King);
  if (!room_for_pawn) uncaptures = uncaptures.without(PieceType::Pawn);
  const int our_men_besides_king = popcount(pos.pieces(us)) - 1 + (uncaptures.empty() ? 0 : 1);
  return UnmoveContext{pos,
                       options,
                       out,
                       us,
                       ~us,
                       pos.king_square(us),
                       pos.pieces(),
                       uncaptures,
                       options.unpromotions && pos.count(~us, PieceType::Pawn) < 8,
                       options.ep_uncaptures && room_for_pawn,
                       !options.triple_checks && our_men_besides_king >= 3};
}

// The un-capturable types on `to`: no pawn on rank 1 or 8.
PieceTypeSet uncaptures_on(const UnmoveContext& c, Square to) {
  const int rank = rank_of(to);
  return rank == 0 || rank == 7 ? c.uncaptures.without(PieceType::Pawn) : c.uncaptures;
}

// True when our king is not attacked in the predecessor in which their man stands on `from`, as a
// `type_before`, instead of on `to`, and `occupied` is the predecessor's occupancy.
bool our_king_safe(const UnmoveContext& c, Square from, Square to, PieceType type_before, Bitboard occupied) {
  const Bitboard keep = ~square_bb(to);
  const auto theirs = [&](PieceType pt) {
    const Bitboard b = c.pos.pieces(c.them, pt) & keep;
    return pt == type_before ? b | square_bb(from) : b;
  };
  const Square k = c.our_king;
  const Bitboard queens = theirs(PieceType::Queen);
  return ((pawn_attacks(c.us, k) & theirs(PieceType::Pawn)) |
          (knight_attacks(k) & theirs(PieceType::Knight)) | (king_attacks(k) & theirs(PieceType::King)) |
          (bishop_attacks(k, occupied) & (theirs(PieceType::Bishop) | queens)) |
          (rook_attacks(k, occupied) & (theirs(PieceType::Rook) | queens))) == 0;
}

// True when every check on the side to move of q (which has an e.p. square) can be the work of the
// double step the e.p. square records: the pawn itself, or a discovery through its origin square.
bool checks_fit_double_step(const Position& q) {
  const Color stm = q.side_to_move();
  const Square pushed = offset(q.ep_square(), -pawn_push(stm));
  const Square origin = offset(q.ep_square(), pawn_push(stm));
  const Square king = q.king_square(stm);
  Bitboard checkers = q.checkers();
  while (checkers) {
    const Square s = pop_lsb(checkers);
    if (s != pushed && !contains(between(king, s), origin)) return false;
  }
  return true;
}

// Appends copies of the last predecessor with each e.p. square that gives its side to move a legal
// e.p. capture: one of our pawns may just have double-stepped beside one of theirs.
void add_ep_right_variants(UnmoveContext& c) {
  const Bitboard rank = rank_bb(c.them == Color::White ? 4 : 3);
  const Position& last = c.out.back().before;
  const Bitboard theirs = last.pieces(c.them, PieceType::Pawn) & rank;
  Bitboard pushed = last.pieces(c.us, PieceType::Pawn) & rank &
                    (shift<Direction::East>(theirs) | shift<Direction::West>(theirs));
  if (!pushed) return;
  const Unmove base = c.out.back();
  while (pushed) {
    const Square ep = offset(pop_lsb(pushed), -pawn_push(c.us));
    if (!base.before.empty(ep) || !base.before.empty(offset(ep, -pawn_push(c.us)))) continue;
    Position variant = base.before;
    variant.set_ep_square(ep);
    if (variant.has_ep_capture() && checks_fit_double_step(variant)) c.out.emplace_back(variant, base.move);
  }
}

// Appends the predecessor in which their man stands on `from` as a `type_before` and our man of
// type `restored` (None: no un-capture) on `to`, reached by m, then its e.p.-right variants.
void emit(UnmoveContext& c, Square from, Square to, PieceType type_before, PieceType restored, Move m) {
  c.out.emplace_back(c.pos, m);
  Position& q = c.out.back().before;
  q.remove_piece(to);
  q.put_piece(make_piece(c.them, type_before), from);
  if (restored != PieceType::None) q.put_piece(make_piece(c.us, restored), to);
  q.set_side_to_move(c.them);
  q.set_ep_square(Square::None);
  if (c.options.ep_rights) add_ep_right_variants(c);
}

// Their man came from `from` to `to` by m without capturing.
void add_quiet_unmove(UnmoveContext& c, Square from, Square to, PieceType type_before, Move m) {
  const Bitboard occupied = c.occupied ^ square_bb(from) ^ square_bb(to);
  if (our_king_safe(c, from, to, type_before, occupied)) emit(c, from, to, type_before, PieceType::None, m);
}

// Their man came from `from` to `to` by m capturing one of our men: one predecessor per allowed type.
void add_capture_unmoves(UnmoveContext& c, Square from, Square to, PieceType type_before, Move m) {
  const PieceTypeSet types = uncaptures_on(c, to);
  if (types.empty() || !our_king_safe(c, from, to, type_before, c.occupied | square_bb(from))) return;
  for (PieceType restored : types) emit(c, from, to, type_before, restored, m);
}

// The number of our men checking their king on `from`, with our man `restored` back on `to`.
int checks_on_king(const UnmoveContext& c, Square from, Square to, PieceType restored, Bitboard occupied) {
  const int checks = popcount(c.pos.attackers_to(from, c.us, occupied));
  if (restored == PieceType::None) return checks;
  const Bitboard attacks =
      restored == PieceType::Pawn ? pawn_attacks(c.us, to) : piece_attacks(restored, to, occupied);
  return checks + (contains(attacks, from) ? 1 : 0);
}

// Their king came from `from` to `to`. Only a king move escapes a triple check, so only here can Q
// give their king more than the two checks validate() allows.
void add_king_unmove(UnmoveContext& c, Square from, Square to) {
  const Move m(from, to);
  const auto checks_ok = [&](PieceType restored, Bitboard occupied) {
    return !c.triple_check_possible || checks_on_king(c, from, to, restored, occupied) <= 2;
  };
  const Bitboard quiet = c.occupied ^ square_bb(from) ^ square_bb(to);
  if (our_king_safe(c, from, to, PieceType::King, quiet) && checks_ok(PieceType::None, quiet))
    emit(c, from, to, PieceType::King, PieceType::None, m);
  const PieceTypeSet types = uncaptures_on(c, to);
  const Bitboard capture = c.occupied | square_bb(from);
  if (types.empty() || !our_king_safe(c, from, to, PieceType::King, capture)) return;
  for (PieceType restored : types)
    if (checks_ok(restored, capture)) emit(c, from, to, PieceType::King, restored, m);
}

// Their king came from a neighbouring empty square that does not touch our king.
void add_king_unmoves(UnmoveContext& c) {
  const Square to = c.pos.king_square(c.them);
  Bitboard froms = king_attacks(to) & ~c.occupied & ~king_attacks(c.our_king);
  while (froms) add_king_unmove(c, pop_lsb(froms), to);
}

// Their knights, bishops, rooks and queens came from the empty squares they attack.
void add_piece_unmoves(UnmoveContext& c) {
  for (PieceType pt : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen}) {
    Bitboard men = c.pos.pieces(c.them, pt);
    while (men) {
      const Square to = pop_lsb(men);
      Bitboard froms = piece_attacks(pt, to, c.occupied) & ~c.occupied;
      while (froms) {
        const Square from = pop_lsb(froms);
        add_quiet_unmove(c, from, to, pt, Move(from, to));
        add_capture_unmoves(c, from, to, pt, Move(from, to));
      }
    }
  }
}

// True when pos with this e.p. square gives the side to move a legal e.p. capture.
bool ep_capture_with(const Position& pos, Square ep) {
  Position p = pos;
  p.set_ep_square(ep);
  return p.has_ep_capture();
}

// Single steps, double steps (when they would not have recorded an e.p. square) and captures.
void add_pawn_unmoves(UnmoveContext& c) {
  const int back = -pawn_push(c.them);
  Bitboard pawns = c.pos.pieces(c.them, PieceType::Pawn);
  while (pawns) {
    const Square to = pop_lsb(pawns);
    const int rank = relative_rank(c.them, to);
    if (rank < 2) continue;
    const Square one = offset(to, back);
    if (c.pos.empty(one)) {
      add_quiet_unmove(c, one, to, PieceType::Pawn, Move(one, to));
      const Square two = offset(one, back);
      if (rank == 3 && c.pos.empty(two) && !ep_capture_with(c.pos, one))
        add_quiet_unmove(c, two, to, PieceType::Pawn, Move(two, to));
    }
    Bitboard froms = pawn_attacks(c.us, to) & ~c.occupied;
    while (froms) {
      const Square from = pop_lsb(froms);
      add_capture_unmoves(c, from, to, PieceType::Pawn, Move(from, to));
    }
  }
}

// Their pieces on their last rank came from their 7th as pawns, straight or capturing.
void add_unpromotions(UnmoveContext& c) {
  const int back = -pawn_push(c.them);
  const Bitboard pieces =
      c.pos.pieces(c.them) & ~c.pos.pieces(PieceType::Pawn) & ~c.pos.pieces(PieceType::King);
  Bitboard promoted = pieces & rank_bb(c.them == Color::White ? 7 : 0);
  while (promoted) {
    const Square to = pop_lsb(promoted);
    const PieceType pt = type_of(c.pos.piece_on(to));
    const Square straight = offset(to, back);
    if (c.pos.empty(straight))
      add_quiet_unmove(c, straight, to, PieceType::Pawn, Move(straight, to, MoveKind::Promotion, pt));
    Bitboard froms = pawn_attacks(c.us, to) & ~c.occupied;
    while (froms) {
      const Square from = pop_lsb(froms);
      add_capture_unmoves(c, from, to, PieceType::Pawn, Move(from, to, MoveKind::Promotion, pt));
    }
  }
}

// Their pawn took ours e.p. from `from` to `to`; ours reappears on `victim`.
void add_ep_uncapture(UnmoveContext& c, Square from, Square to, Square victim) {
  const Bitboard occupied = c.occupied ^ square_bb(from) ^ square_bb(to) ^ square_bb(victim);
  if (!our_king_safe(c, from, to, PieceType::Pawn, occupied)) return;
  c.out.emplace_back(c.pos, Move(from, to, MoveKind::EnPassant));
  Position& q = c.out.back().before;
  q.remove_piece(to);
  q.put_piece(make_piece(c.them, PieceType::Pawn), from);
  q.put_piece(make_piece(c.us, PieceType::Pawn), victim);
  q.set_side_to_move(c.them);
  q.set_ep_square(to);
  if (!checks_fit_double_step(q)) c.out.pop_back();
}

// Their pawns on their 6th rank took one of ours e.p., when its squares behind are empty.
void add_ep_uncaptures(UnmoveContext& c) {
  Bitboard pawns = c.pos.pieces(c.them, PieceType::Pawn) & rank_bb(c.them == Color::White ? 5 : 2);
  while (pawns) {
    const Square to = pop_lsb(pawns);
    const Square victim = offset(to, -pawn_push(c.them));
    const Square origin = offset(to, pawn_push(c.them));
    if (!c.pos.empty(victim) || !c.pos.empty(origin)) continue;
    Bitboard froms = pawn_attacks(c.us, to) & ~c.occupied;
    while (froms) add_ep_uncapture(c, pop_lsb(froms), to, victim);
  }
}

// pos has a capturable e.p. square: its only predecessor move is the double step that made it.
void add_double_step_into_ep(UnmoveContext& c) {
  const Square ep = c.pos.ep_square();
  const Square pushed = offset(ep, pawn_push(c.them));
  const Square origin = offset(ep, -pawn_push(c.them));
  if (c.pos.empty(origin)) add_quiet_unmove(c, origin, pushed, PieceType::Pawn, Move(origin, pushed));
}

}  // namespace

void generate_unmoves(const Position& pos, const UnmoveOptions& options, std::vector<Unmove>& out) {
  assert(pos.castling_rights() == 0);
  if (pos.king_attacked(~pos.side_to_move())) return;
  UnmoveContext c = make_context(pos, options, out);
  if (pos.has_ep_capture()) {
    add_double_step_into_ep(c);
    return;
  }
  add_king_unmoves(c);
  add_piece_unmoves(c);
  add_pawn_unmoves(c);
  if (c.unpromotions) add_unpromotions(c);
  if (c.ep_uncaptures) add_ep_uncaptures(c);
}

}  // namespace egtb
