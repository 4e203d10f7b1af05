#include "tests/pgn/pgn_support.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "pgn/reader.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

namespace {

using pgn::Game;
using pgn::NodeId;

std::string node_difference(const Game& a, NodeId x, const Game& b, NodeId y) {
  const pgn::Node& n = a.node(x);
  const pgn::Node& m = b.node(y);
  const std::string at = "after " + to_fen(n.position) + ": ";
  if (n.move != m.move || !n.position.same_position(m.position)) return at + "different moves";
  if (n.nags != m.nags) return at + "different NAGs";
  if (n.comments != m.comments) return at + "different comments";
  if (n.starting_comments != m.starting_comments) return at + "different starting comments";
  NodeId c = n.first_child, d = m.first_child;
  for (; c != pgn::NoNode && d != pgn::NoNode; c = a.node(c).next_sibling, d = b.node(d).next_sibling)
    if (std::string why = node_difference(a, c, b, d); !why.empty()) return why;
  if (c != d) return at + "different numbers of variations";
  return {};
}

bool added_by_writer(const pgn::Tag& t, const Game& other) {
  if (t.name == "FEN" || t.name == "SetUp") return !other.find_tag("FEN");
  if (t.name == "Date") return t.value == "????.??.??";
  if (t.name == "Result") return t.value == other.result;
  for (std::string_view r : pgn::SevenTagRoster)
    if (r == t.name) return t.value == "?";
  return false;
}

std::string tags_difference(const Game& a, const Game& b) {
  for (const pgn::Tag& t : a.tags)
    if (b.tag(t.name) != std::optional<std::string_view>(t.value) && !added_by_writer(t, b))
      return "tag " + t.name + " differs";
  return {};
}

}  // namespace

void check_with_pgn_extract(const std::string& text, uint64_t count, const std::string& name) {
  const auto program = pgn_extract();
  if (!program) {
    WARN("SKIPPED: pgn-extract not installed (apt-get install pgn-extract)");
    return;
  }
  const std::filesystem::path file = temp_file(name);
  std::ofstream(file) << text;
  const PgnExtractReport report = run_pgn_extract(*program, file);
  INFO(file.string());
  for (const std::string& d : report.diagnostics) UNSCOPED_INFO(d);
  CHECK(report.diagnostics.empty());
  CHECK(report.matched == count);
  CHECK(report.total == count);
  std::filesystem::remove(file);
}

ReadResult read_text(std::string_view text) {
  std::istringstream in{std::string(text)};
  pgn::GameReader reader(in);
  ReadResult out;
  while (auto game = reader.next()) {
    if (*game)
      out.games.push_back(std::move(**game));
    else
      out.errors.push_back(game->error());
  }
  return out;
}

std::string tree_difference(const Game& a, const Game& b) {
  if (to_fen(a.start()) != to_fen(b.start())) return "different start positions";
  if (a.result != b.result) return "different results";
  if (std::string why = tags_difference(a, b); !why.empty()) return why;
  if (std::string why = tags_difference(b, a); !why.empty()) return why;
  return node_difference(a, Game::Root, b, Game::Root);
}

std::optional<std::filesystem::path> pgn_extract() {
  if (const char* env = std::getenv("EGTB_PGN_EXTRACT")) return std::filesystem::path(env);
  if (std::filesystem::exists("/usr/games/pgn-extract")) return "/usr/games/pgn-extract";
  if (std::system("command -v pgn-extract > /dev/null 2>&1") == 0) return "pgn-extract";
  return std::nullopt;
}

namespace {

// The lines pgn-extract writes on standard error.
std::vector<std::string> pgn_extract_lines(const std::string& arguments) {
  const std::filesystem::path report_file = temp_file("pgn-extract-report.txt");
  const std::string command = arguments + " > /dev/null 2> '" + report_file.string() + "'";
  std::vector<std::string> lines;
  if (std::system(command.c_str()) != 0) return {"pgn-extract failed: " + command};
  std::ifstream in(report_file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::filesystem::remove(report_file);
  return lines;
}

}  // namespace

PgnExtractReport run_pgn_extract(const std::filesystem::path& program, const std::filesystem::path& file) {
  const std::string arguments = "'" + program.string() + "' -r '" + file.string() + "'";
  PgnExtractReport report;
  // --quiet: only what is wrong; without it, the count of games at the end.
  const std::regex location(R"(File .*: Line number: \d+)");
  for (const std::string& line : pgn_extract_lines(arguments + " --quiet"))
    if (!line.empty() && !std::regex_match(line, location)) report.diagnostics.push_back(line);
  const std::regex summary(R"((\d+) games? matched out of (\d+)\.)");
  for (const std::string& line : pgn_extract_lines(arguments)) {
    std::smatch m;
    if (std::regex_search(line, m, summary)) {
      report.matched = std::stoull(m[1]);
      report.total = std::stoull(m[2]);
    }
  }
  return report;
}

std::optional<std::filesystem::path> eco_pgn() {
  std::filesystem::path path = "/usr/share/pgn-extract/eco.pgn";
  if (const char* env = std::getenv("EGTB_ECO_PGN")) path = env;
  if (!std::filesystem::exists(path)) return std::nullopt;
  return path;
}

std::filesystem::path temp_file(std::string_view name) {
  return std::filesystem::temp_directory_path() /
         ("egtb-" + std::to_string(getpid()) + "-" + std::string(name));
}

}  // namespace egtb::test
