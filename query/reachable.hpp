// legalposition and reachableposition (CQLi), with the reason when the answer is no.
//
// Legal: one king per side, at most 8 pawns and 16 men per side, no pawn on rank 1 or 8, the side
// not to move not in check, at most two checkers, the start position only with White to move.
//
// Reachable: legal, the men are possible (the officers beyond the original set need promotions,
// at most 8 minus the pawns left), and retro-analysis finds a chain of legal predecessors
// ReachabilityDepth plies long (or back to the start position). Predecessors come from
// generate_unmoves() with every kind of un-capture, un-promotion and e.p. allowed, so a "no" is a
// proof: "Impossible check of Black King" (in check, and no last move gives that check),
// "No legal last move for White", or "No legal sequence of 3 last moves". Castling rights are
// ignored by the analysis (un-castling is not generated). A "yes" is not a proof of reachability:
// like CQLi, the filter never rejects a reachable position but may accept an unreachable one.
#pragma once

#include <optional>
#include <string>

#include "egtb/core/position.hpp"

namespace egtb::query {

inline constexpr int ReachabilityDepth = 3;

// Why the position is illegal, or nothing.
[[nodiscard]] std::optional<std::string> illegality(const Position& pos);
// Why the position is unreachable (illegality included), or nothing.
[[nodiscard]] std::optional<std::string> unreachability(const Position& pos, int depth = ReachabilityDepth);

}  // namespace egtb::query
