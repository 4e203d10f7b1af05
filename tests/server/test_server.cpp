// The HTTP API of `egtb serve` against a real server on a free loopback port, over the 3-4-man
// tables of the fixture tables_34: the answers of every endpoint, the status of every kind of bad
// input, and hostile clients (huge and malformed requests, path traversal, oversized bodies, slow
// clients, a query that would scan everything).
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "egtb/store/table.hpp"
#include "egtb/store/writer.hpp"
#include "server/http_server.hpp"
#include "server/service.hpp"
#include "server/url.hpp"
#include "tests/server/http_client.hpp"
#include "tests/support/catch.hpp"

namespace egtb::server {

namespace {

using test::get;
using test::post;
using test::Reply;
using Json = nlohmann::json;

constexpr const char* KnkDeepest = "8/8/8/8/8/1N6/8/1k1K4_w_-_-_0_1";  // KNk maxDTS, 27 plies

ServiceOptions service_options() {
  ServiceOptions o;
  o.directory = EGTB_TEST_TABLES_DIR;
  o.cache_bytes = size_t{64} << 20;
  o.query_budget = std::chrono::milliseconds(2000);
  return o;
}

ServerOptions server_options() {
  ServerOptions o;
  o.port = 0;
  o.threads = 2;
  o.read_timeout = std::chrono::milliseconds(1000);
  return o;
}

// A server on a free port, serving from a thread until the end of the test.
class TestServer {
public:
  explicit TestServer(const ServiceOptions& service = service_options(),
                      const ServerOptions& http = server_options())
      : service_(service), http_(http, service_), thread_([this] { http_.run(false); }) {}
  ~TestServer() {
    http_.stop();
    thread_.join();
  }
  TestServer(const TestServer&) = delete;
  TestServer& operator=(const TestServer&) = delete;

