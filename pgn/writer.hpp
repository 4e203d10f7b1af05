// Writing games as PGN, in the export format of the PGN standard (section 8), which other
// programs read (tests/pgn checks every kind of game egtb writes with pgn-extract):
//
//   [Event "?"]                      the seven tag roster first, in its order, "?" for a tag the
//   [Site "?"]                       game lacks ("????.??.??" for Date, the termination marker for
//   [Date "????.??.??"]              Result); then the game's other tags in its order; a game from
//   [Round "?"]                      another start position without a FEN tag gets [FEN] and
//   [White "?"]                      [SetUp "1"]; '\' and '"' in values escaped
//   [Black "?"]
//   [Result "1-0"]
//   [FEN "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"]
//   [SetUp "1"]
//                                    a blank line
//   {a study} 1. Nc5 $1 {only move} Ka1 (1... Ka2 2. Kc2) 2. Kc1 Ka2 3. Kc2 Ka3 1-0
//                                    then a blank line
//
// Movetext: moves in SAN computed from the positions (check signs, minimal disambiguation), the
// number before every White move and before a Black move that starts a line or follows a
// comment or a variation ("1... Ka2"); NAGs as $n after their move; comments in braces after
// their move (a variation's starting comments after its '('); variations after the move they
// replace; the result last. Lines are wrapped at `width` columns (79) between words, a move
// number staying with its move; a word longer than that stands alone on its line. A '}' in a
// comment's text, which PGN cannot write, is written as ')'; a line never starts with '%' (an
// escape line to readers): such a line starts with a space instead.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "pgn/game.hpp"

namespace egtb::pgn {

struct WriteOptions {
  size_t width = 79;  // the longest line of movetext
  bool comments = true;
  bool nags = true;
  bool variations = true;
};

// The game as PGN text, ending with a blank line. The game must be replayed (pgn/replay.hpp).
[[nodiscard]] std::string to_pgn(const Game& game, const WriteOptions& options = {});
void write_game(std::ostream& out, const Game& game, const WriteOptions& options = {});

}  // namespace egtb::pgn
