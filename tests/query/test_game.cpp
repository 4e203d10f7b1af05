// The game filters on small games whose answers can be checked by hand: the tree of positions
// (filters_game.cpp), the move played, the cql(...) header, CQL's Unicode notation, and the
// message for CQL's words egtb lacks.
#include <fstream>
#include <map>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "pgn/reader.hpp"
#include "query/cql_words.hpp"
#include "query/eval.hpp"
#include "query/game_selection.hpp"
#include "query/keywords.hpp"
#include "query/parser.hpp"
#include "query/print.hpp"
#include "tests/query/games.hpp"
#include "tests/support/catch.hpp"

namespace {

using egtb::pgn::Game;
using egtb::pgn::NodeId;
using egtb::query::testing::matching;
using egtb::query::testing::read_game;

// "1. e4 (1. d4 d5) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#": nodes 0 start, 1 e4, 2 d4, 3 d5, 4 e5,
// 5 Qh5, 6 Nc6, 7 Bc4, 8 Nf6, 9 Qxf7# (pgn/game.hpp numbers nodes in the order read).
constexpr const char* Scholar =
    "[Event \"t\"]\n[Result \"1-0\"]\n\n1. e4 (1. d4 d5) e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";

// "1. a8=N Kb3" from "8/P7/8/8/8/8/k7/4K3 w": nodes 0 start, 1 a8=N, 2 Kb3.
constexpr const char* KnightPromotion =
    "[Event \"p\"]\n[FEN \"8/P7/8/8/8/8/k7/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. a8=N Kb3 *\n";

// The query's value at one node: a number, a square list, "true"/"false".
std::string value_at(std::string_view query, const Game& game, NodeId node) {
  const auto program = egtb::query::compile(query);
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  const auto v = evaluator.evaluate(game, node);
  if (!v) return "eval error: " + v.error().message;
  switch (v->kind) {
    case egtb::query::FilterKind::Set: return egtb::query::designator_text(egtb::query::AnyMen, v->squares);
    case egtb::query::FilterKind::Numeric: return v->has_number ? std::to_string(v->number) : "none";
    default: return v->matched ? "true" : "false";
  }
}

// The text message writes for `expr` at one node ("<none>" when it has no value).
std::string text_at(std::string_view expr, const Game& game, NodeId node = Game::Root) {
  const auto program = egtb::query::compile("message(" + std::string(expr) + ")");
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  const auto v = evaluator.evaluate(game, node);
  if (!v) return "eval error: " + v.error().message;
  return evaluator.notes().empty() ? "no note" : evaluator.notes().front();
}

// The notes (message, comment) the query writes at one node, joined by " | ".
std::string notes_at(std::string_view query, const Game& game, NodeId node) {
  const auto program = egtb::query::compile(query);
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  const auto v = evaluator.evaluate(game, node);
  if (!v) return "eval error: " + v.error().message;
  std::string out;
  for (const std::string& note : evaluator.notes()) out += (out.empty() ? "" : " | ") + note;
  return out;
}

// The query's tree as to_sexpr prints it.
std::string printed(std::string_view query) {
  const auto tree = egtb::query::parse(query);
  return tree ? egtb::query::to_sexpr(**tree) : "error " + tree.error().message;
}

std::string parse_error(std::string_view query) {
  const auto program = egtb::query::compile(query);
  if (program) return "no error";
  return std::to_string(program.error().range.column) + ": " + program.error().message;
}

}  // namespace

TEST_CASE("game: the tree of positions", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("initial", g) == "0");
  CHECK(matching("terminal", g) == "9 3");
  CHECK(matching("variation", g) == "2 3");
  CHECK(matching("mainline", g) == "0 1 4 5 6 7 8 9");
  CHECK(matching("depth == 1", g) == "2 3");
  CHECK(matching("ply == 2", g) == "4 3");
  CHECK(value_at("ply", g, 9) == "7");
  // movenumber: the number of the move to be played from the position.
  CHECK(value_at("movenumber", g, 0) == "1");
  CHECK(value_at("movenumber", g, 1) == "1");
  CHECK(value_at("movenumber", g, 4) == "2");
  CHECK(value_at("movenumber", g, 9) == "4");
  // positionid: the place in preorder (0 1 4 5 6 7 8 9 2 3).
  CHECK(value_at("positionid", g, 2) == "8");
  CHECK(value_at("positionid", g, 5) == "3");
  CHECK(value_at("gamenumber", g, 0) == "7");
  CHECK(matching("result 1-0 initial", g) == "0");
  CHECK(matching("result \"0-1\"", g).empty());
}

TEST_CASE("game: parent, child and ':'", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("child : mate", g) == "8");
  CHECK(matching("parent : initial", g) == "1 2");
  CHECK(matching("child(1) : ply == 1", g) == "0");  // the second move from the start: 1. d4
  CHECK(matching("parent : parent : parent : initial", g) == "5");
  CHECK(value_at("parent : ply", g, 3) == "1");
  CHECK(value_at("child : movenumber", g, 8) == "4");
  CHECK(matching("position 8 : ply == 1", g) == "0 1 4 5 6 7 8 9 2 3");  // d4 is position 8
  CHECK(value_at("position 3 : ply", g, 0) == "3");
  CHECK(matching("position 10", g).empty());
  CHECK(value_at("child : parent : currentposition : ply", g, 4) == "2");
  CHECK(value_at("initialposition : movenumber", g, 9) == "1");
  CHECK(matching("parent", g) == "1 4 5 6 7 8 9 2 3");  // every position but the start has one
  CHECK(parse_error("ply : check") == "5: expected a filter, found ':'");
}

TEST_CASE("game: the move played", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("move from Q capture p", g) == "8");
  CHECK(value_at("move from Q", g, 8) == "[h5]");
  CHECK(value_at("move to .", g, 8) == "[f7]");
  CHECK(value_at("move capture .", g, 8) == "[f7]");
  CHECK(matching("move previous capture p", g) == "9");
  CHECK(matching("move previous from P", g) == "1 2");  // e4, d4; e5 and d5 are Black's
  CHECK(matching("move previous from [Pp]", g) == "1 4 2 3");
  // From the start e4 is the primary move, d4 the secondary one.
  CHECK(value_at("move to . primary", g, 0) == "[e4]");
  CHECK(value_at("move to . secondary", g, 0) == "[d4]");
  CHECK(value_at("move to .", g, 0) == "[d4,e4]");
  CHECK(matching("move null", g).empty());
  CHECK(matching("move castle or move enpassant", g).empty());
  const Game c = read_game("[FEN \"4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1\"]\n\n1. exd6 (1. O-O) Kd7 *\n");
  CHECK(value_at("move enpassant capture .", c, 0) == "[d5]");  // the pawn taken stands on d5
  CHECK(value_at("move castle to .", c, 0) == "[g1]");
  CHECK(value_at("move castle from .", c, 0) == "[e1]");
  const Game p = read_game("[FEN \"8/P6k/8/8/8/8/8/K7 w - - 0 1\"]\n\n1. a8=N -- 2. Nb6 *\n");
  CHECK(matching("move promote N", p) == "0");
  CHECK(matching("move promote Q", p).empty());
  // The man promoted to matches by its type, whatever the colour written, as in CQL 6.2 (its
  // answers on this game: "move promote n" and "path P--=n" match at the start, "move promote q"
  // nowhere).
  CHECK(matching("move promote n", p) == "0");
  CHECK(matching("move promote q", p).empty());
  CHECK(matching("path P--=n", p) == "0");
  CHECK(matching("move null", p) == "1");
  CHECK(value_at("move from .", p, 1) == "[h7]");  // a null move goes from the king to itself
  CHECK(matching("move previous null", p) == "2");
}

// CQL 6.2's answers on the same games (cql(variations)), read from its output.
TEST_CASE("game: primary, secondary, enpassant and castle alone: the move that led here", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("primary", g) == "1 4 5 6 7 8 9 3");  // 1... d5 is the first move after 1. d4
  CHECK(matching("secondary", g) == "2");
  const Game c = read_game("[FEN \"4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1\"]\n\n1. exd6 (1. O-O) Kd7 *\n");
  CHECK(matching("enpassant", c) == "1");
  CHECK(matching("castle", c) == "2");
  CHECK(matching("--(castle)", c) == "0");
}

TEST_CASE("game: find", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("find mate", g) == "0 1 4 5 6 7 8 9");  // the mate is ahead on the mainline
  CHECK(matching("find <- move previous from [Pp]", g) == "1 4 5 6 7 8 9 2 3");
  CHECK(value_at("find all check", g, 0) == "1");
  CHECK(value_at("find all btm", g, 0) == "5");  // e4, d4, Qh5, Bc4, Qxf7#
  CHECK(value_at("find 2 3 btm", g, 5) == "3");  // after Qh5, Bc4 and Qxf7#
  CHECK(value_at("find 4 5 btm", g, 5) == "none");
  CHECK(value_at("find check : ply", g, 0) == "7");
  CHECK(value_at("find <- initial : movenumber", g, 3) == "1");
  CHECK(parse_error("find all 2 check") == "1: 'find' takes 'all' or a range, not both");
  // Without variations the game is its mainline: d4 is not found, nor played.
  const auto program = egtb::query::compile("find all btm");
  REQUIRE(program.has_value());
  egtb::query::Evaluator evaluator(*program);
  CHECK(evaluator.evaluate(g, 0, false)->number == 4);
  const auto moves = egtb::query::compile("move to .");
  REQUIRE(moves.has_value());
  egtb::query::Evaluator e2(*moves);
  CHECK(e2.evaluate(g, 0, false)->squares == egtb::square_bb(egtb::Square::E4));
}

