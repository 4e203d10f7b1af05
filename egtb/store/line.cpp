#include "egtb/store/line.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb {

namespace {

// A number that sorts moves as their UCI text sorts: origin, destination (file, then rank), then
// no promotion before b, n, q, r.
uint32_t uci_key(Move m) {
  const auto square_key = [](Square s) { return static_cast<uint32_t>(file_of(s) * 8 + rank_of(s)); };
  uint32_t promotion = 0;
  if (m.kind() == MoveKind::Promotion) {
    switch (m.promotion()) {
      case PieceType::Bishop: promotion = 1; break;
      case PieceType::Knight: promotion = 2; break;
      case PieceType::Queen: promotion = 3; break;
      default: promotion = 4; break;
    }
  }
  return square_key(m.from()) << 9 | square_key(m.to()) << 3 | promotion;
}

ProbeError inconsistent(const Position& pos, std::string message) {
  return ProbeError{ProbeError::Kind::Inconsistent,
                    "inconsistent tables at " + to_fen(pos) + ": " + std::move(message),
                    Material::from(pos).normalized().str()};
}

// The best move of pos and its score, or nothing when pos has no move.
Expected<std::optional<MoveValue>, ProbeError> best_move(const Tablebase& tb, const Position& pos) {
  std::optional<MoveValue> best;
  for (Move m : rule_moves(tb.rules(), pos)) {
    const auto score = tb.probe(pos.after(m));
    if (!score) return unexpected(score.error());
    const MoveValue candidate{m, *score};
    if (!best || better_move(candidate, *best)) best = candidate;
  }
  return best;
}

// The next move of the line from pos, scored s with a positive depth: it must keep the value and
// lead to depth s.depth() - 1.
Expected<MoveValue, ProbeError> next_step(const Tablebase& tb, const Position& pos, Score s) {
  auto best = best_move(tb, pos);
  if (!best) return unexpected(best.error());
  if (!*best) return unexpected(inconsistent(pos, "scored '" + describe(s) + "' but it has no legal move"));
  const MoveValue& step = **best;
  if (step.value() != s.value() || step.score.depth() != s.depth() - 1)
    return unexpected(inconsistent(pos, "scored '" + describe(s) + "', but after its best move " +
                                            to_uci(step.move) + " the opponent " + describe(step.score) +
                                            ", not at depth " + std::to_string(s.depth() - 1)));
  return step;
}

// Why the end of a line, scored s with depth 0, is not the end of the game its rules promise.
std::optional<ProbeError> check_end(Rules rules, const Position& pos, Score s) {
  if (rule_moves(rules, pos).empty() && terminal_score(rules, pos.in_check()) == s) return std::nullopt;
  return inconsistent(pos, "scored '" + describe(s) + "' but the game is not over as that promises");
}

}  // namespace

MoveList rule_moves(Rules rules, const Position& pos) {
  MoveList moves = legal_moves(pos);
  if (moves.empty() && !pos.in_check() && stalemate_passes(rules)) moves.push_back(Move());
  return moves;
}

bool better_move(const MoveValue& a, const MoveValue& b) {
  if (a.value() != b.value()) return to_index(a.value()) > to_index(b.value());
  if (a.score.depth() != b.score.depth()) return is_win(a.value()) == (a.score.depth() < b.score.depth());
  return uci_key(a.move) < uci_key(b.move);
}

Expected<std::vector<MoveValue>, ProbeError> move_values(const Tablebase& tb, const Position& pos) {
  if (const auto own = tb.probe(pos); !own) return unexpected(own.error());
  const MoveList moves = rule_moves(tb.rules(), pos);
  std::vector<MoveValue> out;
  out.reserve(moves.size());
  for (Move m : moves) {
    const auto score = tb.probe(pos.after(m));
    if (!score) return unexpected(score.error());
    out.push_back({m, *score});
  }
  std::sort(out.begin(), out.end(), better_move);
  return out;
}

Expected<std::vector<Move>, ProbeError> optimal_line(const Tablebase& tb, const Position& start) {
  const auto score = tb.probe(start);
  if (!score) return unexpected(score.error());
  std::vector<Move> line;
  if (score->value() == Lasker::Draw) return line;
  Position pos = start;
  Score s = *score;
  line.reserve(static_cast<size_t>(s.depth()));
  while (s.depth() > 0) {
    const auto step = next_step(tb, pos, s);
    if (!step) return unexpected(step.error());
    line.push_back(step->move);
    pos.do_move(step->move);
    s = step->score;
  }
  if (auto problem = check_end(tb.rules(), pos, s)) return unexpected(std::move(*problem));
  return line;
}

}  // namespace egtb
