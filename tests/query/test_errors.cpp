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

struct ErrorGolden {
  const char* query;
  const char* expected;
};

}  // namespace

TEST_CASE("error golden tests", "[errors]") {
  const ErrorGolden cases[] = {
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
       "q.cql:1:5: error: expected a square set, a number, a string or a position to assign to 'x'\nx = "
       "check\n"
       "    "
       "^~~~~\n"},
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
      {"move from K legal",
       "q.cql:1:13: error: 'legal' comes first after 'move' (move legal from ...)\n"
       "move from K legal\n            ^~~~~\n"},
      {"legal --(check)",
       "q.cql:1:10: error: the target after 'legal --(' must be one of 'o-o', 'o-o-o', 'castle', "
       "'enpassant', "
       "as in CQL\nlegal --(check)\n         ^~~~~\n"},
      {"legal ――(o-o check)",
       "q.cql:1:13: error: expected ')' to close the '(' at 1:8 after the target of 'legal --', found "
       "'check'\nlegal ――(o-o check)\n            ^~~~~\n"},
      // A parameter takes ':' in the body; the argument must then be a position.
      {"function f(x){ x:check } f(1)",
       "q.cql:1:16: error: expected position filter (parent, child, find ...) before ':'\nfunction f(x){ "
       "x:check } f(1)\n               ^\n"},
      {"move from K pseudolegal",
       "q.cql:1:13: error: 'pseudolegal' comes first after 'move' (move pseudolegal from ...)\n"
       "move from K pseudolegal\n            ^~~~~~~~~~~\n"},
      {"pseudolegal K[x]a1",
       "q.cql:1:13: error: 'pseudolegal' takes no capturing dash '[x]', as in CQL\n"
       "pseudolegal K[x]a1\n            ^\n"},
      {"countmoves check",
       "q.cql:1:12: error: expected 'legal' or 'pseudolegal' after 'countmoves', found 'check'\n"
       "countmoves check\n           ^~~~~\n"},
      {"countmoves pseudolegal K",
       "q.cql:1:24: error: expected '--' after 'countmoves pseudolegal', found 'K'\n"
       "countmoves pseudolegal K\n                       ^\n"},
      {"move enpassant enpassantsquare e4",
       "q.cql:1:1: error: 'move' takes 'enpassant' or 'enpassantsquare', not both, as in CQL\n"
       "move enpassant enpassantsquare e4\n^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"},
      {"move enpassantsquare e4 promote Q",
       "q.cql:1:1: error: 'move' cannot be both an en passant capture and a promotion, as in CQL\n"
       "move enpassantsquare e4 promote Q\n^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"},
      {"move legal enpassantsquare 3",
       "q.cql:1:28: error: expected square set after 'enpassantsquare'\n"
       "move legal enpassantsquare 3\n                           ^\n"},
      {"move captures check",
       "q.cql:1:15: error: expected square set after 'capture'\nmove captures check\n              ^~~~~\n"},
      {"virtualmainline + 1",
       "q.cql:1:1: error: expected numeric filter before '+'\nvirtualmainline + 1\n^~~~~~~~~~~~~~~\n"},
      {"currenttransform + 1",
       "q.cql:1:20: error: expected a string after '+'\ncurrenttransform + 1\n                   ^\n"},
      {"lastgamenumber + \"a\"",
       "q.cql:1:1: error: expected a string before '+'\nlastgamenumber + \"a\"\n^~~~~~~~~~~~~~\n"},
      {"cql(input a.pgn) hhdb a1",
       "q.cql:1:23: error: expected a key of hhdb after 'hhdb' (prize, hm, MC, composer, gbr ...), found "
       "'a1'\n"
       "cql(input a.pgn) hhdb a1\n                      ^~\n"},
      {"piece T in K pieceid T + 1 T = a1",
       "q.cql:1:28: error: variable 'T' is a piece variable (it holds a man); cannot give it squares\n"
       "piece T in K pieceid T + 1 T = a1\n                           ^~~~~~\n"},
      {"imagine piece A --> a1 : check",
       "q.cql:1:15: error: expected one kind of man (like Q, n or _) without squares after 'piece'\n"
       "imagine piece A --> a1 : check\n              ^\n"},
      {"rotate45 {Q & right 1 Kd4}",
       "q.cql:1:23: error: rotate45 cannot be applied to particular squares: a square has no image under a "
       "turn of 45 degrees\nrotate45 {Q & right 1 Kd4}\n                      ^~~\n"},
      {"rotate45 light Q",
       "q.cql:1:10: error: rotate45 cannot be applied to light or dark: a square's colour has no image under "
       "a "
       "turn of 45 degrees\nrotate45 light Q\n         ^~~~~~~\n"},
      {"while (\"RBNQ\" ~~ \"(\") true",
       "q.cql:1:8: error: invalid regular expression \"(\": Mismatched '(' and ')' in regular expression\n"
       "while (\"RBNQ\" ~~ \"(\") true\n       ^~~~~~~~~~~~~\n"},
      {"--=check", "q.cql:1:4: error: expected string of men's letters after '='\n--=check\n   ^~~~~\n"},
      {"--=",
       "q.cql:1:4: error: expected a piece designator or a string after '=', found end of query\n--=\n   "
       "^\n"},
      {"hhdb check",
       "q.cql:1:6: error: expected a key of hhdb after 'hhdb' (prize, hm, MC, composer, gbr ...), found "
       "'check'\nhhdb check\n     ^~~~~\n"},
      {"hhdb (c)",
       "q.cql:1:6: error: expected a key of hhdb after 'hhdb' (prize, hm, MC, composer, gbr ...), found "
       "'('\nhhdb (c)\n     ^\n"},
      {"hhdb prize hm",
       "q.cql:1:1: error: more than one of award, prize, hm and commendation after 'hhdb'\nhhdb "
       "prize hm\n^~~~~~~~~~~~~\n"},
      {"hhdb sort prize",
       "q.cql:1:1: error: CQL filter 'hhdb sort' is not supported by egtb\nhhdb sort prize\n"
       "^~~~~~~~~~~~~~~\n"},
      {"hhdb cooked",
       "q.cql:1:1: error: CQL filter 'hhdb cooked' is not supported by egtb: it needs CQL's "
       "cql_hhdbhascook (\"<cook\" anywhere in the game's PGN text)\nhhdb cooked\n^~~~~~~~~~~\n"},
      {"originalcomment \"$256\"",
       "q.cql:1:17: error: expected a NAG from $1 to $255, found \"$256\"\noriginalcomment \"$256\"\n        "
       "        ^~~~~~\n"},
      {"settag(\"White\" \"x\")",
       "q.cql:1:8: error: CQL 6.2 sets no tag named as one of its own ('White')\nsettag(\"White\" \"x\")\n   "
       "    ^~~~~~~\n"},
      {"settag(\"My tag\" \"x\")",
       "q.cql:1:8: error: a tag name has only letters, digits and '_'\nsettag(\"My tag\" \"x\")\n       "
       "^~~~~~~~\n"},
      {"settag(\"Mine\" check)",
       "q.cql:1:15: error: expected a string, the tag's value, after 'settag(\"Mine\"'\nsettag(\"Mine\" "
       "check)\n              ^~~~~\n"},
      {"persistent check",
       "q.cql:1:12: error: expected a variable and an assignment ('=', '+=' ...) after 'persistent', found "
       "'check'\npersistent check\n           ^~~~~\n"},
      {"x = 1 persistent x += 1",
       "q.cql:1:7: error: variable 'x' was first assigned without 'persistent'\nx = 1 persistent x += 1\n    "
       "  "
       "^~~~~~~~~~~~~~~~~\n"},
      {"persistent Total += check",
       "q.cql:1:21: error: expected a square set, a number or a string to add to 'Total'\npersistent Total "
       "+= "
       "check\n                    ^~~~~\n"},
      {"dictionary D D + 1",
       "q.cql:1:14: error: expected numeric filter before '+'\ndictionary D D + 1\n             ^\n"},
      {"dictionary D D[1] = 2 D[\"a\"]",
       "q.cql:1:25: error: the key of dictionary 'D' is a String value; its keys are Numeric values\n"
       "dictionary D D[1] = 2 D[\"a\"]\n                        ^~~\n"},
      {"dictionary D D[1] = 2 D[2] = \"x\"",
       "q.cql:1:30: error: the value of dictionary 'D' is a String value; its values are Numeric values\n"
       "dictionary D D[1] = 2 D[2] = \"x\"\n                             ^~~\n"},
      {"x = 1 x[1]", "q.cql:1:7: error: expected string before '['\nx = 1 x[1]\n      ^\n"},
      {"dictionary D D[1] = currentposition",
       "q.cql:1:21: error: a position cannot be a value of dictionary 'D', which is persistent (declare it "
       "'local dictionary')\ndictionary D D[1] = currentposition\n                    ^~~~~~~~~~~~~~~\n"},
      {"dictionary D local dictionary D",
       "q.cql:1:14: error: dictionary 'D' was declared persistent before\ndictionary D local dictionary D\n"
       "             ^~~~~~~~~~~~~~~~~~\n"},
      {"D = 1 dictionary D",
       "q.cql:1:7: error: 'D' is a variable; it cannot be declared a dictionary\nD = 1 dictionary D\n"
       "      ^~~~~~~~~~~~\n"},
      {"local x = 1",
       "q.cql:1:7: error: expected 'dictionary' after 'local' (egtb has local and persistent dictionaries, "
       "not "
       "other local variables), found 'x'\nlocal x = 1\n      ^\n"},
      {"dictionary D key ∊ D true D[1] = 2",
       "q.cql:1:20: error: dictionary 'D' has no key yet: assign D[key] = value before looping over its "
       "keys\ndictionary D key ∊ D true D[1] = 2\n                   ^\n"},
      {"dictionary D D[1] = 2 string s in D true",
       "q.cql:1:35: error: 'string s in D' needs a dictionary of string keys; D's keys are Numeric values\n"
       "dictionary D D[1] = 2 string s in D true\n                                  ^\n"},
      {"dictionary D unbind D[1]",
       "q.cql:1:23: error: dictionary 'D' has no key before this 'unbind'\ndictionary D unbind D[1]\n"
       "                      ^\n"},
      {"dictionary D D[check] = 1",
       "q.cql:1:16: error: expected a square set, a number, a string or a position as the key of dictionary "
       "'D'\ndictionary D D[check] = 1\n               ^~~~~\n"},
      {"dictionary D x = 1 D[1] = 2 x = D",
       "q.cql:1:33: error: expected a square set, a number, a string or a position to assign to 'x'\n"
       "dictionary D x = 1 D[1] = 2 x = D\n                                ^\n"},
      {"atomic check",
       "q.cql:1:8: error: expected a variable and an assignment ('=', '+=' ...) after 'atomic', found "
       "'check'\n"
       "atomic check\n       ^~~~~\n"},
      {"while check",
       "q.cql:1:7: error: expected '(' after 'while', found 'check'\nwhile check\n      ^~~~~\n"},
      {"btm $", "q.cql:1:5: error: unexpected character '$'\nbtm $\n    ^\n"},
      {"max(1)", "q.cql:1:1: error: 'max' needs at least two arguments\nmax(1)\n^~~~~~\n"},
      {"flipcolor",
       "q.cql:1:10: error: expected a filter after 'flipcolor', found end of query\nflipcolor\n         ^\n"},
      {"} A", "q.cql:1:1: error: expected a filter, found '}'\n} A\n^\n"},
      {"line check",
       "q.cql:1:6: error: expected '-->' or '<--' after 'line' and its parameters, found 'check'\n"
       "line check\n     ^~~~~\n"},
      {"line nestban <-- check",
       "q.cql:1:1: error: 'nestban' cannot be used with 'line <--'\nline nestban <-- "
       "check\n^~~~~~~~~~~~~~~~\n"},
      {"line --> check++",
       "q.cql:1:16: error: '+' cannot repeat a '+' in 'line'\nline --> check++\n               ^\n"},
      {"line --> (check\n  --> mate",
       "q.cql:2:11: error: expected '-->' or ')' to close the '(' at 1:10, found end of query\n  --> mate\n"
       "          ^\n"},
      {"line --> check <-- mate",
       "q.cql:1:16: error: '<--' in a line of '-->': one direction per line\nline --> check <-- mate\n"
       "               ^~~\n"},
      {"path title 3 -- check",
       "q.cql:1:12: error: expected the title of the path (a quoted string), found '3'\npath title 3 -- "
       "check\n"
       "           ^\n"},
      {"path piecepath -- check",
       "q.cql:1:6: error: 'piecepath' in 'path' needs a 'focus' (or 'singlecolor'): it notes the focused "
       "men's "
       "ways\npath piecepath -- check\n     ^~~~~~~~~\n"},
      {"path --=3", "q.cql:1:9: error: expected string of men's letters after '='\npath --=3\n        ^\n"},
  };
  for (const ErrorGolden& c : cases) {
    INFO(c.query);
    CHECK(error_text(c.query) == c.expected);
  }
}

