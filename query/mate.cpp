#include "query/mate.hpp"

#include <array>

#include "egtb/core/movegen.hpp"
#include "query/chess_sets.hpp"

namespace egtb::query {

namespace {

constexpr Bitboard Everything = ~Bitboard{0};

// The sides and the geometry every rule below reads.
struct Scene {
  const Position& pos;
  Color us;  // mated or stalemated, to move
  Bitboard ours;
  Bitboard theirs;
  Square king;
  Bitboard king_bb;
  Bitboard field;  // squares next to our king
  Bitboard pinned;

  explicit Scene(const Position& p)
      : pos(p),
        us(p.side_to_move()),
        ours(p.pieces(us)),
        theirs(p.pieces(~us)),
        king(p.king_square(us)),
        king_bb(king == Square::None ? 0 : square_bb(king)),
        field(king == Square::None ? 0 : king_attacks(king)),
        pinned(pinned_men(p)) {}

  [[nodiscard]] Bitboard officers(Color c) const {
    return pos.pieces(c) & ~pos.pieces(PieceType::King) & ~pos.pieces(PieceType::Pawn);
  }
};

// Their men guarding each square of our king's field: attack, or attack through our king.
struct Guards {
  std::array<Square, 16> men{};
  std::array<Bitboard, 16> guarded{};
  size_t count = 0;

  explicit Guards(const Scene& s) {
    Bitboard men_left = s.theirs;
    while (men_left && count < men.size()) {
      const Square x = pop_lsb(men_left);
      const std::array<Bitboard, 3> chain = {square_bb(x), s.king_bb, s.field};
      men[count] = x;
      guarded[count] =
          (attacks_from(s.pos, x) & s.field) | match_rays(s.pos, chain, AllDirections, true).last;
      ++count;
    }
  }

