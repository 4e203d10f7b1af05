// Un-move generation: the predecessors of a position, for retrograde analysis.
//
// generate_unmoves(pos, options, out) appends every pair (Q, m) such that Q is legal (validate(Q)
// finds nothing), m is a legal move of Q and Q.after(m) is the same position as pos
// (Position::same_position), restricted to the kinds of move the options allow. Below, "we" are
// the side to move in pos and "they" the side that just moved (the side to move in Q). Q never
// has castling rights, and pos must have none. Each kind, with an example from the tests:
//
// 1. Quiet un-move of a piece or king. Their man goes back from its square `to` to a square it
//    attacks from there (piece moves are reversible, and the path is empty in pos and Q alike).
//    Example: in pos "4k3/8/8/8/8/8/8/R3K3 b" the rook a1 came from a2..a7 or b1..d1. Not from
//    a8: there it would check our king e8 while White is to move in Q, and Q would be illegal.
//
// 2. Un-capture (options.uncaptures). The same un-moves, and the diagonal steps back of their
//    pawns, leaving one of our men of an allowed type on `to`. Never a king, and never a pawn
//    on rank 1 or 8. With uncaptures = {Knight}, "4k3/8/8/8/8/8/8/R3K3 b" also has the
//    predecessor "4k3/8/8/8/R7/8/8/n3K3 w" with the move Rxa1 (a4a1).
//
// 3. Pawn steps back. A pawn goes back one square, or two from its 4th rank when both squares
//    behind it are empty. The e.p. square of pos decides which (do_move records one exactly when
//    a legal e.p. capture follows the double step):
//      "4k3/8/8/8/4P3/8/8/4K3 b -"  : e3-e4 and e2-e4 (no black pawn could take e.p.);
//      "4k3/8/8/8/3pP3/8/8/4K3 b -" : only e3-e4, since e2-e4 would have recorded e3;
//      "4k3/8/8/8/3pP3/8/8/4K3 b - e3": only e2-e4, and no un-move of any other man.
//    A pinned capturer changes the answer: in "8/8/8/8/R2pP2k/8/8/4K3 b -" dxe3 e.p. would
//    expose the king h4 to the rook a4, so e2-e4 is a predecessor move there.
//
// 4. Un-promotion (options.unpromotions). Their knight, bishop, rook or queen on their last
//    rank becomes a pawn on their 7th: straight back (quiet) or diagonally back, the latter
//    only as an un-capture of one of our allowed types other than the pawn. In
//    "3Q3k/8/8/8/8/8/8/K7 b" the queen came by d7-d8=Q, and with uncaptures = {Rook} also by
//    c7xd8=Q or e7xd8=Q from "3r3k/2P5/8/8/8/8/8/K7 w" and "3r3k/4P3/8/8/8/8/8/K7 w".
//
// 5. E.p. un-capture (options.ep_uncaptures; it does not need Pawn in uncaptures). Their pawn on
//    their 6th rank came diagonally from the 5th, and our pawn reappears beside its origin,
//    directly behind the capture square, which becomes Q's e.p. square. From
//    "4k3/8/3P4/8/8/8/8/4K3 b": Q = "4k3/8/8/3pP3/8/8/8/4K3 w - d6" with exd6 e.p. (and c5xd6).
//
// 6. E.p. rights in Q (options.ep_rights). Each predecessor of kinds 1-4 is also returned with an
//    e.p. square, once per square, when one of our pawns could just have made a double step
//    and they have a legal e.p. capture of it in Q, that they did not play. In
//    "4k3/8/8/3pP3/8/8/8/3K4 b" White may have played Ke1-d1 from
//    "4k3/8/8/3pP3/8/8/8/4K3 w - d6" instead of exd6.
//
// Legality. pos must be legal; when the side not to move is in check nothing is returned
// (nothing legal leads there). Given that, every un-move built as above is a legal move of Q, so
// only Q needs checking: our king must not stand attacked in Q (tested with bitboards before Q
// is built; the un-captured man is ours and cannot attack it), Q may give their king at most
// two checks unless options.triple_checks (only a king move escapes three, so only king
// un-moves count them), no side may
// exceed 8 pawns or 16 men, and when Q has an e.p. square every check on their king must come
// from the pawn that double-stepped or be discovered through its origin square (validate()'s
// rule). Their king may be in check in Q: the move m escaped it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"
#include "egtb/core/types.hpp"

