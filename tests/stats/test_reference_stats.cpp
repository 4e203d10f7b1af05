// The published figures of ../shared/reference/README.md, computed by the statistics library in
// the three counting conventions: the article's Table 2 (index462), the physical KQk totals, the
// Syzygy-style class counts of KQvK and KPvK, the KBk DTS histogram and the maxDTS rows of the
// article's Table 1 with their example positions; the depths of those rows read from table headers.
#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/store/reader.hpp"
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
  CHECK(t.side(Color::White).histogram(Rules::Lasker, Metric::Dts) == white);
  CHECK(t.side(Color::Black).histogram(Rules::Lasker, Metric::Dts) == black);
  CHECK(t.side(Color::White).histogram(Rules::Lasker, Metric::Dtm).empty());
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
      const auto& d = t.deepest_of(Metric::Dts, Color::White);
      REQUIRE(d.has_value());
      CHECK(d->plies == row.plies);
      CHECK(d->positions == row.positions[c]);
      CHECK(d->side_to_move == Color::White);
      CHECK(d->winner == Color::White);
      CHECK(to_fen(d->example) == row.example);
      CHECK(static_cast<int>(d->line.size()) == row.plies);
      CHECK(is_stalemate(end_of_line(*d)));
      CHECK_FALSE(t.deepest_of(Metric::Dts, Color::Black).has_value());
      CHECK_FALSE(t.deepest_of(Metric::Dtm, Color::White).has_value());
      CHECK_FALSE(t.deepest_of(Metric::Dtm, Color::Black).has_value());
    }
}

TEST_CASE("maxDTM of KQk is 20 plies with Black to move, mated in 10, and KQk has no maxDTS",
          "[stats][reference]") {
  const stats::TableStatistics t = table_stats("KQk", Convention::Index462);
  for (Color c : {Color::White, Color::Black}) CHECK_FALSE(t.deepest_of(Metric::Dts, c).has_value());
  CHECK_FALSE(t.deepest_of(Metric::Dtm, Color::Black).has_value());
  const auto& d = t.deepest_of(Metric::Dtm, Color::White);
  REQUIRE(d.has_value());
  CHECK(d->plies == 20);
  CHECK(d->side_to_move == Color::Black);
  CHECK(d->positions == t.side(Color::Black).histogram(Rules::Lasker, Metric::Dtm).rbegin()->second);
  CHECK(d->line.size() == 20);
  CHECK(is_checkmate(end_of_line(*d)));
  // The winner to move mates in 10 at most (19 plies), the published longest KQk mate.
  CHECK(t.side(Color::White).histogram(Rules::Lasker, Metric::Dtm).rbegin()->first == 19);
}

TEST_CASE("KPk: the deepest stalemate has the stalemated side to move, and each colour has a row",
          "[stats]") {
  const stats::TableStatistics t = table_stats("KPk", Convention::Index462);
  const auto& white = t.deepest_of(Metric::Dts, Color::White);
  REQUIRE(white.has_value());
  CHECK(white->plies == 42);
  CHECK(white->side_to_move == Color::Black);
  CHECK(white->plies > t.side(Color::White).depths[to_index(Lasker::Stalemates)].rbegin()->first);
  CHECK(white->line.size() == 42);
  CHECK(is_stalemate(end_of_line(*white)));
  // Black stalemates White too: Ka8, Pa7 against Kb6, Black to move plays Kc7.
  const auto& black = t.deepest_of(Metric::Dts, Color::Black);
  REQUIRE(black.has_value());
  CHECK(black->side_to_move == Color::Black);
  CHECK(black->plies % 2 == 1);
  CHECK(is_stalemate(end_of_line(*black)));
  // The mate leaves the table by a promotion.
  const auto& mate = t.deepest_of(Metric::Dtm, Color::White);
  REQUIRE(mate.has_value());
  CHECK(mate->plies == 56);
  CHECK(mate->side_to_move == Color::Black);
  CHECK(is_checkmate(end_of_line(*mate)));
}

// What `GET /api/tables` shows without a scan (KQk: mater White, 20 plies, Black to move).
TEST_CASE("the depths of the Table 1 rows read from a header are those of the statistics", "[stats]") {
  for (const char* table : {"KQk", "KBk", "KNk", "KPk"}) {
    INFO(table);
    const stats::TableStatistics t = table_stats(table, Convention::Index462);
    const TableHeader header =
        TableReader(stats_tablebase().table_path(t.material), TableRequirements::file_only()).header();
    for (Metric m : AllMetrics)
      for (Color winner : {Color::White, Color::Black}) {
        const std::optional<stats::DeepestDepth> d =
            stats::deepest_depth(header.rules, header.stats, m, winner);
        const std::optional<stats::Deepest>& full = t.deepest_of(m, winner);
        REQUIRE(d.has_value() == full.has_value());
        if (!d) continue;
        CHECK(d->plies == full->plies);
        CHECK(d->side_to_move == full->side_to_move);
      }
  }
}

}  // namespace egtb::test
