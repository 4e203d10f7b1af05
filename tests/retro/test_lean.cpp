// The lean path (SolveConfig::lean, retro/depth_records.hpp): no depth byte in memory, each ply's
// decided positions in a scratch file. It solves every table as the normal path does, whole or in
// slices, with both metrics or DTM alone; its scratch files have no name; a full disk is an
// IoError naming what was being written.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "egtb/store/error.hpp"
#include "retro/depth_records.hpp"
#include "retro/solver.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

retro::SolveConfig lean_config(const std::filesystem::path& dir) {
  retro::SolveConfig config;
  config.threads = 2;
  config.lean = true;
  config.scratch_directory = dir;
  return config;
}

TEST_CASE("a pair slot's depths are rebuilt from its plies' records", "[retro][lean]") {
  const TempDir dir;
  retro::DepthRecords records(dir.path(), 2, 8);
  std::vector<uint64_t> words(8);
  words[3] = (uint64_t{1} << 5) | (uint64_t{1} << 9);  // sparse: a byte per square
  words[4] = ~uint64_t{0};                             // dense: the word as it is
  const std::vector<uint32_t> listed{3, 4};
  records.append(Color::Black, 1, 0, 19, words.data(), listed);
  words.assign(8, 0);
  words[0] = 1;
  records.append(Color::Black, 1, 1, 300, words.data(), std::vector<uint32_t>{0});
  records.append(Color::White, 1, 1, 2, words.data(), std::vector<uint32_t>{0});
  records.flush();
  CHECK(std::filesystem::is_empty(dir.path()));
  std::vector<uint16_t> codes(8 * 64);
  records.rebuild(Color::Black, 1, codes);
  CHECK(codes[0] == 300);
  CHECK(codes[3 * 64 + 5] == (retro::DepthRecords::FirstPhase | 19));
  CHECK(codes[3 * 64 + 9] == (retro::DepthRecords::FirstPhase | 19));
  CHECK(codes[3 * 64 + 6] == retro::DepthRecords::NotDecided);
  CHECK(std::count(codes.begin(), codes.end(), retro::DepthRecords::FirstPhase | 19) == 66);
  CHECK(std::count(codes.begin(), codes.end(), retro::DepthRecords::NotDecided) == 8 * 64 - 67);
  records.rebuild(Color::Black, 0, codes);
  CHECK(std::count(codes.begin(), codes.end(), retro::DepthRecords::NotDecided) == 8 * 64);
  CHECK_THROWS_AS(
      records.append(Color::White, 0, 0, Score::MaxDepth + 1, words.data(), std::vector<uint32_t>{0}),
      std::overflow_error);
}

TEST_CASE("the lean path solves a table as the normal path does", "[retro][lean]") {
  for (const char* sig : {"KQk", "KRk", "KPk", "KBNk", "KNNk", "KQkr", "KRkn", "KPkp", "KRkp"}) {
    INFO(sig);
    const TempDir dir;
    const Table& normal = solved(sig);  // after its subtables
    const auto lean = retro::solve(parse_material(sig), solved_tables(), lean_config(dir.path()));
    CHECK(same_scores(*lean, normal));
    CHECK(std::filesystem::is_empty(dir.path()));
  }
}

TEST_CASE("the lean path solves a pawn table in slices as the normal path does", "[retro][lean]") {
  for (const auto slicing : {indexing::Slicing::Placements, indexing::Slicing::Files}) {
    for (const char* sig : {"KRkp", "KPkp"}) {
      INFO(sig);
      const TempDir dir;
      const Table& normal = solved(sig);
      retro::SolveConfig config = lean_config(dir.path());
      config.slicing = slicing;
      const auto lean = retro::solve(parse_material(sig), solved_tables(), config);
      CHECK(same_scores(*lean, normal));
    }
  }
}

TEST_CASE("the lean path solves DTM alone as the normal path does", "[retro][lean]") {
  const TempDir dir;
  solved("KQkr");  // its subtables
  const auto normal = solve_fresh(parse_material("KQkr"), false);
  retro::SolveConfig config = lean_config(dir.path());
  config.metrics = MetricSet{Metric::Dtm};
  const auto lean = retro::solve(parse_material("KQkr"), solved_tables(), config);
  CHECK(same_scores(*lean, *normal));
}

TEST_CASE("the lean path on a full disk is an IoError naming the decided plies", "[retro][lean]") {
  const TempDir dir;
  solved("KQkr");  // its subtables, solved before the limit
  const FileSizeLimit limit(4096);
  CHECK_THROWS_WITH(
      retro::solve(parse_material("KQkr"), solved_tables(), lean_config(dir.path())),
      Catch::Contains(dir.path().string()) && Catch::Contains("cannot write the decided plies"));
}

}  // namespace
}  // namespace egtb::test
