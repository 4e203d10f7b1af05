// What `egtb fen` and `egtb perft` tell about a position: the position normalised with its state
// and legal moves, and the leaf counts of its legal move tree. Their JSON is api/json.hpp's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/position.hpp"

namespace egtb::api {

struct MoveText {
  std::string san;
  std::string uci;
};

struct PositionReport {
  Position position;            // its e.p. square kept only when an e.p. capture is legal
  std::string state;            // "checkmate", "stalemate", "check" or "normal"
  std::vector<MoveText> moves;  // every legal move, sorted by SAN
};
[[nodiscard]] PositionReport describe_position(Position position);

struct PerftLine {
  std::string move;  // UCI
  uint64_t nodes = 0;
};

struct PerftReport {
  Position position;
  int depth = 0;
  uint64_t nodes = 0;
  std::optional<std::vector<PerftLine>> divide;  // the count below each legal move, sorted by its UCI
};
// The leaf count of the legal move tree of `position` to `depth` plies, with `divide` below each move.
[[nodiscard]] PerftReport count_leaves(const Position& position, int depth, bool divide);

}  // namespace egtb::api