// Every expected answer below is CQL 6.2's (build 9.493) on the same games with the same query
// under cql(variations), read from the positions its output marks "CQL".
TEST_CASE("echo: positions as values", "[query][game][echo]") {
  const Game g = read_game(Scholar);  // preorder 0 1 4 5 6 7 8 9 2 3
  CHECK(matching("echo (s t) { s [<] t  t:terminal  distance(s t) == 3 }", g) == "6");
  CHECK(matching("echo (s t) { lca(s t):ply == 0  s:ply == t:ply }", g) == "1 4 2 3");
  CHECK(matching("echo (s t) { s \u227B t  t:ply == 1 }", g) == "4 5 6 7 8 9 3");           // s ≻ t
  CHECK(matching("echo (s t) { s < t  s \u227C t  t:terminal }", g) == "0 1 4 5 6 7 8 2");  // s ≼ t
  CHECK(matching("echo (s t) in all {s == t}", g) == "0 1 4 5 6 7 8 9 2 3");
  CHECK(matching("echo (s t) s == t", g).empty());
  CHECK(matching("#(child & currentposition) == 62", g) == "0 1 4 5 6 7 8 2");
  CHECK(matching("x = parent x:initial", g) == "1 2");
  CHECK(matching("try", g) == "2 3");  // after 1. d4, a White try, and after 1... d5
  // "1. e4 e5 2. Nf3 Nc6 3. Bc4 (3. d3 Nf6 4. Nc3 Be7) Nf6 4. Nc3 Be7": nodes 6-9 the variation,
  // 10-12 the mainline's last moves; Nf6 Nc3 Be7 are common to both ways from the lca (node 4).
  const Game v =
      read_game("[Event \"u\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 (3. d3 Nf6 4. Nc3 Be7) Nf6 4. Nc3 Be7 *\n");
  CHECK(matching("echo (s t) { s [<] t  t:terminal  distance(s t) == 3 }", v) == "5 6");
  CHECK(matching("echo (s t) consecutivemoves (s t) == 3", v) == "12 9");
  CHECK(matching("3 == echo (s t) consecutivemoves (s t)", v) == "12 9");
  CHECK(matching("2 == echo (s t) consecutivemoves (s t)", v) == "11 8");
  CHECK(matching("echo (s t) consecutivemoves 3 3 (s t)", v) == "12 9");
  CHECK(matching("try", v) == "6 7 8 9");
  // Without variations (cql() alone) echo and try see the mainline only.
  const auto program = egtb::query::compile("echo (s t) t:variation");
  REQUIRE(program.has_value());
  egtb::query::Evaluator evaluator(*program);
  CHECK(evaluator.evaluate(g, 0, true)->matched);
  CHECK_FALSE(evaluator.evaluate(g, 0, false)->matched);
  CHECK(parse_error("echo (s s) check") == "9: the two position variables of 'echo' must differ");
  CHECK(parse_error("echo (s t) s [<] 3") == "18: expected a position with '[<]', as the other operand");
  CHECK(parse_error("echo (s t) distance(s K)") ==
        "23: expected a position with 'distance', as the other operand");
  CHECK(parse_error("wtm [<] btm") == "1: '[<]' compares positions");
  // CQL's /// is a comment filter whose arguments end with the line (CQL 6.2: "parent:///"a"" then
  // "check" on the next line matches at 4. Qxf7#, writing "a" at its parent).
  CHECK(matching("parent:///\"a\"\ncheck", g) == "9");
  CHECK(matching("//// an ordinary comment\ncheck", g) == "9");
  CHECK(parse_error("check ///\nmate") == "7: '///' needs something to write before the end of the line");
}

TEST_CASE("game: a position without a game is a game of one position", "[query][game]") {
  const auto program = egtb::query::compile("initial terminal mainline ply == 0 movenumber == 1 depth == 0");
  REQUIRE(program.has_value());
  egtb::query::Evaluator evaluator(*program);
  CHECK(evaluator.matches(egtb::Position()));
  const auto moved = egtb::query::compile("move from . or parent or child or variation");
  REQUIRE(moved.has_value());
  egtb::query::Evaluator e2(*moved);
  CHECK_FALSE(e2.matches(egtb::Position()));
}

TEST_CASE("game: the cql(...) header", "[query][game]") {
  const auto tree = egtb::query::parse(
      "cql(input hhdbvi.pgn result 1-0 variations gamenumber 3 9 quiet "
      "sort matchcount 2 100 matchstring \"\") mate");
  REQUIRE(tree.has_value());
  const auto program = egtb::query::compile(
      "cql(input hhdbvi.pgn result 1-0 variations gamenumber 3 9 quiet sort matchcount 2 100) mate");
  REQUIRE(program.has_value());
  const egtb::query::GameSelection& s = program->info().games;
  CHECK(s.header);
  CHECK(s.input == "hhdbvi.pgn");
  CHECK(s.result == "1-0");
  CHECK(s.variations);
  CHECK(s.quiet);
  CHECK(s.sort_matchcount);
  REQUIRE(s.gamenumber.has_value());
  CHECK(s.gamenumber->low == 3);
  CHECK(s.gamenumber->high == 9);
  REQUIRE(s.matchcount.has_value());
  CHECK(s.matchcount->contains(2));
  CHECK_FALSE(s.matchcount->contains(101));
  Game g = read_game(Scholar);
  CHECK(selects_game(s, g));  // number 7, won by White
  g.number = 10;
  CHECK_FALSE(selects_game(s, g));
  CHECK(parse_error("cql(input a.pgn player \"x\") mate") ==
        "17: CQL filter 'player' is not supported by egtb");
  CHECK(parse_error("cql(result 2-0) mate") == "12: expected 1-0, 0-1 or 1/2-1/2 after 'result'");
  CHECK(parse_error("cql(gamenumber) mate").find("expected a number") != std::string::npos);
}

TEST_CASE("game: CQL's Unicode notation", "[query][game]") {
  CHECK(printed("♕==♛==2") == "(query (== Q (== q 2)))");
  CHECK(printed("□△") == "(query [A_])");
  CHECK(printed("♙a-h2 ∪ ♟a-h7") == printed("Pa-h2 | pa-h7"));
  CHECK(printed("⬓ ♔→♚") == printed("flipcolor K -> k"));
  CHECK(printed("✵♕ ≤ 3") == printed("flip Q <= 3"));
  CHECK(printed("x∊▦ x&♖") == printed("square x in . x&R"));
  CHECK(printed("◭T∊♗ T") == printed("piece T in B T"));
  CHECK(printed("∀x∊♖ x") == printed("square all x in R x"));
  CHECK(printed("power△ ≥ 10") == printed("power A >= 10"));
  // A quote in a comment opens no string (staircase-sort.cql): the symbols after it are read.
  CHECK(printed("/* sort \"a\"\" */ ✵♕ ≤ 3") == printed("flip Q <= 3"));
  CHECK(printed("// \"a\n✵♕") == printed("flip Q"));
  CHECK(printed("///\"x\" ▲") == printed("///\"x\" a"));
  CHECK(printed("//// \"a\n▲") == printed("a"));
  // Errors point at the symbol as written: columns count characters.
  CHECK(parse_error("♕ ⊢ nestban nestban ―― ♔") == "13: 'nestban' given twice in 'path'");
  CHECK(parse_error("\"♕\" ♔") == "no error");  // inside a string a symbol stays as written
}

TEST_CASE("game: every CQL 6.2 word egtb lacks is named as such at its place", "[query][game]") {
  for (std::string_view word : egtb::query::cql_reserved_words()) {
    if (egtb::query::find_keyword(word)) continue;
    INFO(word);
    const std::string query = "wtm " + std::string(word);
    CHECK(parse_error(query) == "5: " + egtb::query::unsupported_word_message(word));
  }
}

TEST_CASE("docs: cql-words.md lists every CQL 6.2 word", "[query][game]") {
  std::ifstream in(std::string(EGTB_SOURCE_DIR) + "/docs/cql-words.md");
  REQUIRE(in);
  std::map<std::string, std::string> rows;  // word -> status
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("| `")) {
      const size_t end = line.find('`', 3);
      rows[line.substr(3, end - 3)] = line.substr(end + 1);
    }
  CHECK(rows.size() == egtb::query::cql_reserved_words().size());
  for (std::string_view word : egtb::query::cql_reserved_words()) {
    INFO(word);
    REQUIRE(rows.count(std::string(word)));
    const bool refused = rows[std::string(word)].find("not supported") != std::string::npos;
    if (!egtb::query::find_keyword(word)) CHECK(refused);
  }
}

// Tags of a study, as the Harold van der Heijden database writes them.
constexpr const char* Study =
    "[Event \"1.p Shakhmatny Listok\"]\n[Site \"?\"]\n[Date \"1913.??.??\"]\n"
    "[White \"Troitzky, Alexey\"]\n[Black \"(+0010.21a3g1)\"]\n[WhiteElo \"2100\"]\n"
    "[BlackElo \"2350\"]\n[ECO \"E00\"]\n[PlyCount \"3\"]\n[Result \"1-0\"]\n\n"
    "{EG#123 first} 1. e4 {after e4} {twice} e5 2. Nf3 1-0\n";

TEST_CASE("game: tags, elo, year and comments", "[query][game]") {
  const Game g = read_game(Study);
  CHECK(text_at("player white", g) == "Troitzky, Alexey");
  CHECK(text_at("player black", g) == "(+0010.21a3g1)");
  CHECK(text_at("player", g) == "Troitzky, Alexey\\n(+0010.21a3g1)");  // CQL's "\n" keeps its backslash
  CHECK(text_at("event", g) == "1.p Shakhmatny Listok");
  CHECK(text_at("site", g) == "?");
  CHECK(text_at("date", g) == "1913.??.??");
  CHECK(text_at("eco", g) == "E00");
  CHECK(text_at("eventdate", g) == "<none>");
  CHECK(text_at("tag \"PlyCount\"", g) == "3");
  CHECK(text_at("tag \"Round\"", g) == "<none>");
  CHECK(text_at("year", g) == "1913");
  CHECK(text_at("elo white", g) == "2100");
  CHECK(text_at("elo black", g) == "2350");
  CHECK(text_at("elo", g) == "2350");
  CHECK(text_at("originalcomment", g) == "EG#123 first");
  CHECK(text_at("originalcomment", g, 1) == "after e4 twice");
  CHECK(text_at("originalcomment", g, 2) == "<none>");
  // The implicit search: a string after a tag word is looked for in the tag.
  CHECK(matching("player white \"Troitzky\"", g) == "0 1 2 3");
  CHECK(matching("player black \"Troitzky\"", g).empty());
  CHECK(matching("year < 1900", g).empty());
  // flipcolor reads the other player, rating and result.
  CHECK(matching("flipcolor {player white \"0010\" elo white == 2350 result 0-1 initial}", g) == "0");
  CHECK(matching("flipcolor {player white \"0010\" result 1-0}", g).empty());
  CHECK(matching("{result 1-0} initial", g) == "0");
  CHECK(parse_error("event \"O[pq]en\"").starts_with("7: \"O[pq]en\" looks like a regular expression"));
  // A position without a game has no tags.
  const auto program = egtb::query::compile("player white");
  REQUIRE(program);
  egtb::query::Evaluator evaluator(*program);
  CHECK_FALSE(evaluator.matches(g.start()));
}

