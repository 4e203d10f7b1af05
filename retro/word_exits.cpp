#include "retro/word_exits.hpp"

#include <stdexcept>

#include "egtb/core/attacks.hpp"
#include "egtb/core/position.hpp"

namespace egtb::retro {

namespace {

constexpr PieceType Promotions[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight};

Bitboard last_rank(Color c) { return c == Color::White ? Rank8BB : Rank1BB; }

// Calls f(move) for the move from `from` to `to`, or for each of its four promotions.
template <class F>
void moves_between(Square from, Square to, bool promotes, F&& f) {
  if (promotes) {
    for (PieceType p : Promotions) f(Move(from, to, MoveKind::Promotion, p));
  } else {
    f(Move(from, to));
  }
}

uint8_t bit(Lasker v) { return static_cast<uint8_t>(1u << to_index(v)); }

[[noreturn]] void throw_no_value() {
  throw std::logic_error("a subtable holds no value for a legal position");
}

[[noreturn]] void throw_decided_earlier() {
  throw std::logic_error("a position that wins through a capture was left for a later phase");
}

}  // namespace

PhaseValues PhaseValues::of(Rules rules, size_t phase) {
  const std::span<const SolvePhase> phases = solve_phases(rules);
  PhaseValues out{phases[phase].win, phases[phase].loss, 0, 0};
  for (size_t p = 0; p <= phase; ++p) {
    out.refuting = static_cast<uint8_t>(out.refuting | bit(phases[p].win));
    if (p < phase) out.earlier_losses = static_cast<uint8_t>(out.earlier_losses | bit(phases[p].loss));
  }
  return out;
}

void add_exit(ExitSummary& e, const PhaseValues& phase, Score child) {
  if (!child.is_valid()) throw_no_value();
  const int depth = child.depth() + 1;
  switch (phase.role(child.value())) {
    case PhaseValues::Role::Refuted: return;
    case PhaseValues::Role::Bounds: e.loss_bound = std::max(e.loss_bound, depth); return;
    case PhaseValues::Role::Earlier: throw_decided_earlier();
    case PhaseValues::Role::Wins: e.win_depth = std::min(e.win_depth, depth); break;
    case PhaseValues::Role::Escapes: break;
  }
  e.escape = true;
}

struct WordExits::Work {
  const WordMen& w;
  Color c;
  std::span<const PhaseValues> phases;
  Bitboard bits;     // the positions asked about
  Bitboard victims;  // the opponent's men fixed in the word, kings left out
  indexing::IndexScheme::Men men;
  std::span<WordExitSummary> out;  // by phase

