// The keyword table and the stages that read it: every keyword lexes to itself, every keyword
// filter parses, analyses and compiles to the kind the table gives, and a keyword where no filter
// may stand is an error with its place, never a filter that silently fails.
#include "query/compile.hpp"
#include "query/keywords.hpp"
#include "query/parser.hpp"
#include "query/print.hpp"
#include "tests/support/catch.hpp"

namespace egtb::query {

namespace {

std::vector<Keyword> all_keywords() {
  std::vector<Keyword> out;
  for (int k = 0; k < static_cast<int>(Keyword::None); ++k) out.push_back(static_cast<Keyword>(k));
  return out;
}

// A Query node holding one Keyword node spelled `k`, as the parser would build it.
NodePtr query_of_keyword(Keyword k, SourceRange range) {
  auto root = std::make_unique<Node>(NodeKind::Query, range);
  auto leaf = std::make_unique<Node>(NodeKind::Keyword, range);
  leaf->keyword = k;
  root->children.push_back(std::move(leaf));
  return root;
}

}  // namespace

TEST_CASE("Every keyword lexes to itself and back", "[keywords]") {
  for (Keyword k : all_keywords()) {
    const std::string_view text = keyword_text(k);
    INFO(text);
    REQUIRE_FALSE(text.empty());
    CHECK(find_keyword(text) == k);
    const auto tokens = lex(text);
    REQUIRE(tokens.has_value());
    CHECK(tokens->front().kind == TokenKind::Keyword);
    CHECK(tokens->front().keyword == k);
  }
  CHECK_FALSE(find_keyword("wtmx").has_value());
  CHECK_FALSE(find_keyword("").has_value());
  CHECK(keyword_text(Keyword::None).empty());
}

TEST_CASE("Every keyword filter has the kind the table gives, at each stage", "[keywords]") {
  for (Keyword k : all_keywords()) {
    const KeywordInfo& info = keyword_info(k);
    if (info.use != KeywordUse::Filter) continue;
    INFO(info.text);
    auto tree = parse(info.text);
    REQUIRE(tree.has_value());
    CHECK(to_sexpr(**tree) == "(query " + std::string(info.text) + ")");
    const auto sema = analyze(**tree);
    REQUIRE(sema.has_value());
    CHECK((*tree)->filter == info.kind);
    CHECK(sema->uses_tables == info.tables);
    const auto program = compile(**tree, *sema);
    REQUIRE(program.has_value());
    CHECK(program->kind() == info.kind);
  }
}

TEST_CASE("A keyword where a filter must stand is an error with its place", "[keywords]") {
  for (Keyword k : all_keywords()) {
    const KeywordInfo& info = keyword_info(k);
    // cql at the start of a query begins its header cql(...) (test_game.cpp).
    if (info.use == KeywordUse::Filter || info.use == KeywordUse::Compound || k == Keyword::Cql) continue;
    INFO(info.text);
    const std::string text = "\n  " + std::string(info.text);
    const auto tree = parse(text);
    REQUIRE_FALSE(tree.has_value());
    CHECK(tree.error().range.line == 2);
    CHECK(tree.error().range.column == 3);
    CHECK(tree.error().message == "unexpected '" + std::string(info.text) + "': expected a filter");
  }
  const auto tree = parse("not then");
  REQUIRE_FALSE(tree.has_value());
  CHECK(tree.error().message == "expected a filter after 'not', found 'then'");
  CHECK(tree.error().range == SourceRange{1, 5, 1, 9});
  // A direction word is a filter of its own, which needs a set.
  const auto up = parse("not up");
  REQUIRE_FALSE(up.has_value());
  CHECK(up.error().message == "expected a filter after 'up', found end of query");
}

TEST_CASE("A syntax tree naming a keyword that is no filter fails analysis at its place", "[keywords]") {
  // Before the keyword table, a Keyword node of another word compiled to a filter that never
  // matched; now sema rejects it where it stands.
  const SourceRange where{3, 4, 3, 6};
  for (Keyword k : {Keyword::Up, Keyword::And, Keyword::Legal, Keyword::Flip}) {
    INFO(keyword_text(k));
    NodePtr root = query_of_keyword(k, where);
    const auto sema = analyze(*root);
    REQUIRE_FALSE(sema.has_value());
    CHECK(sema.error().range == where);
    CHECK(sema.error().message == "expected a filter, found '" + std::string(keyword_text(k)) + "'");
  }
  NodePtr root = query_of_keyword(Keyword::False, where);
  const auto sema = analyze(*root);
  REQUIRE(sema.has_value());
  CHECK(compile(*root, *sema).has_value());
}

TEST_CASE("Table filters are the keywords the table marks, dtsend and dtmend included", "[keywords]") {
  const auto uses_tables = [](const char* text) {
    INFO(text);
    auto tree = parse(text);
    REQUIRE(tree.has_value());
    const auto sema = analyze(**tree);
    REQUIRE(sema.has_value());
    return sema->uses_tables;
  };
  for (const char* text : {"dtm", "dts > 3", "lasker == 3", "maxdtm", "maxdts", "dtsend : mate",
                           "dtmend any : mate", "flipcolor {dts}"})
    CHECK(uses_tables(text));
  for (const char* text : {"wtm mate", "move legal : stalemate", "function f() {dtm} wtm"})
    CHECK_FALSE(uses_tables(text));
}

}  // namespace egtb::query
