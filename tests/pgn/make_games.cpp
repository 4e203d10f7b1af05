// make_games N [MEN] [SEED]: N games of random play from the initial position into the tables
// (test::random_game_into_tables, tests/pgn/random_games.hpp), as PGN on standard output, for
// measuring `egtb annotate`, `egtb query --pgn-in` and reading (bench/pgn_bench.sh). A program,
// not a test. MEN defaults to 4, SEED to 1; the same arguments give the same file.
#include <cstdlib>
#include <iostream>
#include <string>

#include "pgn/writer.hpp"
#include "tests/pgn/random_games.hpp"

using namespace egtb;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_games N [MEN] [SEED]\n";
    return 2;
  }
  const long count = std::atol(argv[1]);
  const int men = argc > 2 ? std::atoi(argv[2]) : 4;
  test::Rng rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  for (long made = 0; made < count;) {
    std::optional<pgn::Game> game = test::random_game_into_tables(rng, men);
    if (!game) continue;
    ++made;
    game->set_tag("Event", "random play");
    game->set_tag("Round", std::to_string(made));
    pgn::write_game(std::cout, *game);
  }
}
