// FEN in and out.
//
// parse_fen accepts the six FEN fields; the two counters may be omitted together (EPD style).
// Every rejection names the field and the problem, e.g.
//   "FEN field 1 (piece placement): rank 8 has 9 files"
//   "FEN position: Black (not to move) is in check".
#pragma once

#include <string>
#include <string_view>

#include "egtb/core/expected.hpp"
#include "egtb/core/position.hpp"

namespace egtb {

struct FenError {
  int field = 0;        // 1..6, or 0 when the fields are fine but the position is not legal
  std::string message;  // complete, ready to print

  [[nodiscard]] const std::string& what() const { return message; }
};

// What parse_fen checks beyond the syntax of the fields. Legal: validate() (position.hpp), what
// the tables, probes and games need. Board: nothing more, as CQL reads positions (composed or
// random lists, FEN tags): missing or extra kings, a side not to move in check, triple checks,
// pawns on the first or last rank, castling rights and e.p. squares that do not fit the board
// are all kept, for `legalposition` and `reachableposition` to detect.
enum class FenCheck { Legal, Board };

[[nodiscard]] Expected<Position, FenError> parse_fen(std::string_view fen, FenCheck check = FenCheck::Legal);
[[nodiscard]] std::string to_fen(const Position& pos);

// The placement and side to move only ("8/8/8/8/8/8/8/K6k w"), e.g. for diagrams and keys.
[[nodiscard]] std::string placement_fen(const Position& pos);

inline constexpr std::string_view StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

}  // namespace egtb
