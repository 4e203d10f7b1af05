#include "query/tablebase_context.hpp"

#include <algorithm>
#include <utility>

#include "egtb/core/movegen.hpp"
#include "egtb/store/reader.hpp"

namespace egtb::query {

namespace {

// An exact key of a position of up to 7 men: the occupied squares, then the men in square
// order (4 bits each: piece numbers, White's 1-6, Black's 9-14), 1 bit for the side to move (1
// Black) and 7 for the e.p. square (64 none). Kc1, Pc2 against Ka1, White to move: the squares
// a1, c1, c2 give 0x405, the men k, K, P 0xE61, so the key is {0x405, 0xE6140}.
PositionKey position_key(const Position& pos) {
  uint64_t men = 0;
  Bitboard occupied = pos.pieces();
  while (occupied) men = (men << 4) | static_cast<uint64_t>(to_index(pos.piece_on(pop_lsb(occupied))));
  men = (men << 1) | (pos.side_to_move() == Color::White ? 0u : 1u);
  men = (men << 7) | static_cast<uint64_t>(to_index(pos.ep_square()));
  return {pos.pieces(), men};
}

// A position some table could hold: no castling rights, few enough men, and a board the tables
// count (one king per side, side not to move not in check; query --fens and imagine also give
// positions no game reaches, which must not reach the index).
bool in_some_table(const Position& pos) { return within_tables(pos) && !validate_table_position(pos); }

}  // namespace

TableFacts facts_of_header(const TableHeader& header) {
  TableFacts f;
  f.rules = header.rules;
  f.metrics = header.metrics;
  for (const SideStats& side : header.stats)
    for (Metric m : AllMetrics)
      f.max_depth[to_index(m)] = std::max(f.max_depth[to_index(m)], side.max_depth(header.rules, m));
  return f;
}

std::optional<Score> TablebaseContext::score(const Position& pos) const {
  if (!in_some_table(pos)) return std::nullopt;
  if (Material::from(pos).is_bare_kings()) return Score::draw();
  return tablebase_.try_probe(pos);
}

std::optional<TableFacts> TablebaseContext::facts(const Position& pos) const {
  const Material m = Material::from(pos).normalized();
  const auto found = facts_.find(m);
  if (found != facts_.end()) return found->second;
  std::optional<TableFacts> f;
  if (m.is_bare_kings())
    f = TableFacts{tablebase_.rules(), all_metrics(tablebase_.rules()), {}};
  else if (tablebase_.has_table(m))
    f = facts_of_header(read_header(tablebase_.table_path(m)));
  facts_.emplace(m, f);
  return f;
}

std::optional<int64_t> TablebaseContext::term(ScoreTerm t, const Position& pos) const {
  if (!in_some_table(pos)) return std::nullopt;  // without asking for the file of a 32-man table
  const std::optional<TableFacts> f = facts(pos);
  if (!f) return std::nullopt;
  if (t.kind == ScoreTerm::Kind::MaxDepth) return score_term(t, Score::draw(), *f);
  const std::optional<Score> s = score(pos);
  if (!s) return std::nullopt;
  return score_term(t, *s, *f);
}

void TablebaseContext::line_ends(const Position& pos, Metric metric, std::vector<Position>& out) const {
  const std::optional<Score> s = score(pos);
  if (!s || !depth_in(tablebase_.rules(), *s, metric)) return;
  if (walked_.size() + walked_ends_ > walk_memo_limit_) {
    walked_.clear();
    end_numbers_.clear();
    ends_.clear();
    walked_ends_ = 0;
  }
  // A fresh walk's end has the counters of its first line from pos (depth plies long): the
  // halfmove clock counts from that line's last capture or pawn move, else from pos's clock.
  const int depth = s->depth();
  const int black_moves = pos.side_to_move() == Color::White ? depth / 2 : (depth + 1) / 2;
  for (const LineEnd& e : walk(pos, *s)) {
    Position end = ends_[e.number];
    end.set_counters(e.since_reset >= 0 ? e.since_reset : pos.halfmove_clock() + depth,
                     pos.fullmove_number() + black_moves);
    out.push_back(end);
  }
}

const std::vector<TablebaseContext::LineEnd>& TablebaseContext::walk(const Position& pos, Score score) const {
  const PositionKey key = position_key(pos);
  if (const auto found = walked_.find(key); found != walked_.end()) return found->second;
  std::vector<LineEnd> ends;
  if (score.depth() == 0) {
    const auto [number, added] = end_numbers_.try_emplace(key, static_cast<uint32_t>(ends_.size()));
    if (added) ends_.push_back(pos);
    ends.push_back({number->second, -1});
  } else {
    std::vector<Part> parts;
    for (const Move m : legal_moves(pos)) {
      const Position child = pos.after(m);
      const std::optional<Score> s = this->score(child);
      if (s && s->is_valid() && negate(s->value()) == score.value() && s->depth() == score.depth() - 1)
        parts.push_back({&walk(child, *s), child.halfmove_clock() == 0 ? s->depth() : -1});
    }
    ends = merged(parts);
  }
  walked_ends_ += ends.size();
  return walked_.emplace(key, std::move(ends)).first->second;
}

std::vector<TablebaseContext::LineEnd> TablebaseContext::merged(const std::vector<Part>& parts) const {
  std::vector<LineEnd> out;
  taken_.resize(ends_.size());
  for (const Part& part : parts)
    for (LineEnd e : *part.ends)
      if (!taken_[e.number]) {
        taken_[e.number] = true;
        if (e.since_reset < 0) e.since_reset = part.reset;
        out.push_back(e);
      }
  for (const LineEnd& e : out) taken_[e.number] = false;
  return out;
}

}  // namespace egtb::query
