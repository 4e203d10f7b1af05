// What the query layer asks of endgame tables. The tools/store side implements it; queries that
// use dtm, dts, lasker, maxdtm, maxdts, dtsend or dtmend fail to evaluate without one.
#pragma once

#include <optional>
#include <vector>

#include "egtb/core/position.hpp"

namespace egtb::query {

enum class LineMetric : uint8_t { Dtm, Dts };

class TableContext {
public:
  virtual ~TableContext() = default;

  // Plies to mate / to stalemate and the Lasker value 0..4, when the position has one.
  [[nodiscard]] virtual std::optional<int> dtm(const Position& pos) const = 0;
  [[nodiscard]] virtual std::optional<int> dts(const Position& pos) const = 0;
  [[nodiscard]] virtual std::optional<int> lasker(const Position& pos) const = 0;
  // The largest DTM / DTS of the table holding the position.
  [[nodiscard]] virtual std::optional<int> max_dtm(const Position& pos) const = 0;
  [[nodiscard]] virtual std::optional<int> max_dts(const Position& pos) const = 0;
  // Appends the final positions of the DTM- or DTS-optimal lines from pos (none when the
  // position has no such depth).
  virtual void line_ends(const Position& pos, LineMetric metric, std::vector<Position>& out) const = 0;
};

}  // namespace egtb::query
