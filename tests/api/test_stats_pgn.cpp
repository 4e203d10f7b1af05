// The maxDTS and maxDTM examples as PGN (api::examples_pgn, `egtb stats --pgn`) on the real
// 3-4-man tables: a game per Table 1 row, its position as [FEN], the optimal line as the mainline
// with the value left after every move, read back by egtb's reader and by pgn-extract.
#include "api/statistics.hpp"
#include "egtb/core/fen.hpp"
#include "tests/api/api_support.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

TEST_CASE("Every maxDTS and maxDTM example is a PGN game of its optimal line", "[stats][pgn]") {
  const Tablebase& tb = test::tables();
  std::vector<stats::TableStatistics> tables;
  for (const char* signature : {"KBk", "KNk", "KPk", "KQk"})
    tables.push_back(stats::compute_statistics(tb, *Material::parse(signature), {}));
  std::vector<stats::Deepest> rows;
  for (const stats::TableStatistics& t : tables)
    for (Metric m : AllMetrics)
      for (Color winner : {Color::White, Color::Black})
        if (const auto& d = t.deepest_of(m, winner)) rows.push_back(*d);
  REQUIRE(rows.size() == 6);  // KBk and KNk: maxDTS; KPk: maxDTS for each colour and maxDTM; KQk: maxDTM

  const std::string text = api::examples_pgn(tables);
  const test::ReadResult read = test::read_text(text);
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const pgn::Game& g = read.games[i];
    INFO("game " << i + 1 << ": " << to_fen(g.start()));
    CHECK(to_fen(g.start()) == to_fen(rows[i].example));
    const std::vector<pgn::NodeId> line = g.mainline();
    REQUIRE(line.size() == static_cast<size_t>(rows[i].plies));  // a node a ply after the root
    for (size_t ply = 1; ply <= line.size(); ++ply) {
      const pgn::Node& node = g.node(line[ply - 1]);
      CHECK(node.move == rows[i].line[ply - 1]);
      const std::string left = std::to_string(rows[i].plies - static_cast<int>(ply));
      REQUIRE(node.comments.size() == 1);
      CHECK(node.comments[0].ends_with(" " + left));
    }
    const bool stalemate = rows[i].metric == Metric::Dts;
    CHECK(g.result == (stalemate ? "1/2-1/2" : rows[i].winner == Color::White ? "1-0" : "0-1"));
  }
  // KQk's deepest mate: Black to move is mated in 10 (20 plies).
  CHECK(read.games[5].node(pgn::Game::Root).comments.at(0) ==
        "KQk maxDTM: White mates, 20 plies, 8 positions (index462)");
  test::check_with_pgn_extract(text, rows.size(), "examples.pgn");
}
