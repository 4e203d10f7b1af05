// CQL over PGN games (api::query_pgn) on the real 3-4-man tables: which positions match, the
// {CQL} marks, variations, table values only where a table holds the position, the limit, input
// order on any number of threads, and pgn-extract reading the games written, also those of a
// table scan written as PGN (egtb query --pgn).
#include <sstream>

#include "api/errors.hpp"
#include "api/json.hpp"
#include "api/query.hpp"
#include "api/query_output.hpp"
#include "pgn/writer.hpp"
#include "tests/api/api_support.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::api;

namespace {

struct Run {
  PgnQuerySummary summary;
  std::string pgn;                     // the matching games as written
  std::vector<std::string> positions;  // "game N ply P" of each match
};

Run run(const std::string& query_text, const std::string& games, PgnQueryOptions options = {}) {
  if (options.directory.empty()) options.directory = EGTB_TEST_TABLES;
  const query::ScanQuery query = prepare_query(query_text);
  std::istringstream in(games);
  Run r;
  r.summary = query_pgn(
      query, in, options,
      [&](const pgn::Game& game, const std::vector<PositionMatch>& found) {
        r.pgn += pgn::to_pgn(game);
        for (const PositionMatch& m : found)
          r.positions.push_back("game " + std::to_string(game.number) + " ply " +
                                std::to_string(game.ply(m.node)));
      },
      [](const pgn::PgnError& e) { FAIL(e.message); });
  return r;
}

}  // namespace

TEST_CASE("query --pgn-in: stalemates of the studies, marked as CQL marks them", "[tables]") {
  const Run r = run("stalemate", test::studies_text());
  CHECK(r.positions == std::vector<std::string>{"game 1 ply 1", "game 2 ply 1", "game 4 ply 27"});
  CHECK(r.summary.games == 4);
  CHECK(r.summary.matched_games == 3);
  CHECK(r.summary.matched_positions == 3);
  CHECK(r.summary.positions == 2 + 2 + 2 + 28);  // the mainlines, start positions included
  CHECK(r.pgn.find("1. Qc7 {CQL} 1/2-1/2") != std::string::npos);
  CHECK(r.pgn.find("14. Nc3 {CQL} 1/2-1/2") != std::string::npos);
  CHECK(r.pgn.find("Mate in one") == std::string::npos);
}

TEST_CASE("query --pgn-in: variations on request, notes as comments", "[tables]") {
  CHECK(run("btm dts == 22", test::studies_text()).positions == std::vector<std::string>{"game 4 ply 5"});
  PgnQueryOptions o;
  o.variations = true;
  const Run r = run("btm dts == 22 comment (\"DTS \" dts)", test::studies_text(), o);
  CHECK(r.positions == std::vector<std::string>{"game 4 ply 5", "game 4 ply 3"});
  CHECK(r.pgn.find("(1... Ka2 2. Kc2 {CQL} {DTS 22})") != std::string::npos);
  CHECK(r.summary.positions == 2 + 2 + 3 + 30);
}

TEST_CASE("query --pgn-in: table values only where a table holds the position", "[tables]") {
  const std::string games = test::random_games_text(50);
  const Run all = run("dtm >= 0 or dts >= 0 or lasker == 2", games);
  const Run men = run("[Aa] <= 4", games);  // at most four men
  CHECK(all.summary.matched_positions == men.summary.matched_positions);
  CHECK(all.summary.matched_games == 50);
  std::istringstream in(games);
  CHECK_THROWS_AS(query_pgn(prepare_query("dtm > 0"), in, {}, {}, {}), InputError);
}

