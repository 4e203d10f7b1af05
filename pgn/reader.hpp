// Reading games from a PGN stream one at a time, each parsed (pgn/parser.hpp) and replayed
// (pgn/replay.hpp): the serial reader. A program that reads in parallel runs the two stages
// itself, the parser in order and replay() on many games at once.
//
//   std::ifstream in("games.pgn");
//   pgn::GameReader reader(in);
//   while (auto game = reader.next()) {
//     if (!*game) { std::cerr << pgn::format_error(game->error(), "games.pgn") << '\n'; continue; }
//     ... (*game)->mainline() ...
//   }
#pragma once

#include <istream>
#include <optional>

#include "pgn/parser.hpp"
#include "pgn/replay.hpp"

namespace egtb::pgn {

class GameReader {
public:
  explicit GameReader(std::istream& in) : parser_(in) {}

  // The next game with its moves checked; an error when it is malformed or holds an illegal move
  // (the reader has then moved to the next game); nothing at the end of the input.
  [[nodiscard]] std::optional<Expected<Game, PgnError>> next() {
    std::optional<Expected<Game, PgnError>> game = parser_.next();
    if (game && *game)
      if (std::optional<PgnError> e = replay(**game)) return unexpected(std::move(*e));
    return game;
  }

  [[nodiscard]] uint64_t offset() const { return parser_.offset(); }

private:
  Parser parser_;
};

}  // namespace egtb::pgn
