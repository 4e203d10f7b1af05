// The solver's working state of one position: 16 bits, the Score packing (egtb/store/score.hpp)
// extended by two codes that only exist while a table is being solved.
//
//   bits 0-2   code                          bits 3-15
//   0..4       resolved Lasker value         its depth in plies: DTM (0, 4) or DTS (1, 3); 0 for
//                                            a draw
//   5          Invalid (not a position, or   0
//              a duplicate entry of a
//              symmetric position)
//   6          Open: value not known yet     bits 3-7: the exit bound, the slowest loss through
//                                            a move that leaves the table into a position the
//                                            opponent wins (0 when there is none; 31 stands for
//                                            31 or more: the solver asks the exits again when it
//                                            needs the exact figure); bits 8-15: the counter,
//                                            the number of legal moves whose child is not yet
//                                            known to be good for the opponent (value 4 while
//                                            mates are solved, 3 or 4 while stalemates are). At
//                                            zero the position is lost, no faster than the bound.
//   7          Pending: the position wins    the win's depth
//              at this depth through a move
//              that leaves the table at the
//              latest (a capture or promotion
//              into a won subtable position),
//              unless a move inside the table
//              wins sooner
//
// Example: a White-to-move KQRkr position whose best move captures the rook into a KQk
// position where Black is mated in 6 plies starts as Pending 7 (7 << 3 | 7 = 63). If at ply 5 a
// move inside the table reaches a position lost in 4, it becomes resolved 4 with depth 5
// (5 << 3 | 4 = 44); otherwise the scan of ply 7 resolves it to 4 with depth 7. A Black-to-move
// position with 12 legal moves, one of them a capture into a KQk position that White mates in 9,
// starts Open with counter 11 and exit bound 10: 11 << 8 | 10 << 3 | 6 = 2902. Keeping the
// counter in the state makes a refuted move one atomic subtraction of CounterUnit from one word.
#pragma once

#include <algorithm>
#include <cstdint>

#include "egtb/store/score.hpp"

namespace egtb::retro {

class State {
public:
  static constexpr uint16_t InvalidCode = 5;
  static constexpr uint16_t OpenCode = 6;
  static constexpr uint16_t PendingCode = 7;

  constexpr State() = default;
  static constexpr State resolved(Lasker value, int depth) {
    return State(static_cast<uint16_t>(to_index(value)), depth);
  }
  static constexpr State invalid() { return State(InvalidCode, 0); }
  // The counter's unit and its largest value (no 5-man position has more than 100 legal moves).
  static constexpr uint16_t CounterUnit = 1 << 8;
  static constexpr int MaxCounter = 255;
  // The exit bound that stands for itself or more.
  static constexpr int SaturatedBound = 31;
  static constexpr State open(int counter, int exit_bound) {
    State s;
    s.raw_ =
        static_cast<uint16_t>(counter * CounterUnit | std::min(exit_bound, SaturatedBound) << 3 | OpenCode);
    return s;
  }
  static constexpr State pending(int win_depth) { return State(PendingCode, win_depth); }
  static constexpr State from_raw(uint16_t raw) {
    State s;
    s.raw_ = raw;
    return s;
  }

  [[nodiscard]] constexpr uint16_t code() const { return raw_ & 7; }
  // Precondition: not is_open().
  [[nodiscard]] constexpr int depth() const { return raw_ >> 3; }
  // Precondition: is_open().
  [[nodiscard]] constexpr int counter() const { return raw_ / CounterUnit; }
  [[nodiscard]] constexpr int exit_bound() const { return (raw_ >> 3) & SaturatedBound; }
  [[nodiscard]] constexpr bool is_resolved() const { return code() <= 4; }
  [[nodiscard]] constexpr bool is_invalid() const { return code() == InvalidCode; }
  [[nodiscard]] constexpr bool is_open() const { return code() == OpenCode; }
  [[nodiscard]] constexpr bool is_pending() const { return code() == PendingCode; }
  // Open or Pending: still to be decided.
  [[nodiscard]] constexpr bool is_unresolved() const { return code() >= OpenCode; }
  // Precondition: is_resolved().
  [[nodiscard]] constexpr Lasker value() const { return static_cast<Lasker>(code()); }
  [[nodiscard]] constexpr uint16_t raw() const { return raw_; }
  constexpr bool operator==(const State&) const = default;

  // The finished table's score: unresolved positions are draws.
  [[nodiscard]] constexpr Score to_score() const {
    if (is_invalid()) return Score::invalid();
    if (is_unresolved()) return Score::draw();
    return Score(value(), depth());
  }

private:
  constexpr State(uint16_t code, int depth) : raw_(static_cast<uint16_t>(code | (depth << 3))) {}
  uint16_t raw_ = InvalidCode;
};

// A resolved state is its own score, and so are Invalid and a draw: the solver turns its states
// into the table's scores in place.
static_assert(State::resolved(Lasker::Mates, 19).raw() == Score(Lasker::Mates, 19).raw());
static_assert(State::resolved(Lasker::Stalemated, 8).raw() == Score(Lasker::Stalemated, 8).raw());
static_assert(State::invalid().raw() == Score::invalid().raw());
static_assert(State::resolved(Lasker::Draw, 0).raw() == Score::draw().raw());
static_assert(State::open(11, 10).raw() == 2902 && State::open(11, 10).counter() == 11 &&
              State::open(11, 10).exit_bound() == 10 && State::open(1, 40).exit_bound() == 31);
static_assert(State::pending(7).raw() == 63);

}  // namespace egtb::retro
