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
#include <span>

#include "retro/solver.hpp"
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

  // What a move into a child of value v (the opponent's) is in this phase: refuted (the opponent
  // wins it here or earlier), refuted bounding a loss (a win of this phase: its depth bounds how
  // fast the mover can lose), an escape, an escape that wins (a loss of this phase), or a child
  // an earlier phase decided the mover wins through. Example, Lasker's stalemate phase: 4
  // refuted, 3 bounds, 2 escapes, 1 wins, 0 earlier.
  enum class Role : uint8_t { Refuted, Bounds, Escapes, Wins, Earlier };
  [[nodiscard]] Role role(Lasker v) const {
    if (v == win) return Role::Bounds;
    if (refutes(v)) return Role::Refuted;
    if (decided_earlier(v)) return Role::Earlier;
    return v == loss ? Role::Wins : Role::Escapes;
  }
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

// The exits of the positions of one word for one phase: ExitSummary's fields as a bit per position,
// the depths only where they are set. Most children only refute or escape, which takes an OR for
// all the positions a probe answers (KRPkr: every position's pawn step into a finished slice).
// Example: the positions of bits 3 and 9 capture into a draw and bit 9 also promotes into a child
// the opponent loses at depth 6: moves = escape = bits 3 and 9, win = bit 9, win_depth[9] = 7.
struct WordExitSummary {
  Bitboard moves = 0;                             // positions with a legal move out of the table
  Bitboard escape = 0;                            // ExitSummary::escape
  Bitboard win = 0;                               // those with a win_depth
  Bitboard bound = 0;                             // those with a loss_bound above 0
  std::array<int, 64> win_depth{}, loss_bound{};  // by bit, for the bits of `win` and `bound`

  // The summary of the position of bit k, which has a legal move out of the table.
  [[nodiscard]] ExitSummary of(int k) const {
    return {contains(win, square_at(k)) ? win_depth[static_cast<size_t>(k)] : NoWin,
            contains(bound, square_at(k)) ? loss_bound[static_cast<size_t>(k)] : 0,
            contains(escape, square_at(k))};
  }
};

// The table's own positions that the steps of a placement slice's digit pawns lead to
// (indexing/word_layout.hpp), in the slices solved before it (retro/solved_slice.hpp).
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

// Which moves out of the table a WordExits scores: all of them, only those into paged subtables
// (retro/paged_exits.hpp scores those of every slice of a table in one pass), or all the others
// (the captures into subtables held whole, the digit pawns' steps into finished slices).
enum class ExitChildren : uint8_t { All, Paged, Unpaged };

class WordExits {
public:
  // `finished`: the slices a placement slice's digit pawns step into (nullptr for other layouts).
  WordExits(const indexing::WordLayout& layout, const indexing::IndexScheme& scheme, const ExitTables& exits,
            const FinishedSlices* finished = nullptr, ExitChildren children = ExitChildren::All);

  // The summaries of the positions `bits` of word w with c to move and no e.p. right, for each of
  // `phases` from one generation and probing of their moves: out[k] for phases[k]. A summary for
  // a phase after the first of `phases` leaves out the children that the phases before it decide
  // (a position with such a child is decided there: its later summary is never read). Example,
  // Lasker's two phases: a rook takes a rook into a KRk position the opponent is mated in; the
  // first summary has the win, the second leaves the child out.
  void summarize(const WordMen& w, Color c, Bitboard bits, std::span<const PhaseValues> phases,
                 std::span<WordExitSummary> out) const;

private:
  const indexing::WordLayout& layout_;
  const indexing::IndexScheme& scheme_;
  const ExitTables& exits_;
  const FinishedSlices* finished_;
  ExitChildren children_;
  // By side to move: with ExitChildren::Paged, whether only promotions can lead into a paged
  // subtable (no capture does: every 5-man table), so that no other move is generated.
  std::array<bool, 2> promotions_only_{};
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
  // Whether the children in `table` (nullptr: bare kings) are scored here.
  [[nodiscard]] bool scores(const Table* table) const {
    return children_ == ExitChildren::All ||
           (table && table->is_paged()) == (children_ == ExitChildren::Paged);
  }
};

}  // namespace egtb::retro
