// Moves and un-moves of 64 positions at once: the kernels of the solver, over the words of the
// generation index (indexing/word_layout.hpp).
//
// A word fixes every man but the innermost one, whose square is the bit. A man that is fixed in the
// word moves between words: the position with the innermost man on x goes to bit x of the word
// where the man's digit has changed, as long as x is not the man's target square and does not
// stand in its path; so one AND with a mask moves all 64 positions. The kings' moves may leave the
// canonical king pairs: the whole word is then mapped by a board symmetry, bits included. The
// innermost man moves inside its word.
//
// Example, KQRkr with Black to move (innermost man r), word Ka1 kc1 Qd4 Rh1, bits {e8, e5}: the
// un-move of the queen from d4 back to d2 gives, with White to move, the word Ka1 kc1 Qd2 Rh1 and
// the bits {e8, e5} minus d2 and the squares between (d3): {e8, e5}; back to g7 the mask takes out
// e5 (between d4 and g7 lies e5 and f6) and g7: {e8}.
//
// Legality is not asked here: the solver intersects with its set of valid positions, and a move's
// target set only holds valid positions, so a move that leaves the mover's king in check never
// reaches one. Captures and promotions leave the table and are not moves here (exit_candidates
// finds the positions that have one). Double pawn steps that give the opponent an e.p. capture
// lead into the e.p. section, which the solver handles position by position: tables with pawns of
// both colours pass `ep_guard` to take them out (see EpGuard). In a placement slice
// (word_layout.hpp) the digit pawns do not move: their steps lead to finished slices, and like
// captures they are exits (exit_candidates; retro/word_exits.hpp scores them).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "egtb/core/attacks.hpp"
#include "egtb/core/symmetry.hpp"
#include "indexing/word_layout.hpp"

namespace egtb::retro {

// The men of one word, the innermost left out.
struct WordMen {
  uint64_t word = 0;
  indexing::IndexScheme::Men men;
  Bitboard occupied = 0;            // the men besides the innermost
  std::array<Bitboard, 2> pawns{};  // their pawns, by colour
  bool overlap = false;             // two of them share a square: no position in the word
};

class WordMoves {
public:
  explicit WordMoves(const indexing::WordLayout& layout);

  [[nodiscard]] const indexing::WordLayout& layout() const { return layout_; }
  void decode(uint64_t word, WordMen& out) const;

  // The bits of the legal positions with `stm` to move: no man on another's square, no pawn on
  // rank 1 or 8, the side not to move not in check.
  [[nodiscard]] Bitboard valid(const WordMen& w, Color stm) const;

  // The predecessors of the positions `bits` of word w (whose side to move is ~mover), with
  // `mover` to move: unmoves calls local(word, bits) for the un-moves of mover's men besides the
  // king, which stay in the king pair's words; king_unmoves calls far(word, bits) for the king's,
  // which may lead to another pair. A double step back that lands beside a pawn of the side to
  // move may have given it an e.p. capture, and then the predecessor's move led to the e.p.
  // position, not to this one: unmoves leaves such un-moves to ep(man, from, bits), bits being
  // the positions of w whose man `man` (for the innermost man, the one bit's) stepped from `from`.
  template <class Local, class Ep>
  void unmoves(const WordMen& w, Color mover, Bitboard bits, Local&& local, Ep&& ep) const;
  // king_unmoves looks only at the king's origins among `origins`.
  template <class Far>
  void king_unmoves(const WordMen& w, Color mover, Bitboard bits, Bitboard origins, Far&& far) const;

  // The squares next to the king of `mover` in king pair `pair` (a KkMap number), not touching the
  // other king, where it leaves the pair canonical as it stands: a king move or un-move between
  // the two pairs needs no symmetry, and a word's image is the word at the same offset in the
  // other pair (word_layout.hpp). Example, a pawn table, white king d4 and black king h8: for
  // White c3, c4, c5, d3 and d5; e3, e4 and e5 lead to the mirror image (white king on the d-file),
  // and are its imaged_king_steps.
  [[nodiscard]] Bitboard plain_king_steps(size_t pair, Color mover) const {
    return king_steps_[pair][static_cast<size_t>(to_index(mover))].plain;
  }
  // The other squares next to that king, not touching the other king: those that lead to an image.
  [[nodiscard]] Bitboard imaged_king_steps(size_t pair, Color mover) const {
    return king_steps_[pair][static_cast<size_t>(to_index(mover))].imaged;
  }

  // Of the positions `candidates` of word w (mover to move), those with a move inside the table to a
  // position of `targets` (the opponent's positions, one bit each, in the same layout). Double
  // steps that land beside an opponent's pawn may lead to an e.p. position instead: they are left
  // out, and `ep` receives the candidates that have one (for the caller to look at one by one).
  [[nodiscard]] Bitboard forward(const WordMen& w, Color mover, Bitboard candidates, const uint64_t* targets,
                                 Bitboard& ep) const;

  // A superset of the positions of word w whose side to move has a capture, a promotion or (in a
  // placement slice) a step of a digit pawn.
  [[nodiscard]] Bitboard exit_candidates(const WordMen& w, Color stm) const;

