// What a scan learns from a query before running it: the score condition and symmetry invariance.
#include "query/parser.hpp"
#include "query/scan_plan.hpp"
#include "query/sema.hpp"
#include "tests/support/catch.hpp"

namespace egtb::query {

namespace {

NodePtr analysed(const std::string& text) {
  Expected<NodePtr, QueryError> tree = parse(text);
  REQUIRE(tree.has_value());
  REQUIRE(analyze(**tree).has_value());
  return std::move(*tree);
}

ScoreCondition condition(const std::string& text) { return ScoreCondition::of(*analysed(text)); }

// KBk: maxdts 17, no DTM.
const TableFacts KBkFacts{
    Rules::Lasker, MetricSet{Metric::Dtm, Metric::Dts}, {SideStats::NoDepth, 17, SideStats::NoDepth}};

}  // namespace

TEST_CASE("The score condition of btm purestalemate keeps only stalemated Black entries", "[scan_plan]") {
  const ScoreCondition c = condition("btm purestalemate");
  CHECK_FALSE(c.trivial());
  CHECK(c.accepts(Color::Black, Score(Lasker::Stalemated, 0), KBkFacts));
  CHECK_FALSE(c.accepts(Color::White, Score(Lasker::Stalemated, 0), KBkFacts));
  CHECK_FALSE(c.accepts(Color::Black, Score(Lasker::Stalemated, 2), KBkFacts));
  CHECK_FALSE(c.accepts(Color::Black, Score(Lasker::Mated, 0), KBkFacts));
  CHECK_FALSE(c.accepts(Color::Black, Score::draw(), KBkFacts));
  CHECK_FALSE(c.accepts(Color::Black, Score::invalid(), KBkFacts));
}

TEST_CASE("Without DTS a table scores stalemates as draws, so stalemate conditions are dropped",
          "[scan_plan]") {
  const TableFacts dtm_only{
      Rules::Lasker, MetricSet{Metric::Dtm}, {20, SideStats::NoDepth, SideStats::NoDepth}};
  const ScoreCondition c = condition("stalemate");
  CHECK(c.accepts(Color::Black, Score::draw(), dtm_only));
  CHECK_FALSE(c.accepts(Color::Black, Score::draw(), KBkFacts));
}

TEST_CASE("Comparisons of table words and numbers become score conditions", "[scan_plan]") {
  const ScoreCondition deepest = condition("dts == maxdts");
  CHECK(deepest.accepts(Color::White, Score(Lasker::Stalemates, 17), KBkFacts));
  CHECK_FALSE(deepest.accepts(Color::White, Score(Lasker::Stalemates, 15), KBkFacts));
  CHECK_FALSE(deepest.accepts(Color::White, Score::draw(), KBkFacts));  // dts undefined

  const ScoreCondition shallow = condition("{lasker == 3 dts <= -(-5)} or mate");
  CHECK(shallow.trivial());  // a disjunction implies nothing about one side of it
  const ScoreCondition both = condition("lasker == 3 and 5 >= dts");
  CHECK(both.accepts(Color::Black, Score(Lasker::Stalemates, 5), KBkFacts));
  CHECK_FALSE(both.accepts(Color::Black, Score(Lasker::Stalemates, 7), KBkFacts));
  CHECK_FALSE(both.accepts(Color::Black, Score(Lasker::Stalemated, 4), KBkFacts));

  CHECK_FALSE(condition("dtsend any : mate").accepts(Color::White, Score(Lasker::Mates, 3), KBkFacts));
  CHECK(condition("dtmend all : mate").accepts(Color::White, Score(Lasker::Mates, 3), KBkFacts));
  const ScoreCondition defined = condition("wtm dtm");
  CHECK(defined.accepts(Color::White, Score(Lasker::Mates, 9), KBkFacts));
  CHECK_FALSE(defined.accepts(Color::White, Score(Lasker::Stalemates, 9), KBkFacts));
}

TEST_CASE("Negations, set comparisons and transforms imply no score condition", "[scan_plan]") {
  for (const char* text : {"not mate", "A == a", "flipcolor {btm mate}", "if mate then check", "x = dtm"})
    CHECK(condition(text).trivial());
}

TEST_CASE("Symmetry invariance of queries", "[scan_plan]") {
  for (const char* text :
       {"btm purestalemate", "A -> k", "Q attacks k", "dts == maxdts dtsend any : modelstalemate",
        "ray diagonal (B k)", "flipcolor {btm mate}", "move legal : mate", "#[a-h1-8] == 3",
        "[a1,h1,a8,h8] & K", "colortype K == 6", "typename k == \"K\"", "passedpawns"}) {
    INFO(text);
    CHECK(symmetry_invariant(*analysed(text), false));
    CHECK(symmetry_invariant(*analysed(text), true));
  }
  for (const char* text :
       {"Ka1", "light B", "ray up (R k)", "shift Ka1", "reachableposition",
        "imagine sidetomove reverse : check", "rank K == 1", "file k", "makesquare (1 1) & K"}) {
    INFO(text);
    CHECK_FALSE(symmetry_invariant(*analysed(text), false));
  }
  // Functions count where they are called; a definition calling another one has no expansion.
  CHECK(symmetry_invariant(*analysed("function f() {K} function g() {f()} g()"), false));
  CHECK_FALSE(symmetry_invariant(*analysed("function f() {Ka1} function g() {f()} g()"), false));
  CHECK(symmetry_invariant(*analysed("function f() {Ka1} wtm"), false));
  // With pawns only the a-h mirror counts: ranks and vertical rays are symmetric.
  CHECK(symmetry_invariant(*analysed("P[a-h7] ray up (P k)"), true));
  CHECK_FALSE(symmetry_invariant(*analysed("P[a-h7]"), false));
  CHECK_FALSE(symmetry_invariant(*analysed("P[a-d7]"), true));
}

}  // namespace egtb::query
