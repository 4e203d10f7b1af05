// Parser golden tests: query text -> S-expression, covering CQL 6.2's precedence.
#include "query/parser.hpp"
#include "query/print.hpp"
#include "tests/support/catch.hpp"

namespace {

std::string sexpr(std::string_view query) {
  const auto tree = egtb::query::parse(query);
  if (!tree) return "error: " + tree.error().message;
  return egtb::query::to_sexpr(**tree);
}

struct ParseGolden {
  const char* query;
  const char* expected;
};

}  // namespace

TEST_CASE("parser golden S-expressions", "[parser]") {
  const ParseGolden cases[] = {
      {"btm purestalemate", "(query btm purestalemate)"},
      {"A->k==1", "(query (== (-> A k) 1))"},
      {"A | B -> k", "(query (-> (| A B) k))"},
      {"R -> n -> k", "(query (-> R n k))"},
      {"k <- Q <- R", "(query (<- k Q R))"},
      {"A attacks k & a", "(query (& (attacks A k) a))"},
      {"~A & Q | q", "(query (| (& (~ A) Q) q))"},
      {"~A attacks k", "(query (~ (attacks A k)))"},
      {"2+3*4<4/2+1", "(query (< (+ 2 (* 3 4)) (+ (/ 4 2) 1)))"},
      {"check or not mate and Q or stalemate", "(query (or (or check (and (not mate) Q)) stalemate))"},
      {"not x in y", "(query (not (in x y)))"},
      {"1 < 2 < 3", "(query (< 1 (< 2 3)))"},
      {"#A + 1 == 3", "(query (== (+ (# A) 1) 3))"},
      {"# A | a", "(query (# (| A a)))"},
      {"x = A | a  #x > 2", "(query (= x (| A a)) (> (# x) 2))"},
      {"-3 - -2", "(query (- (neg 3) (neg 2)))"},
      {"abs x - 1 > 0", "(query (> (abs (- x 1)) 0))"},
      {"max(1 2 3) min(#A #a)", "(query (max 1 2 3) (min (# A) (# a)))"},
      {"square all x in _ attackedby k A attacks x == 1",
       "(query (square all x (attackedby _ k) (== (attacks A x) 1)))"},
      {"piece x in [RB] x -> k", "(query (piece x [RB] (-> x k)))"},
      {"if check then mate else stalemate", "(query (if check mate stalemate))"},
      {"if wtm btm", "(query (if wtm btm))"},
      {"{wtm check} (A)", "(query (block wtm check) A)"},
      {"function f(x y) {x & y} f(A, K)", "(query (function f (x y) (block (& x y))) (call f A K))"},
      {"sort min \"doc\" #A", "(query (sort min \"doc\" (# A)))"},
      {"pin from R|B", "(query (| (pin from R) B))"},
      {"pin through a to k", "(query (pin through a to k))"},
      {"ray up (R P) xray (Q r k)", "(query (ray (up) R P) (xray Q r k))"},
      {"between(K k) power A distance(K k)", "(query (between K k) (power A) (distance K k))"},
      {"light Q | dark q", "(query (| (light Q) (dark q)))"},
      {"flipcolor {wtm A->k} shift count Ka1",
       "(query (flipcolor (block wtm (-> A k))) (shift count K[a1]))"},
      {"notransform rotate90 flip Q", "(query (notransform (rotate90 (flip Q))))"},
      // find's operand is a whole filter, as CQL 6.2 reads it.
      {"rotate45 count find Q & right 1 K or check",
       "(query (rotate45 count (find (or (& Q (right 1 1 K)) check))))"},
      {"fen \"8/8/8/8/8/8/8/K6k\" message (\"fen \" fen)",
       "(query (fen \"8/8/8/8/8/8/8/K6k\") (message \"fen \" fen))"},
      {"comment \"x\"", "(query (comment \"x\"))"},
      {"move legal from K to _ count : check", "(query (move legal count from K to _ : check))"},
      {"move legal all : mate", "(query (move legal all : mate))"},
      // A filter after 'move legal' without ':' is the query's next filter, not the body, and
      // 'or' binds tighter than the list of filters: (not legalposition or move legal) and check.
      {"not legalposition or move legal check", "(query (or (not legalposition) (move legal)) check)"},
      {"imagine piece Q --> a1 swap e1 e8 sidetomove reverse : check",
       "(query (imagine (piece Q [a1]) (swap [e1] [e8]) (sidetomove reverse) check))"},
      {"dts == maxdts dtsend any : modelstalemate", "(query (== dts maxdts) (dtsend any modelstalemate))"},
      {"legalposition reachableposition true false", "(query legalposition reachableposition true false)"},
      {"wtm sidetomove == white", "(query wtm (== sidetomove white))"},
      // line: '+' and '*' repeat a constituent before what ends one (-->, ')', the end ...).
      {"line singlecolor 2 5 --> check{3,} --> (mate --> check)?",
       "(query (line singlecolor 2 5 --> (repeat 3 inf check) (repeat 0 1 (chain mate check))))"},
      {"line <-- check + <-- ply * 2 > 3", "(query (line <-- (repeat 1 inf check) (> (* ply 2) 3)))"},
      {"line --> check * --> x + 1 > 2 {+}",
       "(query (line --> (repeat 0 inf check) (repeat 1 inf (> (+ x 1) 2))))"},
      {"line lastposition --> mate : ply", "(query (: (line lastposition --> mate) ply))"},
  };
  for (const ParseGolden& c : cases) {
    INFO(c.query);
    CHECK(sexpr(c.query) == c.expected);
  }
}

TEST_CASE("parser bounds nesting depth", "[parser]") {
  const std::string deep = std::string(5000, '(') + "A" + std::string(5000, ')');
  const auto tree = egtb::query::parse(deep);
  REQUIRE_FALSE(tree.has_value());
  CHECK(tree.error().message == "query nested too deeply (more than 200 levels)");
  const std::string fine = std::string(50, '(') + "A" + std::string(50, ')');
  CHECK(egtb::query::parse(fine).has_value());
  // A level is one the user writes: A inside 199 parentheses is 200 levels deep, the most.
  const auto parenthesized = [](int n) {
    return egtb::query::parse(std::string(static_cast<size_t>(n), '(') + "A" +
                              std::string(static_cast<size_t>(n), ')'));
  };
  CHECK(parenthesized(67).has_value());
  CHECK(parenthesized(199).has_value());
  CHECK_FALSE(parenthesized(200).has_value());
  CHECK_FALSE(egtb::query::parse(std::string(5000, '~') + "A").has_value());
  CHECK_FALSE(egtb::query::parse(std::string(5000, '-') + "1").has_value());
}
