// Positions as the front ends receive them: a FEN (the command line, the HTTP API, Python) or the
// bitboards an engine keeps (the C library, in the manner of the Fathom probing API).
//
// Board sets: one bitboard per colour and one per piece type, bit i for square i (a1 = 0, b1 = 1,
// ..., h8 = 63, as egtb/core/bitboard.hpp). Example, White Ke1 Qd1 v Black Ke8, White to move:
//   white = e1|d1 = 0x18, black = e8 = 0x1000'0000'0000'0000, kings = e1|e8, queens = d1,
//   the other piece sets 0, no e.p. square.
// Every man must have exactly one colour and one type; the e.p. square is the square a pawn
// skipped with its double step (e3 or e6), as in FEN. The position is then checked like a FEN's
// (validate(), position.hpp) when it is probed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "egtb/core/bitboard.hpp"
#include "egtb/core/expected.hpp"
#include "egtb/core/position.hpp"

namespace egtb::api {

struct BoardSets {
  Bitboard white = 0;
  Bitboard black = 0;
  Bitboard kings = 0;
  Bitboard queens = 0;
  Bitboard rooks = 0;
  Bitboard bishops = 0;
  Bitboard knights = 0;
  Bitboard pawns = 0;
  Square ep_square = Square::None;
  Color side_to_move = Color::White;
};

// The longest FEN parse_position reads (a FEN of five men is about 40 characters).
inline constexpr size_t MaxFenBytes = 256;

// The position of a FEN as users write it: "startpos" is the initial position, and '_' stands for
// a space, as in the URLs of the lichess tablebase API ("8/8/8/8/8/8/8/K1k5_w_-_-_0_1"). Throws
// InputError with the FenError's message and field (egtb/core/fen.hpp), or for a text longer than
// MaxFenBytes.
[[nodiscard]] Position parse_position(std::string_view fen);

// The position of board sets, or why they do not describe one: a square in both colours, a man
// without a colour, a man of no type or of two types. The men are not checked for legality here.
[[nodiscard]] Expected<Position, std::string> position_from_sets(const BoardSets& sets);

}  // namespace egtb::api
