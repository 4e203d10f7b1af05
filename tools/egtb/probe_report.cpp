#include "tools/egtb/probe_report.hpp"

#include <iomanip>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::cli {

namespace {

// "DTM 3" for the mover of a move leading to a child mated in DTM 2; "-" for a draw.
std::string move_depth(Rules rules, const MoveValue& m) {
  if (m.value() == Lasker::Draw) return "-";
  const Metric metric = metric_of(rules, m.value());
  return std::string(metric_name(metric)) + " " + std::to_string(*api::mover_depth(rules, m, metric));
}

void print_moves(std::ostream& out, const api::ProbeReport& r) {
  out << "Moves     "
      << (r.moves.empty() ? "none" : "best first; value and depth for the mover, the move included") << '\n';
  for (const MoveValue& m : r.moves)
    out << "  " << std::left << std::setw(8) << to_san(r.position, m.move) << std::setw(7) << to_uci(m.move)
        << to_index(m.value()) << ' ' << std::setw(11) << api::move_word(r.rules, m.value())
        << move_depth(r.rules, m) << '\n';
}

void print_line(std::ostream& out, const api::ProbeReport& r) {
  if (r.line.empty()) {
    out << "Line      none (" << (r.score.value() == Lasker::Draw ? "a draw" : "the game is over") << ")\n";
    return;
  }
  const Position end = r.final_position();
  out << "Line      " << san_line(r.position, r.line) << '\n';
  out << "Final     " << to_fen(end) << " (" << (end.side_to_move() == Color::White ? "White" : "Black")
      << (is_checkmate(end) ? " is checkmated" : " is stalemated") << ")\n";
}

}  // namespace

void print_report(std::ostream& out, const api::ProbeReport& r) {
  out << "Position  " << to_fen(r.position) << '\n';
  out << "Value     " << to_index(r.score.value()) << ", " << api::value_words(r.rules, r.position, r.score)
      << '\n';
  print_moves(out, r);
  print_line(out, r);
}

}  // namespace egtb::cli
