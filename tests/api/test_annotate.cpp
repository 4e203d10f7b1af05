// egtb annotate (api/annotate.hpp) on the real 3-4-man tables: hand-made studies whose dual and
// bust are known by chess reasoning (data/pgn/studies.pgn), the deepest K+N v K stalemate the
// article publishes (27 plies), missing and damaged tables, JSON with bytes that are not UTF-8,
// the same output on any number of threads, and pgn-extract reading what annotate writes.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "api/annotate.hpp"
#include "api/json.hpp"
#include "egtb/store/error.hpp"
#include "pgn/writer.hpp"
#include "tests/api/api_support.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

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
  // Bd4 is one of six equally fast moves (') and names its duals, fastest and slower, with the
  // depth of the position each leads to.
  const pgn::NodeId bd4 = a.game.node(pgn::Game::Root).first_child;
  CHECK(comments_of(a.game, bd4) ==
        "' equi-optimal; dual: fastest Bb6, Be3, Bf2, Bg1 and Kc8 (DTS 0); slower Kc6 (DTS 4) and 6 more "
        "moves; Black to move is stalemated; stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), pure, model|");
  CHECK(a.game.node(bd4).nags.empty());
  REQUIRE(a.found.stalemates.size() == 1);
  CHECK(a.found.stalemates[0].spot.fen == "k7/2K5/8/8/3B4/8/8/8 b - - 1 1");
  CHECK(a.found.stalemates[0].kind.counts() == "3-0-0, 0-0");
  CHECK(a.found.stalemates[0].kind.model);
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
  CHECK(a.game.node(qc7).nags == std::vector<uint8_t>{4});  // ??
  CHECK(comments_of(a.game, qc7) ==
        "?? win → stalemate-win; best Qc8# (DTM 0); Black to move is stalemated; "
        "stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), not pure|");
  // The position had other winning moves, but the move played conceded: no dual.
  CHECK(
      a.found.summary ==
      "first in the tables at the start: White to move forces mate: DTM 1 ply, mate in 1 (optimal play: 1-0; "
      "the result says 1/2-1/2); 1 concession: 1. Qc7; ends in a stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), not "
      "pure");
  CHECK(a.found.duals.empty());
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
  CHECK(comments_of(a.game, rd8).starts_with("' equi-optimal; dual: fastest Rc8# (DTM 0); slower "));
  CHECK(comments_of(a.game, rc8).starts_with("' equi-optimal; dual: fastest Rd8# (DTM 0); slower "));
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
    if (ply % 2)  // the line is optimal: each White move is the only, the unique best or an equally fast one
      CHECK((a.game.node(n).nags == std::vector<uint8_t>{1} ||
             comments_of(a.game, n).starts_with("\" unique best") ||
             comments_of(a.game, n).starts_with("' equi-optimal")));
  }
  CHECK(ply == 27);
  // Depths counted one way: Kc2 would leave DTS 22 where Nd3 leaves 18, as the comment after Nd3 says.
  const std::vector<pgn::NodeId> line = a.game.mainline();
  CHECK(pgn::numbered_san(a.game, line[8]) == "5. Nd3");
  CHECK(comments_of(a.game, line[8]) ==
        "\" unique best; dual: slower Kc2 (DTS 22); Black to move is stalemated: DTS 18 plies, 9 moves|");
  CHECK(comments_of(a.game, line[0]) == "! only move; Black to move is stalemated: DTS 26 plies, 13 moves|");
  // The last position is a stalemate Nc3 and Kc2 cover impurely (b1 twice).
  CHECK(comments_of(a.game, line.back()).ends_with("; stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), not pure|"));
}

TEST_CASE("annotate: the terse layout comments only where something happens", "[tables]") {
  std::vector<pgn::Game> games = test::studies();
  pgn::Game& g = games[3];
  const GameAnnotation found = annotate(test::tables(), g, AnnotateLayout::Terse);
  size_t commented = 0;
  for (pgn::NodeId n : g.preorder()) {
    if (n == pgn::Game::Root || g.node(n).comments.empty()) continue;
    ++commented;
    const std::string text = comments_of(g, n);
    INFO(pgn::numbered_san(g, n) << ": " << text);
    const bool end = g.node(n).first_child == pgn::NoNode;
    const bool marked = text.starts_with("\" ") || text.starts_with("' ") || text.starts_with("° ") ||
                        text.starts_with("?? ") || text.starts_with("slower");
    CHECK((marked || end));
    CHECK((text.find(" to move ") == std::string::npos) != end);  // a value only at the end of a line
  }
  // 9 duals of the mainline (the last at its end), 7 only legal moves of Black and the end of the
  // variation: 17 comments for 30 positions.
  CHECK(commented == 17);
  CHECK(found.duals.size() == 9);
  CHECK(g.node(g.mainline().front()).nags == std::vector<uint8_t>{1});
  CHECK(g.node(g.mainline().front()).comments.empty());
}