  // The word of the canonical image of w's men with the king of `mover` moved to `to`, and the
  // symmetry that maps the bits there.
  struct KingStep {
    uint64_t word;
    Symmetry symmetry;
  };
  [[nodiscard]] KingStep king_step(const WordMen& w, Color mover, Square to) const;

private:
  const indexing::WordLayout& layout_;
  // The men fixed in a word (not a king, not the innermost) of each colour.
  std::array<std::array<int8_t, indexing::MaxIndexMen>, 2> fixed_{};
  std::array<int, 2> fixed_count_{};
  Color inner_color_ = Color::White;
  PieceType inner_type_ = PieceType::None;
  int inner_ = 0;
  // WordMen's sets of the digits' men (the kings left out), by placement (WordLayout::decode):
  // decoding a word then adds the kings to them instead of going through every man.
  struct Placed {
    Bitboard occupied = 0;
    std::array<Bitboard, 2> pawns{};
    bool overlap = false;
  };
  std::vector<Placed> placed_;
  struct KingSteps {
    Bitboard plain = 0, imaged = 0;
  };
  std::vector<std::array<KingSteps, 2>> king_steps_;  // by pair, by mover

  [[nodiscard]] Square square(const WordMen& w, int j) const { return w.men.squares[static_cast<size_t>(j)]; }
  [[nodiscard]] PieceType type(int j) const { return type_of(layout_.man_piece(j)); }
};

namespace word_detail {

constexpr Bitboard PawnRanks = ~(Rank1BB | Rank8BB);

// The squares a pawn of `c` stands on one step back of the squares b.
constexpr Bitboard back(Color c, Bitboard b) { return c == Color::White ? b >> 8 : b << 8; }
constexpr Bitboard ahead(Color c, Bitboard b) { return c == Color::White ? b << 8 : b >> 8; }
// Rank r (0 = the first) as seen by c.
constexpr Bitboard relative_rank_bb(Color c, int r) { return rank_bb(c == Color::White ? r : 7 - r); }
// The squares beside the squares b on their ranks: where a pawn can take a pawn on b e.p.
constexpr Bitboard beside(Bitboard b) { return ((b & ~FileHBB) << 1) | ((b & ~FileABB) >> 1); }

}  // namespace word_detail

template <class Local, class Ep>
void WordMoves::unmoves(const WordMen& w, Color mover, Bitboard bits, Local&& local, Ep&& ep) const {
  using namespace word_detail;
  const size_t side = static_cast<size_t>(to_index(mover));
  // The pawns of the side to move that could take a double-stepped pawn e.p.
  const Bitboard takers = w.pawns[static_cast<size_t>(to_index(~mover))];
  const bool inner_taker = inner_color_ == ~mover && inner_type_ == PieceType::Pawn;
  for (int f = 0; f < fixed_count_[side]; ++f) {
    const int j = fixed_[side][static_cast<size_t>(f)];
    const Square to = square(w, j);
    if (type(j) == PieceType::Pawn) {
      if (relative_rank(mover, to) < 2 || layout_.fixed_in_slice(j)) continue;
      const Square one = square_at(to_index(to) - pawn_push(mover));
      if (contains(w.occupied, one)) continue;
      local(w.word + static_cast<uint64_t>(layout_.step(j, to, one)), bits & ~square_bb(one));
      if (relative_rank(mover, to) != 3) continue;
      const Square two = square_at(to_index(one) - pawn_push(mover));
      if (contains(w.occupied, two)) continue;
      const Bitboard moved = bits & ~square_bb(one) & ~square_bb(two);
      const Bitboard near = beside(square_bb(to));
      const Bitboard doubtful = (near & takers) ? moved : inner_taker ? moved & near : 0;
      if (moved & ~doubtful)
        local(w.word + static_cast<uint64_t>(layout_.step(j, to, two)), moved & ~doubtful);
      if (doubtful) ep(j, two, doubtful);
      continue;
    }
    for (Bitboard origins = piece_attacks(type(j), to, w.occupied) & ~w.occupied; origins;) {
      const Square from = pop_lsb(origins);
      local(w.word + static_cast<uint64_t>(layout_.step(j, to, from)),
            bits & ~square_bb(from) & ~between(from, to));
    }
  }
  if (inner_color_ == mover) {
    Bitboard origins = 0;
    if (inner_type_ == PieceType::Pawn) {
      const Bitboard one = back(mover, bits & ~relative_rank_bb(mover, 1)) & ~w.occupied;
      const Bitboard two = back(mover, one & relative_rank_bb(mover, 2)) & ~w.occupied;
      const Bitboard doubtful = two & back(mover, back(mover, beside(takers)));
      origins = one | (two & ~doubtful);
      for (Bitboard d = doubtful; d;) {
        const Square from = pop_lsb(d);
        ep(inner_, from, ahead(mover, ahead(mover, square_bb(from))));
      }
    } else {
      origins = piece_attacks_of_set(inner_type_, bits, w.occupied) & ~w.occupied;
    }
    if (origins) local(w.word, origins);
  }
}

template <class Far>
void WordMoves::king_unmoves(const WordMen& w, Color mover, Bitboard bits, Bitboard origins,
                             Far&& far) const {
  const Square king = square(w, to_index(mover));
  const Square other = square(w, to_index(~mover));
  for (origins &= king_attacks(king) & ~w.occupied & ~king_attacks(other); origins;) {
    const Square from = pop_lsb(origins);
    const Bitboard moved = bits & ~square_bb(from);
    if (!moved) continue;
    const KingStep step = king_step(w, mover, from);
    far(step.word, apply(step.symmetry, moved));
  }
}

}  // namespace egtb::retro
