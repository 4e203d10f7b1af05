// Replaying a game the parser read: its start position from the FEN tag, then every move, in
// input order, checked against the position it is played from (each node's parent comes before
// it), filling in Node::move and Node::position.
//
// Moves are SAN as egtb/core/notation.hpp reads it, which tolerates missing or superfluous check
// signs, "0-0" for "O-O", a promotion with or without '=' and superfluous disambiguation; a move
// that is not SAN is also tried as long algebraic ("e2-e4", "Ng1-f3", "e7e8q"). Null moves ("--",
// "Z0") are refused.
//
// Errors name the move and its position, located at the move, or at the tag that is wrong:
//   games.pgn:7:8: game 2: 2. Qxf7: 'Qxf7' is not a legal move here (position rnbqkbnr/pppp1ppp/8/4p3/
//   4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2)
// A [Variant] other than standard chess is refused; so is [SetUp "1"] without a FEN tag.
#pragma once

#include <optional>

#include "pgn/game.hpp"
#include "pgn/parser.hpp"

namespace egtb::pgn {

// Sets the start position and every move of a game read by Parser; nothing when all is legal.
[[nodiscard]] std::optional<PgnError> replay(Game& game);

}  // namespace egtb::pgn
