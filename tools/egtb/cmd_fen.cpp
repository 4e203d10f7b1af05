// egtb fen FEN [--json]: validates a FEN, prints it back normalised with the legal moves in SAN.
#include <iostream>

#include "api/json.hpp"
#include "api/position_report.hpp"
#include "egtb/core/fen.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

void print_text(const api::PositionReport& r) {
  std::cout << to_fen(r.position) << "\nstate: " << r.state << "\nmoves (" << r.moves.size() << "):";
  for (const api::MoveText& m : r.moves) std::cout << ' ' << m.san;
  std::cout << '\n';
}

}  // namespace

int cmd_fen(const std::vector<std::string>& args) {
  CommandLine cl("fen",
                 "Check a FEN and print it back normalised (an e.p. square is kept only when an e.p.\n"
                 "capture is legal; missing counters become 0 1), with the legal moves in SAN.");
  cl.positional("FEN", "the position, in quotes (or the word startpos)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const api::PositionReport report = api::describe_position(parse_position(cl.argument("FEN")));
  if (cl.json())
    print_json(api::to_json(cl.argument("FEN"), report));
  else
    print_text(report);
  return ExitSuccess;
}

}  // namespace egtb::cli
