// Agreement with Debian's stockfish: perft divide, move by move, on positions reached by random
// play. Stockfish reads a script of `position fen ...` / `go perft N` commands from a file and
// its output is parsed back. Without stockfish the tests warn and pass (CI installs it).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "tests/core/random_play.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

namespace fs = std::filesystem;

// Leaf counts by move in UCI.
using Divide = std::map<std::string, uint64_t>;

// $EGTB_STOCKFISH, else Debian's /usr/games/stockfish, else `stockfish` on the PATH.
std::optional<fs::path> find_stockfish() {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("EGTB_STOCKFISH")) {
    candidates.push_back(env);
  } else {
    candidates.push_back("/usr/games/stockfish");
    std::istringstream path(std::getenv("PATH") ? std::getenv("PATH") : "");
    for (std::string dir; std::getline(path, dir, ':');) candidates.push_back(fs::path(dir) / "stockfish");
  }
  for (const fs::path& p : candidates)
    if (fs::is_regular_file(p) && access(p.c_str(), X_OK) == 0) return p;
  return std::nullopt;
}

// Runs stockfish on a script of UCI commands and returns everything it printed.
std::string run_stockfish(const fs::path& exe, const std::string& script) {
  const fs::path input = fs::temp_directory_path() / ("egtb-stockfish-" + std::to_string(getpid()) + ".txt");
  std::ofstream(input) << script << "quit\n";
  const std::string command = "'" + exe.string() + "' < '" + input.string() + "'";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  while (const size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  fs::remove(input);
  REQUIRE(status == 0);
  return output;
}

// The divides of stockfish's `go perft` answers, in order. Each answer is a list of lines
// "e2e4: 20" closed by "Nodes searched: N", which must equal the sum of the list.
std::vector<Divide> parse_divides(const std::string& output) {
  std::vector<Divide> divides;
  Divide current;
  uint64_t sum = 0;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    const size_t colon = line.find(": ");
    if (line.rfind("Nodes searched: ", 0) == 0) {
      CHECK(std::stoull(line.substr(16)) == sum);
      divides.push_back(current);
      current.clear();
      sum = 0;
    } else if (colon == 4 || colon == 5) {
      const uint64_t nodes = std::stoull(line.substr(colon + 2));
      current[line.substr(0, colon)] = nodes;
      sum += nodes;
    }
  }
  return divides;
}

Divide our_divide(const Position& pos, int depth) {
  Divide d;
  for (const PerftEntry& e : perft_divide(pos, depth)) d[to_uci(e.move)] = e.nodes;
  return d;
}

// The moves whose counts differ, e.g. "e5d6: egtb 12, stockfish -; ".
std::string differences(const Divide& ours, const Divide& theirs) {
  std::string out;
  auto count = [](const Divide& d, const std::string& m) {
    const auto it = d.find(m);
    return it == d.end() ? std::string("-") : std::to_string(it->second);
  };
  Divide all = ours;
  all.insert(theirs.begin(), theirs.end());
  for (const auto& [move, nodes] : all)
    if (count(ours, move) != count(theirs, move))
      out += move + ": egtb " + count(ours, move) + ", stockfish " + count(theirs, move) + "; ";
  return out;
}

void compare_with_stockfish(const std::vector<Position>& positions, int depth) {
  const auto stockfish = find_stockfish();
  if (!stockfish) {
    WARN("SKIPPED: stockfish not found (apt-get install stockfish, or set EGTB_STOCKFISH)");
    return;
  }
  std::string script;
  for (const Position& pos : positions)
    script += "position fen " + to_fen(pos) + "\ngo perft " + std::to_string(depth) + "\n";
  const std::vector<Divide> theirs = parse_divides(run_stockfish(*stockfish, script));
  REQUIRE(theirs.size() == positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    INFO(to_fen(positions[i]) << " depth " << depth);
    CHECK(differences(our_divide(positions[i], depth), theirs[i]).empty());
  }
}

}  // namespace

TEST_CASE("perft divide agrees with stockfish on random positions", "[stockfish]") {
  compare_with_stockfish(test::random_positions(2024, 300, 120), 3);
}

TEST_CASE("perft divide agrees with stockfish on random endgame positions", "[stockfish]") {
  std::vector<Position> endgames;
  for (const Position& pos : test::random_positions(99, 2000, 200))
    if (popcount(pos.pieces()) <= 7 && endgames.size() < 200) endgames.push_back(pos);
  CHECK(endgames.size() > 50);
  compare_with_stockfish(endgames, 4);
}

TEST_CASE("perft divide agrees with stockfish on many random positions", "[stockfish][slow]") {
  compare_with_stockfish(test::random_positions(4242, 2000, 160), 4);
}