TEST_CASE("game: strings", "[query][game]") {
  const Game g = read_game(Study);
  CHECK(text_at("\"ab\" + \"cd\"", g) == "abcd");
  CHECK(text_at("#\"abcd\"", g) == "4");
  CHECK(text_at("\"abcd\"[1]", g) == "b");
  CHECK(text_at("\"abcd\"[-1]", g) == "d");
  CHECK(text_at("\"abcd\"[4]", g) == "<none>");
  CHECK(text_at("\"abcd\"[1:3]", g) == "bc");
  CHECK(text_at("\"abcd\"[:-1]", g) == "abc");
  CHECK(text_at("\"abcd\"[2:]", g) == "cd");
  CHECK(text_at("\"abcd\"[3:1]", g).empty());
  CHECK(text_at("player white[0:8]", g) == "Troitzky");
  CHECK(text_at("lowercase \"AbC\"", g) == "abc");
  CHECK(text_at("uppercase \"AbC\"", g) == "ABC");
  CHECK(text_at("int \"-42\" + 2", g) == "-40");
  CHECK(text_at("int \"4x\"", g) == "<none>");
  CHECK(text_at("str(1 + 2 \"x\" a1)", g) == "3x[a1]");
  CHECK(text_at("\"b\" < \"c\"", g) == "b");
  CHECK(text_at("\"b\" > \"c\"", g) == "<none>");
  CHECK(matching("\"itz\" in player white", g) == "0 1 2 3");
  CHECK(matching("\"xyz\" in player white", g).empty());
  CHECK(text_at("indexof(\"itz\" player white)", g) == "3");
  CHECK(text_at("indexof(\"xyz\" player white)", g) == "<none>");
  CHECK(parse_error("indexof(\"a\" 3)") == "13: expected string in 'indexof'");
  // ~~: the first match; \N its groups, until the next match.
  CHECK(text_at("player white ~~ \"T(ro)(i)\"", g) == "Troi");
  CHECK(text_at("{player white ~~ \"T(ro)(i)\" \\1 + \\2}", g) == "roi");
  CHECK(text_at("{player white ~~ \"(x)?T\" \\1}", g) == "<none>");
  CHECK(text_at("{player white ~~ \"Q\" \\0}", g) == "<none>");
  CHECK(text_at("originalcomment ~~ \"EG#([0-9]+)\"", g) == "EG#123");
  CHECK(text_at("{x = event x[0]}", g) == "1");
  CHECK(matching("x = player white x ~~ \"^Tr\" == \"Tr\"", g) == "0 1 2 3");
  // Errors, located.
  CHECK(parse_error("player white ~~ \"(\"").starts_with("1: invalid regular expression \"(\""));
  CHECK(parse_error("player white ~~ 3") == "17: expected a quoted regular expression after '~~', found '3'");
  CHECK(parse_error("\"a\" + 1") == "7: expected a string after '+'");
  CHECK(parse_error("\"a\" - \"b\"") == "1: '-' takes numbers; strings are joined with '+'");
  CHECK(parse_error("x = \"a\" x = 1") ==
        "9: variable 'x' holds a String value; cannot give it a Numeric value");
  CHECK(parse_error("\"abc\"[1") == "8: expected ']' to close the '[' at 1:6, found end of query");
  CHECK(parse_error("lowercase 3") == "11: expected string after 'lowercase'");
}

TEST_CASE("game: assignment operators", "[query][game]") {
  const Game g = read_game(Study);
  CHECK(text_at("{x = 5 x += 2 x *= 3 x -= 1 x /= 4 x %= 3 x}", g) == "2");  // (5+2)*3-1 = 20, /4 = 5, %3 = 2
  CHECK(text_at("{s = \"ab\" s += \"c\" s}", g) == "abc");
  CHECK(text_at("{S = a1 S |= h8 S &= h1-8 S}", g) == "[h8]");
  CHECK(parse_error("y += 1") == "1: unknown variable 'y'");
  CHECK(parse_error("x = 1 x += \"a\"") == "7: expected a string before '+'");
  CHECK(parse_error("x = 1 x += ") == "12: expected a filter after '+=', found end of query");
}

// CQL 6.2 binds variables per game, not per position (checked with CQL 6.2 itself: "if ply == 1
// Y = 7 ply == 3 comment(Y)" writes "7" at ply 3, isbound is false at the next game's start, and
// over this game with variations "if ply == 0 Y = 0 if ply == 3 Y = ply Y == 3" marks Qh5 to the
// end, then d4 and d5).
TEST_CASE("game: a variable keeps its value through the game's later positions", "[query][game]") {
  const Game g = read_game(Scholar);  // preorder 0 1 4 5 6 7 8 9 2 3: e4 (1) and d4 (2) at ply 1
  CHECK(matching("if ply == 1 Y = 7 Y == 7", g) == "1 4 5 6 7 8 9 2 3");
  CHECK(matching("if ply == 3 Y = ply Y == 3", g) == "5 6 7 8 9 2 3");  // d4 keeps Qh5's 3
  const auto program = egtb::query::compile("if ply == 1 Y = 7 Y == 7");
  REQUIRE(program);
  egtb::query::Evaluator evaluator(*program);
  CHECK(evaluator.evaluate(g, 5)->matched == false);  // a game's first evaluation: Y unbound
  CHECK(evaluator.evaluate(g, 1)->matched);
  CHECK(evaluator.evaluate(g, 5)->matched);
  Game next = g;
  next.number = g.number + 1;
  CHECK(evaluator.evaluate(next, 5)->matched == false);        // another game unbinds Y
  CHECK(evaluator.evaluate(g.position(5))->matched == false);  // and so does a position alone
}

// The answers below checked with CQL 6.2 itself over this game with cql(variations).
TEST_CASE("game: isbound, isunbound, unbind", "[query][game]") {
  const Game g = read_game(Scholar);  // preorder 0 1 4 5 6 7 8 9 2 3
  CHECK(matching("if ply == 2 X = 1 isbound X", g) == "4 5 6 7 8 9 2 3");
  CHECK(matching("if ply == 2 X = 1 isunbound X", g) == "0 1");
  CHECK(matching("if ply == 2 S = a1 isbound \"S\"", g) == "4 5 6 7 8 9 2 3");
  CHECK(matching("X = ply if ply == 3 unbind X isbound X", g) == "0 1 4 6 7 8 9 2 3");
  CHECK(matching("isbound Nothing", g).empty());
  CHECK(matching("if isbound Later false else Later = 1", g) == "0");  // Later: bound from node 0 on
  CHECK(matching("square x in a1 true isunbound x", g) == "0 1 4 5 6 7 8 9 2 3");  // a loop unbinds
  CHECK(parse_error("unbind X X = 1") == "1: unknown variable 'X' after 'unbind'");
  CHECK(parse_error("isbound 3") == "9: expected a variable's name after 'isbound', found '3'");
}

// CQL's dictionaries; every answer checked with CQL 6.2 itself over this game with cql(variations)
// (preorder 0 1 4 5 6 7 8 9 2 3, plies 0 1 2 3 4 5 6 7 1 2).
TEST_CASE("game: dictionaries: D[k] = v, D[k], #D, unbind D, unbind D[k]", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("local dictionary D D[ply] = ply * 10 D[1] == 10", g) == "1 4 5 6 7 8 9 2 3");
  CHECK(matching("local dictionary D D[ply] = 1 #D == 3", g) == "4");  // d5 (3) finds keys 0 to 7
  CHECK(matching("local dictionary D if ply == 3 unbind D D[ply] = 1 #D == 1", g) == "0 5");
  CHECK(matching("local dictionary D D[ply] = 1 unbind D[0] #D == 1", g) == "1");
  CHECK(matching("local dictionary D D[\"a\"] = 3 D[\"b\"] = 4 D[\"a\"] + D[\"b\"] == 7 ply == 2", g) ==
        "4 3");
  CHECK(matching("local dictionary D D[to] = ply X = e5 D[X] == 2 ply == 4", g) == "6");  // set keys
  CHECK(matching("local dictionary D D[to] = ply D[e5|e4] == 2 ply == 4", g).empty());    // no such key
  CHECK(matching("local dictionary D D[ply] = currentposition D[1]:ply == 1 ply == 2", g) == "4 3");
  CHECK(matching("dictionary D not D[fen] D[fen] = \"seen\"", g) == "0 1 4 5 6 7 8 9 2 3");
  // CQL's empty set [] and range 'count' of find (followpath.cql and snake-old.cql use them).
  CHECK(matching("Seen = [] #Seen == 0 ply == 7", g) == "9");
  CHECK(matching("{find count check} == 1", g) == "0 1 4 5 6 7 8 9");
  CHECK(matching("{find count check} == 0", g) == "2 3");
  CHECK(printed("local dictionary D D[1] = a1 unbind D[1] #D") ==
        "(query (dictionary D) ([]= D 1 [a1]) (unbind D 1) (# (dictionary D)))");
}

// Loops over a dictionary's keys, in key order, each run of the body with the variable bound to one
// key; the loop matches whatever its body does. Checked with CQL 6.2 (its messages, over this game's
// first position: message(key) in the loops below prints a b c, then 1 3).
TEST_CASE("game: loops over a dictionary's keys: x ∊ D, string x in D", "[query][game]") {
  const Game g = read_game(Scholar);
  const std::string strings = "dictionary D D[\"b\"] = 3 D[\"a\"] = 5 D[\"c\"] = 1 ";
  CHECK(notes_at(strings + "key ∊ D message(key)", g, Game::Root) == "a | b | c");
  CHECK(notes_at(strings + "key [element] D message(\"v\" D[key])", g, Game::Root) == "v5 | v3 | v1");
  CHECK(notes_at(strings + "string key in D comment(key)", g, Game::Root) == "a | b | c");
  CHECK(notes_at(strings + "key ∊ D false message(\"after\")", g, Game::Root) == "after");  // matches
  // The keys are those D had when the loop began: the body may change D.
  CHECK(notes_at("dictionary Nums Nums[3] = \"x\" Nums[1] = \"y\" num ∊ Nums {Nums[num] = \"z\" "
                 "message(num)} message(Nums)",
                 g, Game::Root) ==
        "1 | 3 | Dictionary Nums with 2 entries: \n<NumValue>1: <string>z\n<NumValue>3: <string>z\n");
  CHECK(notes_at("dictionary S S[e4] = 1 S[a1] = 2 sq ∊ S message(S[sq])", g, Game::Root) == "2 | 1");
  CHECK(notes_at("dictionary D D[1] = 2 key ∊ D true key ∊ D message(key)", g, Game::Root) ==
        "1");  // unbound after
  CHECK_THROWS_AS(notes_at("dictionary D D[1] = 2 key = 3 key ∊ D true", g, Game::Root),
                  egtb::query::RunError);  // CQL: "the variable key is already bound"
  CHECK(printed("dictionary D D[\"a\"] = 1 string s in D true") ==
        "(query (dictionary persistent D) ([]= D \"a\" 1) ([element] s (dictionary D) true))");
}

