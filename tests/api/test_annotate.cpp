// egtb annotate (api/annotate.hpp) on the real 3-4-man tables: hand-made studies whose dual and
// bust are known by chess reasoning (data/pgn/studies.pgn), the deepest K+N v K stalemate the
// article publishes (27 plies), missing and damaged tables, JSON with bytes that are not UTF-8,
// the same output on any number of threads, and pgn-extract reading what annotate writes.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "api/annotate.hpp"
#include "api/json.hpp"
#include "egtb/store/error.hpp"
#include "pgn/writer.hpp"
#include "tests/api/api_support.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::api;

namespace {

struct Annotated {
  pgn::Game game;
  GameAnnotation found;
};

Annotated study(size_t index) {
  std::vector<pgn::Game> games = test::studies();
  REQUIRE(index < games.size());
  Annotated a{std::move(games[index]), {}};
  a.found = annotate(test::tables(), a.game);
  return a;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// The comments after the node's move, joined.
std::string comments_of(const pgn::Game& g, pgn::NodeId n) {
  std::string text;
  for (const std::string& c : g.node(n).comments) text += c + "|";
  return text;
}

}  // namespace

TEST_CASE("annotate: a stalemate study with a dual", "[tables]") {
  const Annotated a = study(0);
  REQUIRE(a.found.first);
  CHECK(a.found.first->score == Score(Lasker::Stalemates, 1));
  CHECK(a.found.first->implied_result == "1/2-1/2");
  CHECK(a.found.first->agrees == std::optional<bool>(true));
  CHECK(a.found.concessions.empty());
  REQUIRE(a.found.duals.size() == 1);
  const Dual& d = a.found.duals[0];
  // By chess reasoning: the bishop anywhere on a7-g1 or the king on c8 stalemates at once.
  CHECK(sorted(d.optimal) == std::vector<std::string>{"Bb6", "Bd4", "Be3", "Bf2", "Bg1", "Kc8"});
  CHECK(d.keeping.size() > d.optimal.size());  // slower stalemates keep the value too
  CHECK(d.spot.move == "1. Bd4");
  CHECK(a.found.value_duals == 1);
  CHECK(a.found.depth_duals == 1);
  const pgn::NodeId bd4 = a.game.node(pgn::Game::Root).first_child;
  CHECK(comments_of(a.game, bd4)
            .starts_with("dual: also Bb6 (DTS 1), Be3 (DTS 1), Bf2 (DTS 1), Bg1 (DTS 1), Kc8 "
                         "(DTS 1), Kc6 (DTS 5) and "));
  CHECK(comments_of(a.game, bd4).ends_with("; Black to move is stalemated|"));
  CHECK(a.game.node(bd4).nags.empty());
}

TEST_CASE("annotate: a bust, the key move stalemating where mate was there", "[tables]") {
  const Annotated a = study(1);
  REQUIRE(a.found.first);
  CHECK(a.found.first->score == Score(Lasker::Mates, 1));
  CHECK(a.found.first->implied_result == "1-0");
  CHECK(a.found.first->agrees == std::optional<bool>(false));
  REQUIRE(a.found.concessions.size() == 1);
  const Concession& k = a.found.concessions[0];
  CHECK(k.spot.move == "1. Qc7");
  CHECK(k.before == Lasker::Mates);
  CHECK(k.after == Lasker::Stalemates);
  CHECK(k.best == "Qc8#");
  const pgn::NodeId qc7 = a.game.node(pgn::Game::Root).first_child;
  CHECK(a.game.node(qc7).nags == std::vector<uint8_t>{2});
  CHECK(comments_of(a.game, qc7) == "win → stalemate-win; best Qc8# (DTM 1); Black to move is stalemated|");
  CHECK(
      a.found.summary ==
      "first in the tables at the start: White to move forces mate: DTM 1 ply, mate in 1 (optimal play: 1-0; "
      "the result says 1/2-1/2); 1 concession: 1. Qc7; 1 dual (0 at the optimal depth): 1. Qc7");
  CHECK(a.game.node(pgn::Game::Root).comments.front() == a.found.summary);
}

TEST_CASE("annotate: mate in one two ways, in the mainline and a variation", "[tables]") {
  const Annotated a = study(2);
  REQUIRE(a.found.duals.size() == 1);
  CHECK(sorted(a.found.duals[0].optimal) == std::vector<std::string>{"Rc8#", "Rd8#"});
  CHECK(a.found.duals[0].spot.mainline);
  CHECK(a.found.first->agrees == std::optional<bool>(true));
  // Both moves are marked: each names the other among the alternatives.
  const pgn::NodeId rd8 = a.game.node(pgn::Game::Root).first_child;
  const pgn::NodeId rc8 = a.game.node(rd8).next_sibling;
  CHECK(comments_of(a.game, rd8).starts_with("dual: also Rc8# (DTM 1), "));
  CHECK(comments_of(a.game, rc8).starts_with("dual: also Rd8# (DTM 1), "));
  CHECK(a.found.positions == 3);
}

TEST_CASE("annotate: the deepest K+N v K stalemate, move by move", "[tables]") {
  const Annotated a = study(3);
  REQUIRE(a.found.first);
  CHECK(a.found.first->score == Score(Lasker::Stalemates, 27));  // the article's maxDTS of KNk
  CHECK(a.found.concessions.empty());
  CHECK(a.found.positions == 28 + 2);  // the mainline and the variation's two positions
  // The line is DTS-optimal: each position's depth is one less than the one before.
  int ply = 0;
  for (pgn::NodeId n : a.game.mainline()) {
    ++ply;
    const std::string expected = (ply % 2 ? "Black to move is stalemated" : "White to move forces stalemate");
    INFO(pgn::numbered_san(a.game, n) << ": " << comments_of(a.game, n));
    CHECK(comments_of(a.game, n).find(expected) != std::string::npos);
    if (ply < 26)
      CHECK(comments_of(a.game, n).find("DTS " + std::to_string(27 - ply) + " plies") != std::string::npos);
    if (ply % 2)
      CHECK((a.game.node(n).nags == std::vector<uint8_t>{1} ||
             comments_of(a.game, n).starts_with("dual: also ")));
  }
  CHECK(ply == 27);
}

TEST_CASE("annotate: positions whose table is missing are counted, not fatal", "[tables]") {
  const std::filesystem::path dir = test::temp_tables({"KBk"});
  const Tablebase tb(dir);
  std::vector<pgn::Game> games = test::studies();
  const GameAnnotation bishop = annotate(tb, games[0]);
  CHECK(bishop.positions == 2);
  CHECK(bishop.unprobed == 0);
  const GameAnnotation queen = annotate(tb, games[1]);
  CHECK(queen.positions == 0);
  CHECK(queen.unprobed == 2);
  CHECK(queen.missing_tables == std::set<std::string>{"KQk"});
  CHECK(queen.summary == "2 positions not probed (missing: KQk)");
  CHECK(games[1].node(games[1].node(pgn::Game::Root).first_child).comments.empty());
  std::filesystem::remove_all(dir);
}

TEST_CASE("annotate: a damaged table stops the run with its error", "[tables]") {
  const std::filesystem::path dir = test::temp_tables({"KBk"});
  {
    std::fstream file(dir / "KBk.egtb", std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(-100, std::ios::end);
    file.put('\x5a').put('\xa5');
  }
  const Tablebase tb(dir);
  std::istringstream in(test::studies_text());
  const auto run = [&] {
    (void)annotate_games(
        tb, in, {2, {}}, [](const pgn::Game&, const GameAnnotation&) {}, [](const pgn::PgnError&) {});
  };
  CHECK_THROWS_AS(run(), StoreError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("annotate: JSON of tags that are not UTF-8", "[tables]") {
  std::vector<pgn::Game> games = test::studies();
  games[1].set_tag("White", "M\xfcller");
  const GameAnnotation a = annotate(test::tables(), games[1]);
  const std::string line = json_line(to_json(a, Rules::Lasker));
  CHECK(line.find("\"white\":\"M\xef\xbf\xbdller\"") != std::string::npos);
  CHECK(line.find("\"concessions\":[{\"ply\":0,\"move\":\"1. "
                  "Qc7\",\"mainline\":true,\"fen\":\"k7/8/1K6/8/8/8/8/2Q5 w "
                  "- - 0 1\",\"from\":\"win\",\"to\":\"stalemate-win\",\"best\":\"Qc8#\"}]") !=
        std::string::npos);
}

TEST_CASE("annotate: games in input order on any number of threads, and pgn-extract reads the output",
          "[tables]") {
  const std::string input = test::studies_text() + test::random_games_text(200);
  std::string outputs[2];
  AnnotateTotals totals[2];
  for (int threads : {1, 2}) {
    std::istringstream in(input);
    std::ostringstream out;
    totals[threads - 1] = annotate_games(
        test::tables(), in, {threads, {}},
        [&](const pgn::Game& g, const GameAnnotation& found) {
          out << pgn::to_pgn(g) << json_line(to_json(found, Rules::Lasker)) << '\n';
        },
        [](const pgn::PgnError&) { FAIL("no game is malformed"); });
    outputs[threads - 1] = out.str();
  }
  CHECK(outputs[0] == outputs[1]);
  CHECK(totals[0].games == 204);
  CHECK(totals[0].positions == totals[1].positions);
  CHECK(totals[0].positions > 2000);
  std::string pgn_only;
  std::istringstream in(input);
  (void)annotate_games(
      test::tables(), in, {2, {}},
      [&](const pgn::Game& g, const GameAnnotation&) { pgn_only += pgn::to_pgn(g); },
      [](const pgn::PgnError&) {});
  test::check_with_pgn_extract(pgn_only, 204, "annotated.pgn");
}