TEST_CASE("errors count columns in characters and keep multibyte characters whole", "[errors]") {
  const ErrorGolden cases[] = {
      {"btm \u00e9", "q.cql:1:5: error: unexpected character '\u00e9'\nbtm \u00e9\n    ^\n"},
      {"\"\u65e5\u672c\" A attacks 3",
       "q.cql:1:16: error: expected square set after 'attacks'\n\"\u65e5\u672c\" A attacks 3\n               "
       "^\n"},
      {"// \u00e9\u00e9\u00e9\n\u00e9", "q.cql:2:1: error: unexpected character '\u00e9'\n\u00e9\n^\n"},
      {"btm \"\u00e9\u00e9\" (A",
       "q.cql:1:12: error: expected ')' to close the '(' at 1:10, found end of query\nbtm \"\u00e9\u00e9\" "
       "(A\n"
       "           ^\n"},
  };
  for (const ErrorGolden& c : cases) {
    INFO(c.query);
    CHECK(error_text(c.query) == c.expected);
  }
}

TEST_CASE("errors escape control bytes and cut long text", "[errors]") {
  CHECK(error_text("btm \x01 mate") ==
        "q.cql:1:5: error: unexpected character '\\x01'\nbtm \\x01 mate\n    ^~~~\n");
  CHECK(error_text("\x7f") == "q.cql:1:1: error: unexpected character '\\x7f'\n\\x7f\n^~~~\n");
  // A tab stays a tab, so that the caret lines up in a terminal; a CR before the newline goes.
  CHECK(error_text("\tA attacks 3\r\nwtm") ==
        "q.cql:1:12: error: expected square set after 'attacks'\n\tA attacks 3\n\t          ^\n");
  // Names and tokens quoted in a message are cut after 40 characters.
  const std::string name(100000, 'x');
  CHECK(error_text(name + " > 1") == "q.cql:1:1: error: unknown variable '" + std::string(40, 'x') +
                                         "\u2026'\n" + std::string(160, 'x') + "\u2026\n^" +
                                         std::string(159, '~') + "\n");
  const std::string text = "(A \"" + std::string(1000, 's') + "\x02\")";
  CHECK(error_text(text).starts_with("q.cql:1:4: error: expected ')' to close the '(' at 1:1, found '\"" +
                                     std::string(39, 's') + "\u2026'\n"));
}