// message(D) and comment(D) list a dictionary's entries in key order, each with its type, as CQL 6.2
// prints them (checked with CQL 6.2: a set key lists its squares, a1 first, in brackets unless one).
TEST_CASE("game: message(D) prints a dictionary's entries", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(notes_at("dictionary D D[\"b\"] = 3 D[\"a\"] = 5 message(D)", g, Game::Root) ==
        "Dictionary D with 2 entries: \n<string>a: <NumValue>5\n<string>b: <NumValue>3\n");
  CHECK(notes_at("dictionary S S[h8] = 1 S[a1 | b2] = 2 S[~.] = 3 S[e5] = 4 message(S)", g, Game::Root) ==
        "Dictionary S with 4 entries: \n<SquareMask>[]: <NumValue>3\n<SquareMask>[a1,b2]: <NumValue>2\n"
        "<SquareMask>e5: <NumValue>4\n<SquareMask>h8: <NumValue>1\n");
  CHECK(notes_at("dictionary E message(\"e\" E)", g, Game::Root) == "eDictionary E with 0 entries: \n");
  CHECK(notes_at("dictionary D D[1] = \"one\" comment(D)", g, Game::Root) ==
        "Dictionary D with 1 entries: \n<NumValue>1: <string>one\n");
}

// A dictionary declared without 'local' keeps its entries from game to game (CQL runs such a program on
// one thread); a local one is emptied when a game starts, as the variables are unbound.
TEST_CASE("game: a persistent dictionary keeps its entries from game to game", "[query][game]") {
  const Game g = read_game(Scholar);
  Game next = g;
  next.number = g.number + 1;
  for (const bool persistent : {true, false}) {
    const auto program =
        egtb::query::compile(std::string(persistent ? "" : "local ") + "dictionary D D[ply] = 1 #D");
    REQUIRE(program);
    egtb::query::Evaluator evaluator(*program);
    CHECK(evaluator.evaluate(g, 9)->number == 1);  // the key 7
    CHECK(evaluator.evaluate(g, 8)->number == 2);  // and 6
    CHECK(evaluator.evaluate(next, 1)->number == (persistent ? 3 : 1));
  }
}

TEST_CASE("game: previous -- and currentmove --: the move that led here", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("previous e2--e4", g) == "1");
  CHECK(matching("currentmove --(check)", g) == "9");
  CHECK(matching("currentmove Q--f7", g) == "9");
  CHECK(matching("previous [x]", g) == "9");
  CHECK(matching("currentmove P--", g) == "1 2");  // White's pawns only
  CHECK(value_at("currentmove --(ply)", g, 5) == "3");
  CHECK(parse_error("previous check") == "10: expected '--' after 'previous', found 'check'");
}

TEST_CASE("game: assert stops the run where its filter fails, located", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("assert ply < 9", g) == "0 1 4 5 6 7 8 9 2 3");
  try {
    (void)matching("ply > 0 assert ply < 5", g);
    FAIL("no RunError");
  } catch (const egtb::query::RunError& e) {
    CHECK(e.error().range.column == 9);
    CHECK(e.error().message.rfind("assert failed in game 7 at positionid 5 (", 0) == 0);
  }
}

TEST_CASE("game: loop and while stop at the loop bound", "[query][game]") {
  const Game g = read_game("[Event \"t\"]\n\n1. e4 *\n");
  for (const char* query : {"loop true", "while (true) true", "x = 0 loop {x += 1}"}) {
    INFO(query);
    const auto program = egtb::query::compile(query);
    REQUIRE(program);
    egtb::query::Evaluator evaluator(*program);
    CHECK_THROWS_AS(evaluator.evaluate(g, Game::Root), egtb::query::RunError);
  }
}

TEST_CASE("game: ~~ refuses a text longer than 4096 bytes", "[query][game]") {
  const Game g = read_game("[Event \"t\"]\n\n{" + std::string(5000, 'a') + "} 1. e4 *\n");
  const auto program = egtb::query::compile("originalcomment ~~ \"a*b\"");
  REQUIRE(program);
  egtb::query::Evaluator evaluator(*program);
  CHECK_THROWS_AS(evaluator.evaluate(g, Game::Root), egtb::query::RunError);
  CHECK(matching("originalcomment[0:4096] ~~ \"a$\"", g) == "0");
}

// ---- path (CQL 6.2's ⊢), over Scholar: 0 start, 1 e4, 2 d4, 3 d5, 4 e5, 5 Qh5, 6 Nc6, 7 Bc4,
// 8 Nf6, 9 Qxf7# (preorder 0 1 4 5 6 7 8 9 2 3).

TEST_CASE("path: dashes, targets and the longest path", "[query][game][path]") {
  const Game g = read_game(Scholar);
  CHECK(matching("path -- mate", g) == "8");
  CHECK(matching("⊢ ―― check", g) == "8");
  CHECK(value_at("path -- check", g, 8) == "1");
  // The mainline's seven moves to mate; the d4 line ends without one.
  CHECK(value_at("path (-- not check)* -- mate", g, 0) == "7");
  CHECK(matching("path (-- not check)* -- mate", g) == "0 1 4 5 6 7 8");
  // '*' then a filter: the longest way to a terminal position; a path of no move does not match.
  CHECK(value_at("path --* terminal", g, 0) == "7");
  CHECK(value_at("path --* terminal", g, 2) == "1");
  CHECK(matching("path --* terminal", g) == "0 1 4 5 6 7 8 2");
  CHECK(value_at("path -- {2,3}", g, 0) == "3");
  CHECK(value_at("path --{2}", g, 0) == "2");
  CHECK(value_at("path --{,2}", g, 0) == "2");
  CHECK(value_at("path -- ?", g, 0) == "1");
  CHECK(value_at("path --{+}", g, 4) == "5");
  CHECK(matching("path --{2,}", g) == "0 1 4 5 6 7");
  // '+' after a target repeats the dash, it does not add.
  CHECK(value_at("path -- check+", g, 8) == "1");
  // A filter constituent matches where the path has come to.
  CHECK(matching("path ply == 5 -- mate", g).empty());
  CHECK(matching("path ply == 6 -- mate", g) == "8");
  // A blank line ends the path: "initial" is then a filter of its own, not the dash's target.
  CHECK(matching("path --\n\ninitial", g) == "0");
  CHECK(matching("path -- initial", g).empty());
}

TEST_CASE("path: the squares of a dash, captures and promotions", "[query][game][path]") {
  const Game g = read_game(Scholar);
  CHECK(matching("path Q-- check", g) == "8");
  CHECK(matching("path --f7", g) == "8");
  CHECK(matching("path Q[x]p", g) == "8");
  CHECK(matching("path ♕×♟f7", g) == "8");
  CHECK(matching("path [x]", g) == "8");
  CHECK(matching("path P--e4", g) == "0");
  // A man next to the dash is its left set; apart from it, a filter of the path.
  CHECK(matching("⊢ ♞――", g) == "5 7");
  CHECK(matching("⊢ ♞ ――", g) == "0 1 4 5 6 7 8 2");
  CHECK(matching("path -- --d5", g) == "0");
  CHECK(matching("path primary -- --d5", g).empty());  // primary: no variation move
  // A promotion, and countmoves counting a promotion once (a move is its two squares, as CQL's).
  const Game p = read_game(KnightPromotion);
  CHECK(matching("path --=N", p) == "0");
  CHECK(matching("path --=Q", p).empty());
  CHECK(matching("path P--=[QN] a8", p) == "0");
  CHECK(value_at("countmoves legal --", p, 0) == "6");
  CHECK(value_at("move legal count", p, 0) == "9");
  CHECK(value_at("countmoves legal --a8", p, 0) == "1");
}

TEST_CASE("path: focus, nestban, max, lastposition, firstmatch", "[query][game][path]") {
  const Game g = read_game(Scholar);
  // focus A: the next White move in every line, the first one from the start itself.
  CHECK(value_at("path focus A --{3}", g, 0) == "3");
  CHECK(value_at("path focus A --+", g, 0) == "4");
  CHECK(matching("path focus A --+", g) == "0 4 6 8");  // not 1, 5 ... where Black moves first
  // The queen is followed from d1 to h5: Qh5 then Qxf7, the other moves skipped.
  CHECK(value_at("path focus Q --+", g, 4) == "2");
  CHECK(matching("path ◎♕ ――+", g) == "4 8");  // the queen's own move first
  CHECK(value_at("path singlecolor --+", g, 1) == "3");
  // nestban: no path starts inside one found before (0-1-4, 4-5-6, 6-7-8, 8-9 ban 0 1 4 5 6 7 8).
  CHECK(matching("path --{1,2}", g) == "0 1 4 5 6 7 8 2");
  CHECK(matching("path nestban --{1,2}", g) == "0 4 6 8 2");
  // max: the path whose end has the greatest value, not the longest one.
  CHECK(value_at("path max (10 - ply) --{1,3}", g, 0) == "9");
  CHECK(value_at("path lastposition --{2} : ply", g, 0) == "2");
  CHECK(value_at("path firstmatch --{1,3}", g, 0) == "1");
}

TEST_CASE("path: pathcount, pathstart, pathlastposition", "[query][game][path]") {
  const Game g = read_game(Scholar);
  // Inside a path: the search under way (its moves so far, its start).
  CHECK(value_at("path --{2} pathcount == 2", g, 0) == "2");
  CHECK(matching("path --{2} pathcount == 1", g).empty());
  // The move into a dash's target counts already there, as in CQL 6.2 (checked with it).
  CHECK(matching("X = {path --(pathcount == 1) --(pathcount == 2)} X == 2 ply == 1", g) == "1");
  CHECK(value_at("path -- {pathcount <= 2} +", g, 5) == "2");
  CHECK(matching("path -- pathstart : initial", g) == "0");
  // After it: the last path found in the game.
  CHECK(value_at("{path --{1,3}} pathcount", g, 0) == "3");
  CHECK(value_at("{path --{1,3}} pathstart : ply", g, 4) == "2");
  CHECK(value_at("{path --{1,3}} pathlastposition : ply", g, 4) == "5");
  CHECK(value_at("pathcount", g, 0) == "none");  // no path found yet
  CHECK(matching("pathstart", g).empty());
}

// CQL's atomic variables; every answer checked with CQL 6.2 itself over this game with
// cql(variations). From the start the search tries 9 moves (e4 ... Qxf7#, then d4 d5): a plain X
// counts all 9, an atomic X is restored after each move tried and left as the path found (7 moves)
// had it, or as it was when no path is found.
TEST_CASE("path: atomic variables are restored as the search backtracks", "[query][game][path]") {
  const Game g = read_game(Scholar);
  const std::pair<const char*, const char*> answers[] = {
      {"atomic X = 0 {path -- {X = X + 1} +} X", "7"},
      {"X = 0 {path -- {X = X + 1} +} X", "9"},
      {"atomic X = 0 {path -- {X = X + 1 X < 3} +} X", "2"},
      {"atomic X = 0 atomic Y = 0 {path {Y = Y + 1} -- {X = X + 1} +} X * 10 + Y", "71"},
      {"atomic X = 5 not {path -- {X = X + 1} -- -- -- -- -- -- -- --} X", "5"},  // no path found
      {"X = 5 not {path -- {X = X + 1} -- -- -- -- -- -- -- --} X", "7"},
  };
  for (const auto& [query, value] : answers) CHECK(value_at(query, g, 0) == value);
  CHECK(printed("atomic X = 1") == "(query (= atomic X 1))");
}

