// Table values for queries, read from a directory of tables through a Tablebase.
//
// dtm, dts and lasker probe the position (any orientation; bare kings are a draw; a position no
// table can hold, with more than Material::MaxMen men or castling rights, has none); maxdtm and
// maxdts come from the header of the table holding the position, the deepest DTM / DTS over
// both sides to move (KBk: maxdts 17, the depth of White's longest forced stalemates). The line
// ends of dtsend / dtmend are the final positions of every optimal line: from a position of value
// v and depth d (DTS for 3 and 1, DTM for 4 and 0) each move keeping the value for its mover and
// leading to depth d - 1 is optimal (the winner's shortest and the loser's longest continuations
// alike, docs/design.md §2), down to depth 0, the checkmate or stalemate. Every position on those
// lines is walked once, and its ends are kept for every position walked through: a position's ends
// are those of its optimal successors in move order, each once, so later walks (the next positions
// of a scan, whose lines run into the same positions) stop where an earlier one passed. The kept
// ends are dropped between walks when they hold more than a limit of positions and numbers.
//
// Not thread-safe (it caches table headers and line ends): one per thread, like Evaluator; the
// Tablebase may be shared.
#pragma once

#include <map>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/tablebase.hpp"
#include "query/scan_plan.hpp"
#include "query/table_context.hpp"

namespace egtb::query {

// An exact key of a position (position_key in the .cpp file).
using PositionKey = std::pair<uint64_t, uint64_t>;

class TablebaseContext : public TableContext {
public:
  // walk_memo_limit: the line ends kept, in positions walked and numbers of their ends (below).
  explicit TablebaseContext(const Tablebase& tablebase, size_t walk_memo_limit = DefaultWalkMemoLimit)
      : tablebase_(tablebase), walk_memo_limit_(walk_memo_limit) {}

  [[nodiscard]] std::optional<int64_t> term(ScoreTerm term, const Position& pos) const override;
  void line_ends(const Position& pos, Metric metric, std::vector<Position>& out) const override;

  // The score of a position: a probe, or a draw for bare kings; nothing when it cannot be probed.
  [[nodiscard]] std::optional<Score> score(const Position& pos) const;
  // Metrics and maxima of the table holding pos, from its header; nothing when it is missing.
  [[nodiscard]] std::optional<TableFacts> facts(const Position& pos) const;
  [[nodiscard]] const Tablebase& tablebase() const { return tablebase_; }

  // A million positions walked and numbers of their ends: some tens of MB a thread.
  static constexpr size_t DefaultWalkMemoLimit = size_t{1} << 20;

private:
  struct KeyHash {
    size_t operator()(const PositionKey& k) const {
      return static_cast<size_t>((k.first * 0x9E3779B97F4A7C15ULL) ^ (k.second * 0x632BE59BD9B4E019ULL));
    }
  };

  // An end of the lines from a position: its number in ends_ and the plies from the last capture
  // or pawn move of the first line to it (-1: none on that line), from which its halfmove clock
  // follows (the first line, as a walk in move order finds it).
  struct LineEnd {
    uint32_t number;
    int since_reset;
  };
  // The ends of an optimal successor, and `reset`, its depth when the move to it was a capture or
  // pawn move (-1 otherwise).
  struct Part {
    const std::vector<LineEnd>* ends;
    int reset;
  };

  // The line ends of pos, scored `score`, walking what is not kept yet.
  const std::vector<LineEnd>& walk(const Position& pos, Score score) const;
  // The ends of every part in order, each once (its first line kept).
  std::vector<LineEnd> merged(const std::vector<Part>& parts) const;

  const Tablebase& tablebase_;
  size_t walk_memo_limit_;
  mutable std::map<Material, std::optional<TableFacts>> facts_;
  mutable std::unordered_map<PositionKey, std::vector<LineEnd>, KeyHash> walked_;  // position: its ends
  mutable std::unordered_map<PositionKey, uint32_t, KeyHash> end_numbers_;         // end: its number
  mutable std::vector<Position> ends_;                                             // by number
  mutable size_t walked_ends_ = 0;   // the numbers held in walked_
  mutable std::vector<bool> taken_;  // scratch of merged(), all false between calls
};

// The metrics and maxima a table header records.
[[nodiscard]] TableFacts facts_of_header(const TableHeader& header);

}  // namespace egtb::query
