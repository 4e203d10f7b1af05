// Hostile sizes: long chains of operators, deep nesting, function calls and transforms that
// multiply a query. Each gives a correct result or an error with its place; none exhausts the
// stack, the memory or the time.
#include <chrono>

#include "egtb/core/fen.hpp"
#include "query/eval.hpp"
#include "query/parser.hpp"
#include "query/print.hpp"
#include "query/sema.hpp"
#include "tests/support/catch.hpp"

namespace egtb::query {

namespace {

constexpr const char* Start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// "first op first op first ..." with `count` operands.
std::string chain(const std::string& first, const std::string& op, size_t count) {
  std::string s = first;
  s.reserve(count * (first.size() + op.size() + 2));
  for (size_t i = 1; i < count; ++i) s += " " + op + " " + first;
  return s;
}

// The value of a query at the start position as value() in test_eval.cpp prints it, or its
// error as "line:column: message".
std::string outcome(const std::string& query) {
  const auto program = compile(query);
  if (!program)
    return std::to_string(program.error().range.line) + ":" + std::to_string(program.error().range.column) +
           ": " + program.error().message;
  Evaluator e(*program);
  const auto v = e.evaluate(*parse_fen(Start));
  REQUIRE(v.has_value());
  switch (v->kind) {
    case FilterKind::Set: return designator_text(AnyMen, v->squares);
    case FilterKind::Numeric: return v->has_number ? std::to_string(v->number) : "none";
    default: return v->matched ? "true" : "false";
  }
}

}  // namespace

// 250,000 operands: a parser or evaluator that recursed once per operand would overflow its 8 MiB
// stack long before (more than 32 bytes a frame).
constexpr size_t LongChain = 250'000;

TEST_CASE("Chains of and, or, | and & of any length are one node each", "[limits]") {
  for (size_t n : {size_t{20000}, LongChain}) {
    INFO(n);
    CHECK(outcome(chain("wtm", "and", n)) == "true");
    CHECK(outcome(chain("btm", "or", n) + " or wtm") == "true");
    CHECK(outcome(chain("K", "|", n)) == "[e1]");
    CHECK(outcome(chain("A", "&", n) + " & K") == "[e1]");
  }
  const auto tree = parse("a and b and c or d | e | f & g & h");
  REQUIRE(tree.has_value());
  CHECK(to_sexpr(**tree) == "(query (or (and (and a b) c) (| (| d e) (& (& f g) h))))");
  CHECK((*tree)->child(0).children.size() == 2);
  CHECK((*tree)->child(0).child(0).children.size() == 3);
}

TEST_CASE("Chains of operators that nest count against the depth limit", "[limits]") {
  for (size_t n : {size_t{20000}, LongChain}) {
    for (const char* op : {"+", "*", "attacks"}) {
      INFO(n << " " << op);
      const std::string query = chain(op[0] == 'a' ? "A" : "1", op, n);
      const auto tree = parse(query);
      REQUIRE_FALSE(tree.has_value());
      CHECK(tree.error().message == "query nested too deeply (more than 200 levels)");
      // At the operand that goes one level too deep.
      CHECK(tree.error().range.line == 1);
      CHECK(tree.error().range.column > 4 * MaxParseDepth / 2);
      CHECK(query[static_cast<size_t>(tree.error().range.column - 1)] == query[0]);
    }
  }
  CHECK(outcome(chain("1", "+", 150)) == "150");
  CHECK(outcome(chain("2", "*", 62)) == "4611686018427387904");  // 2^62
  CHECK(outcome(chain("2", "*", 63)) == "none");                 // 2^63 does not fit
}

TEST_CASE("Function calls may not nest the query deeper than MaxTreeDepth", "[limits]") {
  // fun1() { not ... not fun0() } with 90 nots, each function calling the previous one: 1000
  // functions nest 90,000 levels deep once expanded (the stack overflowed before the bound).
  const auto functions = [](int count) {
    std::string q = "function fun0() { wtm }\n";
    for (int i = 1; i < count; ++i) {
      q += "function fun" + std::to_string(i) + "() { ";
      for (int k = 0; k < 90; ++k) q += "not ";
      q += "fun" + std::to_string(i - 1) + "() }\n";
    }
    return q + "fun" + std::to_string(count - 1) + "()";
  };
  CHECK(outcome(functions(8)) == "true");  // 7 * 90 nots before wtm
  const std::string deep = functions(1000);
  CHECK(outcome(deep) == "1001:1: query nested too deeply after expanding its function calls (more than " +
                             std::to_string(MaxTreeDepth) + " levels)");
  // An argument substituted deep inside a body counts too.
  std::string nots;
  for (int k = 0; k < 90; ++k) nots += "not ";
  std::string q = "function g(x) { " + nots + "x }\n";
  std::string arg = "wtm";
  for (int i = 0; i < 20; ++i) arg = "g(" + nots + arg + ")";
  CHECK(outcome(q + arg).ends_with("levels)"));
}

TEST_CASE("Function calls may not copy more than MaxExpandedNodes nodes", "[limits]") {
  // fun0 has 1000 filters, each fun(i) calls fun(i-1) nine times: fun4 copies 9^4 bodies of fun0.
  std::string q = "function fun0() { wtm";
  for (int k = 1; k < 1000; ++k) q += " wtm";
  q += " }\n";
  for (int i = 1; i <= 4; ++i) {
    q += "function fun" + std::to_string(i) + "() {";
    for (int k = 0; k < 9; ++k) q += " fun" + std::to_string(i - 1) + "()";
    q += " }\n";
  }
  const auto start = std::chrono::steady_clock::now();
  CHECK(outcome(q + "fun2()") == "true");
  CHECK(outcome(q + "wtm fun4()") ==
        "6:5: function calls expand this query to more than " + std::to_string(MaxExpandedNodes) + " nodes");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
}

TEST_CASE("Transforms may not expand a query beyond MaxTransformedFilters filters", "[limits]") {
  // Each flip compiles its operand up to 16 times (8 symmetries, either colour of square): twelve
  // took 30 s and 2 GB before the bound.
  std::string flips;
  for (int i = 0; i < 12; ++i) flips += "flip ";
  const auto start = std::chrono::steady_clock::now();
  CHECK(outcome("wtm\n" + flips + "Qa1") == "2:1: transforms expand this query to more than " +
                                                std::to_string(MaxTransformedFilters) + " filters");
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
  CHECK(outcome("flip flip flip Qd1") == "[d1]");
  // Found by fuzz_query_eval: few filters, but each of the 225 steps of both shifts read the
  // constants of its operand for every variant of the outer transforms (4 s under ASan). Reading
  // constants counts now.
  CHECK(outcome("flipcolor flip rotate90 shift {K r flip rotate90 shift k a3 Qb2 wtm}") ==
        "1:1: transforms expand this query to more than " + std::to_string(MaxTransformedFilters) +
            " filters");
  CHECK(outcome("flipcolor shift {K r flip k a3 Qb2 wtm}") == "true");
}

}  // namespace egtb::query