TEST_CASE("errors in a long line show a window of it around the error", "[errors]") {
  std::string line;
  for (int i = 0; i < 100000; ++i) line += "wtm ";
  const std::string query = line + "A attacks 3 " + line;
  const std::string out = error_text(query);
  INFO(out);
  CHECK(out.size() < 600);
  CHECK(out.starts_with("q.cql:1:400011: error: expected square set after 'attacks'\n\u2026"));
  // The caret stands under the 3, after the ellipsis and the 60 characters before it.
  const size_t echo = out.find('\n') + 1;
  const size_t caret_line = out.find('\n', echo) + 1;
  const std::string shown = out.substr(echo, caret_line - echo - 1);
  const std::string caret = out.substr(caret_line);
  CHECK(caret == std::string(61, ' ') + "^\n");
  CHECK(shown.substr(std::string("\u2026").size() + 60, 1) == "3");
  CHECK(shown.ends_with("\u2026"));
}

TEST_CASE("a byte-order mark is skipped and invalid UTF-8 is an error with its place", "[errors]") {
  const std::string bom = "\xEF\xBB\xBF";
  CHECK(egtb::query::compile(bom + "btm mate").has_value());
  CHECK(error_text(bom + "btm A attacks 3") ==
        "q.cql:1:15: error: expected square set after 'attacks'\nbtm A attacks 3\n              ^\n");
  CHECK(error_text("btm \xff mate") ==
        "q.cql:1:5: error: invalid UTF-8 byte '\\xff'\nbtm \\xff mate\n    ^~~~\n");
  CHECK(error_text("wtm\n\"\u00e9\xc3\"") ==
        "q.cql:2:3: error: invalid UTF-8 byte '\\xc3'\n\"\u00e9\\xc3\"\n  ^~~~\n");
  CHECK(error_text("// \xed\xa0\x80 a surrogate\nwtm")
            .starts_with("q.cql:1:4: error: invalid UTF-8 byte '\\xed'"));
  CHECK(error_text(std::string("btm\0mate", 8)) ==
        "q.cql:1:4: error: unexpected character '\\x00'\nbtm\\x00mate\n   ^~~~\n");
}