  [[nodiscard]] int on(Square sq) const {
    int n = 0;
    for (size_t i = 0; i < count; ++i) n += contains(guarded[i], sq) ? 1 : 0;
    return n;
  }
};

bool flights_guarded_once(const Scene& s, const Guards& g) {
  Bitboard squares = s.field & (s.theirs | ~s.pos.pieces());
  while (squares)
    if (g.on(pop_lsb(squares)) != 1) return false;
  return true;
}

bool self_blockers_unguarded(const Scene& s, const Guards& g, Bitboard checkers) {
  const Bitboard refutations = checkers | between_sets(checkers, s.king_bb);
  Bitboard blockers = s.field & s.ours;
  while (blockers) {
    const Square b = pop_lsb(blockers);
    const int guards = g.on(b);
    if (guards == 0) continue;
    if (more_than_one(checkers) || guards != 1) return false;
    if (!pin_squares(s.pos, Everything, square_bb(b), s.pos.pieces(PieceType::King), PinRole::Through))
      return false;
    const Bitboard reach = pseudolegal_targets(s.pos, b);
    const Square ep = s.pos.ep_square();
    const bool ep_capture =
        ep != Square::None && contains(reach, ep) && type_of(s.pos.piece_on(b)) == PieceType::Pawn;
    if (!(reach & refutations) && !ep_capture) return false;
  }
  return true;
}

// A double check is pure when each checker could be refuted but for the other check.
bool double_check_necessary(const Scene& s, Bitboard checkers) {
  if (!more_than_one(checkers)) return true;
  const Bitboard defenders = s.ours & ~s.pinned & ~s.king_bb;
  Bitboard each = checkers;
  while (each) {
    const Bitboard other = checkers & ~square_bb(pop_lsb(each));
    if (!attackers_in(s.pos, defenders, other | between_sets(other, s.king_bb))) return false;
  }
  return true;
}

Bitboard possible_refuters(const Scene& s, Bitboard refutations) {
  Bitboard result = 0;
  Bitboard men = s.ours;
  while (men) {
    const Square m = pop_lsb(men);
    if (pseudolegal_targets(s.pos, m) & refutations) result |= square_bb(m);
  }
  return result;
}

Bitboard their_participants(const Scene& s, Bitboard checkers, Bitboard refutations) {
  const bool single = !more_than_one(checkers);
  const Bitboard refuters = possible_refuters(s, refutations);
  const Bitboard kings = s.pos.pieces(PieceType::King);
  Bitboard result = 0;
  Bitboard men = s.theirs;
  while (men) {
    const Square x = pop_lsb(men);
    const Bitboard xb = square_bb(x);
    const std::array<Bitboard, 3> chain = {refuters, xb, refutations};
    const bool takes_part = (checkers & xb) || (attacks_from(s.pos, x) & s.field) ||
                            pin_squares(s.pos, Everything, xb, kings, PinRole::Through) ||
                            (single && pin_squares(s.pos, xb, refuters, kings, PinRole::From)) ||
                            (single && match_rays(s.pos, chain, AllDirections, true).first);
    if (takes_part) result |= xb;
  }
  return result;
}

Bitboard our_participants(const Scene& s, Bitboard checkers, Bitboard refutations) {
  const bool single = !more_than_one(checkers);
  const Bitboard their_king = s.pos.pieces(~s.us, PieceType::King);
  Bitboard result = 0;
  Bitboard men = s.ours;
  while (men) {
    const Bitboard xb = square_bb(pop_lsb(men));
    const std::array<Bitboard, 3> to_king = {s.ours, xb, their_king};
    const std::array<Bitboard, 3> to_refutation = {s.ours, xb, refutations};
    const bool takes_part = (xb & (s.king_bb | s.field)) ||
                            match_rays(s.pos, to_king, AllDirections, true).first ||
                            (single && match_rays(s.pos, to_refutation, AllDirections, true).first);
    if (takes_part) result |= xb;
  }
  return result;
}

bool stalemate_attacks_pure(const Scene& s) {
  const Color them = ~s.us;
  Bitboard flights = s.field & (s.theirs | ~s.pos.pieces());
  while (flights)
    if (popcount(s.pos.attackers_to(pop_lsb(flights), them)) != 1) return false;
  Bitboard blockers = s.field & s.ours;
  while (blockers) {
    const Square b = pop_lsb(blockers);
    const int attackers = popcount(s.pos.attackers_to(b, them));
    if (attackers != (contains(s.pinned, b) ? 1 : 0)) return false;
  }
  return true;
}

}  // namespace

MateSets mate_sets(const Position& pos) {
  const Scene s(pos);
  if (s.king == Square::None || !is_checkmate(pos)) return {};
  const Bitboard checkers = pos.checkers();
  const Guards guards(s);
  if (!flights_guarded_once(s, guards) || !self_blockers_unguarded(s, guards, checkers) ||
      !double_check_necessary(s, checkers))
    return {};
  const Bitboard refutations =
      pos.pieces(~s.us, PieceType::King) | checkers | between_sets(checkers, s.king_bb);
  const Bitboard theirs = their_participants(s, checkers, refutations);
  const Bitboard ours = our_participants(s, checkers, refutations);
  MateSets result;
  result.pure = theirs | ours;
  if ((s.officers(~s.us) & ~theirs) == 0) result.model = result.pure;
  if (theirs == s.theirs && ours == s.ours) result.ideal = result.pure;
  return result;
}

MateSets stalemate_sets(const Position& pos) {
  const Scene s(pos);
  if (s.king == Square::None || !is_stalemate(pos) || !stalemate_attacks_pure(s)) return {};
  const Bitboard kings = pos.pieces(PieceType::King);
  const Bitboard theirs = pin_squares(pos, Everything, s.theirs, kings, PinRole::Through) |
                          pin_squares(pos, s.theirs, Everything, kings, PinRole::From) |
                          attackers_in(pos, s.theirs, s.field);
  MateSets result;
  result.pure = theirs | s.ours;
  if ((s.officers(~s.us) & ~theirs) == 0) result.model = result.pure;
  if (theirs == s.theirs) result.ideal = result.pure;
  return result;
}

std::string StalemateClass::counts() const {
  const auto n = [](int count) { return std::to_string(count); };
  return n(vacant) + "-" + n(blocks) + "-" + n(self_blocks) + ", " + n(pinned) + "-" + n(blocked_men);
}

std::string StalemateClass::words() const {
  return "stalemate " + counts() + " (vs-b-sb, p-bm), " +
         (pure ? model ? "pure, model" : "pure" : "not pure");
}

std::optional<StalemateClass> stalemate_class(const Position& pos) {
  const Scene s(pos);
  if (s.king == Square::None || !is_stalemate(pos)) return std::nullopt;
  const Bitboard men = s.ours & ~s.king_bb;
  StalemateClass c;
  c.vacant = popcount(s.field & ~pos.pieces());
  c.blocks = popcount(s.field & s.theirs);
  c.self_blocks = popcount(s.field & s.ours);
  c.pinned = popcount(men & s.pinned);
  c.blocked_men = popcount(men & ~s.pinned);
  const MateSets sets = stalemate_sets(pos);
  c.pure = sets.pure != 0;
  c.model = sets.model != 0;
  return c;
}

}  // namespace egtb::query