namespace egtb {

// A set of piece types as a bitmask: bit i stands for the PieceType of value i.
// Example: {Pawn, Rook} is (1 << 1) | (1 << 4) = 0x12. Iterates in PieceType order.
class PieceTypeSet {
public:
  class Iterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = PieceType;
    using difference_type = std::ptrdiff_t;
    using pointer = const PieceType*;
    using reference = PieceType;

    constexpr Iterator() = default;
    constexpr explicit Iterator(uint8_t bits) : bits_(bits) {}
    constexpr PieceType operator*() const { return static_cast<PieceType>(std::countr_zero(bits_)); }
    constexpr Iterator& operator++() {
      bits_ = static_cast<uint8_t>(bits_ & (bits_ - 1));
      return *this;
    }
    constexpr Iterator operator++(int) {
      const Iterator before = *this;
      ++*this;
      return before;
    }
    constexpr bool operator==(const Iterator&) const = default;

  private:
    uint8_t bits_ = 0;
  };

  constexpr PieceTypeSet() = default;
  constexpr PieceTypeSet(std::initializer_list<PieceType> types) {
    for (PieceType pt : types) bits_ = static_cast<uint8_t>(bits_ | bit(pt));
  }

  [[nodiscard]] constexpr bool contains(PieceType pt) const { return (bits_ & bit(pt)) != 0; }
  [[nodiscard]] constexpr bool empty() const { return bits_ == 0; }
  [[nodiscard]] constexpr int size() const { return std::popcount(bits_); }
  [[nodiscard]] constexpr PieceTypeSet with(PieceType pt) const { return from_bits(bits_ | bit(pt)); }
  [[nodiscard]] constexpr PieceTypeSet without(PieceType pt) const { return from_bits(bits_ & ~bit(pt)); }
  [[nodiscard]] constexpr Iterator begin() const { return Iterator(bits_); }
  [[nodiscard]] constexpr Iterator end() const { return Iterator(0); }
  constexpr bool operator==(const PieceTypeSet&) const = default;

private:
  static constexpr unsigned bit(PieceType pt) { return 1u << to_index(pt); }
  static constexpr PieceTypeSet from_bits(unsigned bits) {
    PieceTypeSet s;
    s.bits_ = static_cast<uint8_t>(bits);
    return s;
  }

  uint8_t bits_ = 0;
};

// Every type a capture can remove.
inline constexpr PieceTypeSet CapturableTypes{PieceType::Pawn, PieceType::Knight, PieceType::Bishop,
                                              PieceType::Rook, PieceType::Queen};

// A predecessor and the move that leads from it to the given position: before.after(move) is
// the same position.
struct Unmove {
  Position before;
  Move move;
};

// Which kinds of last move to undo (see the comment at the top). The default undoes only quiet
// moves: those that keep the material.
struct UnmoveOptions {
  // Types of ours (the side to move in pos) that may reappear on the destination square by an
  // un-capture. Kings are ignored; pawns never reappear on rank 1 or 8.
  PieceTypeSet uncaptures;
  // Their knight, bishop, rook or queen on their last rank may become a pawn on their 7th.
  bool unpromotions = false;
  // The last move may be an e.p. capture; our pawn reappears beside. Independent of uncaptures.
  bool ep_uncaptures = false;
  // Also predecessors with an e.p. square (they had a legal e.p. capture and played m instead).
  bool ep_rights = false;
  // Also predecessors whose side to move stands in check by three or more men (a king move
  // escaped them): positions that validate() rejects and validate_table_position() accepts.
  bool triple_checks = false;
};

// Appends to `out` every (Q, m) of the kinds allowed, each once; `out` is not cleared. Q has the
// counters of pos. Preconditions: validate(pos) finds nothing apart from the side not to move
// standing in check (then nothing is appended), and pos has no castling rights.
void generate_unmoves(const Position& pos, const UnmoveOptions& options, std::vector<Unmove>& out);

}  // namespace egtb
