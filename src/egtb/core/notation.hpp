// Move text both ways: UCI ("e2e4", "e7e8q", castling as the king's move "e1g1") and SAN
// ("Nf3", "exd6", "e8=Q+", "O-O", "Rae1#").
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb {

// The null move (a pass, rules.hpp StalematePasses) is "0000" in UCI and "--" in SAN, as UCI
// engines and PGN readers write it.
[[nodiscard]] std::string to_uci(Move m);
// The legal move of pos written as `text` in UCI, or why there is none.
[[nodiscard]] Expected<Move, std::string> parse_uci(const Position& pos, std::string_view text);

// SAN of a legal move, with '+' or '#' suffix and minimal disambiguation.
[[nodiscard]] std::string to_san(const Position& pos, Move m);
// The legal move of pos written as `text` in SAN. Accepts check/annotation suffixes, "0-0",
// missing or superfluous disambiguation and a promotion without '='.
[[nodiscard]] Expected<Move, std::string> parse_san(const Position& pos, std::string_view text);

// A line of legal moves from `start` in SAN with move numbers counted from start's move number:
// "1. Kb6 Kb8 2. Qd8#", or "1... Kb8 2. Kb6" when Black moves first.
[[nodiscard]] std::string san_line(const Position& start, std::span<const Move> line);
// A line in UCI, one text per move.
[[nodiscard]] std::vector<std::string> uci_line(std::span<const Move> line);

}  // namespace egtb