TEST_CASE("path: title, piecepath, keepallbest and the notes of the path found", "[query][game][path]") {
  const Game g = read_game(Scholar);
  // The title and the focused men's ways (a1 first, h8 last) where the path starts.
  CHECK(notes_at("path focus Q title \"queen\" piecepath --+", g, 4) == "queen | Focus path: Qd1-h5-f7");
  CHECK(notes_at("path focus [QB] piecepath --+", g, 4) == "Focus path: Qd1-h5-f7 Bf1-c4");
  // A man who never moves is left out, but not the blank before his place (as in CQL).
  CHECK(notes_at("path focus [QK] piecepath --+", g, 4) == "Focus path: Qd1-h5-f7 ");
  CHECK(notes_at("path focus K piecepath --+", g, 4).empty());  // no focused move: no path
  CHECK(notes_at("path focus capture f7 piecepath --", g, 8) == "Focus path: pf7(xf7)");
  // singlecolor: White's men here; the rook of a1, the knight of b1 ... never move.
  CHECK(notes_at("path singlecolor piecepath --{2}", g, 4) == "Focus path: Qd1-h5  Bf1-c4          ");
  CHECK(notes_at("path verbose --", g, 0).empty());  // CQL's notes on each move are not written
  CHECK(printed("path focus A title \"t\" keepallbest verbose piecepath -- check") ==
        "(query (path piecepath verbose keepallbest title \"t\" (focus A) (-- check)))");
  // The notes of the path found only: e4 e5 is found first, d4 d5 is no longer; keepallbest keeps
  // both, and the note of their common start once.
  CHECK(notes_at("path -- comment(to) --", g, 0) == "[e4]");
  CHECK(notes_at("path comment(\"s\") -- comment(to) --", g, 0) == "s | [e4]");
  CHECK(notes_at("path keepallbest comment(\"s\") -- comment(to) --", g, 0) == "s | [e4] | [d4]");
  CHECK(notes_at("path -- comment(to) -- mate", g, 0).empty());
  CHECK(notes_at("path (-- comment(to))+", g, 6) == "[c4] | [f6] | [f7]");
  // max: the value of the best end, greatest first; a whole filter after max, as in CQL.
  CHECK(value_at("path max ply - 1 --{1,3}", g, 0) == "2");
}

TEST_CASE("path: pathcountunfocused, and a dash's set and promotion as CQL reads them",
          "[query][game][path]") {
  const Game g = read_game(Scholar);
  // ply - pathstart:ply - pathcount: Qh5 and Qxf7# from ply 2 to ply 7, three moves skipped.
  CHECK(value_at("path focus Q max pathcountunfocused --+", g, 4) == "3");
  CHECK(value_at("path focus Q --+ pathcountunfocused == 3", g, 4) == "2");
  CHECK(value_at("{path focus Q --+} pathcountunfocused", g, 4) == "-2");  // at ply 2, after it
  CHECK(value_at("pathcountunfocused", g, 0) == "none");                   // no path yet
  // The set on the right of a dash is a whole set expression (CQL's match_dash_right).
  CHECK(matching("path --e4|d4", g) == "0");
  CHECK(matching("path --~f7&_", g) == "0 1 4 5 6 7 2");
  // On the left, outside a path, the whole set expression too (CQL's match_mulop_x): the bishop's
  // Bc4, not "[QB] & ~(Q――)".
  CHECK(matching("[QB]&~Q――", g) == "6");
  CHECK(printed("A&~Q――(from)") == printed("(A&~Q)――(from)"));
  CHECK(printed("parent:K――") == printed("(parent:K)――"));
  // "=s", s a string: a promotion to a man whose letter is in s.
  const Game p = read_game(KnightPromotion);
  CHECK(matching("path --=\"n\"", p) == "0");
  CHECK(matching("path --=\"QR\"", p).empty());
  CHECK(matching("x = \"BN\" path P--=x", p) == "0");
  CHECK(matching("path --=\"\"", p) == "0");
  CHECK(matching("path --=\".\"", p) == "0");
  CHECK(matching("path --=\"\" --", p) == "0");
  CHECK(matching("--=\"N\"", p) == "0");
}

// ---- line (CQL's older sequence filter), over Scholar: 0 start, 1 e4, 2 d4, 3 d5, 4 e5, 5 Qh5,
// 6 Nc6, 7 Bc4, 8 Nf6, 9 Qxf7# (preorder 0 1 4 5 6 7 8 9 2 3; plies 0 1 1 2 2 3 4 5 6 7).

TEST_CASE("line: constituents, repetitions and the longest line", "[query][game][line]") {
  const Game g = read_game(Scholar);
  CHECK(matching("line --> check", g) == "9");
  CHECK(value_at("line --> check", g, 9) == "1");  // the number of positions of the line
  // Backtracking, not greedy: not mate repeated 7 times (plies 0 to 6), then check at ply 7.
  CHECK(value_at("line --> not mate* --> check", g, 0) == "8");
  CHECK(matching("line --> not mate* --> check", g) == "0 1 4 5 6 7 8 9");  // not via d4 (node 2)
  // Pairs of positions without check, then check: an even number of them before ply 7.
  CHECK(matching("line --> (not check --> not check)+ --> check", g) == "1 5 7");
  CHECK(value_at("line --> (not check --> not check)+ --> check", g, 1) == "7");
  // The longest line: through e4 (7 positions without check), not d4 (3).
  CHECK(value_at("line --> not check*", g, 0) == "7");
  CHECK(value_at("line --> not check+", g, 2) == "2");
  CHECK(value_at("line --> not check{2,3}", g, 0) == "3");
  CHECK(value_at("line --> not check{2}", g, 0) == "2");
  CHECK(value_at("line --> not check{,2}", g, 0) == "2");
  CHECK(value_at("line --> initial --> not check?", g, 0) == "2");
  CHECK(value_at("line --> not check{+}", g, 4) == "5");
  CHECK(value_at("line --> not check{*} --> check", g, 7) == "3");
  CHECK(matching("line --> not check{6,}", g) == "0 1");
  // '+' before what ends a constituent repeats it; before a number it adds.
  CHECK(value_at("line --> not check +", g, 0) == "7");
  CHECK(matching("line --> ply + 1 == 2", g) == "1 2");
  CHECK(matching("line --> {not check}+ --> mate", g) == "0 1 4 5 6 7 8");
  // <--: back to the start, the line ends nearest to it.
  CHECK(value_at("line <-- mate <-- not check*", g, 9) == "8");
  CHECK(matching("line <-- mate <-- not check*", g) == "9");
  CHECK(value_at("line <-- not check+", g, 8) == "7");
  CHECK(value_at("line <-- not check+", g, 3) == "3");
  // The line leaves the current position as it is.
  CHECK(value_at("line --> not check{2} ply", g, 4) == "2");
}

TEST_CASE("line: the move it follows, singlecolor, primary, nestban, range", "[query][game][line]") {
  const Game g = read_game(Scholar);
  // A constituent with move filters sees only the move the line goes on with (CQL's linearize):
  // from the start e4 is played but the line through it has no d5 after it.
  CHECK(matching("line --> move from Q --> check", g) == "8");
  CHECK(matching("line --> move to e4 --> move to d5", g).empty());
  CHECK(matching("line --> move to d4 --> move to d5", g) == "0");
  CHECK(matching("line --> {move to e4 or initial} --> move to d5", g) == "0");  // via d4
  CHECK(matching("line --> find move to e4 --> move to d5", g) == "0");          // find reads elsewhere
  // singlecolor: the other side's positions match by themselves and are not counted.
  CHECK(value_at("line singlecolor --> not mate* --> mate", g, 1) == "4");
  CHECK(matching("line singlecolor --> not mate* --> mate", g) == "1 5 7 9");
  CHECK(value_at("line singlecolor --> not check+", g, 0) == "4");
  // primary: the moves played only; secondary: the variations' moves only (d4, not d5 after it).
  CHECK(matching("line --> initial --> move to d5", g) == "0");
  CHECK(matching("line primary --> initial --> move to d5", g).empty());
  CHECK(value_at("line secondary --> initial --> not check*", g, 0) == "2");
  // nestban: no line starts inside one found before (0-1, 4-5, 6-7, 8, 2-3 ban 0 1 4 5 6 7 8 2 3).
  CHECK(matching("line --> not check{1,2}", g) == "0 1 4 5 6 7 8 2 3");
  CHECK(matching("line nestban --> not check{1,2}", g) == "0 4 6 8 2");
  // With singlecolor over positions of its side: 0-4, 1-5, 6-8, 7 (check at 9), 2, 3.
  CHECK(matching("line nestban singlecolor --> not check{1,2}", g) == "0 1 6 7 2 3");
  // A range of lengths: the longest line must be within it.
  CHECK(matching("line 7 --> not check*", g) == "0");
  CHECK(matching("line 6 7 --> not check*", g) == "0 1");
  CHECK(matching("line 3 --> not check*", g) == "6");  // 6 7 8; from 2 the line is 2 3
  CHECK(value_at("line lastposition --> not check{2} : ply", g, 0) == "1");
  CHECK(value_at("line firstmatch --> not check{1,3}", g, 0) == "1");
  CHECK(value_at("line quiet --> not check*", g, 0) == "7");
}

