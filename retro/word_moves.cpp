#include "retro/word_moves.hpp"

namespace egtb::retro {

using namespace word_detail;

namespace {

// The squares a man of type pt and colour c on s attacks.
Bitboard attacks_of(PieceType pt, Color c, Square s, Bitboard occupied) {
  return pt == PieceType::Pawn ? pawn_attacks(c, s) : piece_attacks(pt, s, occupied);
}

}  // namespace

WordMoves::WordMoves(const indexing::WordLayout& layout) : layout_(layout) {
  inner_ = layout.inner();
  inner_color_ = color_of(layout.man_piece(inner_));
  inner_type_ = type_of(layout.man_piece(inner_));
  for (int j = 2; j < layout.man_count(); ++j) {
    if (j == inner_) continue;
    const auto side = static_cast<size_t>(to_index(color_of(layout.man_piece(j))));
    fixed_[side][static_cast<size_t>(fixed_count_[side]++)] = static_cast<int8_t>(j);
  }
  const uint64_t pair_words = layout.pair_words();
  const auto variant_words = static_cast<uint64_t>(layout.kings().size) * pair_words;
  placed_.resize(static_cast<size_t>(layout.words() / variant_words * pair_words));
  for (uint64_t first = 0; first < layout.words(); first += variant_words)  // a variant's first pair
    for (uint64_t word = first; word < first + pair_words; ++word) {
      WordMen w;
      const uint64_t placement = layout.decode(word, w.men);
      Placed& p = placed_[static_cast<size_t>(placement)];
      for (int j = 2; j < layout.man_count(); ++j) {
        if (j == inner_) continue;
        const Bitboard b = square_bb(square(w, j));
        p.overlap |= (p.occupied & b) != 0;
        p.occupied |= b;
        if (type(j) == PieceType::Pawn)
          p.pawns[static_cast<size_t>(to_index(color_of(layout.man_piece(j))))] |= b;
      }
    }
  const indexing::KkMap& kings = layout.kings();
  king_steps_.resize(static_cast<size_t>(kings.size));
  for (size_t pair = 0; pair < king_steps_.size(); ++pair)
    for (Color mover : {Color::White, Color::Black}) {
      std::array<Square, 2> squares = kings.kings[pair];
      const auto m = static_cast<size_t>(to_index(mover));
      KingSteps& steps = king_steps_[pair][m];
      for (Bitboard to = king_attacks(squares[m]) & ~king_attacks(squares[1 - m]); to;) {
        squares[m] = pop_lsb(to);
        const bool plain = layout.canonical_symmetry(squares[0], squares[1]) == Symmetry::Identity;
        (plain ? steps.plain : steps.imaged) |= square_bb(squares[m]);
      }
    }
}

void WordMoves::decode(uint64_t word, WordMen& out) const {
  out.word = word;
  const Placed& p = placed_[static_cast<size_t>(layout_.decode(word, out.men))];
  const Bitboard kings = square_bb(square(out, 0)) | square_bb(square(out, 1));
  out.occupied = p.occupied | kings;
  out.pawns = p.pawns;
  out.overlap = p.overlap || (p.occupied & kings) != 0;  // the kings of a pair never share a square
}

Bitboard WordMoves::valid(const WordMen& w, Color stm) const {
  if (w.overlap) return 0;
  Bitboard v = ~w.occupied;
  if (inner_type_ == PieceType::Pawn) v &= PawnRanks;
  const Square their_king = square(w, to_index(~stm));
  const size_t side = static_cast<size_t>(to_index(stm));
  for (int f = 0; f < fixed_count_[side]; ++f) {
    const int j = fixed_[side][static_cast<size_t>(f)];
    if (!contains(attacks_of(type(j), stm, square(w, j), w.occupied), their_king)) continue;
    // A check the innermost man can only block.
    if (!is_slider(type(j))) return 0;
    v &= between(square(w, j), their_king);
  }
  if (inner_color_ == stm)
    v &= ~(inner_type_ == PieceType::Pawn ? pawn_attacks(~stm, their_king)
                                          : piece_attacks(inner_type_, their_king, w.occupied));
  return v;
}

WordMoves::KingStep WordMoves::king_step(const WordMen& w, Color mover, Square to) const {
  indexing::IndexScheme::Men men = w.men;
  men.squares[static_cast<size_t>(to_index(mover))] = to;
  const Symmetry s = layout_.canonical_symmetry(men.squares[0], men.squares[1]);
  if (s == Symmetry::Identity) {
    // Only the king pair changes: the word moves by whole pairs (word_layout.hpp), without
    // word_of's digits (3.8% of KRPkr's solve).
    const indexing::KkMap& kings = layout_.kings();
    const uint64_t from = kings.pair[indexing::KkMap::at(w.men.squares[0], w.men.squares[1])];
    const uint64_t pair = kings.pair[indexing::KkMap::at(men.squares[0], men.squares[1])];
    return {w.word + (pair - from) * layout_.pair_words(), s};
  }
  for (int j = 0; j < layout_.man_count(); ++j)
    men.squares[static_cast<size_t>(j)] = apply(s, men.squares[static_cast<size_t>(j)]);
  return {layout_.word_of(men), s};
}

Bitboard WordMoves::forward(const WordMen& w, Color mover, Bitboard candidates, const uint64_t* targets,
                            Bitboard& ep) const {
  Bitboard good = 0;
  ep = 0;
  const auto done = [&] { return (candidates & ~good) == 0; };
  const Bitboard takers = w.pawns[static_cast<size_t>(to_index(~mover))];
  const bool inner_taker = inner_color_ == ~mover && inner_type_ == PieceType::Pawn;
  if (inner_color_ == mover) {
    const Bitboard here = targets[w.word];
    if (inner_type_ == PieceType::Pawn) {
      const Bitboard one = ahead(mover, candidates & ~relative_rank_bb(mover, 6)) & ~w.occupied;
      const Bitboard two = ahead(mover, one & relative_rank_bb(mover, 2)) & ~w.occupied;
      const Bitboard doubtful = two & beside(takers);
      ep |= back(mover, back(mover, doubtful));
      good |= back(mover, one & here) | back(mover, back(mover, two & ~doubtful & here));
    } else if (here) {
      // A piece's moves are symmetric: from reaches a square of `here` when it attacks from there.
      good |= candidates & piece_attacks_of_set(inner_type_, here & ~w.occupied, w.occupied);
    }
    if (done()) return candidates;
  }
  const size_t side = static_cast<size_t>(to_index(mover));
  for (int f = 0; f < fixed_count_[side]; ++f) {
    const int j = fixed_[side][static_cast<size_t>(f)];
    const Square from = square(w, j);
    Bitboard dests;
    Bitboard doubtful = 0;  // candidates whose double step may give an e.p. capture
    if (type(j) == PieceType::Pawn) {
      if (relative_rank(mover, from) == 6 || layout_.fixed_in_slice(j)) continue;  // exits
      const Square one = square_at(to_index(from) + pawn_push(mover));
      if (contains(w.occupied, one)) continue;
      dests = square_bb(one);
      const Square two = square_at(to_index(one) + pawn_push(mover));
      if (relative_rank(mover, from) == 1 && !contains(w.occupied, two)) {
        dests |= square_bb(two);
        const Bitboard near = beside(square_bb(two));
        doubtful = (near & takers) ? candidates : inner_taker ? candidates & near : 0;
        ep |= doubtful & ~square_bb(one) & ~square_bb(two);
      }
    } else {
      dests = piece_attacks(type(j), from, w.occupied) & ~w.occupied;
    }
    while (dests) {
      const Square to = pop_lsb(dests);
      const Bitboard open =
          square_distance(from, to) == 2 && type(j) == PieceType::Pawn ? ~doubtful : ~Bitboard{0};
      good |= targets[w.word + static_cast<uint64_t>(layout_.step(j, from, to))] & ~square_bb(to) &
              ~between(from, to) & open;
      if (done()) return candidates;
    }
  }
  const Square king = square(w, to_index(mover));
  const Square other = square(w, to_index(~mover));
  for (Bitboard dests = king_attacks(king) & ~w.occupied & ~king_attacks(other); dests;) {
    const Square to = pop_lsb(dests);
    const KingStep step = king_step(w, mover, to);
    good |= apply(inverse(step.symmetry), targets[step.word]) & ~square_bb(to);
    if (done()) return candidates;
  }
  return candidates & good;
}

Bitboard WordMoves::exit_candidates(const WordMen& w, Color stm) const {
  const Color them = ~stm;
  const size_t us_side = static_cast<size_t>(to_index(stm));
  const size_t them_side = static_cast<size_t>(to_index(them));
  Bitboard victims = 0;  // their men fixed in the word (kings are never taken)
  for (int f = 0; f < fixed_count_[them_side]; ++f)
    victims |= square_bb(square(w, fixed_[them_side][static_cast<size_t>(f)]));
  Bitboard out = 0;
  const auto capture_from = [&](PieceType pt, Square from) {
    const Bitboard att = pt == PieceType::King ? king_attacks(from) : attacks_of(pt, stm, from, w.occupied);
    if (inner_color_ == them) out |= att;
    for (Bitboard v = att & victims; v;) {
      const Square to = pop_lsb(v);
      out |= is_slider(pt) ? ~between(from, to) : ~Bitboard{0};
    }
  };
  capture_from(PieceType::King, square(w, to_index(stm)));
  for (int f = 0; f < fixed_count_[us_side]; ++f) {
    const int j = fixed_[us_side][static_cast<size_t>(f)];
    const Square from = square(w, j);
    capture_from(type(j), from);
    if (type(j) == PieceType::Pawn && (relative_rank(stm, from) == 6 || layout_.fixed_in_slice(j)))
      out |= ~square_bb(square_at(to_index(from) + pawn_push(stm)));
  }
  if (inner_color_ == stm) {
    for (Bitboard v = victims; v;) {
      const Square to = pop_lsb(v);
      out |= inner_type_ == PieceType::Pawn ? pawn_attacks(them, to)
                                            : piece_attacks(inner_type_, to, w.occupied);
    }
    if (inner_type_ == PieceType::Pawn) out |= relative_rank_bb(stm, 6) & back(stm, ~w.occupied);
  }
  return out;
}

}  // namespace egtb::retro
