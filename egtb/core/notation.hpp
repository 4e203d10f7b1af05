// Move text both ways: UCI ("e2e4", "e7e8q", castling as the king's move "e1g1") and SAN
// ("Nf3", "exd6", "e8=Q+", "O-O", "Rae1#").
#pragma once

#include <string>
#include <string_view>

#include "egtb/core/expected.hpp"
#include "egtb/core/move.hpp"
#include "egtb/core/position.hpp"

namespace egtb {

[[nodiscard]] std::string to_uci(Move m);
// The legal move of pos written as `text` in UCI, or why there is none.
[[nodiscard]] Expected<Move, std::string> parse_uci(const Position& pos, std::string_view text);

// SAN of a legal move, with '+' or '#' suffix and minimal disambiguation.
[[nodiscard]] std::string to_san(const Position& pos, Move m);
// The legal move of pos written as `text` in SAN. Accepts check/annotation suffixes, "0-0",
// missing or superfluous disambiguation and a promotion without '='.
[[nodiscard]] Expected<Move, std::string> parse_san(const Position& pos, std::string_view text);

}  // namespace egtb
