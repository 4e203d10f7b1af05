#include "stats/line.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::stats {

namespace {

Score probe_or_throw(const Tablebase& tablebase, const Position& pos) {
  const auto score = tablebase.probe(pos);
  if (!score) throw std::runtime_error("optimal line through " + to_fen(pos) + ": " + score.error().message);
  return *score;
}

// The legal moves of pos, sorted by their UCI text.
std::vector<Move> moves_in_uci_order(const Position& pos) {
  const MoveList list = legal_moves(pos);
  std::vector<Move> moves(list.begin(), list.end());
  std::sort(moves.begin(), moves.end(), [](Move a, Move b) { return to_uci(a) < to_uci(b); });
  return moves;
}

// The first move, in UCI order, to a child of score `target`.
std::optional<Move> move_to(const Tablebase& tablebase, const Position& pos, Score target) {
  for (Move m : moves_in_uci_order(pos))
    if (probe_or_throw(tablebase, pos.after(m)) == target) return m;
  return std::nullopt;
}

}  // namespace

std::vector<Move> optimal_line(const Tablebase& tablebase, const Position& pos) {
  std::vector<Move> line;
  Position current = pos;
  for (Score s = probe_or_throw(tablebase, current); s.value() != Lasker::Draw && s.depth() > 0;) {
    const Score next(negate(s.value()), s.depth() - 1);
    const std::optional<Move> m = move_to(tablebase, current, next);
    if (!m) throw std::runtime_error("optimal line: no move of " + to_fen(current) + " reaches " + describe(next));
    line.push_back(*m);
    current.do_move(*m);
    s = next;
  }
  return line;
}

}  // namespace egtb::stats
