// Helpers of the game tests (test_game.cpp, test_values.cpp): a game read from PGN text, and the
// positions where a query matches in it.
#pragma once

#include <sstream>
#include <string>
#include <string_view>

#include "pgn/reader.hpp"
#include "query/eval.hpp"
#include "tests/support/catch.hpp"

namespace egtb::query::testing {

// The first game of `text`, numbered 7.
inline pgn::Game read_game(const std::string& text) {
  std::istringstream in(text);
  pgn::GameReader reader(in);
  auto game = reader.next();
  REQUIRE(game.has_value());
  REQUIRE(game->has_value());
  pgn::Game g = std::move(**game);
  g.number = 7;
  return g;
}

// The nodes (in preorder) where the query matches, as "1 4 5".
inline std::string matching(std::string_view query, const pgn::Game& game) {
  const auto program = compile(query);
  if (!program) return "compile error: " + program.error().message;
  Evaluator evaluator(*program);
  std::string out;
  for (pgn::NodeId n : game.preorder()) {
    const auto v = evaluator.evaluate(game, n);
    if (!v) return "eval error: " + v.error().message;
    if (v->matched) out += (out.empty() ? "" : " ") + std::to_string(n);
  }
  return out;
}

}  // namespace egtb::query::testing
