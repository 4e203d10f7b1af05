#include "egtb/store/line.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

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

// The tables of pos and of the positions its moves lead to that lack a metric of the rules, the
// likely cause of a contradiction: a full KBkp and a KBk built with --metrics dtm disagree at
// kBK5/2p5 (White stalemates by Kxc2 in KBkp, but KBk reads that stalemate as a draw).
std::vector<Material> incomplete_tables_near(const Tablebase& tb, const Position& pos) {
  std::vector<Material> out;
  const auto note = [&](const Position& p) {
    const Material m = Material::from(p).normalized();
    const std::shared_ptr<const Table> table = m.is_bare_kings() ? nullptr : tb.table(m);
    if (table && !table->metrics().contains(all_metrics(tb.rules())) &&
        std::find(out.begin(), out.end(), m) == out.end())
      out.push_back(m);
  };
  note(pos);
  for (Move m : rule_moves(tb.rules(), pos)) note(pos.after(m));
  return out;
}

// The error for tables that contradict each other at pos, naming the tables around it built
// without every metric (the one to rebuild) or else the table of pos.
ProbeError inconsistent(const Tablebase& tb, const Position& pos, std::string message) {
  std::string text = "inconsistent tables at " + to_fen(pos) + ": " + std::move(message);
  const std::vector<Material> incomplete = incomplete_tables_near(tb, pos);
  for (const Material& m : incomplete) text += "; " + tb.incomplete_message(m);
  return ProbeError{ProbeError::Kind::Inconsistent, std::move(text),
                    (incomplete.empty() ? Material::from(pos).normalized() : incomplete.front()).str()};
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
  if (!*best)
    return unexpected(inconsistent(tb, pos, "scored '" + describe(s) + "' but it has no legal move"));
  const MoveValue& step = **best;
  if (step.value() != s.value() || step.score.depth() != s.depth() - 1)
    return unexpected(inconsistent(tb, pos,
                                   "scored '" + describe(s) + "', but its best move " + to_uci(step.move) +
                                       " leaves the opponent '" + describe(step.score) + "', not at depth " +
                                       std::to_string(s.depth() - 1)));
  return step;
}

// Why the end of a line, scored s with depth 0, is not the end of the game its rules promise.
std::optional<ProbeError> check_end(const Tablebase& tb, const Position& pos, Score s) {
  if (rule_moves(tb.rules(), pos).empty() && terminal_score(tb.rules(), pos.in_check()) == s)
    return std::nullopt;
  return inconsistent(tb, pos, "scored '" + describe(s) + "' but the game is not over as that promises");
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
  if (auto problem = check_end(tb, pos, s)) return unexpected(std::move(*problem));
  return line;
}

}  // namespace egtb
