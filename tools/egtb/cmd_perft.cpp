// egtb perft FEN DEPTH [--divide] [--json]: the leaf count of the legal move tree.
#include <algorithm>
#include <iostream>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct DivideLine {
  std::string move;
  uint64_t nodes = 0;
};

// The per-move counts keyed by UCI text, sorted by it.
std::vector<DivideLine> divide_lines(const Position& pos, int depth) {
  std::vector<DivideLine> lines;
  for (const PerftEntry& e : perft_divide(pos, depth)) lines.push_back({to_uci(e.move), e.nodes});
  std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.move < b.move; });
  return lines;
}

uint64_t sum_nodes(const std::vector<DivideLine>& lines) {
  uint64_t nodes = 0;
  for (const DivideLine& l : lines) nodes += l.nodes;
  return nodes;
}

void print_text(const std::vector<DivideLine>& lines, uint64_t nodes) {
  for (const DivideLine& l : lines) std::cout << l.move << ": " << l.nodes << '\n';
  std::cout << "nodes " << nodes << '\n';
}

Json to_json(const Position& pos, int depth, uint64_t nodes, const std::vector<DivideLine>* lines) {
  Json out = {{"fen", to_fen(pos)}, {"depth", depth}, {"nodes", nodes}};
  if (lines == nullptr) return out;
  Json divide = Json::object();
  for (const DivideLine& l : *lines) divide[l.move] = l.nodes;
  out["divide"] = divide;
  return out;
}

}  // namespace

int cmd_perft(const std::vector<std::string>& args) {
  CommandLine cl("perft", "Count the leaf nodes of the legal move tree of a position to a given depth.");
  cl.positional("FEN", "the position, in quotes (or the word startpos)")
      .positional("DEPTH", "the depth in plies, 0 to 20");
  cl.options()("divide", "also print the leaf count below each legal move");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const Position pos = parse_position(cl.argument("FEN"));
  const int depth = parse_int(cl.argument("DEPTH"), "DEPTH", 0, 20);
  const bool divide = cl.flag("divide");
  const auto lines = divide ? divide_lines(pos, depth) : std::vector<DivideLine>{};
  const uint64_t nodes = divide && depth > 0 ? sum_nodes(lines) : perft(pos, depth);
  if (cl.json())
    print_json(to_json(pos, depth, nodes, divide ? &lines : nullptr));
  else
    print_text(lines, nodes);
  return ExitSuccess;
}

}  // namespace egtb::cli
