#include "api/probe.hpp"

#include <stdexcept>

#include "api/errors.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::api {

namespace {

std::string plies(int n) { return std::to_string(n) + (n == 1 ? " ply" : " plies"); }
std::string moves(int n) { return std::to_string(n) + (n == 1 ? " move" : " moves"); }

// Throws InputError unless `directory` is a directory.
void check_table_directory(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    throw InputError(
        "no table directory " + directory.string() +
        (std::filesystem::exists(directory, ec) ? " (it is not a directory)" : " (it does not exist)"));
}

}  // namespace

Position ProbeReport::final_position() const {
  Position end = position;
  for (Move m : line) end.do_move(m);
  return end;
}

std::unique_ptr<Tablebase> open_tablebase(const std::filesystem::path& directory,
                                          const TablebaseOptions& options) {
  check_table_directory(directory);
  return std::make_unique<Tablebase>(directory, options);
}

void add_directory(Tablebase& tablebase, const std::filesystem::path& directory) {
  check_table_directory(directory);
  tablebase.add_directory(directory);
}

Expected<ProbeReport, ProbeError> probe(const Tablebase& tb, Position pos, ProbeDetail detail) {
  pos.normalize_ep_square();
  if (detail == ProbeDetail::ValueFile) {
    const auto value = tb.probe_value(pos);
    if (!value) return unexpected(value.error());
    return ProbeReport{pos, tb.rules(), Score(*value, 0), {}, {}};
  }
  const auto score = tb.probe(pos);
  if (!score) return unexpected(score.error());
  ProbeReport report{pos, tb.rules(), *score, {}, {}};
  if (detail == ProbeDetail::Value) return report;
  auto moves = move_values(tb, pos);
  if (!moves) return unexpected(moves.error());
  report.moves = std::move(*moves);
  if (detail == ProbeDetail::Moves) return report;
  auto line = optimal_line(tb, pos);
  if (!line) return unexpected(line.error());
  report.line = std::move(*line);
  return report;
}

void raise(const ProbeError& e) {
  switch (e.kind) {
    case ProbeError::Kind::Castling:
    case ProbeError::Kind::TooManyMen:
    case ProbeError::Kind::InvalidPosition: throw InputError(e.message);
    case ProbeError::Kind::MissingTable:
    case ProbeError::Kind::MissingMetric: throw MissingTableError(e.message, e.table);
    case ProbeError::Kind::Inconsistent: break;
  }
  throw std::runtime_error(e.message);
}

ProbeReport probe_or_throw(const Tablebase& tb, Position pos, ProbeDetail detail) {
  auto report = probe(tb, pos, detail);
  if (!report) raise(report.error());
  return std::move(*report);
}

StalemateReport probe_stalemate_or_throw(const Tablebase& tb, Position pos) {
  pos.normalize_ep_square();
  const auto score = tb.probe_stalemate(pos);
  if (!score) raise(score.error());
  return {pos, *score};
}

std::string stalemate_words(const StalemateReport& r) {
  if (r.score.value() != Lasker::Draw) return value_words(Rules::Lasker, r.position, r.score);
  return "Not a stalemate win or loss (a mate, a draw or a loss to mate: stalemate-only tables do not tell)";
}

std::string value_words(Rules rules, const Position& pos, Score s) {
  const std::string side = pos.side_to_move() == Color::White ? "White to move" : "Black to move";
  const int d = s.depth();
  const Lasker v = s.value();
  if (v == Lasker::Draw) return "Draw";
  if (d == 0) return side + (pos.in_check() ? " is checkmated" : " is stalemated");
  const Metric m = metric_of(rules, v);
  const std::string depth = std::string(metric_name(m)) + " " + plies(d);
  const int moves_left = is_win(v) ? (d + 1) / 2 : d / 2;
  if (!five_valued(rules))
    return side + (is_win(v) ? " wins: " : " loses: ") + depth + ", " + std::string(metric_end(m)) + " in " +
           std::to_string(moves_left);
  if (v == Lasker::Mates) return side + " forces mate: " + depth + ", mate in " + std::to_string(moves_left);
  if (v == Lasker::Stalemates) return side + " forces stalemate: " + depth + ", " + moves(moves_left);
  if (v == Lasker::Stalemated) return side + " is stalemated: " + depth + ", " + moves(moves_left);
  return side + " is mated: " + depth + ", mate in " + std::to_string(moves_left);
}

std::optional<int> mover_depth(Rules rules, const MoveValue& m, Metric metric) {
  const std::optional<int> after = depth_in(rules, m.score, metric);
  if (!after) return std::nullopt;
  return *after + 1;
}

std::string implied_result(Rules rules, Score s, Color stm) {
  if (s.value() == Lasker::Draw || metric_of(rules, s.value()) == Metric::Dts) return "1/2-1/2";
  return is_win(s.value()) == (stm == Color::White) ? "1-0" : "0-1";
}

std::string_view move_word(Rules rules, Lasker v) {
  if (!five_valued(rules)) return category(rules, v);
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
