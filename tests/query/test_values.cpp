// CQL's values that outlive a filter, on small games whose answers can be checked by hand: while
// over the matches of a regular expression, a string as a promotion target (--=T), and persistent
// variables, which keep their values from position to position and from game to game; hhdb.
#include <vector>

#include "query/eval.hpp"
#include "query/hhdb.hpp"
#include "tests/query/games.hpp"
#include "tests/support/catch.hpp"

namespace {

using egtb::pgn::Game;
using egtb::pgn::NodeId;
using egtb::query::testing::matching;
using egtb::query::testing::read_game;

// Nodes: 0 start, 1 g8=N, 2 b1=Q+ (a check along the first rank), 3 Kh2.
constexpr const char* Promotions =
    "[Event \"t\"]\n[SetUp \"1\"]\n[FEN \"k7/6P1/8/8/8/8/1p6/7K w - - 0 1\"]\n\n1. g8=N b1=Q+ 2. Kh2 *\n";

// The text message writes for `expr` at the start.
std::string text_at_start(std::string_view expr, const Game& game) {
  const auto program = egtb::query::compile("message(" + std::string(expr) + ")");
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  const auto v = evaluator.evaluate(game, Game::Root);
  if (!v) return "eval error: " + v.error().message;
  return evaluator.notes().empty() ? "no note" : evaluator.notes().front();
}

// "name: value" of each persistent variable after `query` ran at every position of `games`.
std::string persistent_after(std::string_view query, const std::vector<Game>& games) {
  const auto program = egtb::query::compile(query);
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  for (const Game& game : games)
    for (NodeId n : game.preorder()) (void)evaluator.evaluate(game, n);
  std::string out;
  for (const egtb::query::PersistentValue& v : evaluator.persistent_values())
    out += (out.empty() ? "" : " ") + v.name + ": " + v.text;
  return out;
}

}  // namespace

TEST_CASE("while over the matches of a regular expression", "[query][game][values]") {
  const Game g = read_game(Promotions);
  CHECK(text_at_start("{Runs = 0 while (\"RBNQ\" ~~ \".\") Runs += 1 Runs}", g) == "4");
  // Each round sees its match's groups; after the loop, the last match's.
  CHECK(text_at_start("{s = \"\" while (\"a1b22c333\" ~~ \"[a-z](\\d+)\") s += \\1 s}", g) == "122333");
  CHECK(text_at_start("{while (\"RBNQ\" ~~ \".\") true \\0}", g) == "Q");
  // No match: the body never runs, and the loop matches; a string without a value: it fails.
  CHECK(text_at_start("{Runs = 0 while (\"RBNQ\" ~~ \"x\") Runs += 1 Runs}", g) == "0");
  CHECK(matching("while (\"RBNQ\" ~~ \"x\") true", g) == "0 1 2 3");
  CHECK(matching("while (tag \"Nope\" ~~ \".\") true", g).empty());
}

TEST_CASE("a string as a promotion target: --=T", "[query][game][values]") {
  const Game g = read_game(Promotions);
  // T is read before the move, its letters in either case; "" and "." admit every promotion.
  CHECK(matching("T = \"NR\" --=T", g) == "0");
  CHECK(matching("T = \"q\" --=T", g) == "1");
  CHECK(matching("--=\"\"", g) == "0 1");
  CHECK(matching("--=\".\"", g) == "0 1");
  CHECK(matching("--=\"B\"", g).empty());
  CHECK(matching("path --=\"N\" --=\"Q\"", g) == "0");
  CHECK(matching("function Promotes(T) {--=T} Promotes(\"Q\")", g) == "1");
  // With targets after it, as CQL's CompoundNode: the promotion, then the targets.
  CHECK(matching("--=\"Q\"(check)", g) == "1");
}

TEST_CASE("persistent variables keep their values from position to position and game to game",
          "[query][game][values]") {
  const Game g = read_game(Promotions);
  CHECK(persistent_after("persistent Total += 1", {g}) == "Total: 4");
  CHECK(persistent_after("persistent Total += 1", {g, g}) == "Total: 8");
  // Declared once, then read and assigned by name; a quiet one is not written; strings and sets.
  CHECK(persistent_after("persistent Total += 1 if check Total += 10 persistent quiet Hidden = 1", {g}) ==
        "Total: 14");
  CHECK(persistent_after("persistent s += \"a\" persistent S |= to", {g}) == "s: \"aaaa\" S: [b1,h2,g8]");
  CHECK(persistent_after("persistent Last = ply", {g}) == "Last: 3");
  CHECK(persistent_after("if false persistent Total = 5", {g}) == "Total: 0");
  // A persistent variable starts bound (at 0) and keeps its value.
  CHECK(matching("if initial persistent Total = 1 Total == 1", g) == "0 1 2 3");
  CHECK(matching("persistent Total += 1 Total > 2", g) == "2 3");
}

