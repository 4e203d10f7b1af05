// What the query layer asks of endgame tables. The store side implements it
// (tablebase_context.hpp); queries that read table values (dtm, dts, lasker, maxdtm, maxdts,
// dtsend, dtmend) fail to evaluate without one.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "egtb/core/position.hpp"
#include "egtb/store/rules.hpp"
#include "query/keywords.hpp"

namespace egtb::query {

class TableContext {
public:
  virtual ~TableContext() = default;

  // The number a table word names for the position (keywords.hpp, ScoreTerm), when it has one.
  [[nodiscard]] virtual std::optional<int64_t> term(ScoreTerm term, const Position& pos) const = 0;
  // Appends the final positions of the optimal lines in `metric` from pos (none when the position
  // has no such depth).
  virtual void line_ends(const Position& pos, Metric metric, std::vector<Position>& out) const = 0;
};

}  // namespace egtb::query
