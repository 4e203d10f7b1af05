// Table values for queries, read from a directory of tables through a Tablebase.
//
// dtm, dts and lasker probe the position (any orientation; bare kings are a draw; a position no
// table can hold, with more than Material::MaxMen men or castling rights, has none); maxdtm and
// maxdts come from the header of the table holding the position, the deepest DTM / DTS over
// both sides to move (KBk: maxdts 17, the depth of White's longest forced stalemates). The line
// ends of dtsend / dtmend are the final positions of every optimal line: from a position of value
// v and depth d (DTS for 3 and 1, DTM for 4 and 0) each move keeping the value for its mover and
// leading to depth d - 1 is optimal (the winner's shortest and the loser's longest continuations
// alike, DESIGN.md §2), down to depth 0, the checkmate or stalemate. Every position on those lines
// is visited once, so ties branching and joining again cost no more than the positions involved;
// still, a deep DTM line with many ties spans thousands of positions, each probing all its moves,
// so scans with dtmend / dtsend are fast only on few positions (`dts == maxdts dtsend ...`).
//
// Not thread-safe (it caches table headers): one per thread, like Evaluator; the Tablebase may be
// shared.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/tablebase.hpp"
#include "query/scan_plan.hpp"
#include "query/table_context.hpp"

namespace egtb::query {

class TablebaseContext : public TableContext {
public:
  explicit TablebaseContext(const Tablebase& tablebase) : tablebase_(tablebase) {}

  [[nodiscard]] std::optional<int64_t> term(ScoreTerm term, const Position& pos) const override;
  void line_ends(const Position& pos, Metric metric, std::vector<Position>& out) const override;

  // The score of a position: a probe, or a draw for bare kings; nothing when it cannot be probed.
  [[nodiscard]] std::optional<Score> score(const Position& pos) const;
  // Metrics and maxima of the table holding pos, from its header; nothing when it is missing.
  [[nodiscard]] std::optional<TableFacts> facts(const Position& pos) const;
  [[nodiscard]] const Tablebase& tablebase() const { return tablebase_; }

private:
  const Tablebase& tablebase_;
  mutable std::map<Material, std::optional<TableFacts>> facts_;
};

// The metrics and maxima a table header records.
[[nodiscard]] TableFacts facts_of_header(const TableHeader& header);

}  // namespace egtb::query
