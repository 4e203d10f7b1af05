// Working through the games of a PGN stream in parallel with the results in input order: what
// `egtb annotate` and `egtb query --pgn-in` share.
//
// The parser (pgn/parser.hpp) reads one game after another (syntax only, fast); each game is then
// replayed (its moves checked) and given to `work` on any of `threads` threads; what `work`
// returns runs one game at a time, in input order, and the game stays alive until it has. A game
// that cannot be read goes, in its turn, to `on_error` with its PgnError (located: game number,
// line, column), and the rest goes on. Games in flight are bounded (a few per thread), so memory
// stays constant on a file of any size.
//
//   for_each_game(in, options, [&](pgn::Game& game) -> GameDelivery {
//     std::string text = ...;                                    // on a worker thread
//     return [text = std::move(text)] { std::cout << text; };   // in input order
//   }, on_error);
// An exception thrown by `work` or by a delivery (a damaged table) stops the stream and reaches
// the caller.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>

#include "pgn/game.hpp"
#include "pgn/parser.hpp"

namespace egtb::api {

// What to do, in input order, with the result of one game.
using GameDelivery = std::function<void()>;
using GameWork = std::function<GameDelivery(pgn::Game& game)>;

struct GameStreamProgress {
  uint64_t games = 0;  // delivered so far, bad ones included
  uint64_t bytes = 0;  // of the input read up to the last game delivered
};

struct GameStreamOptions {
  int threads = 0;                                          // 0: every core
  std::function<void(const GameStreamProgress&)> progress;  // after each game, in input order
  std::function<bool()> stop;                               // asked before each game is read
};

struct GameStreamCounts {
  uint64_t games = 0;   // read, bad ones included
  uint64_t errors = 0;  // games that could not be read
};

// The number of games of `in`, bad ones included (the parser's syntax only, no move replayed):
// the last game's number.
uint64_t count_games(std::istream& in);

// Runs `work` on every game of `in` that can be read, `on_error` on every other.
GameStreamCounts for_each_game(std::istream& in, const GameStreamOptions& options, const GameWork& work,
                               const std::function<void(const pgn::PgnError&)>& on_error);

}  // namespace egtb::api
