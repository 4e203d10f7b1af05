// Random legal positions of the tables in a directory, for probing benchmarks (`egtb bench probe`,
// the Python and C benchmarks, which time the same positions) and for sampling tables.
//
// Each position is a random valid entry of a random table present (every table equally likely),
// with a random side to move, then a random board symmetry (one of 8 without pawns, of 2 with
// pawns) and, half of the time, the colour flip, so that every orientation a probe has to undo
// occurs. A seed gives the same positions on every run and machine (std::mt19937_64).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "egtb/core/position.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

// The most positions one call may ask for (as many as `egtb bench probe --count` allows).
inline constexpr size_t MaxRandomPositions = 100'000'000;

// `count` random positions of the tables present in the tablebase's directory. Throws InputError
// when there is none, or when `count` is over MaxRandomPositions.
[[nodiscard]] std::vector<Position> random_positions(const Tablebase& tablebase, size_t count, uint64_t seed);

}  // namespace egtb::api
