// The real 3-4-man tables of the ctest fixture tables_34 (tests/tables), shared by the tests that
// probe them by FEN (tests/store/test_line.cpp, tests/retro/test_gaviota_probes.cpp). A test
// binary using these compiles real_tables.cpp with EGTB_TEST_TABLES set to the fixture's directory.
#pragma once

#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "egtb/core/position.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index.hpp"

namespace egtb::test {

// The fixture's directory of every 3- and 4-man table; the test fails when they are missing.
std::filesystem::path tables_dir();

// Every table read through one Tablebase for the whole test run, with room for all of them.
const Tablebase& tables();

// The score of a FEN; the test fails when the FEN does not parse or the probe fails.
Score probe_fen(const Tablebase& tb, const std::string& fen);

// A random legal position of a table: a random valid entry of either side to move, then a random
// board symmetry (left-right only with pawns).
Position random_position(const indexing::IndexScheme& scheme, std::mt19937_64& rng);

// Copies the fixture's table of `m` into `dir` and recompresses it there with `options`.
std::filesystem::path recompressed_copy(const Material& m, const std::filesystem::path& dir,
                                        const WriteOptions& options);

// The entries of both sides of a file in the order of the king pair leading, whatever its order.
std::array<std::vector<uint16_t>, 2> kings_first(const TableReader& reader);

}  // namespace egtb::test
