// The published figures of ../shared/reference/README.md, computed by the statistics library in
// the three counting conventions: the article's Table 2 (index462), the physical KQk totals, the
// Syzygy-style class counts of KQvK and KPvK, the KBk DTS histogram and the maxDTS rows of the
// article's Table 1 with their example positions.
#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "tests/stats/stats_fixture.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

using stats::Convention;
using Values = std::array<uint64_t, 5>;  // positions of value 0, 1, 2, 3, 4

uint64_t count(const stats::SideSummary& s, Lasker v) { return s.lasker[static_cast<size_t>(to_index(v))]; }

// Positions of values 1, 2 and 3: the draws of ordinary chess.
uint64_t chess_draws(const stats::SideSummary& s) {
  return count(s, Lasker::Stalemated) + count(s, Lasker::Draw) + count(s, Lasker::Stalemates);
}

// Plays the line from the example and returns the final position.
Position end_of_line(const stats::Deepest& d) {
  Position pos = d.example;
  for (Move m : d.line) {
    REQUIRE(is_legal_move(pos, m));
    pos.do_move(m);
  }
  return pos;
}

}  // namespace

TEST_CASE("index462 values of KQk, KBk and KNk are the article's Table 2", "[stats][reference]") {
  struct Row {
    const char* table;
    uint64_t white_positions;
    Values white;
    Values black;
  };
  const Row rows[] = {
      {"KQk", 18'492, {0, 0, 0, 0, 18'492}, {25'691, 115, 2'838, 0, 0}},
      {"KBk", 24'736, {0, 0, 23'753, 983, 0}, {0, 280, 28'364, 0, 0}},
      {"KNk", 26'282, {0, 0, 25'894, 388, 0}, {0, 73, 28'571, 0, 0}},
  };
  for (const Row& row : rows) {
    INFO(row.table);
    const stats::TableStatistics t = table_stats(row.table, Convention::Index462);
    CHECK(t.side(Color::White).positions() == row.white_positions);
    CHECK(t.side(Color::Black).positions() == 28'644);
    CHECK(t.side(Color::White).lasker == row.white);
    CHECK(t.side(Color::Black).lasker == row.black);
  }
}

TEST_CASE("physical KQk: 144,508 and 223,944 positions, 364 mates and 872 stalemates", "[stats][reference]") {
  const stats::TableStatistics t = table_stats("KQk", Convention::Physical);
  CHECK(t.side(Color::White).positions() == 144'508);
  CHECK(t.side(Color::Black).positions() == 223'944);
  const stats::SideSummary& black = t.side(Color::Black);
  CHECK(black.depths[static_cast<size_t>(to_index(Lasker::Mated))].at(0) == 364);
  CHECK(black.depths[static_cast<size_t>(to_index(Lasker::Stalemated))].at(0) == 872);
}

TEST_CASE("classes: KQvK and KPvK wins, losses and draws are the Syzygy counts", "[stats][reference]") {
  const stats::TableStatistics kqk = table_stats("KQk", Convention::Classes);
  CHECK(count(kqk.side(Color::White), Lasker::Mates) == 18'081);
  CHECK(count(kqk.side(Color::Black), Lasker::Mated) == 25'160);
  CHECK(chess_draws(kqk.side(Color::Black)) == 2'896);
  const stats::TableStatistics kpk = table_stats("KPk", Convention::Classes);
  CHECK(count(kpk.side(Color::White), Lasker::Mates) == 62'480);
  CHECK(chess_draws(kpk.side(Color::White)) == 19'184);
  CHECK(count(kpk.side(Color::Black), Lasker::Mated) == 48'802);
  CHECK(chess_draws(kpk.side(Color::Black)) == 35'210);
}

TEST_CASE("the KBk DTS histogram is the article's", "[stats][reference]") {
  const stats::TableStatistics t = table_stats("KBk", Convention::Index462);
  const stats::DepthHistogram white{{1, 139}, {3, 58},  {5, 145}, {7, 273}, {9, 146},
                                    {11, 96}, {13, 61}, {15, 28}, {17, 37}};
  const stats::DepthHistogram black{{0, 17},  {2, 13},  {4, 29}, {6, 72}, {8, 49},
                                    {10, 40}, {12, 33}, {14, 8}, {16, 19}};
  CHECK(t.side(Color::White).dts() == white);
  CHECK(t.side(Color::Black).dts() == black);
  CHECK(t.side(Color::White).dtm().empty());
}

TEST_CASE("maxDTS of KBk and KNk is the article's Table 1 in every convention", "[stats][reference]") {
  struct Row {
    const char* table;
    int plies;
    std::array<uint64_t, 3> positions;  // index462, physical, classes
    const char* example;
  };
  const Row rows[] = {
      {"KBk", 17, {37, 288, 36}, "8/8/8/8/8/8/8/2K1B1k1 w - - 0 1"},
      {"KNk", 27, {9, 72, 9}, "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"},
  };
  for (const Row& row : rows)
    for (size_t c = 0; c < 3; ++c) {
      const Convention convention = indexing::AllConventions[c];
      INFO(row.table << " " << indexing::convention_name(convention));
      const stats::TableStatistics t = table_stats(row.table, convention);
      REQUIRE(t.max_dts.has_value());
      CHECK(t.max_dts->plies == row.plies);
      CHECK(t.max_dts->positions == row.positions[c]);
      CHECK(t.max_dts->side_to_move == Color::White);
      CHECK(t.max_dts->winner == Color::White);
      CHECK(to_fen(t.max_dts->example) == row.example);
      CHECK(static_cast<int>(t.max_dts->line.size()) == row.plies);
      CHECK(is_stalemate(end_of_line(*t.max_dts)));
      CHECK_FALSE(t.max_dtm.has_value());
    }
}

TEST_CASE("maxDTM of KQk is mate in 10 and KQk has no maxDTS", "[stats][reference]") {
  const stats::TableStatistics t = table_stats("KQk", Convention::Index462);
  CHECK_FALSE(t.max_dts.has_value());
  REQUIRE(t.max_dtm.has_value());
  CHECK(t.max_dtm->plies == 19);
  CHECK(t.max_dtm->side_to_move == Color::White);
  CHECK(t.max_dtm->line.size() == 19);
  CHECK(is_checkmate(end_of_line(*t.max_dtm)));
  // The loser to move is one ply deeper: the histogram has Black mated in 10 (20 plies).
  CHECK(t.side(Color::Black).dtm().rbegin()->first == 20);
}

TEST_CASE("KPk lines promote and leave the table", "[stats]") {
  const stats::TableStatistics t = table_stats("KPk", Convention::Index462);
  REQUIRE(t.max_dtm.has_value());
  CHECK(t.max_dtm->plies == 55);
  CHECK(is_checkmate(end_of_line(*t.max_dtm)));
  REQUIRE(t.max_dts.has_value());
  CHECK(t.max_dts->plies == 41);
  CHECK(is_stalemate(end_of_line(*t.max_dts)));
}

}  // namespace egtb::test
