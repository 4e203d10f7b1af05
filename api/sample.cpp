#include "api/sample.hpp"

#include <random>

#include "api/errors.hpp"
#include "api/signatures.hpp"
#include "egtb/core/symmetry.hpp"
#include "indexing/index.hpp"

namespace egtb::api {

namespace {

Position random_position(const std::vector<indexing::IndexScheme>& schemes, std::mt19937_64& rng) {
  const auto& scheme = schemes[rng() % schemes.size()];
  Position pos;
  bool valid = false;
  while (!valid) valid = scheme.decode(rng() % scheme.size(), rng() % 2 ? Color::White : Color::Black, pos);
  const int symmetries = scheme.material().has_pawns() ? 2 : SymmetryCount;
  pos = apply(AllSymmetries[rng() % static_cast<uint64_t>(symmetries)], pos);
  return rng() % 2 ? color_flipped(pos) : pos;
}

}  // namespace

std::vector<Position> random_positions(const Tablebase& tablebase, size_t count, uint64_t seed) {
  if (count > MaxRandomPositions)
    throw InputError("the count of random positions must be at most " + std::to_string(MaxRandomPositions) +
                     ", not " + std::to_string(count));
  std::vector<indexing::IndexScheme> schemes;
  for (const Material& m : available_tables(tablebase)) schemes.emplace_back(m);
  if (schemes.empty())
    throw InputError("no tables in " + tablebase.directory().string() + " (build some with egtb generate)");
  std::mt19937_64 rng(seed);
  std::vector<Position> positions;
  positions.reserve(count);
  for (size_t i = 0; i < count; ++i) positions.push_back(random_position(schemes, rng));
  return positions;
}

}  // namespace egtb::api
