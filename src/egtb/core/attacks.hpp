// Attack sets of every piece from every square.
//
// Leapers (king, knight, pawn) use constexpr tables. Sliders use "magic" bitboards: the
// occupied squares on a piece's rays (its mask, board edges excluded) are multiplied by a
// per-square magic number and the top bits of the product index a table of attack sets.
// Example: a rook on a1 has a 12-square mask (a2-a7, b1-g1); with any occupancy the product's
// top 12 bits select one of 4096 entries, and entries that share an index share the attack set.
// The magic numbers are constants (see attacks.cpp); the tables are filled at program start.
#pragma once

#include <array>

#include "egtb/core/bitboard.hpp"

namespace egtb {

namespace detail {

struct Magic {
  Bitboard mask = 0;
  Bitboard magic = 0;
  const Bitboard* table = nullptr;
  unsigned shift = 0;

  [[nodiscard]] size_t index(Bitboard occupied) const {
    return static_cast<size_t>(((occupied & mask) * magic) >> shift);
  }
};

struct SliderTables {
  std::array<Magic, SquareCount> rook{};
  std::array<Magic, SquareCount> bishop{};
};

struct LineTables {
  std::array<std::array<Bitboard, SquareCount>, SquareCount> between{};
  std::array<std::array<Bitboard, SquareCount>, SquareCount> line{};
};

extern const SliderTables& Sliders;
extern const LineTables& Lines;

constexpr Bitboard leaper_attacks(Square s, const int (&steps)[8][2]) {
  Bitboard b = 0;
  for (const auto& step : steps) {
    const int f = file_of(s) + step[0];
    const int r = rank_of(s) + step[1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= square_bb(make_square(f, r));
  }
  return b;
}

constexpr std::array<Bitboard, SquareCount> leaper_table(const int (&steps)[8][2]) {
  std::array<Bitboard, SquareCount> t{};
  for (int i = 0; i < SquareCount; ++i) t[static_cast<size_t>(i)] = leaper_attacks(square_at(i), steps);
  return t;
}

constexpr int KingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
constexpr int KnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
constexpr int WhitePawnSteps[8][2] = {{-1, 1}, {1, 1}, {-1, 1}, {1, 1}, {-1, 1}, {1, 1}, {-1, 1}, {1, 1}};
constexpr int BlackPawnSteps[8][2] = {{-1, -1}, {1, -1}, {-1, -1}, {1, -1},
                                      {-1, -1}, {1, -1}, {-1, -1}, {1, -1}};

inline constexpr auto KingTable = leaper_table(KingSteps);
inline constexpr auto KnightTable = leaper_table(KnightSteps);
inline constexpr std::array<std::array<Bitboard, SquareCount>, 2> PawnTable = {leaper_table(WhitePawnSteps),
                                                                               leaper_table(BlackPawnSteps)};

}  // namespace detail

constexpr Bitboard king_attacks(Square s) { return detail::KingTable[static_cast<size_t>(to_index(s))]; }
constexpr Bitboard knight_attacks(Square s) { return detail::KnightTable[static_cast<size_t>(to_index(s))]; }
// The squares a pawn of colour c on s attacks (its diagonal captures).
constexpr Bitboard pawn_attacks(Color c, Square s) {
  return detail::PawnTable[static_cast<size_t>(to_index(c))][static_cast<size_t>(to_index(s))];
}

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::Sliders.rook[static_cast<size_t>(to_index(s))];
  return m.table[m.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const detail::Magic& m = detail::Sliders.bishop[static_cast<size_t>(to_index(s))];
  return m.table[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from s given the occupied squares.
Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied);

// The union of piece_attacks(pt, s, occupied) over the squares s of `from` (which count as empty
// for one another), by moving the whole set at once: shifts for leapers, Kogge-Stone occluded
// fills (three doubling steps per direction) for sliders. Cheaper than square by square from
// about three squares on. Example: rooks on a1 and h8 of an empty board attack the a- and h-files
// and the first and eighth ranks, a1 and h8 left out (no ray of one reaches the other's square).
Bitboard piece_attacks_of_set(PieceType pt, Bitboard from, Bitboard occupied);

// The squares strictly between a and b when they share a rank, file or diagonal, else 0.
inline Bitboard between(Square a, Square b) {
  return detail::Lines.between[static_cast<size_t>(to_index(a))][static_cast<size_t>(to_index(b))];
}
// The whole line (edge to edge) through a and b when they are aligned, else 0.
inline Bitboard line(Square a, Square b) {
  return detail::Lines.line[static_cast<size_t>(to_index(a))][static_cast<size_t>(to_index(b))];
}

// The men of `own` pinned to their king: each stands alone between the king and an enemy slider
// on its line (`straight`: their rooks and queens, `diagonal`: their bishops and queens). Example:
// our king on e1, our knight on f2, their bishop on h4: the knight alone stands between them and is
// pinned; with a second man of ours on g3, neither is.
inline Bitboard pinned_men(Square king, Bitboard own, Bitboard occupied, Bitboard straight,
                           Bitboard diagonal) {
  const Bitboard enemy = occupied & ~own;
  Bitboard snipers = (rook_attacks(king, enemy) & straight) | (bishop_attacks(king, enemy) & diagonal);
  Bitboard pinned = 0;
  while (snipers) {
    const Bitboard blockers = between(king, pop_lsb(snipers)) & occupied;
    if (blockers && !more_than_one(blockers) && (blockers & own)) pinned |= blockers;
  }
  return pinned;
}

}  // namespace egtb
