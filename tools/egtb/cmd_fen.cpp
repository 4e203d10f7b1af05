// egtb fen FEN [--json]: validates a FEN, prints it back normalised with the legal moves in SAN.
#include <algorithm>
#include <iostream>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct MoveText {
  std::string san;
  std::string uci;
};

// The legal moves sorted by their SAN.
std::vector<MoveText> move_texts(const Position& pos) {
  std::vector<MoveText> moves;
  for (Move m : legal_moves(pos)) moves.push_back({to_san(pos, m), to_uci(m)});
  std::sort(moves.begin(), moves.end(), [](const auto& a, const auto& b) { return a.san < b.san; });
  return moves;
}

std::string state_of(const Position& pos) {
  if (is_checkmate(pos)) return "checkmate";
  if (is_stalemate(pos)) return "stalemate";
  return pos.in_check() ? "check" : "normal";
}

void print_text(const Position& pos, const std::vector<MoveText>& moves) {
  std::cout << to_fen(pos) << "\nstate: " << state_of(pos) << "\nmoves (" << moves.size() << "):";
  for (const MoveText& m : moves) std::cout << ' ' << m.san;
  std::cout << '\n';
}

Json to_json(const std::string& input, const Position& pos, const std::vector<MoveText>& moves) {
  Json list = Json::array();
  for (const MoveText& m : moves) list.push_back({{"san", m.san}, {"uci", m.uci}});
  return {{"input", input},
          {"fen", to_fen(pos)},
          {"side_to_move", pos.side_to_move() == Color::White ? "white" : "black"},
          {"state", state_of(pos)},
          {"moves", list}};
}

}  // namespace

int cmd_fen(const std::vector<std::string>& args) {
  CommandLine cl("fen",
                 "Check a FEN and print it back normalised (an e.p. square is kept only when an e.p.\n"
                 "capture is legal; missing counters become 0 1), with the legal moves in SAN.");
  cl.positional("FEN", "the position, in quotes (or the word startpos)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  Position pos = parse_position(cl.argument("FEN"));
  pos.normalize_ep_square();
  const auto moves = move_texts(pos);
  if (cl.json())
    print_json(to_json(cl.argument("FEN"), pos, moves));
  else
    print_text(pos, moves);
  return ExitSuccess;
}

}  // namespace egtb::cli
