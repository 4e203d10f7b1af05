// The published figures of ../shared/reference/README.md (Müller & Haworth 2020 and the longest
// mates), counted over the index462 convention: one count per valid entry of the pawnless scheme.
#include <map>

#include "egtb/core/fen.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using Values = std::array<uint64_t, 5>;  // entries of value 0, 1, 2, 3, 4

// The histogram of depths of one value.
std::map<int, uint64_t> depth_histogram(const ValueCounts& counts, Lasker value) {
  std::map<int, uint64_t> out;
  for (const auto& [key, n] : counts.depths)
    if (key.first == to_index(value)) out[key.second] = n;
  return out;
}

Score probe_fen(const char* fen) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  return solved_tables().probe(*pos);
}

}  // namespace

TEST_CASE("KQk, KBk and KNk values match the article's Table 2", "[reference]") {
  struct Row {
    const char* table;
    Values white;
    Values black;
  };
  const Row rows[] = {
      {"KQk", {0, 0, 0, 0, 18'492}, {25'691, 115, 2'838, 0, 0}},
      {"KBk", {0, 0, 23'753, 983, 0}, {0, 280, 28'364, 0, 0}},
      {"KNk", {0, 0, 25'894, 388, 0}, {0, 73, 28'571, 0, 0}},
  };
  for (const Row& row : rows) {
    INFO(row.table);
    const Table& table = solved(row.table);
    CHECK(count_values(table, Color::White).values == row.white);
    CHECK(count_values(table, Color::Black).values == row.black);
  }
}

TEST_CASE("the KBk DTS histogram matches the article", "[reference]") {
  const Table& table = solved("KBk");
  const std::map<int, uint64_t> white{{1, 139}, {3, 58},  {5, 145}, {7, 273}, {9, 146},
                                      {11, 96}, {13, 61}, {15, 28}, {17, 37}};
  const std::map<int, uint64_t> black{{0, 17},  {2, 13},  {4, 29}, {6, 72}, {8, 49},
                                      {10, 40}, {12, 33}, {14, 8}, {16, 19}};
  CHECK(depth_histogram(count_values(table, Color::White), Lasker::Stalemates) == white);
  CHECK(depth_histogram(count_values(table, Color::Black), Lasker::Stalemated) == black);
}

TEST_CASE("maxDTS of KBk and KNk match the article's Table 1", "[reference]") {
  CHECK(count_values(solved("KBk"), Color::White).max_depth(Lasker::Stalemates) ==
        std::pair<int, uint64_t>{17, 37});
  CHECK(count_values(solved("KNk"), Color::White).max_depth(Lasker::Stalemates) ==
        std::pair<int, uint64_t>{27, 9});
  CHECK(probe_fen("8/8/8/8/8/8/8/2K1B1k1 w - - 0 1") == Score(Lasker::Stalemates, 17));
  CHECK(probe_fen("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1") == Score(Lasker::Stalemates, 27));
}

TEST_CASE("the longest KQk and KRk mates are 19 and 31 plies", "[reference]") {
  CHECK(count_values(solved("KQk"), Color::White).max_depth(Lasker::Mates).first == 19);
  CHECK(count_values(solved("KRk"), Color::White).max_depth(Lasker::Mates).first == 31);
}

}  // namespace egtb::test