TEST_CASE("line: errors and the work budget", "[query][game][line]") {
  CHECK(parse_error("line check") ==
        "6: expected '-->' or '<--' after 'line' and its parameters, found 'check'");
  CHECK(parse_error("line -->") == "9: expected a filter or '(' after '-->', found end of query");
  CHECK(parse_error("line --> check <-- mate") == "16: '<--' in a line of '-->': one direction per line");
  CHECK(parse_error("line nestban <-- check") == "1: 'nestban' cannot be used with 'line <--'");
  CHECK(parse_error("line primary <-- check") == "1: 'primary' cannot be used with 'line <--'");
  CHECK(parse_error("line primary secondary --> check") ==
        "1: 'line' cannot be both 'primary' and 'secondary'");
  CHECK(parse_error("line nestban nestban --> check") == "14: 'nestban' given twice in 'line'");
  CHECK(parse_error("line 2 3 4 --> check") ==
        "10: expected '-->' or '<--' after 'line' and its parameters, found '4'");
  CHECK(parse_error("line --> check**") == "16: '*' cannot repeat what may match no position in 'line'");
  CHECK(parse_error("line --> (check? --> mate*)+") ==
        "28: '+' cannot repeat what may match no position in 'line'");
  CHECK(parse_error("line --> check++") == "16: '+' cannot repeat a '+' in 'line'");
  CHECK(parse_error("line --> check+{2}") == "16: '{m,n}' cannot repeat a '+' in 'line'");
  CHECK(parse_error("line --> check+*") == "no error");
  CHECK(parse_error("line --> check --> 2") ==
        "20: a number is no constituent of 'line' (put the filter in braces: '{...}')");
  CHECK(parse_error("line --> (check --> mate") ==
        "25: expected '-->' or ')' to close the '(' at 1:10, found end of query");
  CHECK(parse_error("line --> ()").starts_with("11: expected a filter or '(' after '-->'"));
  CHECK(parse_error("line --> check{3,2}") == "15: in '{m,n}' m must not exceed n");
  // Every way of cutting a long line into runs: exponential, stopped by the loop budget.
  std::string text = "[Event \"long\"]\n\n";
  for (int i = 1; i <= 150; ++i)
    text += std::to_string(2 * i - 1) + ". Nf3 Nf6 " + std::to_string(2 * i) + ". Ng1 Ng8 ";
  const Game long_game = read_game(text + "*\n");
  CHECK_THROWS_AS(value_at("line --> (not check --> not check*)* --> check", long_game, 0),
                  egtb::query::RunError);
  // One repetition: one way per length, tried from every position of the 600 moves (quadratic).
  CHECK(matching("line --> (check or not check)* --> mate", long_game).empty());
  CHECK(value_at("line --> (check or not check)* --> terminal", long_game, 0) == "601");
  // A line of 2,400 positions nests deeper than a line may search (and than a thread's stack allows).
  std::string deep = "[Event \"deep\"]\n\n";
  for (int i = 1; i <= 600; ++i)
    deep += std::to_string(2 * i - 1) + ". Nf3 Nf6 " + std::to_string(2 * i) + ". Ng1 Ng8 ";
  const Game deep_game = read_game(deep + "*\n");
  CHECK_THROWS_AS(value_at("line --> not check* --> terminal", deep_game, 0), egtb::query::RunError);
  CHECK(value_at("line --> not check* --> terminal", deep_game, 2000) == "401");
}

TEST_CASE("dash: CQL's -- as a filter, outside path", "[query][game][path]") {
  const Game g = read_game(Scholar);
  CHECK(matching("♞――", g) == "5 7");  // a black knight's move is played from the position
  CHECK(matching("--f7", g) == "8");
  CHECK(matching("Q[x]p", g) == "8");
  CHECK(matching("--(check)", g) == "8");
  CHECK(matching("-- (not check)", g) == "0 1 4 5 6 7 8 2");  // apart from the dash: a filter of its own
  CHECK(value_at("--(ply)", g, 0) == "1");  // the target's value after the first move that fits
  CHECK(value_at("--e4(ply)", g, 0) == "1");
  CHECK(value_at("--d4(move previous to .)", g, 0) == "[d4]");
  CHECK(matching("--(ply == 3)", g) == "4");
  CHECK(matching("--", g) == "0 1 4 5 6 7 8 2");
  CHECK(value_at("find all --(check)", g, 0) == "1");
}

// Both sides castle: node 7 is after 4. O-O, node 14 after 7... O-O-O.
constexpr const char* Castles =
    "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O d6 "
    "5. d3 Bg4 6. h3 Qd7 7. hxg4 O-O-O 8. Nc3 d5 9. exd5 *\n";

// Every expected answer here is CQL 6.2's on the same game and query.
TEST_CASE("game: from and to, the squares of the move that led to the position", "[query][game]") {
  const Game g = read_game(Castles);
  CHECK(value_at("from", g, 1) == "[e2]");
  CHECK(value_at("to", g, 1) == "[e4]");
  CHECK(value_at("from", g, 0) == "[]");  // no move led to the start
  CHECK(matching("initial and not from and not to", g) == "0");
  // A castling moves two men: both their squares, unless a dash's sets pick one.
  CHECK(value_at("from", g, 7) == "[e1,h1]");
  CHECK(value_at("to", g, 7) == "[f1,g1]");
  CHECK(matching("from == [a8,e8] and to == [c8,d8]", g) == "14");
  CHECK(matching("e1--g1(from == e1)", g) == "6");
  CHECK(matching("e1--g1(to == g1)", g) == "6");
  CHECK(matching("h1--f1(from == h1 and to == f1)", g) == "6");
  CHECK(matching("K--(from == e1)", g) == "6");
  CHECK(value_at("flipcolor e8--g8(to)", g, 6) == "[g1]");
  CHECK(matching("e1--g1(child : from == d7)", g) == "6");  // at another position: its own move
  CHECK(value_at("e1--g1(parent : from)", g, 6) == "[f8]");
  CHECK(matching("path e1--g1(from == e1)", g) == "6");
  CHECK(matching("path --(from == [e1,h1])", g) == "6");
  // With focus, the unfocused man of a castling leaves the dash's sets.
  CHECK(matching("path focus K --(from == e1 and to == g1)", g) == "6");
  CHECK(matching("path focus R --(from == h1 and to == f1)", g) == "6");
  CHECK(matching("path focus K e1--g1", g) == "6");
  CHECK(matching("path focus R e1--g1", g).empty());
  // A null move goes from the mover's king's square to itself.
  const Game null_move = read_game("[Event \"t\"]\n[Result \"*\"]\n\n1. e4 -- 2. d4 e5 *\n");
  CHECK(matching("from == e8 and to == e8", null_move) == "2");
  CHECK(matching("move previous from from", null_move).empty());
}

Game fen_game(const std::string& fen) {
  return read_game("[Event \"t\"]\n[Result \"*\"]\n[FEN \"" + fen + "\"]\n[SetUp \"1\"]\n\n1. Kd2 *\n");
}

// Every expected answer here is CQL 6.2's on the same position and query.
TEST_CASE("game: rank, file, makesquare and sqrt", "[query][game]") {
  const Game g = read_game(Castles);
  CHECK(value_at("rank e4", g, 0) == "4");
  CHECK(value_at("file e4", g, 0) == "5");
  CHECK(value_at("rank e4 - rank a1 * 2", g, 0) == "2");
  CHECK(value_at("file .", g, 0) == "none");  // not one square
  CHECK(value_at("rank [a1,b2]", g, 0) == "none");
  CHECK(value_at("rank makesquare(2 7)", g, 0) == "7");
  CHECK(value_at("makesquare (3 4)", g, 0) == "[c4]");
  CHECK(value_at("makesquare(8 8)", g, 0) == "[h8]");
  CHECK(value_at("makesquare (0 4)", g, 0) == "[]");
  CHECK(value_at("makesquare \"h8\"", g, 0) == "[h8]");
  CHECK(value_at("makesquare (\"a\" + \"1\")", g, 0) == "[a1]");
  CHECK(value_at("makesquare \"z1\"", g, 0) == "[]");
  CHECK(value_at("sqrt 16", g, 0) == "4");
  CHECK(value_at("sqrt 17", g, 0) == "4");
  CHECK(value_at("sqrt 0", g, 0) == "0");
  CHECK(value_at("sqrt -1", g, 0) == "none");
  CHECK(parse_error("makesquare 3").starts_with("12: expected a square's name"));
  CHECK(parse_error("makesquare (3 \"a\")").starts_with("15: expected numeric filter"));
  // A numeric assignment without a value fails and leaves the variable as it was.
  CHECK(value_at("X=5 {X = rank [a1,b2] or true} X", g, 0) == "5");
  CHECK(value_at("X=5 {X += rank [a1,b2] or true} X", g, 0) == "5");
  CHECK(value_at("X=5 not X += rank [a1,b2]", g, 0) == "true");
}

TEST_CASE("game: colortype, type, typename and piecename", "[query][game]") {
  const Game g = fen_game("4k3/1p4pp/p7/P1P5/3P1P1p/1P5P/1P4P1/4K3 w - - 0 1");
  CHECK(value_at("colortype e1", g, 0) == "6");
  CHECK(value_at("colortype e8", g, 0) == "-6");
  CHECK(value_at("colortype e4", g, 0) == "0");
  CHECK(value_at("colortype b7", g, 0) == "-1");
  CHECK(value_at("colortype .", g, 0) == "none");
  CHECK(value_at("type e8", g, 0) == "6");
  CHECK(value_at("type e4", g, 0) == "0");
  CHECK(value_at("type b7", g, 0) == "1");
  CHECK(text_at("typename e8", g) == "K");
  CHECK(text_at("typename e4", g) == "_");
  CHECK(text_at("typename b7", g) == "P");
  CHECK(text_at("piecename e8", g) == "k");
  CHECK(text_at("piecename e1", g) == "K");
  CHECK(text_at("piecename e4", g) == "_");
  CHECK(text_at("piecename b7", g) == "p");
  CHECK(text_at("piecename [e1,e8]", g) == "<none>");
  CHECK(matching("piecename e4 == \"_\" typename b3 == \"P\"", g) == "0 1");
}

TEST_CASE("game: legal S--T and sort of a set", "[query][game]") {
  const Game g = read_game(Castles);
  CHECK(value_at("legal K--", g, 6) == "[f1,g1,e2]");  // castling: the king's square
  CHECK(value_at("legal --g1", g, 6) == "[g1]");
  CHECK(value_at("legal h1--", g, 6) == "[f1,g1]");
  CHECK(value_at("legal N--[f3,e2]", g, 0) == "[f3]");
  CHECK(value_at("legal --e5", g, 1) == "[e5]");
  CHECK(value_at("legal K--", g, 1) == "[]");
  CHECK(value_at("#legal --", g, 11) == "25");
  CHECK(matching("not legal R--", g) == "0 1 2 3 5 7 9 11 13 15 17");
  CHECK(parse_error("legal [x]").starts_with("7: 'legal' takes no capturing dash"));
  CHECK(parse_error("legal --=Q").starts_with("7: 'legal' takes no promotion"));
  CHECK(parse_error("legal --(check)")
            .starts_with(
                "10: the target after 'legal --(' must be one of 'o-o', 'o-o-o', 'castle', 'enpassant'"));
  CHECK(parse_error("legal --(castle check)").starts_with("17: expected ')' to close the '(' at 1:9"));
  CHECK(parse_error("legal K").starts_with("7: expected '--' after 'legal'"));
  // sort counts a set, empty or not, as CQL does
  CHECK(matching("initial sort \"a\" [a5]", g) == "0");
  CHECK(value_at("sort \"b\" square x in [a5,a2] true", g, 0) == "2");
  CHECK(value_at("sort \"c\" [a5,a2,a1]", g, 0) == "3");
}

// Both sides may castle either way, and Black can take e.p. after 1. e4: nodes 0 start, 1 e4,
// 2 dxe3, 3 O-O, 4 O-O-O.
constexpr const char* CastlesAndEnPassant =
    "[FEN \"r3k2r/8/8/8/3p4/8/4P3/R3K2R w KQkq - 0 1\"]\n\n1. e4 dxe3 2. O-O O-O-O *\n";

