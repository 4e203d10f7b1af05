// Helpers of the application-layer tests on the real 3-4-man tables (the ctest fixture tables_34
// builds them into build/test-tables): the tables, the hand-made studies of data/pgn/studies.pgn,
// games of random play into the tables, and directories holding a few of the tables.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "egtb/store/tablebase.hpp"
#include "pgn/game.hpp"

namespace egtb::test {

// Every 3- and 4-man table (EGTB_TEST_TABLES), opened once.
[[nodiscard]] const Tablebase& tables();

// data/pgn/studies.pgn: its text and its games, replayed.
[[nodiscard]] std::string studies_text();
[[nodiscard]] std::vector<pgn::Game> studies();

// `count` games of random play into the 3-4-man tables (tests/pgn/random_games.hpp), as PGN.
[[nodiscard]] std::string random_games_text(size_t count, uint64_t seed = 1);

// A new temporary directory holding copies of the named tables ("KBk") from the test tables.
[[nodiscard]] std::filesystem::path temp_tables(const std::vector<std::string>& names);

}  // namespace egtb::test
