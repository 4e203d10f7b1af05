#include "api/position_report.hpp"

#include <algorithm>

#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::api {

namespace {

std::string state_of(const Position& pos) {
  if (is_checkmate(pos)) return "checkmate";
  if (is_stalemate(pos)) return "stalemate";
  return pos.in_check() ? "check" : "normal";
}

}  // namespace

PositionReport describe_position(Position position) {
  position.normalize_ep_square();
  PositionReport report{position, state_of(position), {}};
  for (Move m : legal_moves(position)) report.moves.push_back({to_san(position, m), to_uci(m)});
  std::sort(report.moves.begin(), report.moves.end(),
            [](const auto& a, const auto& b) { return a.san < b.san; });
  return report;
}

PerftReport count_leaves(const Position& position, int depth, bool divide) {
  PerftReport report{position, depth, 0, std::nullopt};
  if (!divide) {
    report.nodes = perft(position, depth);
    return report;
  }
  std::vector<PerftLine> lines;
  for (const PerftEntry& e : perft_divide(position, depth)) lines.push_back({to_uci(e.move), e.nodes});
  std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.move < b.move; });
  if (depth > 0)
    for (const PerftLine& l : lines) report.nodes += l.nodes;
  else
    report.nodes = perft(position, depth);
  report.divide = std::move(lines);
  return report;
}

}  // namespace egtb::api