TEST_CASE("annotate: concessions and duals in variations, each flagged where it was played", "[tables]") {
  // 1. Qc7?? stalemates in the mainline where the variation 1. Qc8# mates; then the other way round.
  test::ReadResult read = test::read_text(
      "[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qc7 (1. Qc8#) *\n\n"
      "[FEN \"k7/8/1K6/8/8/8/8/2Q5 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Qc8# (1. Qc7) *\n");
  REQUIRE(read.games.size() == 2);
  std::vector<pgn::Game>& games = read.games;
  const GameAnnotation first = annotate(test::tables(), games[0]);
  REQUIRE(first.concessions.size() == 1);
  CHECK(first.concessions[0].spot.mainline);
  REQUIRE(first.duals.size() == 1);
  CHECK(first.duals[0].spot.move == "1. Qc8#");
  CHECK_FALSE(first.duals[0].spot.mainline);
  CHECK(first.summary.find("1 concession: 1. Qc7; 1 dual (0 at the optimal depth): 1. Qc8#") !=
        std::string::npos);
  const GameAnnotation second = annotate(test::tables(), games[1]);
  REQUIRE(second.concessions.size() == 1);
  CHECK(second.concessions[0].spot.move == "1. Qc7");
  CHECK_FALSE(second.concessions[0].spot.mainline);
  REQUIRE(second.duals.size() == 1);
  CHECK(second.duals[0].spot.mainline);
  // A stalemate reached in a variation is classified but not the game's end.
  REQUIRE(second.stalemates.size() == 1);
  CHECK_FALSE(second.stalemates[0].spot.mainline);
  CHECK(second.summary.find("ends in") == std::string::npos);
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
  CHECK(line.find(
            "\"stalemates\":[{\"ply\":1,\"move\":\"\",\"mainline\":true,\"fen\":\"k7/2Q5/1K6/8/8/8/8/8 b "
            "- - 1 1\",\"class\":\"3-0-0, 0-0\",\"vs\":3,\"b\":0,\"sb\":0,\"p\":0,\"bm\":0,\"pure\":false,"
            "\"model\":false}]") != std::string::npos);
}

TEST_CASE("annotate: the Saavedra study, its stalemate defence and its duals as the tables see them",
          "[tables]") {
  // The article's Fig. 4 positions are not available to these tests; the Saavedra study (4 men)
  // is the published stalemate study nearest to them. Its facts by chess reasoning: 6. c8=Q?
  // Rc4+ 7. Qxc4 stalemates Black (no legal move, not in check), and 6. c8=R wins. The tables add
  // that 6. Kb3 and 6. Kc3 win too, more slowly (DTM 38 against 12), and that 4. Kc3 wins as fast
  // as 4. Kb3.
  std::ifstream in(test::data_dir() / "pgn" / "published_studies.pgn");
  REQUIRE(in);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  test::ReadResult read = test::read_text(text);
  REQUIRE(read.errors.empty());
  REQUIRE(read.games.size() == 1);
  pgn::Game game = std::move(read.games[0]);
  const GameAnnotation found = annotate(test::tables(), game, AnnotateLayout::Terse);
  REQUIRE(found.first);
  CHECK(found.first->score == Score(Lasker::Mates, 51));
  CHECK(found.first->agrees == std::optional<bool>(true));
  REQUIRE(found.concessions.size() == 1);
  CHECK(found.concessions[0].spot.move == "6. c8=Q");
  CHECK_FALSE(found.concessions[0].spot.mainline);
  CHECK(found.concessions[0].before == Lasker::Mates);
  CHECK(found.concessions[0].after == Lasker::Stalemates);
  CHECK(found.concessions[0].best == "c8=R");
  REQUIRE(found.stalemates.size() == 1);
  CHECK(found.stalemates[0].spot.fen == "8/8/8/8/2Q5/8/2K5/k7 b - - 0 7");
  CHECK_FALSE(found.stalemates[0].spot.mainline);
  CHECK(found.stalemates[0].kind.counts() == "3-0-0, 0-0");
  CHECK(found.stalemates[0].kind.model);
  std::vector<std::string> dual_moves;
  for (const Dual& d : found.duals) dual_moves.push_back(d.spot.move);
  CHECK(dual_moves == std::vector<std::string>{"3. Kb4", "4. Kb3", "6. c8=R"});
  CHECK(found.depth_duals == 1);  // 4. Kb3 and 4. Kc3, both DTM 38
  const std::string written = pgn::to_pgn(game);
  CHECK_THAT(written, Catch::Contains("6. c8=R {\" unique best; dual: slower Kb3 (DTM 38) and"));
  CHECK_THAT(written, Catch::Contains("(6. c8=Q $4 {?? win → stalemate-win; best c8=R (DTM 12)}"));
  test::check_with_pgn_extract(written, 1, "saavedra.pgn");
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
  for (AnnotateLayout layout : {AnnotateLayout::Full, AnnotateLayout::Terse}) {
    std::string pgn_only;
    std::istringstream in(input);
    (void)annotate_games(
        test::tables(), in, {2, {}, layout},
        [&](const pgn::Game& g, const GameAnnotation&) { pgn_only += pgn::to_pgn(g); },
        [](const pgn::PgnError&) {});
    test::check_with_pgn_extract(pgn_only, 204,
                                 layout == AnnotateLayout::Full ? "annotated.pgn" : "terse.pgn");
  }
}
