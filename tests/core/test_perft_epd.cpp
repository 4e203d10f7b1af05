// perft against data/perft.epd, whose counts come from Debian's stockfish, not from this code.
#include <fstream>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

using namespace egtb;

namespace {

// Counts above this many leaves are checked by the [slow] test only.
constexpr uint64_t FastLimit = 3'000'000;

struct PerftCase {
  std::string fen;
  int depth = 0;
  uint64_t nodes = 0;
};

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  const size_t end = s.find_last_not_of(" \t\r");
  return begin == std::string::npos ? std::string() : s.substr(begin, end - begin + 1);
}

// One EPD line "FEN ;D1 n ;D2 n ..." as one case per depth.
std::vector<PerftCase> parse_line(const std::string& line) {
  std::vector<PerftCase> cases;
  size_t semicolon = line.find(';');
  const std::string fen = trim(line.substr(0, semicolon));
  while (semicolon != std::string::npos) {
    const size_t next = line.find(';', semicolon + 1);
    const std::string field = trim(line.substr(semicolon + 1, next - semicolon - 1));
    PerftCase c{fen, 0, 0};
    const size_t blank = field.find(' ');
    REQUIRE(field.size() > 1);
    REQUIRE(field[0] == 'D');
    REQUIRE(blank != std::string::npos);
    c.depth = std::stoi(field.substr(1, blank - 1));
    c.nodes = std::stoull(field.substr(blank + 1));
    cases.push_back(c);
    semicolon = next;
  }
  return cases;
}

// Every case of data/perft.epd; blank lines and lines starting with '#' are skipped.
std::vector<PerftCase> load_cases() {
  std::ifstream in(test::data_dir() / "perft.epd");
  REQUIRE(in.good());
  std::vector<PerftCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    for (const PerftCase& c : parse_line(line)) cases.push_back(c);
  }
  return cases;
}

void check_cases(bool slow) {
  size_t checked = 0;
  for (const PerftCase& c : load_cases()) {
    if ((c.nodes > FastLimit) != slow) continue;
    const auto pos = parse_fen(c.fen);
    INFO(c.fen << " depth " << c.depth);
    REQUIRE(pos.has_value());
    CHECK(perft(*pos, c.depth) == c.nodes);
    ++checked;
  }
  CHECK(checked > 0);
}

}  // namespace

TEST_CASE("perft of data/perft.epd (endgames, e.p., promotions, stalemate)", "[perft]") {
  check_cases(false);
}

TEST_CASE("perft of data/perft.epd, deep counts", "[perft][slow]") { check_cases(true); }
