// Games of random play for the PGN tests and benchmarks (tests/pgn/make_games.cpp): games with
// variations, comments and NAGs, and games from the initial position into the tables.
#pragma once

#include <optional>

#include "pgn/game.hpp"
#include "tests/core/random_play.hpp"

namespace egtb::test {

// A game of random play from one of RandomPlayStarts with random variations (nested up to three
// deep), comments (with braces, '%', quotes and UTF-8 in them), NAGs and tags.
[[nodiscard]] pgn::Game random_annotated_game(Rng& rng);

// A game of random play from the initial position into the tables (bench/pgn_bench.sh,
// make_games.cpp): random legal moves, a capture whenever one is drawn from the moves with
// probability 7/8, until at most `men` men are left and neither side may castle, then 10 to 40
// more random plies or until the game ends; its result tag tells checkmate (1-0, 0-1) and
// stalemate (1/2-1/2), "*" otherwise. Nothing when the tables are not reached within 400 plies.
[[nodiscard]] std::optional<pgn::Game> random_game_into_tables(Rng& rng, int men);

}  // namespace egtb::test
