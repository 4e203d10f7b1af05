// Square-set primitives shared by the CQL filters: attacks as CQL defines them, attack chains
// and rays, pins and pseudo-legal reach. All take the position's current occupancy.
//
// "A man on s attacks t" when a king of the other colour on t would be in check from it: pawns
// attack diagonally forward, sliders stop at the first occupied square, and a man attacks the
// squares of its own men too. Example: with a white rook on a1 and a white king on d1, the rook
// attacks b1, c1, d1 and a2..a8.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb::query {

// The squares the man on s attacks (0 for an empty square).
[[nodiscard]] Bitboard attacks_from(const Position& pos, Square s);
// The squares of `from` whose man attacks some square of `targets` (the value of from -> targets).
[[nodiscard]] Bitboard attackers_in(const Position& pos, Bitboard from, Bitboard targets);
// The squares of `targets` attacked by some man on `from` (the value of targets <- from).
[[nodiscard]] Bitboard attacked_in(const Position& pos, Bitboard targets, Bitboard from);

// Directions as bits: 0 north (up), 1 north-east, 2 east (right), 3 south-east, 4 south,
// 5 south-west, 6 west, 7 north-west. Even bits are orthogonal, odd bits diagonal.
using DirectionSet = uint8_t;
inline constexpr DirectionSet AllDirections = 0xff;
inline constexpr DirectionSet OrthogonalDirections = 0x55;
inline constexpr DirectionSet DiagonalDirections = 0xaa;
inline constexpr std::array<std::array<int, 2>, 8> DirectionSteps = {
    {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

// The rays through masks[0], masks[1], ... masks[n-1] along one direction each: from a square of
// masks[0], every following square is empty until a man of the next mask; the inner masks must
// be met on occupied squares in order (an empty square of an inner mask may also be passed over);
// the squares of the last mask are collected up to and including the first occupied one.
// With `attack`, masks[0] must hold a slider moving in that direction (the -> chains of three or
// more, and xray). Returns the squares of masks[0] that start a ray and the last-mask squares
// reached. Example: "R -> n -> k" holds when a white rook pins a knight to the black king.
struct RayMatch {
  Bitboard first = 0;
  Bitboard last = 0;
};
[[nodiscard]] RayMatch match_rays(const Position& pos, std::span<const Bitboard> masks,
                                  DirectionSet directions, bool attack);

// The men pinned, pinning or pinned to, as CQL's pin filter: a slider on `from` whose line to a
// square of `to` (a man of the other colour, or empty) holds exactly one man, of the other colour
// and on `through`. `to` defaults to the kings.
enum class PinRole : uint8_t { From, Through, To };
[[nodiscard]] Bitboard pin_squares(const Position& pos, Bitboard from, Bitboard through, Bitboard to,
                                   PinRole role);
[[nodiscard]] Bitboard pinned_men(const Position& pos);  // pin: every man pinned to its king

// Squares a man on s may move to pseudo-legally (own king's safety ignored), e.p. included.
[[nodiscard]] Bitboard pseudolegal_targets(const Position& pos, Square s);

// The moves of the side to move's men by their rules whether or not they leave its king in check
// (CQL's "move pseudolegal"), castling left out: a pawn reaching the last rank promotes to each of
// Q R B N, and captures en passant onto `ep` (none: Square::None) when it stands beside the pawn
// that passed it. Example: in "4r1k1/8/8/8/8/8/4B3/4K3 w" Be2-d3 is one of them (it leaves the king
// to the rook) but no legal move. A vector: an odd board may hold more moves than a MoveList.
[[nodiscard]] std::vector<Move> pseudolegal_moves(const Position& pos, Square ep);

// The union of the squares strictly between a square of `a` and an aligned square of `b`.
[[nodiscard]] Bitboard between_sets(Bitboard a, Bitboard b);

}  // namespace egtb::query
