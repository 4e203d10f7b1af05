// Error golden tests: the message, its line:column and the caret line, for lexer, parser and
// sema errors, formatted as format_error() prints them.
#include "query/compile.hpp"
#include "tests/support/catch.hpp"

namespace {

std::string error_text(std::string_view query) {
  const auto program = egtb::query::compile(query);
  if (program) return "no error";
  return egtb::query::format_error(program.error(), query, "q.cql");
}

struct Golden {
  const char* query;
  const char* expected;
};

}  // namespace

TEST_CASE("error golden tests", "[errors]") {
  const Golden cases[] = {
      {"btm A attacks 3",
       "q.cql:1:15: error: expected square set after 'attacks'\nbtm A attacks 3\n              ^\n"},
      {"btm A attacks",
       "q.cql:1:14: error: expected square set after 'attacks', found end of query\nbtm A attacks\n          "
       "   ^\n"},
      {"wtm\n  check < A",
       "q.cql:2:3: error: expected a number or square set before '<'\n  check < A\n  ^~~~~\n"},
      {"A + 1", "q.cql:1:1: error: expected numeric filter before '+'\nA + 1\n^\n"},
      {"x > 1", "q.cql:1:1: error: unknown variable 'x'\nx > 1\n^\n"},
      {"A < a",
       "q.cql:1:1: error: '<' compares numbers, not square sets (count them with '#')\nA < a\n^~~~~\n"},
      {"(A & k",
       "q.cql:1:7: error: expected ')' to close the '(' at 1:1, found end of query\n(A & k\n      ^\n"},
      {"{wtm",
       "q.cql:1:5: error: expected a filter or '}' to close the '{' at 1:1, found end of query\n{wtm\n    "
       "^\n"},
      {"square x A",
       "q.cql:1:10: error: expected 'in' after 'square x', found 'A'\nsquare x A\n         ^\n"},
      {"not", "q.cql:1:4: error: expected a filter after 'not', found end of query\nnot\n   ^\n"},
      {"A | 3", "q.cql:1:5: error: expected square set after '|'\nA | 3\n    ^\n"},
      {"x = check",
       "q.cql:1:5: error: expected a square set or a number to assign to 'x'\nx = check\n    ^~~~~\n"},
      {"x = 1 x = A",
       "q.cql:1:7: error: variable 'x' holds a Numeric value; cannot give it a Set value\nx = 1 x = A\n      "
       "^~~~~\n"},
      {"function f(a) {f(a)} f(K)",
       "q.cql:1:12: error: expected a parameter name or ')', found 'a'\nfunction f(a) {f(a)} f(K)\n          "
       " ^\n"},
      {"function f(x) {f(x)} f(K)",
       "q.cql:1:16: error: recursive call of function 'f'\nfunction f(x) {f(x)} f(K)\n               ^~~~\n"},
      {"function f(x y) {x} f(K)",
       "q.cql:1:21: error: function 'f' takes 2 argument(s), 1 given\nfunction f(x y) {x} f(K)\n             "
       "       ^~~~\n"},
      {"move from K",
       "q.cql:1:6: error: expected 'legal' after 'move' (the speculative move filter), found 'from'\n"
       "move from K\n     ^~~~\n"},
      {"imagine piece A --> a1 : check",
       "q.cql:1:15: error: expected one kind of man (like Q, n or _) without squares after 'piece'\n"
       "imagine piece A --> a1 : check\n              ^\n"},
      {"btm $", "q.cql:1:5: error: unexpected character '$'\nbtm $\n    ^\n"},
      {"max(1)", "q.cql:1:1: error: 'max' needs at least two arguments\nmax(1)\n^~~~~~\n"},
      {"flipcolor",
       "q.cql:1:10: error: expected a filter after 'flipcolor', found end of query\nflipcolor\n         ^\n"},
      {"} A", "q.cql:1:1: error: expected a filter, found '}'\n} A\n^\n"},
  };
  for (const Golden& c : cases) {
    INFO(c.query);
    CHECK(error_text(c.query) == c.expected);
  }
}
