// The PGN writer: the export format byte for byte on a small game, wrapping, round trips (read,
// write, read gives the same tree; writing again gives the same text), and pgn-extract reading
// what egtb writes and counting the games of its own eco.pgn as egtb does.
#include <fstream>
#include <sstream>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "pgn/writer.hpp"
#include "tests/pgn/pgn_support.hpp"
#include "tests/pgn/random_games.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::pgn;

namespace {

const std::string Study =
    "[White \"Composer, A.\"]\n[Event \"Study \\\"Prize\\\"\"]\n[FEN \"8/8/8/8/8/1N6/8/1k1K4 w - - 0 1\"]\n"
    "[SetUp \"1\"]\n[Result \"1/2-1/2\"]\n\n"
    "{A stalemate study} 1. Nc5! {only move} Ka1 (1... Ka2 2. Kc2 {wins}) 2. Kc1 $14 Ka2 3. Kc2 1/2-1/2\n";

const std::string StudyWritten =
    "[Event \"Study \\\"Prize\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
    "[White \"Composer, A.\"]\n[Black \"?\"]\n[Result \"1/2-1/2\"]\n"
    "[FEN \"8/8/8/8/8/1N6/8/1k1K4 w - - 0 1\"]\n[SetUp \"1\"]\n\n"
    "{A stalemate study} 1. Nc5 $1 {only move} 1... Ka1 (1... Ka2 2. Kc2 {wins})\n"
    "2. Kc1 $14 Ka2 3. Kc2 1/2-1/2\n\n";

// Reads `text`, checks that it holds `count` games without errors, writes them; the text read
// back must give the same trees and be written the same.
std::string round_trip(const std::string& text, size_t count) {
  const test::ReadResult first = test::read_text(text);
  REQUIRE(first.errors.empty());
  REQUIRE(first.games.size() == count);
  std::string written;
  for (const Game& g : first.games) written += to_pgn(g);
  const test::ReadResult second = test::read_text(written);
  REQUIRE(second.errors.empty());
  REQUIRE(second.games.size() == count);
  std::string again;
  for (size_t i = 0; i < count; ++i) {
    INFO("game " << i + 1);
    CHECK(test::tree_difference(first.games[i], second.games[i]).empty());
    again += to_pgn(second.games[i]);
  }
  CHECK(again == written);
  return written;
}

size_t longest_line(const std::string& text) {
  size_t longest = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) longest = std::max(longest, line.size());
  return longest;
}

}  // namespace

TEST_CASE("writer: the export format of a study", "[pgn]") {
  CHECK(round_trip(Study, 1) == StudyWritten);
  test::check_with_pgn_extract(StudyWritten, 1, "study.pgn");
}

TEST_CASE("writer: a built game gets the roster, its FEN and SetUp", "[pgn]") {
  Game g(*parse_fen("8/8/8/8/8/2K5/8/k1Q5 b - - 3 40"));
  NodeId n = Game::Root;
  for (const char* san : {"Ka2", "Qc2+", "Ka1", "Qb2#"}) {
    n = g.add_move(n, *parse_san(g.position(n), san));
    if (std::string_view(san) == "Qc2+") g.node(n).comments.push_back("the queen closes } in");
  }
  g.result = "1-0";
  CHECK(to_pgn(g) ==
        "[Event \"?\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"?\"]\n"
        "[Result \"1-0\"]\n[FEN \"8/8/8/8/8/2K5/8/k1Q5 b - - 3 40\"]\n[SetUp \"1\"]\n\n"
        "40... Ka2 41. Qc2+ {the queen closes ) in} 41... Ka1 42. Qb2# 1-0\n\n");
  CHECK(to_pgn(g, {79, false, false, false}).find("{") == std::string::npos);
}

TEST_CASE("writer: lines wrap at 79 columns and never start with '%'", "[pgn]") {
  Game g;
  g.node(Game::Root).comments.push_back(std::string(100, 'w') + " %escape " + std::string(70, 'v') + " %x");
  NodeId n = Game::Root;
  for (int i = 0; i < 10; ++i)
    for (const char* san : {"Nf3", "Nf6", "Ng1", "Ng8"}) n = g.add_move(n, *parse_san(g.position(n), san));
  const std::string text = round_trip(to_pgn(g), 1);
  CHECK(text.find("\n%") == std::string::npos);
  CHECK(text.find("\n {" + std::string(100, 'w')) == std::string::npos);
  std::istringstream in(text.substr(text.find("\n\n") + 2));
  for (std::string line; std::getline(in, line);) {
    INFO(line);
    CHECK((line.size() <= 79 || line.find(' ') == std::string::npos));
  }
  CHECK(longest_line(text) == 101);  // the long word alone on its line
}

TEST_CASE("writer: random games with variations, comments and NAGs round-trip and pgn-extract reads them",
          "[pgn]") {
  test::Rng rng(2024);
  std::string text;
  constexpr size_t Games = 300;
  for (size_t i = 0; i < Games; ++i) text += to_pgn(test::random_annotated_game(rng));
  const std::string written = round_trip(text, Games);
  CHECK(written == text);
  test::check_with_pgn_extract(written, Games, "random.pgn");
}

TEST_CASE("eco.pgn: read without error, as many games as pgn-extract counts, written back readably",
          "[pgn]") {
  const auto eco = test::eco_pgn();
  const auto program = test::pgn_extract();
  if (!eco || !program) {
    WARN("SKIPPED: pgn-extract not installed (apt-get install pgn-extract), so no eco.pgn");
    return;
  }
  std::ifstream in(*eco);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const test::PgnExtractReport original = test::run_pgn_extract(*program, *eco);
  REQUIRE(original.total > 1000);
  const std::string written = round_trip(text, original.total);
  const std::filesystem::path file = test::temp_file("eco.pgn");
  std::ofstream(file) << written;
  const test::PgnExtractReport rewritten = test::run_pgn_extract(*program, file);
  CHECK(rewritten.total == original.total);
  CHECK(rewritten.matched == original.matched);
  // The same warnings (two games of eco.pgn end in mate with the result "*"), nothing else; in
  // the file written each names its game by the roster's tags on the next line.
  std::vector<std::string> warnings;
  for (size_t i = 0; i < rewritten.diagnostics.size(); ++i) {
    warnings.push_back(rewritten.diagnostics[i]);
    if (rewritten.diagnostics[i].starts_with("Warning:")) ++i;
  }
  CHECK(warnings == original.diagnostics);
  std::filesystem::remove(file);
}