  // The positions `positions` have a move to `child`, illegal when the child is invalid: add_exit
  // for each of them and each phase, a bit set at a time. Inlined into the loops that call it for
  // each probed child: as a call it took 4% of KRPkr's solve, inlined about half of that.
  [[gnu::always_inline]] void add(Bitboard positions, Score child) {
    if (child.is_invalid() || !positions) return;
    if (!child.is_valid()) throw_no_value();
    const int depth = child.depth() + 1;
    for (size_t k = 0; k < out.size(); ++k) {
      WordExitSummary& o = out[k];
      o.moves |= positions;
      switch (phases[k].role(child.value())) {
        case PhaseValues::Role::Refuted: break;
        case PhaseValues::Role::Bounds:
          deepen(o.bound, o.loss_bound, positions, depth, [](int a, int b) { return std::max(a, b); });
          break;
        case PhaseValues::Role::Earlier:
          if (k == 0) throw_decided_earlier();
          break;  // a later phase's summary of a position the earlier phases decide
        case PhaseValues::Role::Wins:
          deepen(o.win, o.win_depth, positions, depth, [](int a, int b) { return std::min(a, b); });
          o.escape |= positions;
          break;
        case PhaseValues::Role::Escapes: o.escape |= positions; break;
      }
    }
  }
  // Sets depths[i] of the positions' bits i to `depth`, or to better(depths[i], depth) where `set` has them.
  template <class Better>
  static void deepen(Bitboard& set, std::array<int, 64>& depths, Bitboard positions, int depth,
                     Better better) {
    for (Bitboard b = positions; b;) {
      const Square sq = pop_lsb(b);
      int& d = depths[static_cast<size_t>(to_index(sq))];
      d = contains(set, sq) ? better(d, depth) : depth;
    }
    set |= positions;
  }
};

WordExits::WordExits(const indexing::WordLayout& layout, const indexing::IndexScheme& scheme,
                     const ExitTables& exits, const FinishedSlices* finished, ExitChildren children)
    : layout_(layout),
      scheme_(scheme),
      exits_(exits),
      finished_(finished),
      children_(children),
      inner_(layout.inner()),
      inner_piece_(layout.man_piece(layout.inner())) {
  for (Color c : {Color::White, Color::Black})
    promotions_only_[static_cast<size_t>(to_index(c))] =
        children == ExitChildren::Paged && !exits.pages_captures(c);
}

void WordExits::summarize(const WordMen& w, Color c, Bitboard bits, std::span<const PhaseValues> phases,
                          std::span<WordExitSummary> out) const {
  if (out.size() != phases.size()) throw std::logic_error("a word's exits summarized for other phases");
  for (WordExitSummary& o : out) o.moves = o.escape = o.win = o.bound = 0;
  if (!bits) return;
  Work k{w, c, phases, bits, 0, w.men, out};
  for (int j = 2; j < layout_.man_count(); ++j)
    if (j != inner_ && color_of(layout_.man_piece(j)) != c)
      k.victims |= square_bb(w.men.squares[static_cast<size_t>(j)]);
  for (int j = 0; j < layout_.man_count(); ++j)
    if (j != inner_ && color_of(layout_.man_piece(j)) == c) fixed_man_moves(k, j);
  if (color_of(inner_piece_) == c) inner_man_moves(k);
}

void WordExits::fixed_man_moves(Work& k, int j) const {
  const Square from = k.w.men.squares[static_cast<size_t>(j)];
  const PieceType pt = type_of(layout_.man_piece(j));
  const Bitboard attacks = pt == PieceType::King   ? king_attacks(from)
                           : pt == PieceType::Pawn ? pawn_attacks(k.c, from)
                                                   : piece_attacks(pt, from, k.w.occupied);
  const bool promotes = pt == PieceType::Pawn && relative_rank(k.c, from) == 6;
  if (!promotes && promotions_only_[static_cast<size_t>(to_index(k.c))]) return;
  // Takes a fixed man: X must stay off the path.
  for (Bitboard targets = attacks & k.victims; targets;) {
    const Square to = pop_lsb(targets);
    const Bitboard bits = k.bits & (is_slider(pt) ? ~between(from, to) : ~Bitboard{0});
    moves_between(from, to, promotes, [&](Move m) { score_family(k, m, bits, inner_); });
  }
  // Takes X where it stands.
  if (color_of(inner_piece_) != k.c) {
    const Bitboard bits = k.bits & attacks;
    if (bits) moves_between(from, lsb(bits), promotes, [&](Move m) { score_family(k, m, bits, j); });
  }
  if (pt == PieceType::Pawn && !promotes && layout_.fixed_in_slice(j) && children_ != ExitChildren::Paged)
    digit_pawn_steps(k, j, from);
  // Promotes by a step ahead.
  if (!promotes) return;
  const Square ahead = square_at(to_index(from) + pawn_push(k.c));
  if (contains(k.w.occupied, ahead)) return;
  const Bitboard bits = k.bits & ~square_bb(ahead);
  moves_between(from, ahead, true, [&](Move m) { score_family(k, m, bits, inner_); });
}

void WordExits::inner_man_moves(Work& k) const {
  const PieceType pt = type_of(inner_piece_);
  // Takes a fixed man: from every square that attacks it, one child.
  const bool promotions_only = promotions_only_[static_cast<size_t>(to_index(k.c))];
  for (Bitboard targets = promotions_only && pt != PieceType::Pawn ? 0 : k.victims; targets;) {
    const Square to = pop_lsb(targets);
    const Bitboard bits =
        k.bits & (pt == PieceType::Pawn ? pawn_attacks(~k.c, to) : piece_attacks(pt, to, k.w.occupied));
    if (!bits) continue;
    const bool promotes = pt == PieceType::Pawn && contains(last_rank(k.c), to);
    if (promotions_only && !promotes) continue;
    moves_between(lsb(bits), to, promotes, [&](Move m) { score_one(k, m, bits); });
  }
  if (pt != PieceType::Pawn) return;
  // Promotes by a step ahead: the new piece stands ahead of X.
  const Bitboard bits =
      k.bits & word_detail::relative_rank_bb(k.c, 6) & word_detail::back(k.c, ~k.w.occupied);
  if (!bits) return;
  const Square from = lsb(bits);
  const Square to = square_at(to_index(from) + pawn_push(k.c));
  moves_between(from, to, true, [&](Move m) { score_family(k, m, bits, inner_, true); });
}

void WordExits::digit_pawn_steps(Work& k, int j, Square from) const {
  if (!finished_) throw std::logic_error("a placement slice solved without its finished slices");
  const Square one = square_at(to_index(from) + pawn_push(k.c));
  if (contains(k.w.occupied, one)) return;
  score_steps(k, j, one, k.bits & ~square_bb(one));
  if (relative_rank(k.c, from) != 1) return;
  const Square two = square_at(to_index(one) + pawn_push(k.c));
  if (contains(k.w.occupied, two)) return;
  const Bitboard bits = k.bits & ~square_bb(one) & ~square_bb(two);
  // Beside a pawn of the opponent the double step may give it an e.p. capture, and then leads to a
  // position with the right: those are looked at one by one.
  const Bitboard near = word_detail::beside(square_bb(two));
  const bool inner_taker = inner_piece_ == make_piece(~k.c, PieceType::Pawn);
  const Bitboard doubtful = (near & k.w.pawns[static_cast<size_t>(to_index(~k.c))]) ? bits
                            : inner_taker                                           ? bits & near
                                                                                    : 0;
  score_steps(k, j, two, bits & ~doubtful);
  for (Bitboard b = doubtful; b;) {
    const Square sq = pop_lsb(b);
    indexing::IndexScheme::Men men = k.w.men;
    men.squares[static_cast<size_t>(inner_)] = sq;
    const Position child = layout_.placement(men, k.c)->after(Move(from, two));
    if (child.king_attacked(k.c)) continue;
    if (child.ep_square() != Square::None) {
      k.add(square_bb(sq), finished_->ep_score(child));
      continue;
    }
    men.squares[static_cast<size_t>(j)] = two;
    Score score;
    finished_->scores(~k.c, men, square_bb(sq), &score);
    k.add(square_bb(sq), score);
  }
}

void WordExits::score_steps(Work& k, int j, Square to, Bitboard bits) const {
  if (!bits) return;
  indexing::IndexScheme::Men men = k.w.men;
  men.squares[static_cast<size_t>(j)] = to;
  std::array<Score, 64> scores;
  finished_->scores(~k.c, men, bits, scores.data());
  for (int i = 0; bits; bits &= bits - 1, ++i) k.add(bits & -bits, scores[static_cast<size_t>(i)]);
}

void WordExits::score_family(Work& k, Move m, Bitboard bits, int varying, bool ahead) const {
  if (!bits) return;
  // m is the move from the first of the positions; the rest differ in one man's square.
  k.men.squares[static_cast<size_t>(inner_)] = lsb(bits);
  const ExitTables::Child child = exits_.child(scheme_, k.men, k.c, m);
  if (!scores(child.table)) return;
  const int shift = ahead ? pawn_push(k.c) : 0;
  std::array<Square, 64> squares;
  int n = 0;
  for (Bitboard b = bits; b; b &= b - 1)
    squares[static_cast<size_t>(n++)] = square_at(to_index(lsb(b)) + shift);
  std::array<Score, 64> scores;
  child.score_squares(varying, squares.data(), n, scores.data());
  for (int i = 0; bits; bits &= bits - 1, ++i) k.add(square_bb(lsb(bits)), scores[static_cast<size_t>(i)]);
}

void WordExits::score_one(Work& k, Move m, Bitboard bits) const {
  k.men.squares[static_cast<size_t>(inner_)] = m.from();
  const ExitTables::Child child = exits_.child(scheme_, k.men, k.c, m);
  if (scores(child.table)) k.add(bits, child.score());
}

}  // namespace egtb::retro
