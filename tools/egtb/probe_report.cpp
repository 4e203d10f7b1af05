#include "tools/egtb/probe_report.hpp"

#include <iomanip>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::cli {

namespace {

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }
std::string moves(int n) { return std::to_string(n) + (n == 1 ? " move" : " moves"); }

// The value of a move for its mover, in one word.
const char* move_word(Lasker v) {
  switch (v) {
    case Lasker::Mates: return "mate";
    case Lasker::Stalemates: return "stalemate";
    case Lasker::Draw: return "draw";
    case Lasker::Stalemated: return "stalemated";
    case Lasker::Mated: return "mated";
  }
  return "?";
}

// "DTM 3" for the mover of a move leading to a child mated in DTM 2; "-" for a draw.
std::string move_depth(const MoveValue& m) {
  if (m.value() == Lasker::Draw) return "-";
  return std::string(is_mate_value(m.value()) ? "DTM " : "DTS ") + std::to_string(m.score.depth() + 1);
}

// "1. Kb6 Kb8 2. Qd8#", or "1... Kb8 2. Kb6" when Black moves first; numbered from the FEN's move
// number. `pos` ends as the last position of the line.
std::string numbered_san(Position& pos, const std::vector<Move>& line) {
  std::string text;
  for (size_t i = 0; i < line.size(); ++i) {
    const bool white = pos.side_to_move() == Color::White;
    if (white || i == 0) {
      if (i > 0) text += ' ';
      text += std::to_string(pos.fullmove_number()) + (white ? ". " : "... ");
    } else {
      text += ' ';
    }
    text += to_san(pos, line[i]);
    pos.do_move(line[i]);
  }
  return text;
}

void print_moves(std::ostream& out, const ProbeReport& r) {
  out << "Moves     "
      << (r.moves.empty() ? "none" : "best first; value and depth for the mover, the move included") << '\n';
  for (const MoveValue& m : r.moves)
    out << "  " << std::left << std::setw(8) << to_san(r.position, m.move) << std::setw(7) << to_uci(m.move)
        << to_index(m.value()) << ' ' << std::setw(11) << move_word(m.value()) << move_depth(m) << '\n';
}

void print_line(std::ostream& out, const ProbeReport& r) {
  if (r.line.empty()) {
    out << "Line      none (" << (r.score.value() == Lasker::Draw ? "a draw" : "the game is over") << ")\n";
    return;
  }
  Position end = r.position;
  out << "Line      " << numbered_san(end, r.line) << '\n';
  out << "Final     " << to_fen(end) << " (" << (end.side_to_move() == Color::White ? "White" : "Black")
      << (is_checkmate(end) ? " is checkmated" : " is stalemated") << ")\n";
}

Json depth_or_null(bool present, int depth) { return present ? Json(depth) : Json(nullptr); }

// "lasker", "dtm" and "dts" of a score, added to `object`.
void add_score(Json& object, Score s) {
  const Lasker v = s.value();
  object["lasker"] = to_index(v);
  object["dtm"] = depth_or_null(is_mate_value(v), s.depth());
  object["dts"] = depth_or_null(v == Lasker::Stalemates || v == Lasker::Stalemated, s.depth());
}

}  // namespace

Expected<ProbeReport, ProbeError> make_report(const Tablebase& tb, Position pos, bool value_only) {
  pos.normalize_ep_square();
  const auto score = tb.probe(pos);
  if (!score) return unexpected(score.error());
  ProbeReport report{pos, *score, {}, {}};
  if (value_only) return report;
  auto moves = move_values(tb, pos);
  if (!moves) return unexpected(moves.error());
  auto line = optimal_line(tb, pos);
  if (!line) return unexpected(line.error());
  report.moves = std::move(*moves);
  report.line = std::move(*line);
  return report;
}

std::string value_words(Color stm, Score s) {
  const std::string side = stm == Color::White ? "White to move" : "Black to move";
  const int d = s.depth();
  switch (s.value()) {
    case Lasker::Mates:
      return side + " forces mate: DTM " + plies(d) + ", mate in " + std::to_string((d + 1) / 2);
    case Lasker::Stalemates: return side + " forces stalemate: DTS " + plies(d) + ", " + moves((d + 1) / 2);
    case Lasker::Draw: return "Draw";
    case Lasker::Stalemated:
      return d == 0 ? side + " is stalemated"
                    : side + " is stalemated: DTS " + plies(d) + ", " + moves(d / 2);
    case Lasker::Mated:
      return d == 0 ? side + " is checkmated"
                    : side + " is mated: DTM " + plies(d) + ", mate in " + std::to_string(d / 2);
  }
  return "?";
}

void print_report(std::ostream& out, const ProbeReport& r) {
  out << "Position  " << to_fen(r.position) << '\n';
  out << "Value     " << to_index(r.score.value()) << ", " << value_words(r.position.side_to_move(), r.score)
      << '\n';
  print_moves(out, r);
  print_line(out, r);
}

Json report_json(const ProbeReport& r, bool value_only) {
  Json out = {{"fen", to_fen(r.position)}};
  add_score(out, r.score);
  if (value_only) return out;
  Json moves = Json::array();
  for (const MoveValue& m : r.moves) {
    Json move = {{"uci", to_uci(m.move)}, {"san", to_san(r.position, m.move)}};
    add_score(move, m.score);
    moves.push_back(std::move(move));
  }
  Json pv = Json::array();
  for (Move m : r.line) pv.push_back(to_uci(m));
  out["moves"] = std::move(moves);
  out["pv"] = std::move(pv);
  return out;
}

}  // namespace egtb::cli
