#include "tests/api/api_support.hpp"

#include <fstream>
#include <iterator>

#include "pgn/writer.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/pgn/random_games.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

namespace egtb::test {

const Tablebase& tables() {
  static const Tablebase tb(EGTB_TEST_TABLES);
  return tb;
}

std::string studies_text() {
  std::ifstream in(data_dir() / "pgn" / "studies.pgn");
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<pgn::Game> studies() {
  ReadResult read = read_text(studies_text());
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 4);
  return std::move(read.games);
}

std::string random_games_text(size_t count, uint64_t seed) {
  Rng rng(seed);
  std::string text;
  for (size_t made = 0; made < count;)
    if (const std::optional<pgn::Game> game = random_game_into_tables(rng, 4)) {
      text += pgn::to_pgn(*game);
      ++made;
    }
  return text;
}

std::filesystem::path temp_tables(const std::vector<std::string>& names) {
  const std::filesystem::path dir = temp_file("tables");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (const std::string& name : names)
    std::filesystem::copy_file(std::filesystem::path(EGTB_TEST_TABLES) / (name + ".egtb"),
                               dir / (name + ".egtb"));
  return dir;
}

}  // namespace egtb::test