// CQL 6.2 selects the same games with these filters (each its own program over the three games).
TEST_CASE("game: legal --(target), o-o, o-o-o, nullmove", "[query][game]") {
  const Game g = read_game(CastlesAndEnPassant);
  CHECK(value_at("legal --(o-o)", g, 0) == "[g1]");
  CHECK(value_at("legal --(o-o-o)", g, 1) == "[c8]");
  CHECK(value_at("legal --(castle)", g, 0) == "[c1,g1]");
  CHECK(value_at("legal ♔――(castle)", g, 2) == "[c1,g1]");
  CHECK(value_at("legal --c1(castle)", g, 2) == "[c1]");
  CHECK(value_at("legal h1--(castle)", g, 2) == "[]");  // the king's move, not the rook's
  CHECK(value_at("legal --(enpassant)", g, 1) == "[e3]");
  CHECK(value_at("legal --(enpassant)", g, 0) == "[]");
  CHECK(value_at("flipcolor legal --(o-o)", g, 1) == "[g8]");
  CHECK(matching("o-o", g) == "3");
  CHECK(matching("o-o-o", g) == "4");
  CHECK(matching("castle", g) == "3 4");
  CHECK(matching("move o-o", g) == "2");
  CHECK(matching("move previous o-o-o", g) == "4");
  CHECK(matching("--(o-o-o)", g) == "3");
  CHECK(matching("--(enpassant)", g) == "1");
  CHECK(printed("legal K--(o-o-o)") == "(query (move legal o-o-o from K))");
  // An e.p. square in the FEN: CQL 6.2 takes e.p. from the move played before, so none at the start.
  const Game f = read_game("[FEN \"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1\"]\n\n1. Kd1 *\n");
  CHECK(value_at("legal P--", f, 0) == "[e6]");
  CHECK(matching("legal --(enpassant)", f).empty());
  // Castling as CQL 6.2 reads it in a game: from its moves, not from the FEN's rights (none here);
  // a king back on e1 (node 4) does not castle.
  const Game h = read_game("[FEN \"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1\"]\n\n1. Kf1 Kd8 2. Ke1 Ke8 *\n");
  CHECK(value_at("legal --(castle)", h, 0) == "[c1,g1]");
  CHECK(value_at("legal --(castle)", h, 1) == "[c8,g8]");
  CHECK(value_at("legal K--", h, 4) == "[d1,f1,d2,e2,f2]");
  CHECK(matching("legal --(castle)", h) == "0 1");
  const Game n = read_game("[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]\n\n1. -- Kd7 2. O-O-O *\n");
  CHECK(matching("nullmove", n) == "1");
  CHECK(matching("--(nullmove)", n) == "0");
  CHECK(matching("o-o-o", n) == "3");
  CHECK(value_at("legal --(o-o-o)", n, 2) == "[c1]");
}

// CQL 6.2 gives the same values and selects the same positions (each its own program). The
// bishop on e2 is pinned: 13 pseudolegal moves (the king's 4, the bishop's 9), 4 legal ones.
// After 1. e4 Black's d4 pawn may take e.p. only pseudolegally (the rook on h4 would take its king).
TEST_CASE("game: move pseudolegal, pseudolegal --, countmoves pseudolegal", "[query][game]") {
  const Game pin = read_game("[FEN \"4r1k1/8/8/8/8/8/4B3/4K3 w - - 0 1\"]\n\n1. Kd2 *\n");
  using Answer = std::pair<const char*, const char*>;  // query, value at the start
  for (const auto& [query, value] :
       {Answer{"pseudolegal B--", "[d1,f1,d3,f3,c4,g4,b5,h5,a6]"}, Answer{"legal B--", "[]"},
        Answer{"countmoves pseudolegal --", "13"}, Answer{"countmoves legal --", "4"}}) {
    INFO(query);
    CHECK(value_at(query, pin, 0) == value);
  }
  CHECK(matching("move pseudolegal from B to d3", pin) == "0");
  CHECK(matching("move legal from B to d3", pin).empty());
  CHECK(printed("move pseudolegal from B") == "(query (move pseudolegal from B))");
  const Game ep = read_game("[FEN \"8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kb3 *\n");
  CHECK(value_at("pseudolegal --(enpassant)", ep, 1) == "[e3]");
  CHECK(value_at("legal --(enpassant)", ep, 1) == "[]");
  CHECK(value_at("pseudolegal p--", ep, 1) == "[d3,e3]");
  CHECK(value_at("countmoves pseudolegal --", ep, 1) == "7");
  CHECK(matching("move pseudolegal enpassant", ep) == "1");
  CHECK(matching("move pseudolegal enpassantsquare e4", ep) == "1");
  CHECK(matching("move pseudolegal enpassantsquare d4", ep).empty());
  CHECK(matching("move legal enpassantsquare e4", ep).empty());
}

// enpassantsquare: CQL's square of the pawn taken en passant (not the square passed over).
TEST_CASE("game: enpassantsquare, alone and in move", "[query][game]") {
  const Game g = read_game(CastlesAndEnPassant);
  CHECK(value_at("enpassantsquare", g, 2) == "[e4]");
  CHECK(value_at("enpassantsquare", g, 1) == "[]");
  CHECK(matching("enpassantsquare", g) == "2");
  CHECK(matching("flipcolor enpassantsquare == e4", g) == "2");  // no square of it is transformed
  CHECK(matching("move enpassantsquare e4", g) == "1");
  CHECK(matching("move enpassantsquare [a-h5]", g).empty());
  CHECK(matching("move previous enpassantsquare e4", g) == "2");
  CHECK(matching("move legal enpassantsquare e4", g) == "1");
  CHECK(matching("move legal enpassantsquare e5", g).empty());
  CHECK(value_at("move to . enpassantsquare e4", g, 1) == "[e3]");
  CHECK(printed("enpassantsquare") == "(query (move previous enpassant capture .))");
  CHECK(printed("move enpassantsquare e4") == "(query (move enpassantsquare [e4]))");
}

// CQL 6.2's other spellings: "captures" in move is "capture", "curpos" is "currentposition".
TEST_CASE("game: captures and curpos", "[query][game]") {
  const Game g = read_game(CastlesAndEnPassant);
  CHECK(printed("move captures e4") == printed("move capture e4"));
  using Answer = std::pair<const char*, const char*>;  // query, the nodes where it matches
  for (const auto& [query, nodes] :
       {Answer{"move captures e4", "1"}, Answer{"move previous captures e4", "2"},
        Answer{"curpos : btm", "1 3"}}) {
    INFO(query);
    CHECK(matching(query, g) == nodes);
  }
}

// CQL 6.2 selects the same positions (with cql(variations): positionids 0 to 5, the start, e4,
// e5, Nf3, c5 and its Nf3): Black's alternatives stay on the virtual main line, White's (1. d4)
// and a null move leave it.
TEST_CASE("game: virtualmainline", "[query][game]") {
  const Game g = read_game("1. e4 (1. d4 d5) (1. -- d5) e5 (1... c5 2. Nf3) 2. Nf3 *\n");
  CHECK(matching("virtualmainline", g) == matching("positionid <= 5", g));
}

TEST_CASE("game: move ... comment (...), written where the move leads", "[query][game]") {
  const Game g = read_game(CastlesAndEnPassant);
  const auto program = egtb::query::compile("move from P comment (\"to \" to)");
  REQUIRE(program);
  egtb::query::Evaluator evaluator(*program);
  const auto v = evaluator.evaluate(g, 0);
  REQUIRE(v);
  CHECK(v->matched);
  REQUIRE(evaluator.notes().size() == 1);
  CHECK(evaluator.notes().front() == "to [e4]");  // 'to' read after e4
  CHECK(matching("move to e3 comment (\"x\")", g) == "1");
  CHECK(value_at("move from P comment (\"x\")", g, 0) == "[e2]");
  CHECK(printed("move from P comment (\"x\")") == "(query (move from P : (comment \"x\")))");
}

// A function's parameter takes ':' (CQL's functions stand for their arguments); position N reads
// a whole numeric filter; "◭ y" with a blank is a set, not a piece declaration.
TEST_CASE("game: positions in parameters, position N, and x∊◭ y∊◭", "[query][game]") {
  const Game g = read_game(Scholar);
  CHECK(matching("function S(Other) { from == Other:from } x = parent S(x)", g).empty());
  CHECK(matching("function Same(Other) { to == Other:to } x = currentposition Same(x)", g) ==
        "0 1 4 5 6 7 8 9 2 3");
  CHECK(value_at("position ply + 1 : ply", g, 4) == "3");
  // Six men between two: the first rank until 2. Qh5 leaves d1, the eighth until 2... Nc6.
  CHECK(matching("x∊◭ y∊◭ ◭∩between(x y) == 6", g) == "0 1 4 5 2 3");
  CHECK(printed("x∊◭ y∊◭ K").starts_with("(query (square x"));
}

TEST_CASE("game: direction words as filters", "[query][game]") {
  const Game g = read_game(Castles);
  CHECK(value_at("up e4", g, 0) == "[e5,e6,e7,e8]");
  CHECK(value_at("down 2 e4", g, 0) == "[e2]");
  CHECK(value_at("vertical 0 7 e4", g, 0) == "[e1,e2,e3,e4,e5,e6,e7,e8]");
  CHECK(value_at("horizontal 1 d4", g, 0) == "[c4,e4]");
  CHECK(value_at("diagonal 1 a1", g, 0) == "[b2]");
  CHECK(value_at("orthogonal 2 3 h8", g, 0) == "[h5,h6,e8,f8]");
  CHECK(value_at("anydirection 1 e4", g, 0) == "[d3,e3,f3,d4,f4,d5,e5,f5]");
  CHECK(value_at("left 0 a1", g, 0) == "[a1]");
  CHECK(value_at("right 7 a1", g, 0) == "[h1]");
  CHECK(value_at("southwest 1 2 [e4,a8]", g, 0) == "[c2,d3]");
  CHECK(value_at("northwest e4", g, 0) == "[d5,c6,b7,a8]");
  CHECK(value_at("southeast 3 e4", g, 0) == "[h1]");
  CHECK(value_at("#horizontal 1 vertical 0 7 P", g, 0) == "64");
  CHECK(value_at("maindiagonal e4", g, 0) == "[b1,c2,d3,f5,g6,h7]");  // north-east and south-west
  CHECK(value_at("offdiagonal 1 2 e4", g, 0) == "[g2,f3,d5,c6]");
  CHECK(value_at("ray offdiagonal (Q P)", g, 0) == "[c2]");
  CHECK(value_at("ray maindiagonal (B k)", g, 0) == "[]");
  CHECK(parse_error("up 8 e4") == "1: the range of 'up' must lie within 0 and 7, its least first");
  CHECK(parse_error("up 3 2 e4").starts_with("1: the range of 'up'"));
  CHECK(parse_error("up -1 e4").starts_with("4: expected square set after 'up'"));
}

