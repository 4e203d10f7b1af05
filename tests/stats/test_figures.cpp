// SVG figures: each man on its square, the side to move, one bar per depth, escaped text. The CLI
// test cli:stats_figures parses the files of real tables with xmllint.
#include <regex>

#include "egtb/core/fen.hpp"
#include "stats/figures.hpp"
#include "tests/stats/stats_fixture.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The men of a diagram as "N@b3" strings, in document order.
std::vector<std::string> men_of(const std::string& svg) {
  const std::regex man(R"re(data-square="([a-h][1-8])" data-piece="([KQRBNPkqrbnp])")re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), man); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[2].str() + "@" + (*it)[1].str());
  return out;
}

}  // namespace

TEST_CASE("a diagram puts each man on its square and marks the side to move", "[stats][figures]") {
  const auto pos = parse_fen("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
  REQUIRE(pos.has_value());
  const std::string svg = stats::board_svg(*pos, "KNk: maxDTS 27, White to move, stalemate in 14");
  CHECK(men_of(svg) == std::vector<std::string>{"k@b1", "K@d1", "N@b3"});
  CHECK(occurrences(svg, "data-side-to-move=\"w\"") == 1);
  CHECK(occurrences(svg, "fill=\"#b58863\"") == 32);  // dark squares
  CHECK(occurrences(svg, "fill=\"#f0d9b5\"") == 32);  // light squares
  CHECK(svg.find("<title>KNk: maxDTS 27, White to move, stalemate in 14</title>") != std::string::npos);
  CHECK(svg.find("href") == std::string::npos);  // self-contained: no linked file or font
}

TEST_CASE("a diagram of Black to move marks Black", "[stats][figures]") {
  const auto pos = parse_fen("8/8/8/8/8/1k6/7P/K7 b - - 0 1");
  REQUIRE(pos.has_value());
  const std::string svg = stats::board_svg(*pos, "a < b & c");
  CHECK(men_of(svg) == std::vector<std::string>{"K@a1", "P@h2", "k@b3"});
  CHECK(occurrences(svg, "data-side-to-move=\"b\"") == 1);
  CHECK(svg.find("a &lt; b &amp; c") != std::string::npos);
}

TEST_CASE("a histogram has one bar per depth with its count", "[stats][figures]") {
  const stats::HistogramSeries wins{"White stalemates (3)", {{1, 139}, {3, 58}, {17, 37}}};
  const stats::HistogramSeries losses{"White is stalemated (1)", {{0, 17}}};
  const std::string svg = stats::histogram_svg("KBk", wins, losses);
  CHECK(occurrences(svg, "data-plies=") == 4);
  CHECK(svg.find(R"(data-plies="17" data-positions="37")") != std::string::npos);
  CHECK(svg.find(R"(data-plies="0" data-positions="17")") != std::string::npos);
  CHECK(svg.find("White is stalemated (1)") != std::string::npos);
}

TEST_CASE("the figures of KBk: its maxDTS diagram and a DTS histogram per side", "[stats][figures]") {
  const stats::TableStatistics t = table_stats("KBk", stats::Convention::Index462);
  std::vector<std::string> names;
  for (const stats::Figure& f : stats::figures(t)) names.push_back(f.file_name);
  CHECK(names == std::vector<std::string>{"KBk-maxdts-w.svg", "KBk-w-dts.svg", "KBk-b-dts.svg"});
  CHECK(men_of(stats::figures(t).front().svg) == std::vector<std::string>{"K@c1", "B@e1", "k@g1"});
}

}  // namespace egtb::test
