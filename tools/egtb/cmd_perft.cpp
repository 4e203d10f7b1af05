// egtb perft FEN DEPTH [--divide] [--json]: the leaf count of the legal move tree.
#include <iostream>

#include "api/json.hpp"
#include "api/position_report.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

void print_text(const api::PerftReport& r) {
  if (r.divide)
    for (const api::PerftLine& l : *r.divide) std::cout << l.move << ": " << l.nodes << '\n';
  std::cout << "nodes " << r.nodes << '\n';
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
  const api::PerftReport report = api::count_leaves(pos, depth, cl.flag("divide"));
  if (cl.json())
    print_json(api::to_json(report));
  else
    print_text(report);
  return ExitSuccess;
}

}  // namespace egtb::cli