// A numeric variable as a direction word's count: each query holds at the start in CQL 6.2 too.
TEST_CASE("game: direction words with counts in variables", "[query][game]") {
  const Game g = read_game("[FEN \"4k3/8/8/8/3K4/8/8/8 w - - 0 1\"]\n\n1. Kc5 *\n");
  CHECK(matching("x = 2 up x K == d6", g) == "0");
  CHECK(matching("x = -2 up x K == d2", g) == "0");  // a negative count steps the other way
  CHECK(matching("x = -1 right x 1 K == [c4,d4,e4]", g) == "0");
  CHECK(matching("x = 1 y = 2 diagonal x y K == [c3,b2,e5,f6,c5,b6,e3,f2]", g) == "0");
  CHECK(matching("x = 1 up 0 x K == [d4,d5]", g) == "0");
  CHECK(matching("x = 8 up x K", g).empty());  // beyond 7: no squares (CQL stops with an error)
  // x + 1 is no count (CQL reads a variable followed by an operator as an expression): "up" is
  // then taken from the squares of x, which is no set.
  CHECK(parse_error("x = 2 up x + 1 K") == "10: expected square set after 'up'");
}

TEST_CASE("game: dihedral and flipdihedral are flip", "[query][game]") {
  const Game g = read_game(Castles);
  CHECK(matching("initial dihedral Ka1", g).empty());
  CHECK(matching("initial dihedral Ke1", g) == "0");
  CHECK(value_at("dihedral count K & [a1-8,e1]", g, 0) == "3");
  CHECK(value_at("flipdihedral count Ka1", g, 0) == "0");
  CHECK(value_at("dihedral count Ke1", g, 0) == "1");
}

TEST_CASE("game: passed, doubled, isolated and connected pawns", "[query][game]") {
  const Game g = fen_game("4k3/1p4pp/p7/P1P5/3P1P1p/1P5P/1P4P1/4K3 w - - 0 1");
  CHECK(value_at("passedpawns", g, 0) == "[d4]");
  CHECK(value_at("doubledpawns", g, 0) == "[b2,b3,h4,h7]");
  CHECK(value_at("isolatedpawns", g, 0) == "[]");
  CHECK(value_at("connectedpawns", g, 0) == "[b2,g2,b3,h3,d4,f4,h4,a5,c5,a6,b7,g7,h7]");
  CHECK(value_at("flipcolor passedpawns", g, 0) == "[d4]");  // the same whatever the transform
  const Game h = fen_game("4k3/8/8/3p4/2P5/8/p6P/4K3 w - - 0 1");
  CHECK(value_at("passedpawns", h, 0) == "[a2,h2]");
  CHECK(value_at("doubledpawns", h, 0) == "[]");
  CHECK(value_at("isolatedpawns", h, 0) == "[a2,h2,c4,d5]");
  CHECK(value_at("connectedpawns", h, 0) == "[]");
}

TEST_CASE("path: errors and the work budget", "[query][game][path]") {
  CHECK(parse_error("path") ==
        "5: expected a constituent of 'path' (a filter, '--' or '('), found end of query");
  CHECK(parse_error("path (check)*") == "6: a repetition in 'path' needs a move ('--') in what it repeats");
  CHECK(parse_error("path check*").find("repeats a '--'") != std::string::npos);
  CHECK(parse_error("path -- check * +") == "17: two repetitions in a row in 'path'");
  CHECK(parse_error("path keepallbest keepallbest -- check") == "18: 'keepallbest' given twice in 'path'");
  CHECK(parse_error("path piecepath -- check").find("'piecepath' in 'path' needs a 'focus'") !=
        std::string::npos);
  CHECK(parse_error("path title -- check") ==
        "12: expected the title of the path (a quoted string), found '--'");
  CHECK(parse_error("path title \"\" -- check") == "12: the title of a path is a nonempty string");
  CHECK(parse_error("path title \"a\" title \"b\" -- check") == "16: 'title' given twice in 'path'");
  CHECK(parse_error("path -- =check") == "10: expected string of men's letters after '='");
  CHECK(parse_error("path -- = ") ==
        "11: expected a piece designator or a string after '=', found end of query");
  CHECK(parse_error("path nestban nestban --") == "14: 'nestban' given twice in 'path'");
  CHECK(parse_error("path 3 -- check").starts_with("6: CQL's path length range is not supported"));
  CHECK(parse_error("path focus A primary -- check").find("'focus' and 'primary'") != std::string::npos);
  CHECK(parse_error("countmoves --").starts_with("12: expected 'legal' or 'pseudolegal' after 'countmoves'"));
  // Every way of cutting a long line into runs: exponential, stopped by the loop budget.
  std::string text = "[Event \"long\"]\n\n";
  for (int i = 1; i <= 20; ++i)
    text += std::to_string(2 * i - 1) + ". Nf3 Nf6 " + std::to_string(2 * i) + ". Ng1 Ng8 ";
  const Game long_game = read_game(text + "*\n");
  CHECK_THROWS_AS(value_at("path (-- --*)*", long_game, 0), egtb::query::RunError);
  // A line of 2,400 moves nests deeper than a path may search (and than a thread's stack allows).
  std::string deep = "[Event \"deep\"]\n\n";
  for (int i = 1; i <= 600; ++i)
    deep += std::to_string(2 * i - 1) + ". Nf3 Nf6 " + std::to_string(2 * i) + ". Ng1 Ng8 ";
  const Game deep_game = read_game(deep + "*\n");
  CHECK_THROWS_AS(value_at("path --* terminal", deep_game, 0), egtb::query::RunError);
  CHECK(value_at("path --* terminal", deep_game, 2000) == "400");
}

// CQL's piece identity (query/piece_ids.hpp) on the game of both castlings: node n is ply n (1 e4,
// 7 4. O-O, 8 d6, 14 7... O-O-O, 16 8... d5, 17 9. exd5). At the start a1 is 0, e1 4, h1 7, e2 12,
// d7 19, a8 24, e8 28.
TEST_CASE("piece identity: the numbers follow the men", "[query][game][piece]") {
  const Game g = read_game(Castles);
  CHECK(value_at("pieceid e1", g, 0) == "4");
  CHECK(value_at("pieceid e8", g, 0) == "28");
  CHECK(value_at("pieceid e4", g, 0) == "none");  // an empty square
  CHECK(value_at("pieceid P", g, 0) == "none");   // not one square
  CHECK(value_at("pieceid g1", g, 7) == "4");     // castling: the king and his rook keep theirs
  CHECK(value_at("pieceid f1", g, 7) == "7");
  CHECK(value_at("pieceid c8", g, 14) == "28");
  CHECK(value_at("pieceid d8", g, 14) == "24");
  CHECK(value_at("pieceid d5", g, 17) == "12");  // the pawn of e2 has taken on d5
  // A piece variable is its man's square wherever it is read: find, ':', a dash's target, a path.
  CHECK(value_at("\u25EDT\u220A\u2659 find T==d5", g, 0) == "[e2]");
  CHECK(value_at("\u25EDT\u220A\u2659 find T==d5", g, 5) == "[e4]");
  CHECK(value_at("piece T in N child : T == f3", g, 2) == "[g1]");
  CHECK(value_at("piece T in N --(T == f3)", g, 2) == "[g1]");
  CHECK(matching("piece T in n path -- -- (T & c6)", g) ==
        "2 3 4 5 6 7 8 9 10 11 12 13 14 15");  // from the knight of b8 on
  // A man captured is nowhere; his number stays his.
  CHECK(value_at("{\u25EDT = d7 find all (#T == 0)}", g, 0) == "1");
  CHECK(value_at("{\u25EDT = d7 find (#T == 0) pieceid T}", g, 0) == "19");
  CHECK(value_at("{\u25EDT = d7 find (#T == 0) : T}", g, 0) == "[]");
  // Echo compares a man's squares in two positions.
  CHECK(matching("piece T in R echo (s t) {s < t T == f1 s:T == h1}", g) == "0 1 2 3 4 5 6");
}

TEST_CASE("piece identity: promotion, en passant, a position off a game", "[query][game][piece]") {
  // e1 is 0, a7 1, e8 2: the pawn promotes and keeps his number (an excelsior).
  const Game promotion =
      read_game("[Event \"t\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. a8=Q Kd7 2. Qa4+ *\n");
  CHECK(value_at("pieceid a4", promotion, 3) == "1");
  CHECK(matching("\u25EDE\u220A\u2659 find E--=Q", promotion) == "0");
  CHECK(matching("\u25EDE\u220A\u2659 find (E & Q)", promotion) == "0");
  // 3. exd6 takes the pawn of d7 (number 19) en passant, on d5.
  const Game ep = read_game("[Event \"t\"]\n\n1. e4 a6 2. e5 d5 3. exd6 *\n");
  CHECK(matching("piece T in p child : (#T == 0)", ep) == "4");
  CHECK(value_at("pieceid d6", ep, 5) == "12");
  // Off a game, the position starts a game of its own.
  const auto program =
      egtb::query::compile("pieceid e8 == 28 and pieceid a1 == 0 and {piece T in K T == e1}");
  REQUIRE(program.has_value());
  egtb::query::Evaluator evaluator(*program);
  CHECK(evaluator.matches(*egtb::parse_fen(egtb::StartFen)));
}

TEST_CASE("piece identity: assignment, all, and errors", "[query][game][piece]") {
  const Game g = read_game(Castles);
  CHECK(value_at("\u25EDT = Q", g, 0) == "true");
  CHECK(value_at("\u25EDT = P", g, 0) == "false");   // eight squares: no man, the variable unbound
  CHECK(value_at("piece T = e4", g, 0) == "false");  // no man
  CHECK(value_at("{piece T = d1 not piece T = e4 T}", g, 0) == "[d1]");  // a failed one leaves T as it was
  CHECK(value_at("{piece T = d1 piece T = e1 T}", g, 0) == "[e1]");
  CHECK(matching("\u2200\u25EDT\u220A\u2659 rank T == 2", g) == "0");
  CHECK(matching("piece all T in P rank T == 2", g) == "0");
  CHECK(printed("piece T = e4") == "(query (piece T = [e4]))");
  CHECK(printed("\u2200\u25EDT\u220AP T") == "(query (piece all T P T))");
  CHECK(printed("pieceid a1") == "(query (pieceid [a1]))");
  CHECK(parse_error("T = a1 \u25EDT = b1") ==
        "9: variable 'T' holds squares; cannot make it a piece variable");
  CHECK(parse_error("piece T in Q T = a1") ==
        "14: variable 'T' is a piece variable (it holds a man); cannot give it squares");
  CHECK(parse_error("piece T in Q square T in a1 T") ==
        "14: variable 'T' is a piece variable (it holds a man); cannot give it squares");
  CHECK(parse_error("piece T = 3") == "11: expected square set after 'T ='");
  CHECK(parse_error("pieceid 3") == "9: expected square set after 'pieceid'");
  CHECK(parse_error("pieceid") == "8: expected a filter after 'pieceid', found end of query");
  CHECK(parse_error("piece all T = a1") == "13: expected 'in' after 'piece T', found '='");
}