  [[nodiscard]] uint16_t port() const { return http_.port(); }

private:
  Service service_;
  HttpServer http_;
  std::thread thread_;
};

Json json_of(const Reply& r) {
  INFO(r.body);
  REQUIRE(r.header("content-type") == "application/json");
  return Json::parse(r.body);
}

// The status of a reply and its JSON error message.
void check_error(const Reply& r, int status, const std::string& words) {
  INFO(r.body);
  CHECK(r.status == status);
  const Json j = json_of(r);
  REQUIRE(j.contains("error"));
  CHECK(j["error"].get<std::string>().find(words) != std::string::npos);
}

}  // namespace

TEST_CASE("GET /api/lasker: the value of the position and of every move, best first", "[server]") {
  const TestServer s;
  const Reply r = get(s.port(), std::string("/api/lasker?fen=") + KnkDeepest);
  REQUIRE(r.status == 200);
  const Json j = json_of(r);
  CHECK(j["fen"] == "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
  CHECK(j["category"] == "stalemate-win");
  CHECK(j["lasker"] == 3);
  CHECK(j["dts"] == 27);
  CHECK(j["dtm"].is_null());
  CHECK(j["checkmate"] == false);
  CHECK(j["stalemate"] == false);
  CHECK_FALSE(j.contains("pv"));
  REQUIRE(j["moves"].size() == 9);
  const Json& best = j["moves"][0];
  CHECK(best["uci"] == "b3c5");
  CHECK(best["san"] == "Nc5");
  CHECK(best["category"] == "stalemate-loss");
  CHECK(best["dts"] == 26);
  for (const Json& m : j["moves"]) {
    for (const char* key : {"uci", "san", "category", "lasker", "dtm", "dts", "checkmate", "stalemate"})
      CHECK(m.contains(key));
    if (m != best) CHECK(m["category"] == "draw");
  }
  CHECK(r.header("access-control-allow-origin").empty());  // CORS is off by default

  // Spaces as '_', '%20' or '+' give the same answer.
  CHECK(get(s.port(), "/api/lasker?fen=8/8/8/8/8/1N6/8/1k1K4%20w%20-%20-%200%201").body == r.body);
  CHECK(get(s.port(), "/api/lasker?fen=8%2F8%2F8%2F8%2F8%2F1N6%2F8%2F1k1K4+w+-+-+0+1").body == r.body);
}

TEST_CASE("GET /api/stalemate: what a stalemate-only table holds, from full tables too", "[server]") {
  const TestServer s;
  Json j = json_of(get(s.port(), std::string("/api/stalemate?fen=") + KnkDeepest));
  CHECK(j == Json{{"fen", "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"},
                  {"category", "stalemate-win"},
                  {"lasker", 3},
                  {"dts", 27}});
  // KQk with a mate in one: no stalemate win or loss, whatever else it is.
  j = json_of(get(s.port(), "/api/stalemate?fen=k7/8/1K6/8/8/8/8/2Q5_w_-_-_0_1"));
  CHECK(j == Json{{"fen", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1"},
                  {"category", "no-stalemate"},
                  {"lasker", 2},
                  {"dts", nullptr}});
  check_error(get(s.port(), "/api/stalemate?fen=k7/8/1K6/8/8/8/8/2Q5_w_KQ_-_0_1"), 400, "castling");
  check_error(get(s.port(), "/api/stalemate"), 400, "missing parameter fen");
}

// The lichess tablebase API's fields: a depth signed from the side to move's view (positive when
// it wins, negative when it loses), insufficient_material, and the mainline's winner.
TEST_CASE("GET /api/lasker and /mainline: the lichess fields beside the egtb ones", "[server][lichess]") {
  const TestServer s;
  const Json j = json_of(get(s.port(), std::string("/api/lasker?fen=") + KnkDeepest));
  CHECK(j["signed_dts"] == 27);  // White stalemates in 27 plies
  CHECK(j["signed_dtm"].is_null());
  CHECK(j["insufficient_material"] == true);  // no mate with KN v K, a stalemate all the same
  CHECK(j["side_to_move"] == "w");
  CHECK(j["fullmove_number"] == 1);
  CHECK(j["men"] == Json{{"b1", "k"}, {"b3", "N"}, {"d1", "K"}});
  const Json& best = j["moves"][0];
  CHECK(best["signed_dts"] == -26);  // Black, to move after Nc5, is stalemated in 26 plies
  CHECK(best["fen"] == "8/8/8/2N5/8/8/8/1k1K4 b - - 1 1");
  for (const Json& m : j["moves"]) {
    INFO(m);
    CHECK(m["insufficient_material"] == true);
    if (m["category"] == "draw") CHECK((m["signed_dts"].is_null() && m["signed_dtm"].is_null()));
  }

  // Mate in one: DTM 1 for White to move; the mate itself is 0 for the mated side.
  const Json mate = json_of(get(s.port(), "/api/lasker?fen=k7/8/1K6/8/8/8/7Q/8_w_-_-_0_1"));
  CHECK(mate["signed_dtm"] == 1);
  CHECK(mate["insufficient_material"] == false);
  CHECK(mate["moves"][0]["uci"] == "h2h8");
  CHECK(mate["moves"][0]["signed_dtm"] == 0);
  CHECK(mate["moves"][0]["checkmate"] == true);
  // Losing positions are negative: every move of a KQk mate has the mater's opponent to move.
  const Json deep = json_of(get(s.port(), "/api/lasker?fen=8/8/8/8/8/8/8/K1k4Q_b_-_-_0_1"));
  REQUIRE(deep["category"] == "loss");
  CHECK(deep["signed_dtm"] == -deep["dtm"].get<int>());
  CHECK(deep["signed_dtm"].get<int>() < 0);
  for (const Json& m : deep["moves"]) CHECK(m["signed_dtm"] == m["dtm"]);  // White to move wins

  const Json line = json_of(get(s.port(), std::string("/api/lasker/mainline?fen=") + KnkDeepest));
  CHECK(line["winner"] == "w");
  CHECK(line["signed_dts"] == 27);
  int expected = -26;
  for (const Json& step : line["mainline"]) {  // -26, 25, -24, ...: the side to move alternates
    CHECK(step["signed_dts"] == expected);
    expected = expected < 0 ? -expected - 1 : -(expected - 1);
  }
  CHECK(line["final"]["insufficient_material"] == true);
  CHECK(json_of(get(s.port(), "/api/lasker/mainline?fen=1K1k4/8/1n6/8/8/8/8/8_b_-_-_0_1"))["winner"] == "b");
  const Json draw = json_of(get(s.port(), "/api/lasker/mainline?fen=8/8/8/8/8/8/8/Nk1K4_b_-_-_1_1"));
  CHECK(draw["winner"].is_null());
  CHECK(draw["mainline"].empty());
}

TEST_CASE("GET /api/rules: the words of each rule set, for the page", "[server][rules]") {
  const TestServer s;
  const Json j = json_of(get(s.port(), "/api/rules"));
  CHECK(j["default"] == "lasker");
  REQUIRE(j["rules"].size() == 3);
  const Json& lasker = j["rules"][0];
  CHECK(lasker["name"] == "lasker");
  CHECK(lasker["summary"] == "stalemate is a lesser win");
  std::vector<std::string> categories;
  for (const Json& v : lasker["values"]) categories.push_back(v["category"]);
  CHECK(categories == std::vector<std::string>{"win", "stalemate-win", "draw", "stalemate-loss", "loss"});
  CHECK(lasker["values"][1]["metric"] == "dts");
  CHECK(lasker["values"][1]["title"] == "Winning: stalemate the opponent");
  CHECK(lasker["values"][1]["verb"] == "forces stalemate");
  CHECK(lasker["values"][2]["metric"].is_null());
  CHECK(lasker["values"][4]["share"] == "is mated");
  CHECK(lasker["maxima"]["maxdts"]["name"] == "maxDTS");
  // The order of the tables' fields (the test's Json sorts keys: the text tells).
  const std::string text = get(s.port(), "/api/rules").body;
  CHECK(text.find("\"maxdts\"") < text.find("\"maxdtm\""));
  const Json& wins = j["rules"][1];
  CHECK(wins["name"] == "stalemate-wins");
  CHECK(wins["values"].size() == 3);
  CHECK(wins["values"][0]["metric"] == "dte");
  CHECK(wins["values"][0]["ends"] == "mate or stalemate in");
  CHECK(wins["stalemated"] == "is stalemated: loses");
  CHECK(j["rules"][2]["stalemate_passes"] == true);
  const ServiceOptions passes = [] {
    ServiceOptions o = service_options();
    o.rules = Rules::StalematePasses;
    return o;
  }();
  CHECK(json_of(get(TestServer(passes).port(), "/api/rules"))["default"] == "stalemate-passes");
}

TEST_CASE("GET /api/lasker of mates, stalemates and the colour-flipped orientation", "[server]") {
  const TestServer s;
  const Json mated = json_of(get(s.port(), "/api/lasker?fen=k7/1Q6/1K6/8/8/8/8/8_b_-_-_0_1"));
  CHECK(mated["category"] == "loss");
  CHECK(mated["checkmate"] == true);
  CHECK(mated["dtm"] == 0);
  CHECK(mated["moves"].empty());
  const Json stalemated = json_of(get(s.port(), "/api/lasker?fen=k7/2Q5/1K6/8/8/8/8/8_b_-_-_0_1"));
  CHECK(stalemated["category"] == "stalemate-loss");
  CHECK(stalemated["stalemate"] == true);
  // KNk with the colours swapped reads the same table.
  const Json flipped = json_of(get(s.port(), "/api/lasker?fen=1K1k4/8/1n6/8/8/8/8/8_b_-_-_0_1"));
  CHECK(flipped["category"] == "stalemate-win");
  CHECK(flipped["dts"] == 27);
}

TEST_CASE("GET /api/lasker/mainline: the optimal line to the stalemate, depth falling by one a ply",
          "[server]") {
  const TestServer s;
  const Json j = json_of(get(s.port(), std::string("/api/lasker/mainline?fen=") + KnkDeepest));
  REQUIRE(j["mainline"].size() == 27);
  int expected = 26;
  for (const Json& step : j["mainline"]) {
    CHECK(step["dts"] == expected--);
    CHECK(step.contains("fen"));
    CHECK(step.contains("san"));
  }
  CHECK(j["mainline"][0]["san"] == "Nc5");
  CHECK(j["final"]["stalemate"] == true);
  CHECK(j["final"]["checkmate"] == false);
  CHECK(j["final"]["fen"] == j["mainline"][26]["fen"]);
}

TEST_CASE("GET /api/tables lists the tables present with their Table 1 depths", "[server]") {
  const TestServer s;
  const Json j = json_of(get(s.port(), "/api/tables"));
  REQUIRE(j["tables"].size() == 35);
  std::map<std::string, Json> tables;
  for (const Json& t : j["tables"]) tables[t["signature"].get<std::string>()] = t;
  const Json& knk = tables.at("KNk");
  CHECK(knk["men"] == 3);
  CHECK(knk["sides"]["b"]["positions"] == 28644);
  // maxdts and maxdtm keyed by the winner, as in /api/stats, with the depth and side to move.
  CHECK(knk["maxdts"] == Json{{"w", {{"plies", 27}, {"side_to_move", "w"}}}, {"b", nullptr}});
  CHECK(knk["maxdtm"] == Json{{"w", nullptr}, {"b", nullptr}});
  CHECK(tables.at("KQk")["maxdtm"]["w"] == Json{{"plies", 20}, {"side_to_move", "b"}});
  // The same rows as the statistics of the table give, for a table with a row per colour too.
  for (const char* signature : {"KQk", "KBk", "KNk", "KPk"}) {
    INFO(signature);
    const Json stats = json_of(get(s.port(), std::string("/api/stats/") + signature));
    for (const char* field : {"maxdts", "maxdtm"})
      for (const char* winner : {"w", "b"}) {
        const Json& row = tables.at(signature)[field][winner];
        const Json& full = stats[field][winner];
        REQUIRE(row.is_null() == full.is_null());
        if (row.is_null()) continue;
        CHECK(row["plies"] == full["plies"]);
        CHECK(row["side_to_move"] == full["side_to_move"]);
      }
  }
}

TEST_CASE("GET /api/stats/SIG: the statistics JSON, in each convention", "[server]") {
  const TestServer s;
  const Reply r = get(s.port(), "/api/stats/KNk");
  REQUIRE(r.status == 200);
  const Json j = json_of(r);
  CHECK(j["signature"] == "KNk");
  CHECK(j["convention"] == "index462");
  // Table 1: maxdts and maxdtm keyed by the winner (the stalemater, the mater), null for none.
  const Json& dts = j["maxdts"]["w"];
  CHECK(dts["plies"] == 27);
  CHECK(dts["positions"] == 9);
  CHECK(dts["side_to_move"] == "w");
  CHECK(dts["example"] == "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
  CHECK(dts["line"].size() == 27);
  CHECK(j["maxdts"]["b"].is_null());
  CHECK(j["maxdtm"] == Json{{"w", nullptr}, {"b", nullptr}});
  CHECK(json_of(get(s.port(), "/api/stats/KNk?convention=physical"))["convention"] == "physical");
  CHECK(get(s.port(), "/api/stats/KNk").body == r.body);  // kept after the first time
  check_error(get(s.port(), "/api/stats/KNk?convention=nalimov"), 400, "convention must be");
  check_error(get(s.port(), "/api/stats/KXk"), 400, "");
  check_error(get(s.port(), "/api/stats/KQRkr"), 404, "egtb generate KQRkr");
}

TEST_CASE("POST /api/query lists matches up to the limit and locates errors", "[server]") {
  const TestServer s;
  const Json j = json_of(
      post(s.port(), "/api/query", R"({"tables": ["KBk", "KNk"], "query": "dts == maxdts", "limit": 5})"));
  CHECK(j["count"] == 5);
  CHECK(j["limit_reached"] == true);
  CHECK(j["complete"] == false);
  CHECK(j["matches"][0]["table"] == "KBk");
  CHECK(j["matches"][0]["dts"] == 17);
  const Json knk = json_of(post(s.port(), "/api/query", R"({"tables": "KNk", "query": "wtm dts == 27"})"));
  CHECK(knk["count"] == 9);
  CHECK(knk["complete"] == true);
  // "all" scans every table present: more tables than KNk hold positions 27 plies from a stalemate.
  const Json all =
      json_of(post(s.port(), "/api/query", R"({"tables": "all", "query": "dts == 27", "limit": 1000})"));
  CHECK(all["count"].get<int>() > 9);

  const Reply bad = post(s.port(), "/api/query", R"({"tables": ["KBk"], "query": "wtm and\n  dts == "})");
  check_error(bad, 400, "expected");
  const Json location = json_of(bad)["location"];
  CHECK(location["line"] == 2);
  CHECK(location["column"] == 10);
  check_error(post(s.port(), "/api/query", R"({"tables": ["KBk"], "query": "wtm", "limit": 5000})"), 422,
              "limit");
  check_error(post(s.port(), "/api/query", R"({"tables": ["KQRkr"], "query": "wtm"})"), 404, "egtb generate");
  check_error(post(s.port(), "/api/query", R"({"tables": [], "query": "wtm"})"), 400, "at least one table");
  check_error(post(s.port(), "/api/query", R"({"tables": ["KBk"]})"), 400, "query");
  check_error(post(s.port(), "/api/query", "{not json"), 400, "not JSON");
  check_error(post(s.port(), "/api/query", "[1, 2]"), 400, "object");
  std::string many = R"({"query": "wtm", "tables": [)";
  for (int i = 0; i < 300; ++i) many += std::string(i ? "," : "") + "\"KBk\"";
  check_error(post(s.port(), "/api/query", many + "]}"), 422, "at most");
  check_error(get(s.port(), "/api/query"), 405, "POST");
}

TEST_CASE("Other rules: rules=NAME, /api/stalemate-wins and /api/stalemate-passes", "[server][rules]") {
  const TestServer s;
  // KNk's deepest Lasker stalemate is a win in DTE 27 under stalemate-wins, a draw where Black passes.
  const std::string knk = std::string("?fen=") + KnkDeepest;
  const Reply wins = get(s.port(), "/api/stalemate-wins" + knk);
  REQUIRE(wins.status == 200);
  const Json j = json_of(wins);
  CHECK(j["category"] == "win");
  CHECK(j["value"] == 4);
  CHECK(j["dte"] == 27);
  for (const char* key : {"lasker", "dtm", "dts"}) CHECK_FALSE(j.contains(key));
  CHECK(j["moves"][0] == Json{{"uci", "b3c5"},
                              {"san", "Nc5"},
                              {"category", "loss"},
                              {"value", 0},
                              {"dte", 26},
                              {"checkmate", false},
                              {"stalemate", false},
                              {"insufficient_material", true},
                              {"signed_dte", -26},
                              {"fen", "8/8/8/2N5/8/8/8/1k1K4 b - - 1 1"}});
  CHECK(get(s.port(), "/api/lasker" + knk + "&rules=stalemate-wins").body == wins.body);
  CHECK(get(s.port(), "/api/stalemate-wins" + knk + "&rules=stalemate-wins").body == wins.body);
  const Json line = json_of(get(s.port(), "/api/stalemate-wins/mainline" + knk));
  REQUIRE(line["mainline"].size() == 27);
  CHECK(line["mainline"][26]["dte"] == 0);
  CHECK(line["mainline"][26]["category"] == "loss");
  CHECK(line["final"]["stalemate"] == true);
  CHECK(json_of(get(s.port(), "/api/stalemate-passes" + knk))["category"] == "draw");

  // Under stalemate-passes a stalemated side's one move is the pass: UCI 0000, SAN --. White to
  // move loses here in 44 plies once Black may pass (docs/rules.md).
  const Json passes =
      json_of(get(s.port(), "/api/stalemate-passes/mainline?fen=k7/Pp6/8/K7/8/8/8/8_w_-_-_0_1"));
  CHECK(passes["category"] == "loss");
  CHECK(passes["value"] == 0);
  CHECK(passes["dtm"] == 44);
  REQUIRE(passes["mainline"].size() == 44);
  CHECK(passes["mainline"][1]["uci"] == "0000");
  CHECK(passes["mainline"][1]["san"] == "--");
  CHECK(passes["mainline"][1]["dtm"] == 42);
  CHECK(passes["final"]["checkmate"] == true);
  std::string after_kb6 = passes["mainline"][0]["fen"].get<std::string>();
  std::replace(after_kb6.begin(), after_kb6.end(), ' ', '_');
  const Json stalemated = json_of(get(s.port(), "/api/lasker?rules=stalemate-passes&fen=" + after_kb6));
  CHECK(stalemated["stalemate"] == true);
  CHECK(stalemated["category"] == "win");
  REQUIRE(stalemated["moves"].size() == 1);
  CHECK(stalemated["moves"][0]["uci"] == "0000");
  CHECK(stalemated["moves"][0]["dtm"] == 42);

  check_error(get(s.port(), "/api/lasker" + knk + "&rules=chess"), 400,
              "rules must be lasker, stalemate-wins or stalemate-passes, not 'chess'");
  check_error(get(s.port(), "/api/stalemate-wins" + knk + "&rules=lasker"), 400, "answers under the rules");
  check_error(get(s.port(), "/api/stalemate-draws" + knk), 404, "no API resource");
}

TEST_CASE("Other rules: the tables, their statistics and queries", "[server][rules]") {
  const TestServer s;
  const Json lasker = json_of(get(s.port(), "/api/tables"));
  CHECK(lasker["rules"] == "lasker");
  for (const char* name : {"stalemate-wins", "stalemate-passes"}) {
    INFO(name);
    const Json j = json_of(get(s.port(), std::string("/api/tables?rules=") + name));
    CHECK(j["rules"] == name);
    REQUIRE(j["tables"].size() == 35);
    for (const Json& t : j["tables"]) {
      CHECK(t["rules"] == name);
      CHECK_FALSE(t.contains("maxdts"));
    }
  }
  const Json wins = json_of(get(s.port(), "/api/tables?rules=stalemate-wins"));
  std::map<std::string, Json> tables;
  for (const Json& t : wins["tables"]) tables[t["signature"].get<std::string>()] = t;
  CHECK(tables.at("KNk")["maxdte"] == Json{{"w", {{"plies", 27}, {"side_to_move", "w"}}}, {"b", nullptr}});
  CHECK_FALSE(tables.at("KNk").contains("maxdtm"));
  // Values 4, 2 and 0 alone: KNk's Lasker 3s win and its 1s lose.
  CHECK(tables.at("KNk")["sides"]["w"]["lasker"] == Json{0, 0, 25894, 0, 388});

  const Json stats = json_of(get(s.port(), "/api/stats/KNk?rules=stalemate-wins"));
  CHECK(stats["rules"] == "stalemate-wins");
  CHECK(stats["maxdte"]["w"]["plies"] == 27);
  CHECK(stats["maxdte"]["w"]["example"] == "8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
  CHECK_FALSE(json_of(get(s.port(), "/api/stats/KNk")).contains("rules"));  // the cache keeps them apart
  CHECK(json_of(get(s.port(), "/api/stats/KNk?rules=stalemate-passes"))["maxdtm"]["w"].is_null());

  const Json q = json_of(post(s.port(), "/api/query",
                              R"({"tables": "KNk", "query": "wtm dte == 27", "rules": "stalemate-wins"})"));
  CHECK(q["count"] == 9);
  CHECK(q["matches"][0]["category"] == "win");
  CHECK(q["matches"][0]["dte"] == 27);
  CHECK_FALSE(q["matches"][0].contains("lasker"));
  check_error(post(s.port(), "/api/query", R"({"tables": "KNk", "query": "wtm", "rules": "janggi"})"), 400,
              "\"rules\" must be lasker");
}

TEST_CASE("egtb serve --rules: the rules of requests that name none", "[server][rules]") {
  ServiceOptions o = service_options();
  o.rules = Rules::StalematePasses;
  const TestServer s(o);
  const std::string fen = "?fen=k7/Pp6/8/K7/8/8/8/8_w_-_-_0_1";
  CHECK(json_of(get(s.port(), "/api/lasker" + fen))["dtm"] == 44);
  CHECK(json_of(get(s.port(), "/api/lasker" + fen + "&rules=lasker"))["lasker"] == 3);
  CHECK(json_of(get(s.port(), "/api/tables"))["rules"] == "stalemate-passes");
  CHECK(json_of(post(s.port(), "/api/query",
                     R"({"tables": "KPkp", "query": "wtm dtm == 44", "limit": 1})"))["matches"][0]
            .contains("category"));
}

TEST_CASE("A query that would scan everything ends at the time budget", "[server]") {
  ServiceOptions o = service_options();
  o.query_budget = std::chrono::milliseconds(300);
  const TestServer s(o);
  std::string tables;
  for (const char* sig : {"KPkp", "KRPk", "KQPk", "KNPk", "KBPk", "KPPk", "KRkp", "KQkp", "KNkp", "KBkp"})
    tables += std::string(tables.empty() ? "" : ",") + "\"" + sig + "\"";
  const auto start = std::chrono::steady_clock::now();
  const Json j =
      json_of(post(s.port(), "/api/query",
                   R"({"query": "move legal : stalemate", "limit": 1000, "tables": [)" + tables + "]}"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(j["out_of_time"] == true);
  CHECK(j["complete"] == false);
  CHECK(seconds < 5);
  // The server still answers.
  CHECK(get(s.port(), std::string("/api/lasker?fen=") + KnkDeepest).status == 200);
}

// A query that takes milliseconds per position (three nested loops over the 64 squares, 266,304
// runs of their bodies), over tables of tens of thousands of positions each.
constexpr const char* SlowQuery =
    R"({"query": "square s1 in . square s2 in . square s3 in . wtm", "limit": 1000, )"
    R"("tables": ["KQkp", "KRkp", "KBkp", "KNkp", "KPkp"]})";

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_CASE("A query slow on every position ends near its time budget", "[server]") {
  ServiceOptions o = service_options();
  o.query_budget = std::chrono::milliseconds(500);
  const TestServer s(o);
  const auto start = std::chrono::steady_clock::now();
  const Json j = json_of(post(s.port(), "/api/query", SlowQuery));
  const double seconds = seconds_since(start);
  CHECK(j["out_of_time"] == true);
  CHECK(seconds < 5);  // ten times the budget: the scan polls its deadline at each position
}

TEST_CASE("A query whose loops multiply past their bound is 400 at the loop", "[server]") {
  const TestServer s;
  const Reply r = post(s.port(), "/api/query",
                       R"({"tables": ["KBk"], "query": "square s1 in . square s2 in . square s3 in .\n)"
                       R"(  square s4 in . wtm"})");
  check_error(r, 400, "the query's loops run more than 1000000 times on one position");
  const Json location = json_of(r)["location"];
  CHECK(location["line"] == 2);
  CHECK(location["column"] == 3);
}

TEST_CASE("A client that leaves ends its query, running or waiting", "[server]") {
  ServiceOptions o = service_options();
  o.query_budget = std::chrono::seconds(60);
  ServerOptions http = server_options();
  http.slow_threads = 1;
  const TestServer s(o, http);
  const std::string request = "POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " +
                              std::to_string(std::string(SlowQuery).size()) + "\r\n\r\n" + SlowQuery;
  {
    test::Connection running(s.port());
    running.send(request);
    test::Connection waiting(s.port());
    waiting.send(request);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }  // both leave: the one running ends, the one waiting never runs
  const auto start = std::chrono::steady_clock::now();
  const Reply next = post(s.port(), "/api/query", R"({"tables": ["KNk"], "query": "wtm dts == 27"})");
  CHECK(next.status == 200);
  CHECK(seconds_since(start) < 5);  // not the 60 s of the budget
}

TEST_CASE("Statistics past the server's time limit are 503, and not kept", "[server]") {
  ServiceOptions o = service_options();
  o.stats_budget = std::chrono::milliseconds(0);
  const TestServer s(o);
  check_error(get(s.port(), "/api/stats/KBNk"), 503, "longer than the server's limit");
  check_error(get(s.port(), "/api/stats/KBNk"), 503, "longer than the server's limit");
}

TEST_CASE("Stopping the server ends the queries under way", "[server]") {
  ServiceOptions o = service_options();
  o.query_budget = std::chrono::seconds(60);
  auto s = std::make_unique<TestServer>(o);
  test::Connection client(s->port());
  client.send("POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " +
              std::to_string(std::string(SlowQuery).size()) + "\r\n\r\n" + SlowQuery);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const auto start = std::chrono::steady_clock::now();
  s.reset();  // stop() and run() returning
  CHECK(seconds_since(start) < 5);
}

TEST_CASE("A table replaced while served is answered from the new file, its statistics too", "[server]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("egtb-test-server-replaced-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::filesystem::path original = std::filesystem::path(EGTB_TEST_TABLES_DIR) / "KNk.egtb";
  std::filesystem::copy_file(original, dir / "KNk.egtb");
  ServiceOptions o = service_options();
  o.directory = dir;
  {
    const TestServer s(o);
    const std::string deepest = std::string("/api/lasker?fen=") + KnkDeepest;
    CHECK(json_of(get(s.port(), deepest))["category"] == "stalemate-win");
    CHECK(json_of(get(s.port(), "/api/stats/KNk"))["maxdts"]["w"]["plies"] == 27);
    // KNk again, every position a draw, written as generate writes (renamed over the old file).
    const auto knk = Table::load(dir / "KNk.egtb");
    Table draws(knk->material());
    for (Color stm : {Color::White, Color::Black})
      for (indexing::Index i = 0; i < knk->size(); ++i)
        draws.set(stm, i, knk->at(stm, i).is_valid() ? Score::draw() : Score::invalid());
    write_table(dir, draws);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // past the file check interval
    CHECK(json_of(get(s.port(), deepest))["category"] == "draw");
    CHECK(json_of(get(s.port(), "/api/stats/KNk"))["maxdts"]["w"].is_null());
    // The first file copied back over it in place (the same inode), as cp does.
    std::filesystem::copy_file(original, dir / "KNk.egtb", std::filesystem::copy_options::overwrite_existing);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    CHECK(json_of(get(s.port(), deepest))["category"] == "stalemate-win");
    CHECK(json_of(get(s.port(), "/api/stats/KNk"))["maxdts"]["w"]["plies"] == 27);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Bad positions are 400 with the FEN field, missing tables 404 naming the command", "[server]") {
  const TestServer s;
  const Reply field = get(s.port(), "/api/lasker?fen=8/8/8/8/8/1N6/8/1k1K4_x_-_-_0_1");
  check_error(field, 400, "side to move");
  CHECK(json_of(field)["location"]["fen_field"] == 2);
  check_error(get(s.port(), "/api/lasker"), 400, "missing parameter fen");
  check_error(get(s.port(), "/api/lasker?fen="), 400, "FEN");
  check_error(get(s.port(), "/api/lasker?fen=r3k3/8/8/8/8/8/8/4K3_b_q_-_0_1"), 400, "castling");
  check_error(get(s.port(), "/api/lasker?fen=8/8/8/8/8/8/8/Kk6_w_-_-_0_1"), 400, "");  // kings side by side
  check_error(get(s.port(), "/api/lasker?fen=QQQ5/8/8/8/8/8/7K/RR3k2_w_-_-_0_1"), 400, "");  // 7 men
  check_error(get(s.port(), "/api/lasker?fen=" + std::string(1000, '8')), 400, "at most 256");
  check_error(get(s.port(), "/api/lasker?fen=%FF%FE%00garbage"), 400, "");
  check_error(get(s.port(), "/api/lasker?fen=8/8/8/8/8/3K4/8/QR1k3r_b_-_-_0_1"), 404, "egtb generate KQRkr");
  check_error(get(s.port(), "/api/lasker/mainline?fen=8/8/8/8/8/3K4/8/QR1k3r_b_-_-_0_1"), 404,
              "egtb generate");
  check_error(get(s.port(), "/api/nothing"), 404, "no API resource");
  // A NUL byte in a name is shown escaped, not where the message ends.
  check_error(get(s.port(), "/api/stats/KBk%00"), 400, "\"KBk\\x00\" (expected");
  check_error(get(s.port(), "/api/tables?rules=x%00y"), 400, "not 'x\\x00y'");
  const Reply wrong = post(s.port(), "/api/lasker", "{}");
  check_error(wrong, 405, "GET");
  CHECK(wrong.header("allow") == "GET, HEAD, OPTIONS");
}

TEST_CASE("The page's files are served from memory, nothing else", "[server]") {
  const TestServer s;
  const Reply page = get(s.port(), "/");
  REQUIRE(page.status == 200);
  CHECK(page.header("content-type") == "text/html; charset=utf-8");
  CHECK(page.body.find("<svg id=\"board\"") != std::string::npos);
  CHECK(page.header("content-security-policy").find("default-src 'self'") != std::string::npos);
  CHECK(get(s.port(), "/?fen=8/8/8/8/8/8/8/K1k5_w_-_-").body == page.body);
  CHECK(get(s.port(), "/app.js").header("content-type") == "text/javascript; charset=utf-8");
  CHECK(get(s.port(), "/style.css").header("content-type") == "text/css; charset=utf-8");
  const Reply pieces = get(s.port(), "/pieces.svg");
  CHECK(pieces.header("content-type") == "image/svg+xml");
  for (const char* id : {"wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP"})
    CHECK(pieces.body.find(std::string("id=\"") + id + "\"") != std::string::npos);

  // A cached copy is revalidated by its ETag.
  const std::string etag = page.header("etag");
  REQUIRE_FALSE(etag.empty());
  const Reply again = test::exchange(s.port(), "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: " + etag +
                                                   "\r\nConnection: close\r\n\r\n");
  CHECK(again.status == 304);
  CHECK(again.body.empty());

  for (const char* path :
       {"/../../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "//etc/passwd", "/index.html/..",
        "/server/web/app.js", "/CMakeLists.txt", "/..%2f..%2fetc%2fpasswd"}) {
    INFO(path);
    CHECK(get(s.port(), path).status == 404);
  }
}

TEST_CASE("Hostile clients: oversized and malformed requests, slow clients", "[server]") {
  const TestServer s;
  // A body over 64 KiB: 413, whatever it holds.
  const std::string big(100'000, 'x');
  CHECK(post(s.port(), "/api/query", big).status == 413);
  // A request line and headers over 16 KiB (a huge FEN): 431.
  CHECK(get(s.port(), "/api/lasker?fen=" + std::string(20'000, 'K')).status == 431);
  // Not HTTP: 400.
  CHECK(test::exchange(s.port(), "HELLO\r\n\r\n").status == 400);
  CHECK(test::exchange(s.port(), "GET / HTTP/1.1\r\nContent-Length: -5\r\n\r\n").status == 400);

  // A slow client sending part of a request is cut off at the read timeout (1 s here) while other
  // clients are served meanwhile.
  test::Connection slow(s.port());
  slow.send("GET /api/lasker?fen=8/8/8/8/8/1N6/8/1k");
  CHECK(get(s.port(), std::string("/api/lasker?fen=") + KnkDeepest).status == 200);
  CHECK(slow.closed_within(std::chrono::milliseconds(3000)));

  // A Host other than the loopback's (a page of another site rebinding its name): 403.
  for (const char* host : {"evil.example:80", "127.0.0.1.evil.example", "127.attacker.example",
                           "localhost.evil", "127.0.0.1:80x", "[::1]x", "127.0.0.1:"}) {
    INFO(host);
    CHECK(test::exchange(s.port(), std::string("GET /api/tables HTTP/1.1\r\nHost: ") + host + "\r\n\r\n")
              .status == 403);
  }
  // No Host, or two: 400.
  CHECK(test::exchange(s.port(), "GET /api/tables HTTP/1.1\r\n\r\n").status == 400);
  CHECK(test::exchange(s.port(), "GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n")
            .status == 400);
  CHECK(test::exchange(s.port(), "GET /api/tables HTTP/1.1\r\nHost: LocalHost\r\nConnection: close\r\n\r\n")
            .status == 200);
  CHECK(test::exchange(s.port(),
                       "GET /api/tables HTTP/1.1\r\nHost: localhost:8080\r\nConnection: close\r\n\r\n")
            .status == 200);
  CHECK(test::exchange(s.port(), "GET /api/tables HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\n\r\n")
            .status == 200);

  // Keep-alive: two requests on one connection.
  test::Connection keep(s.port());
  keep.send("GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET /api/lasker?fen=" +
            std::string(KnkDeepest) + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
  const std::string both = keep.receive_all();
  CHECK(both.find("HTTP/1.1 200") != both.rfind("HTTP/1.1 200"));
}

TEST_CASE("answer_bytes: a request cut short is nothing, however it ends", "[server][fuzz]") {
  // fuzz_http's first finding (tests/fuzz/corpus/http/body_cut_short.http): a body one byte
  // shorter than its Content-Length once kept answer_bytes asking the parser for more for ever.
  Service service(service_options());
  const ServerOptions options = server_options();
  const std::string body = R"({"tables": ["KNk"], "query": "wtm dts == 27", "limit": 5})";
  const auto request = [&](size_t length) {
    return "POST /api/query HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + std::to_string(length) +
           "\r\n\r\n" + body;
  };
  const std::optional<Response> whole = answer_bytes(request(body.size()), options, service);
  REQUIRE(whole);
  CHECK(whole->status == 200);
  CHECK_FALSE(answer_bytes(request(body.size() + 1), options, service));  // the body ends early
  CHECK_FALSE(answer_bytes(request(body.size() + 1000), options, service));
  CHECK_FALSE(answer_bytes("GET /api/tables HTTP/1.1\r\nHost: local", options, service));  // in the header
  CHECK_FALSE(
      answer_bytes("POST /api/query HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "5\r\n{\"tab",
                   options, service));  // inside a chunk
  CHECK_FALSE(answer_bytes("", options, service));
}

TEST_CASE("peek_client tells a quiet client from one gone or sending, and never waits", "[server]") {
  // The watch of a slow request peeks when the socket wakes up readable. A wake-up with nothing to
  // read must not wait for bytes: Asio's receive did (poll() without a timeout), and the answer
  // waited on the connection's strand until the client gave up (test_server's POST /api/query
  // once got no answer in 10 s). Here the peek with nothing to read returns at once.
  int ends[2];
  REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) == 0);
  CHECK(peek_client(ends[0]) == ClientState::Quiet);
  REQUIRE(::write(ends[1], "G", 1) == 1);
  CHECK(peek_client(ends[0]) == ClientState::Sent);
  CHECK(peek_client(ends[0]) == ClientState::Sent);  // a peek leaves the byte for the next request
  char byte = 0;
  REQUIRE(::read(ends[0], &byte, 1) == 1);
  CHECK(peek_client(ends[0]) == ClientState::Quiet);
  ::close(ends[1]);
  CHECK(peek_client(ends[0]) == ClientState::Gone);
  ::close(ends[0]);
  CHECK(peek_client(ends[0]) == ClientState::Gone);  // a closed descriptor: EBADF
}

TEST_CASE("Queries beyond the slow pool's queue are answered 503 with Retry-After", "[server]") {
  ServerOptions o = server_options();
  o.max_pending_slow = 0;
  const TestServer s(service_options(), o);
  const Reply busy = post(s.port(), "/api/query", R"({"tables": ["KBk"], "query": "wtm"})");
  check_error(busy, 503, "busy");
  CHECK(busy.header("retry-after") == "2");
  CHECK(get(s.port(), std::string("/api/lasker?fen=") + KnkDeepest).status == 200);  // probes go on
}

// A POST as a page of `origin` sends it: text/plain needs no CORS preflight.
Reply post_from(uint16_t port, const std::string& origin, const std::string& body) {
  return test::exchange(port, "POST /api/query HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                                  "\r\nOrigin: " + origin +
                                  "\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: " +
                                  std::to_string(body.size()) + "\r\n\r\n" + body);
}

TEST_CASE("Pages of other sites cannot run queries or statistics", "[server]") {
  const TestServer s;
  const std::string query = R"({"tables": ["KNk"], "query": "wtm dts == 27"})";
  check_error(post_from(s.port(), "http://evil.example", query), 403, "Origin http://evil.example");
  check_error(post_from(s.port(), "null", query), 403, "other sites");
  // The server's own page, and clients that send no Origin (curl), are served.
  CHECK(post_from(s.port(), "http://127.0.0.1:" + std::to_string(s.port()), query).status == 200);
  CHECK(post(s.port(), "/api/query", query).status == 200);
  // Statistics cost time too; a probe does not, and without CORS headers the page cannot read it.
  const auto get_from = [&](const std::string& target) {
    return test::exchange(s.port(), "GET " + target +
                                        " HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n"
                                        "Connection: close\r\n\r\n");
  };
  CHECK(get_from("/api/stats/KBk").status == 403);
  CHECK(get_from(std::string("/api/lasker?fen=") + KnkDeepest).status == 200);
}

TEST_CASE("The option --cors-origin names the one other origin allowed", "[server]") {
  ServiceOptions o = service_options();
  o.cors_origin = "http://localhost:3000";
  const TestServer s(o);
  const std::string query = R"({"tables": ["KNk"], "query": "wtm dts == 27"})";
  CHECK(post_from(s.port(), "http://localhost:3000", query).status == 200);
  CHECK(post_from(s.port(), "http://evil.example", query).status == 403);
  for (const char* origin :
       {"*", "http://localhost:3000", "https://example.org", "http://[::1]:8080", "http://127.0.0.1"}) {
    INFO(origin);
    CHECK(is_origin(origin));
  }
  for (const char* origin :
       {"", "localhost:3000", "http://", "http://a b", "http://a\r\nX-Injected: 1", "http://a/path",
        "http://a:", "http://a:1234567", "ftp://a", "http://[::1", "http://a\x01"}) {
    INFO(origin);
    CHECK_FALSE(is_origin(origin));
  }
}

TEST_CASE("CORS headers only when an origin is allowed", "[server]") {
  ServiceOptions o = service_options();
  o.cors_origin = "http://localhost:3000";
  const TestServer s(o);
  CHECK(get(s.port(), "/api/tables").header("access-control-allow-origin") == "http://localhost:3000");
  const Reply preflight = test::exchange(s.port(),
                                         "OPTIONS /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                         "http://localhost:3000\r\nConnection: close\r\n\r\n");
  CHECK(preflight.status == 204);
  CHECK(preflight.header("access-control-allow-origin") == "http://localhost:3000");
  CHECK(preflight.header("access-control-allow-methods") == "POST, OPTIONS");
  CHECK(preflight.header("access-control-allow-headers") == "Content-Type");
  CHECK(preflight.header("allow") == "POST, OPTIONS");
  const Reply probe = test::exchange(s.port(),
                                     "OPTIONS /api/lasker HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                     "http://localhost:3000\r\nConnection: close\r\n\r\n");
  CHECK(probe.status == 204);
  CHECK(probe.header("access-control-allow-methods") == "GET, HEAD, OPTIONS");
}

TEST_CASE("HEAD answers as GET without the body, OPTIONS 204 with Allow", "[server]") {
  const TestServer s;
  for (const std::string& target : std::vector<std::string>{"/", "/app.js", "/api/tables",
                                                            std::string("/api/lasker?fen=") + KnkDeepest}) {
    INFO(target);
    const Reply full = get(s.port(), target);
    REQUIRE(full.status == 200);
    test::Connection c(s.port());
    c.send("HEAD " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string raw = c.receive_all();
    INFO(raw);
    CHECK(raw.starts_with("HTTP/1.1 200"));
    CHECK(raw.ends_with("\r\n\r\n"));  // the headers, and nothing after them
    const Reply head = test::parse_reply(raw);
    CHECK(head.header("content-length") == std::to_string(full.body.size()));
    CHECK(head.header("content-type") == full.header("content-type"));
  }
  CHECK(test::exchange(s.port(), "HEAD /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            .status == 404);
  for (const auto& [target, allowed] :
       std::map<std::string, std::string>{{"/", "GET, HEAD, OPTIONS"},
                                          {"/api/lasker", "GET, HEAD, OPTIONS"},
                                          {"/api/query", "POST, OPTIONS"}}) {
    INFO(target);
    const Reply options = test::exchange(
        s.port(), "OPTIONS " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    CHECK(options.status == 204);
    CHECK(options.header("allow") == allowed);
    CHECK(options.header("access-control-allow-origin").empty());  // no CORS without --cors-origin
  }
  const Reply put = test::exchange(s.port(),
                                   "PUT /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: "
                                   "0\r\nConnection: close\r\n\r\n");
  check_error(put, 405, "GET, HEAD, OPTIONS only, not PUT");
  CHECK(put.header("allow") == "GET, HEAD, OPTIONS");
}

}  // namespace egtb::server
