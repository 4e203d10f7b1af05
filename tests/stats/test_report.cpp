// Text output of the statistics: percentages as the article prints them, move lines, captions and
// the three table formats on a hand-made table (the CLI golden tests cover real tables).
#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "stats/report.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

Position position(const char* fen) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  return *pos;
}

std::vector<Move> moves(const Position& start, std::initializer_list<const char*> uci) {
  std::vector<Move> out;
  Position pos = start;
  for (const char* text : uci) {
    const auto m = parse_uci(pos, text);
    REQUIRE(m.has_value());
    out.push_back(*m);
    pos.do_move(*m);
  }
  return out;
}

// A KQk-like table with one side of made-up counts and a mate in 1.
stats::TableStatistics sample_table() {
  stats::TableStatistics t;
  t.material = *Material::parse("KQk");
  t.sides[0].lasker = {0, 0, 0, 0, 18'492};
  t.sides[1].lasker = {25'691, 115, 2'838, 0, 0};
  t.sides[0].depths[4] = {{1, 312}};
  stats::Deepest d;
  d.metric = Metric::Dtm;
  d.plies = 1;
  d.positions = 312;
  d.example = position("k7/7Q/1K6/8/8/8/8/8 w - - 0 1");
  d.line = moves(d.example, {"h7h8"});
  t.deepest[to_index(Metric::Dtm)][0] = d;
  return t;
}

}  // namespace

TEST_CASE("percentages have three decimals, exact 0 and 100, and ε below 0.0005", "[stats][report]") {
  CHECK(stats::format_percent(25'691, 28'644) == "89.691");
  CHECK(stats::format_percent(115, 28'644) == "0.401");
  CHECK(stats::format_percent(0, 28'644) == "0");
  CHECK(stats::format_percent(18'492, 18'492) == "100");
  CHECK(stats::format_percent(4, 1'000'000) == "ε");
  CHECK(stats::format_percent(4, 1'000'000, "$\\varepsilon$") == "$\\varepsilon$");
  CHECK(stats::format_percent(6, 1'000'000) == "0.001");
  CHECK(stats::format_percent(0, 0) == "0");
}

TEST_CASE("lines are written in SAN with move numbers and in UCI", "[stats][report]") {
  const Position white = position("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
  const std::vector<Move> line = moves(white, {"b3c5", "b1a1", "d1c1"});
  CHECK(san_line(white, line) == "1. Nc5 Ka1 2. Kc1");
  CHECK(uci_line(line) == std::vector<std::string>{"b3c5", "b1a1", "d1c1"});
  const Position black = position("8/8/8/8/8/1k6/7P/K7 b - - 0 1");
  CHECK(san_line(black, moves(black, {"b3c3", "a1b1"})) == "1... Kc3 2. Kb1");
}

TEST_CASE("captions read like the article's Fig. 1", "[stats][report]") {
  stats::TableStatistics t;
  t.material = *Material::parse("KNk");
  stats::Deepest d;
  d.plies = 27;
  CHECK(stats::caption(t, d) == "KNk: maxDTS 27, White to move, stalemate in 14");
  d.metric = Metric::Dtm;
  d.plies = 19;
  d.side_to_move = Color::Black;
  d.winner = Color::Black;
  CHECK(stats::caption(t, d) == "KNk: maxDTM 19, Black to move, mate in 10");
  d.plies = 20;
  d.winner = Color::White;
  CHECK(stats::caption(t, d) == "KNk: maxDTM 20, Black to move, mated in 10");
}

TEST_CASE("Markdown, CSV and LaTeX tables", "[stats][report]") {
  const std::vector<stats::TableStatistics> tables = {sample_table()};
  const std::string md = stats::render(tables, stats::TextFormat::Markdown);
  CHECK(md.find("No forced stalemate: KQk.") != std::string::npos);
  CHECK(md.find("| KQk | White | 312 | 1 | `k7/7Q/1K6/8/8/8/8/8 w - - 0 1` | 1. Qh8# |") !=
        std::string::npos);
  CHECK(md.find("| KQk | b | 28,644 | 0 | 0 | 9.908 | 0.401 | 89.691 |") != std::string::npos);
  CHECK(md.find("| KQk | w | DTM | mates (4) | 1: 312 |") != std::string::npos);
  const std::string csv = stats::render(tables, stats::TextFormat::Csv);
  CHECK(csv.find("KQk,White,312,1,k7/7Q/1K6/8/8/8/8/8 w - - 0 1,h7h8\n") != std::string::npos);
  CHECK(csv.find("KQk,b,28644,0,0,2838,115,25691\n") != std::string::npos);
  CHECK(csv.find("KQk,w,DTM,mates (4),1: 312\n") != std::string::npos);
  const std::string latex = stats::render(tables, stats::TextFormat::Latex);
  CHECK(latex.find("\\toprule") != std::string::npos);
  CHECK(latex.find("\\# maxDTM positions") != std::string::npos);
  CHECK(latex.find("& 1. Qh8\\# \\\\") != std::string::npos);
  CHECK(latex.find("\\% of the positions") != std::string::npos);
  CHECK(latex.find("Depth histograms") == std::string::npos);
}

}  // namespace egtb::test
