#include "tests/pgn/pgn_support.hpp"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "pgn/reader.hpp"

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

const char* const Comments[] = {
    "a plain comment",
    "with } a closing brace",
    "%starts with a percent sign",
    "quotes \" and \\ backslash",
    "UTF-8: Läufer ½ – ∞",
    "a; semicolon",
    "100 % sure %x %y %z %w %v %u %t %s %r %q %p %o %n %m %l %k %j %i %h",
    "two  spaces\nand a line break",
    "a very long comment that goes on and on so that the writer must wrap it over more than one line of "
    "the movetext, word after word, until it ends here",
    ""};

std::string random_comment(Rng& rng) { return Comments[rng.below(std::size(Comments))]; }

// Whitespace collapsed as the reader keeps comments ('}' written as ')').
std::string as_read(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c == '}' ? ')' : c;
  }
  return out;
}

void decorate(Game& game, NodeId n, Rng& rng) {
  if (rng.below(4) == 0) game.node(n).comments.push_back(as_read(random_comment(rng)));
  if (rng.below(5) == 0) game.node(n).nags.push_back(static_cast<uint8_t>(rng.below(256)));
}

// Plays up to `plies` random moves from `from`, adding variations below `depth` 3.
void random_line(Game& game, NodeId from, int plies, int depth, Rng& rng) {
  for (int i = 0; i < plies; ++i) {
    const MoveList moves = legal_moves(game.position(from));
    if (moves.empty()) return;
    const NodeId n = game.add_move(from, moves[rng.below(moves.size())]);
    decorate(game, n, rng);
    if (depth < 3 && moves.size() > 1 && rng.below(6) == 0) {
      const NodeId v = game.add_move(from, moves[rng.below(moves.size())]);
      if (rng.below(3) == 0) game.node(v).starting_comments.push_back(as_read(random_comment(rng)));
      decorate(game, v, rng);
      random_line(game, v, static_cast<int>(rng.below(6)), depth + 1, rng);
    }
    from = n;
  }
}

std::string result_of(const Game& game, Rng& rng) {
  NodeId last = Game::Root;
  for (NodeId n : game.mainline()) last = n;
  const Position& end = game.position(last);
  if (is_checkmate(end)) return end.side_to_move() == Color::White ? "0-1" : "1-0";
  if (is_stalemate(end)) return "1/2-1/2";
  const char* const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  return results[rng.below(4)];
}

}  // namespace

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

Game random_annotated_game(Rng& rng) {
  Game game(*parse_fen(RandomPlayStarts[rng.below(RandomPlayStarts.size())]));
  game.set_tag("Event", "random \"annotated\" game");
  game.set_tag("Annotator", "back\\slash");
  if (rng.below(3) == 0) game.node(Game::Root).comments.push_back(as_read(random_comment(rng)));
  random_line(game, Game::Root, static_cast<int>(rng.below(60)), 0, rng);
  game.result = result_of(game, rng);
  return game;
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
