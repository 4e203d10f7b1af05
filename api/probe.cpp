#include "api/probe.hpp"

#include <stdexcept>

#include "api/errors.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::api {

namespace {

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }
std::string moves(int n) { return std::to_string(n) + (n == 1 ? " move" : " moves"); }

}  // namespace

Position ProbeReport::final_position() const {
  Position end = position;
  for (Move m : line) end.do_move(m);
  return end;
}

Expected<ProbeReport, ProbeError> probe(const Tablebase& tb, Position pos, ProbeDetail detail) {
  pos.normalize_ep_square();
  const auto score = tb.probe(pos);
  if (!score) return unexpected(score.error());
  ProbeReport report{pos, tb.rules(), *score, {}, {}};
  if (detail == ProbeDetail::Value) return report;
  auto moves = move_values(tb, pos);
  if (!moves) return unexpected(moves.error());
  auto line = optimal_line(tb, pos);
  if (!line) return unexpected(line.error());
  report.moves = std::move(*moves);
  report.line = std::move(*line);
  return report;
}

void raise(const ProbeError& e) {
  switch (e.kind) {
    case ProbeError::Kind::Castling:
    case ProbeError::Kind::TooManyMen:
    case ProbeError::Kind::InvalidPosition: throw InputError(e.message);
    case ProbeError::Kind::MissingTable: throw MissingTableError(e.message, e.table);
    case ProbeError::Kind::Inconsistent: break;
  }
  throw std::runtime_error(e.message);
}

ProbeReport probe_or_throw(const Tablebase& tb, Position pos, ProbeDetail detail) {
  auto report = probe(tb, pos, detail);
  if (!report) raise(report.error());
  return std::move(*report);
}

std::string value_words([[maybe_unused]] Rules rules, Color stm, Score s) {
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

std::string implied_result(Rules rules, Score s, Color stm) {
  if (s.value() == Lasker::Draw || metric_of(rules, s.value()) != Metric::Dtm) return "1/2-1/2";
  return (s.value() == Lasker::Mates) == (stm == Color::White) ? "1-0" : "0-1";
}

std::string_view move_word([[maybe_unused]] Rules rules, Lasker v) {
  switch (v) {
    case Lasker::Mates: return "mate";
    case Lasker::Stalemates: return "stalemate";
    case Lasker::Draw: return "draw";
    case Lasker::Stalemated: return "stalemated";
    case Lasker::Mated: return "mated";
  }
  return "?";
}

}  // namespace egtb::api