// CQL 6.2 counts the games before the run (its test: "[White " in the file); egtb reads them once
// more. The header's last game number caps it, as in CQL. No table is read.
TEST_CASE("query --pgn-in: lastgamenumber, the games counted before the run", "[query]") {
  const std::string games = test::studies_text();
  std::istringstream again(games);
  CHECK(count_games(again) == 4);
  const auto last = [&](const std::string& text) {
    PgnQueryOptions options;
    options.count_games = [&] {
      std::istringstream in(games);
      return count_games(in);
    };
    std::istringstream in(games);
    std::vector<uint64_t> found;
    (void)query_pgn(
        prepare_query(text), in, options,
        [&](const pgn::Game& game, const std::vector<PositionMatch>&) { found.push_back(game.number); },
        [](const pgn::PgnError& e) { FAIL(e.message); });
    return found;
  };
  CHECK(last("initial gamenumber == lastgamenumber") == std::vector<uint64_t>{4});
  CHECK(last("initial gamenumber + 2 >= lastgamenumber") == std::vector<uint64_t>{2, 3, 4});
  CHECK(last("cql(gamenumber 1 2) initial gamenumber == lastgamenumber") == std::vector<uint64_t>{2});
  // Without a second reading (standard input) the query is refused.
  std::istringstream in(games);
  CHECK_THROWS_AS(query_pgn(prepare_query("lastgamenumber == 4"), in, {}, {}, {}), InputError);
}

TEST_CASE("query --pgn-in: the limit, and input order on any number of threads", "[tables]") {
  const std::string games = test::random_games_text(200, 7);
  PgnQueryOptions one;
  one.threads = 1;
  PgnQueryOptions two;
  two.threads = 2;
  const Run a = run("check", games, one);
  const Run b = run("check", games, two);
  CHECK(a.pgn == b.pgn);
  CHECK(a.positions == b.positions);
  CHECK(a.summary.matched_games > 100);
  two.limit = 10;
  const Run limited = run("check", games, two);
  CHECK(limited.summary.matched_games == 10);
  CHECK(limited.positions ==
        std::vector<std::string>(a.positions.begin(), a.positions.begin() + static_cast<std::ptrdiff_t>(
                                                                                limited.positions.size())));
  test::check_with_pgn_extract(a.pgn, a.summary.matched_games, "query.pgn");
}

TEST_CASE("query --pgn-in: JSON of a matching position", "[tables]") {
  const query::ScanQuery query = prepare_query("stalemate");
  std::istringstream in(test::studies_text());
  std::vector<std::string> lines;
  (void)query_pgn(
      query, in, {EGTB_TEST_TABLES, Rules::Lasker, false, 1, 1, {}, {}},
      [&](const pgn::Game& g, const std::vector<PositionMatch>& found) {
        for (const PositionMatch& m : found) lines.push_back(json_line(to_json(g, m, Rules::Lasker)));
      },
      [](const pgn::PgnError&) {});
  CHECK(lines ==
        std::vector<std::string>{"{\"game\":1,\"ply\":1,\"move\":\"1. Bd4\",\"mainline\":true,\"fen\":"
                                 "\"k7/2K5/8/8/3B4/8/8/8 b - - 1 1\",\"lasker\":1,\"dtm\":null,\"dts\":0}"});
}

TEST_CASE(
    "query --pgn: the matches of a table scan as games with their optimal lines, and pgn-extract reads them",
    "[tables]") {
  // The deepest positions of three tables: mates, a promotion on the way (KPk) and stalemates;
  // the note holds a '}', which a PGN comment cannot.
  const query::ScanQuery query = prepare_query("dts == maxdts or dtm == maxdtm comment (\"a } in a note\")");
  query::ScanOptions options;
  options.directory = EGTB_TEST_TABLES;
  options.threads = 2;
  std::ostringstream out;
  const auto writer = make_match_writer(QueryFormat::Pgn, out, Rules::Lasker, &test::tables());
  const std::vector<Material> tables{*Material::parse("KNk"), *Material::parse("KQk"),
                                     *Material::parse("KPk")};
  const query::ScanSummary s =
      query_tables(query, tables, options, [&](const query::Match& m) { writer->write(m); });
  CHECK(s.matches == 9 + 123 + 23);
  const std::string pgn = out.str();
  CHECK(pgn.find("g8=Q+") != std::string::npos);
  CHECK(pgn.find("{CQL} {a ) in a note}") != std::string::npos);
  const test::ReadResult read = test::read_text(pgn);
  CHECK(read.errors.empty());
  CHECK(read.games.size() == s.matches);
  test::check_with_pgn_extract(pgn, s.matches, "scan.pgn");
}