TEST_CASE("hhdb: awards read from the Event tag", "[query][game][values]") {
  using egtb::query::hhdb_award;
  CHECK(hhdb_award("3.p Moscow ty", "prize", false, false) == 3);
  CHECK(hhdb_award("9/10.p Russian Team champ", "prize", false, false) == 9);
  CHECK(hhdb_award("9/10.p Russian Team champ", "award", false, true) == 10);
  CHECK(hhdb_award("4.hm The Problemist", "prize", false, false) == std::nullopt);
  CHECK(hhdb_award("4.hm The Problemist", "hm", false, false) == 4);
  CHECK(hhdb_award("2.c Schach", "commendation", false, false) == 2);
  // No rank: 1, or 10000 for max; a special award ranks only when special is asked for (else 0).
  CHECK(hhdb_award("p Spartak", "prize", false, false) == std::nullopt);
  CHECK(hhdb_award("sp.p Spartak", "prize", false, false) == 0);
  CHECK(hhdb_award("sp.p Spartak", "prize", true, true) == 10000);
  CHECK(hhdb_award("1.sp.p Tata Steel", "award", true, false) == 1);
  CHECK(hhdb_award("3.p Moscow ty", "award", true, false) == std::nullopt);
  // Malformed ranks: none.
  CHECK(hhdb_award("3/2.p x", "prize", false, false) == std::nullopt);
  CHECK(hhdb_award("3/.p x", "prize", false, false) == std::nullopt);
  CHECK(hhdb_award("The Problemist#1169", "award", false, false) == std::nullopt);
}

TEST_CASE("hhdb: the keys that stand for CQL", "[query][game][values]") {
  const Game g = read_game(
      "[Event \"2/3.p The Problemist#1169\"]\n[White \"Troitzky, Alexey NN\"]\n"
      "[Black \"(c) MC +0010.21a3g1\"]\n\n{Kasparyan, Genrikh. Stipulation: x. stipulation: draw. EG#123} 1. "
      "e4 *\n");
  CHECK(matching("hhdb prize == 2", g) == "0 1");
  CHECK(matching("hhdb prize max == 3", g) == "0 1");
  CHECK(matching("hhdb hm", g).empty());
  CHECK(matching("hhdb \"(c)\" hhdb MC hhdb too_many_composers", g) == "0 1");
  CHECK(matching("hhdb CR", g).empty());
  CHECK(text_at_start("hhdb diagram", g) == "1169");
  CHECK(text_at_start("hhdb egdiagram", g) == "123");
  CHECK(text_at_start("hhdb stipulation", g) == "draw");
  CHECK(text_at_start("hhdb composer", g) == "Kasparyan, Genrikh");
  CHECK(text_at_start("hhdb gbr", g) == "+0010.21a3g1");
  CHECK(text_at_start("hhdb gbr material", g) == "0010.21");  // CQL's [1:-4]
  CHECK(text_at_start("hhdb gbr pieces", g) == "0010");
  CHECK(text_at_start("hhdb gbr pawns", g) == "21");
  CHECK(text_at_start("hhdb gbr kings", g) == "a3g1");
  CHECK(matching("hhdb composer \"Kasparyan\"", g) == "0 1");
  CHECK(matching("hhdb composer \"Troitzky\"", g).empty());
}

TEST_CASE("hascomment, originalcomment with a NAG or a text after it", "[query][game][values]") {
  // Nodes: 0 start, 1 e4 ($1), 2 e5 (+-, $18), 3 Nf3.
  const Game g = read_game("[Event \"t\"]\n\n{start} 1. e4! {good <main>} e5 $18 2. Nf3 *\n");
  CHECK(matching("hascomment", g) == "0 1");
  CHECK(matching("originalcomment \"!\"", g) == "1");
  CHECK(matching("hascomment \"$1\"", g) == "1");
  CHECK(matching("hascomment \"+-\"", g) == "2");
  CHECK(matching("originalcomment \"<main>\"", g) == "1");
  CHECK(text_at_start("hascomment", g) == "start");
}

// What settag and removecomment ask of the game at each position, as "node: tag=value -node".
std::string edits(std::string_view query, const Game& game) {
  const auto program = egtb::query::compile(query);
  if (!program) return "compile error: " + program.error().message;
  egtb::query::Evaluator evaluator(*program);
  std::string out;
  for (NodeId n : game.preorder()) {
    (void)evaluator.evaluate(game, n);
    const egtb::query::GameEdits& e = evaluator.edits();
    for (const auto& [name, value] : e.tags) out += " " + std::to_string(n) + ": " + name + "=" + value;
    for (NodeId removed : e.removed_comments)
      out += " " + std::to_string(n) + ": -" + std::to_string(removed);
  }
  return out;
}

TEST_CASE("settag and removecomment: what the game written gets", "[query][game][values]") {
  const Game g = read_game(Promotions);
  CHECK(edits("check settag(\"Checked\" str(ply))", g) == " 2: Checked=2");
  CHECK(edits("settag(\"Missing\" tag \"Nope\")", g).empty());  // no value: no tag, no match
  CHECK(matching("settag(\"Missing\" tag \"Nope\")", g).empty());
  CHECK(edits("ply == 2 parent : removecomment", g) == " 2: -1");
  CHECK(matching("removecomment", g) == "0 1 2 3");
}
