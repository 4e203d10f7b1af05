// The PGN parser: tokens (pgn/lexer.hpp) to games, one game at a time, syntax only: the moves
// stay text until replay() (pgn/replay.hpp) checks them against their positions.
//
// Grammar (the PGN standard, section 8.2, with the lexer's tolerances):
//   game      := comment* tag* movetext result?
//   tag       := '[' symbol string ']'
//   movetext  := (move-number | move | nag | comment | '(' movetext ')')*
// A game ends at its result; without one, where the next game's tags begin or the input ends
// (its result is then "*"). Comments before the tags are comments before the first move. A
// variation holding only comments gives them to the move before it; an empty one is dropped.
//
// Errors are values: a PgnError names the game (its number in the input, counting bad games
// too), the line and column, and what was expected. The parser returns it at once and, when asked
// for the next game, skips the rest of the bad one: past the result that ends it or up to a '[' at
// the start of a line after its movetext, so one bad game never stops a file. It skips at most
// MaxGameBytes: what follows is read as the next game (an endless bad game, /dev/zero, gives one
// error per MaxGameBytes). Example:
//   games.pgn:7:12: game 2: expected a tag value after 'Event', found ']'
//
// One game's memory is bounded: a game past MaxGameMoves moves (the mainline's and every
// variation's, about 300 bytes each in memory), MaxGameTags tags or MaxGameBytes bytes of text
// (from its first token: moves, tag values and comments, each at most MaxTokenBytes) is an error:
//   games.pgn:100003:1: game 1: the game from line 1 has more than 100000 moves
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "egtb/core/expected.hpp"
#include "pgn/game.hpp"
#include "pgn/lexer.hpp"

namespace egtb::pgn {

// The deepest nesting of variations read (a deeper one is an error, so a hostile file cannot
// exhaust the stack of code that walks games recursively).
inline constexpr int MaxVariationDepth = 64;
// The most one game may hold (see above).
inline constexpr size_t MaxGameMoves = 100'000;
inline constexpr size_t MaxGameTags = 1'000;
inline constexpr uint64_t MaxGameBytes = uint64_t{8} << 20;

struct PgnError {
  uint64_t game = 0;  // 1-based number of the game in the input
  Location location;
  std::string message;
};

// "name:line:col: game N: message".
[[nodiscard]] std::string format_error(const PgnError& error, std::string_view source_name);

class Parser {
public:
  explicit Parser(std::istream& in);

  // The next game, moves as text; an error when the game is malformed (the parser has then moved
  // to the next game); nothing at the end of the input.
  [[nodiscard]] std::optional<Expected<Game, PgnError>> next();

  // Bytes of the input consumed so far.
  [[nodiscard]] uint64_t offset() const { return lexer_.offset(); }
  // Games returned so far, bad ones included.
  [[nodiscard]] uint64_t games() const { return games_; }

private:
  struct Line;

  enum class Skip : uint8_t { None, Tags, Movetext };  // the rest of a bad game to skip

  Lexer lexer_;
  Token token_;  // the current token (one token of lookahead)
  uint64_t games_ = 0;
  Skip skip_ = Skip::None;
  uint64_t game_offset_ = 0;  // of the current game's first token
  uint64_t game_line_ = 0;

  void advance() { lexer_.next(token_); }
  [[nodiscard]] std::optional<PgnError> read_tags(Game& game);
  [[nodiscard]] std::optional<PgnError> read_tag(Game& game);
  [[nodiscard]] std::optional<PgnError> read_movetext(Game& game);
  [[nodiscard]] std::optional<PgnError> read_element(Game& game, std::vector<Line>& lines);
  [[nodiscard]] std::optional<PgnError> open_variation(Game& game, std::vector<Line>& lines);
  void close_variation(Game& game, std::vector<Line>& lines);
  [[nodiscard]] PgnError fail(std::string message) const;
  [[nodiscard]] PgnError unexpected_token(std::string_view expected) const;
  // An error when the game has passed one of its limits (MaxGameMoves ...).
  [[nodiscard]] std::optional<PgnError> check_limits(const Game& game) const;
  void recover(bool in_movetext);
};

}  // namespace egtb::pgn
