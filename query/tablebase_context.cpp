#include "query/tablebase_context.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "egtb/core/movegen.hpp"
#include "egtb/store/reader.hpp"

namespace egtb::query {

namespace {

// An exact key of a position of up to 7 men: the occupied squares, then the men in square
// order (4 bits each), the side to move and the e.p. square.
std::pair<uint64_t, uint64_t> position_key(const Position& pos) {
  uint64_t men = 0;
  Bitboard occupied = pos.pieces();
  while (occupied) men = (men << 4) | static_cast<uint64_t>(to_index(pos.piece_on(pop_lsb(occupied))));
  men = (men << 1) | (pos.side_to_move() == Color::White ? 0u : 1u);
  men = (men << 7) | static_cast<uint64_t>(to_index(pos.ep_square()));
  return {pos.pieces(), men};
}

// Depth-first walk along the optimal moves, each position once.
class LineWalk {
public:
  LineWalk(const TablebaseContext& tables, std::vector<Position>& out) : tables_(tables), out_(out) {}

  void visit(const Position& pos, Score score) {
    if (!seen_.insert(position_key(pos)).second) return;
    if (score.depth() == 0) {
      out_.push_back(pos);
      return;
    }
    for (const Move m : legal_moves(pos)) {
      const Position child = pos.after(m);
      const std::optional<Score> s = tables_.score(child);
      if (s && s->is_valid() && negate(s->value()) == score.value() && s->depth() == score.depth() - 1)
        visit(child, *s);
    }
  }

private:
  const TablebaseContext& tables_;
  std::vector<Position>& out_;
  std::set<std::pair<uint64_t, uint64_t>> seen_;
};

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
  LineWalk(*this, out).visit(pos, *s);
}

}  // namespace egtb::query
