// The men of one side besides the king, grouped by the way they attack: what the solver's loops
// on bare squares (predecessors.cpp, successors.cpp) test checks with. Example: White's Qd1 and
// Rh1 give diagonal = {d1} and straight = {d1, h1}; attackers(Black, e2, occupied) finds d1.
#pragma once

#include "egtb/core/attacks.hpp"
#include "egtb/core/types.hpp"

namespace egtb::retro {

struct SideMen {
  Bitboard pawns = 0;
  Bitboard knights = 0;
  Bitboard diagonal = 0;  // bishops and queens
  Bitboard straight = 0;  // rooks and queens

  void toggle(PieceType pt, Bitboard squares) {
    if (pt == PieceType::Pawn) pawns ^= squares;
    if (pt == PieceType::Knight) knights ^= squares;
    if (pt == PieceType::Bishop || pt == PieceType::Queen) diagonal ^= squares;
    if (pt == PieceType::Rook || pt == PieceType::Queen) straight ^= squares;
  }
  // These men attacking square k, where a man of colour `victim` stands.
  [[nodiscard]] Bitboard attackers(Color victim, Square k, Bitboard occupied) const {
    return (pawn_attacks(victim, k) & pawns) | (knight_attacks(k) & knights) |
           (bishop_attacks(k, occupied) & diagonal) | (rook_attacks(k, occupied) & straight);
  }
  // Every square these men, of colour `owner`, attack. A man attacks the square of the man that
  // stops it, so a king (left out of `occupied`) may move to none of these squares, a capture
  // included: taking a man does not take away the attacks of the others on its square.
  [[nodiscard]] Bitboard attacks(Color owner, Bitboard occupied) const {
    Bitboard out = 0;
    for (Bitboard men = pawns; men;) out |= pawn_attacks(owner, pop_lsb(men));
    for (Bitboard men = knights; men;) out |= knight_attacks(pop_lsb(men));
    for (Bitboard men = diagonal; men;) out |= bishop_attacks(pop_lsb(men), occupied);
    for (Bitboard men = straight; men;) out |= rook_attacks(pop_lsb(men), occupied);
    return out;
  }
};

}  // namespace egtb::retro
