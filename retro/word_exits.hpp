// The moves out of the table (captures and promotions) of the 64 positions of a word of the
// generation layout, scored in the subtables and summed up per position for one phase of the
// solver.
//
// A capture or promotion is legal exactly when the position it leads to is legal, so the
// subtable's score tells both: Score::invalid() for a move that would leave the mover's king in
// check. No move is generated position by position; each kind of move is found for the whole word
// with bitboards, and its children differ in at most one man (X is the innermost man, the bit):
//
//   kind                             positions (bits)               children
//   a fixed man takes a fixed man    X off the path and the target  X on its square
//   a fixed man takes X              X on a square the man attacks  the taker on X's square
//   X takes a fixed man              X on a square attacking it     one child for the word
//   a fixed pawn promotes            X off the promotion square     X on its square
//   X, a pawn on its 7th, promotes   the square ahead empty         the new piece ahead of X
//   a digit pawn steps (placement    X off the path                 X on its square, in the
//   slices only)                                                    slice the step leads to
//
// Example, KQRkr with Black to move, word Ka1 kh8 Qd1 Rb2 (the black rook X is the bit): X takes
// the queen from every square of the d-file and of rank 1 that sees d1, and all those moves lead to
// the one KRkr position Ka1 kh8 Rb2 rd1 with White to move: one probe for the word. The king h8
// takes no man (none stands next to it); X takes the rook from the b-file and rank 2: KQkr children.
#pragma once

#include <array>

#include "retro/generator.hpp"
#include "retro/subtables.hpp"
#include "retro/word_moves.hpp"

namespace egtb::retro {

inline constexpr int NoWin = Score::MaxDepth + 1;

// How children's values count in one phase of solving (rules.hpp, SolvePhase). Example, Lasker's
// stalemate phase: a child the opponent wins by mate or stalemate (4 or 3) refutes the move, one
// he is stalemated in (1) is a win, one he is mated in (0) cannot occur (the mate phase decided
// every position with such a move), anything else escapes.
struct PhaseValues {
  Lasker win = Lasker::Mates;
  Lasker loss = Lasker::Mated;
  uint8_t refuting = 0;        // bit per value: wins of this phase and the earlier ones
  uint8_t earlier_losses = 0;  // bit per value: losses of the earlier phases

  // The values of phase `phase` of the rules.
  [[nodiscard]] static PhaseValues of(Rules rules, size_t phase);
  [[nodiscard]] bool refutes(Lasker v) const { return (refuting >> to_index(v)) & 1; }
  [[nodiscard]] bool decided_earlier(Lasker v) const { return (earlier_losses >> to_index(v)) & 1; }
};

// What the moves leaving the table contribute to one phase: a child the opponent loses in this
// phase is a win, one he wins a refuted move (and the slowest of them bounds a loss), anything
// else an escape.
struct ExitSummary {
  int win_depth = NoWin;  // fastest win through a move out of the table
  int loss_bound = 0;     // slowest loss through one
  bool escape = false;    // a move out of the table that the opponent does not win
};

// Adds a legal move out of the table to `child` (the opponent's score there) to e.
void add_exit(ExitSummary& e, const PhaseValues& phase, Score child);

// The exits of the positions of one word.
struct WordExitSummary {
  std::array<ExitSummary, 64> of{};  // by bit, for the bits of `moves`
  Bitboard moves = 0;                // positions with a legal move out of the table
};

// The table's own positions that the steps of a placement slice's digit pawns lead to
// (indexing/word_layout.hpp), in the slices solved before it (retro/generator.cpp).
class FinishedSlices {
public:
  virtual ~FinishedSlices() = default;
  // The scores of men of the table (kings on a canonical pair) with stm to move and no e.p. right,
  // the innermost man on each square of `squares` in turn: out[i] for the i-th lowest.
  virtual void scores(Color stm, const indexing::IndexScheme::Men& men, Bitboard squares,
                      Score* out) const = 0;
  // The score of a legal position of the table with an e.p. right.
  [[nodiscard]] virtual Score ep_score(const Position& pos) const = 0;
};

class WordExits {
public:
  // `finished`: the slices a placement slice's digit pawns step into (nullptr for other layouts).
  WordExits(const indexing::WordLayout& layout, const indexing::IndexScheme& scheme, const ExitTables& exits,
            const FinishedSlices* finished = nullptr);

  // The summaries for `phase` of the positions `bits` of word w with c to move and no e.p. right.
  void summarize(const WordMen& w, Color c, Bitboard bits, const PhaseValues& phase,
                 WordExitSummary& out) const;

private:
  const indexing::WordLayout& layout_;
  const indexing::IndexScheme& scheme_;
  const ExitTables& exits_;
  const FinishedSlices* finished_;
  int inner_;
  Piece inner_piece_;

  // What one call of summarize works with.
  struct Work;
  void fixed_man_moves(Work& k, int j) const;
  void inner_man_moves(Work& k) const;
  // The steps of digit pawn j from `from` in a placement slice, into the finished slices.
  void digit_pawn_steps(Work& k, int j, Square from) const;
  // The steps of digit pawn j to `to` from the positions `bits` that give no e.p. capture.
  void score_steps(Work& k, int j, Square to, Bitboard bits) const;
  // The children of move m from the positions `bits` (X on each of them), where man `varying`
  // stands on X's square (the innermost man itself, or the man that takes it) or, with
  // `ahead`, on the square ahead of X (the piece X promotes to).
  void score_family(Work& k, Move m, Bitboard bits, int varying, bool ahead = false) const;
  // The one child of move m, which does not depend on X's square, for the positions `bits`.
  void score_one(Work& k, Move m, Bitboard bits) const;
};

}  // namespace egtb::retro
