// The lexer: token kinds, ranges, payloads, comments and errors.
#include "query/lexer.hpp"
#include "query/print.hpp"
#include "tests/support/catch.hpp"

namespace {

using egtb::query::TokenKind;

// "kind:text" for every token but End.
std::vector<std::string> kinds(std::string_view source) {
  const auto tokens = egtb::query::lex(source);
  REQUIRE(tokens.has_value());
  std::vector<std::string> out;
  for (const auto& t : *tokens)
    if (t.kind != TokenKind::End)
      out.push_back(std::string(egtb::query::token_kind_name(t.kind)) + ":" + std::string(t.text));
  return out;
}

}  // namespace

TEST_CASE("lexer splits operators, words and designators", "[lexer]") {
  CHECK(kinds("A->k") == std::vector<std::string>{"piece designator:A", "'->':->", "piece designator:k"});
  CHECK(kinds("x<-y") == std::vector<std::string>{"identifier:x", "'<-':<-", "identifier:y"});
  CHECK(kinds("a <= 3 != 4 == 5 >= 6 > 7 < 8") ==
        std::vector<std::string>{"piece designator:a", "'<=':<=", "number:3", "'!=':!=", "number:4",
                                 "'==':==", "number:5", "'>=':>=", "number:6", "'>':>", "number:7", "'<':<",
                                 "number:8"});
  CHECK(kinds("piece Q --> a1") ==
        std::vector<std::string>{"keyword:piece", "piece designator:Q", "'-->':-->", "piece designator:a1"});
  CHECK(kinds("{#x+1*2/3%4}:~&|=") ==
        std::vector<std::string>{"'{':{", "'#':#", "identifier:x", "'+':+", "number:1", "'*':*", "number:2",
                                 "'/':/", "number:3", "'%':%", "number:4", "'}':}", "':'::", "'~':~", "'&':&",
                                 "assignment operator:|="});
  CHECK(kinds("and in attacks cql_Fy X b") == std::vector<std::string>{"keyword:and", "keyword:in",
                                                                       "keyword:attacks", "identifier:cql_Fy",
                                                                       "identifier:X", "piece designator:b"});
}

TEST_CASE("lexer decodes piece designators", "[lexer]") {
  struct Case {
    const char* text;
    const char* canonical;
  };
  const Case cases[] = {{"K", "K"},
                        {"[Qq]", "[Qq]"},
                        {"A", "A"},
                        {"a", "a"},
                        {"_", "_"},
                        {".", "."},
                        {"a1", "[a1]"},
                        {"a-c3", "[a3,b3,c3]"},
                        {"[b-c2,d5]", "[b2,c2,d5]"},
                        {"Ka1", "K[a1]"},
                        {"[RNBQ]", "[QRBN]"},
                        {"[A_]", "[A_]"},
                        {"pe2-3", "p[e2,e3]"},
                        {"h1-2", "[h1,h2]"}};
  for (const Case& c : cases) {
    const auto tokens = egtb::query::lex(c.text);
    REQUIRE(tokens.has_value());
    REQUIRE(tokens->size() == 2);
    const auto& t = tokens->front();
    INFO(c.text);
    CHECK(t.kind == TokenKind::PieceDesignator);
    CHECK(egtb::query::designator_text(t.pieces, t.squares) == c.canonical);
  }
  CHECK(kinds("a12 Qa bb7") ==
        std::vector<std::string>{"identifier:a12", "identifier:Qa", "piece designator:bb7"});
}

TEST_CASE("lexer keeps ranges, numbers and strings, and skips comments", "[lexer]") {
  const auto tokens = egtb::query::lex("// comment\n  btm /* a\nb */ 42 \"say \\\"hi\\\"\"");
  REQUIRE(tokens.has_value());
  REQUIRE(tokens->size() == 4);
  CHECK((*tokens)[0].range == egtb::query::SourceRange{2, 3, 2, 6});
  CHECK((*tokens)[1].kind == TokenKind::Number);
  CHECK((*tokens)[1].number == 42);
  CHECK((*tokens)[1].range == egtb::query::SourceRange{3, 6, 3, 8});
  CHECK((*tokens)[2].kind == TokenKind::String);
  CHECK((*tokens)[2].value == "say \"hi\"");
  CHECK((*tokens)[3].kind == TokenKind::End);
}

TEST_CASE("lexer reports bad input with its place", "[lexer]") {
  struct Case {
    const char* text;
    int line;
    int column;
    const char* message;
  };
  const Case cases[] = {{"btm $", 1, 5, "unexpected character '$'"},
                        {"\n \"open", 2, 2, "unterminated string: expected '\"'"},
                        {"x /* never", 1, 3, "unterminated comment: expected '*/'"},
                        {"12345678901234567", 1, 1, "number too large"}};
  for (const Case& c : cases) {
    const auto tokens = egtb::query::lex(c.text);
    INFO(c.text);
    REQUIRE_FALSE(tokens.has_value());
    CHECK(tokens.error().range.line == c.line);
    CHECK(tokens.error().range.column == c.column);
    CHECK(tokens.error().message == c.message);
  }
}
