#include "retro/cost_model.hpp"

#include "indexing/index.hpp"

namespace egtb::retro {

CostEstimate estimate_cost(const Material& material) {
  const CostCoefficients& c = material.has_pawns() ? PawnCost : PawnlessCost;
  CostEstimate e;
  e.entries_per_side = indexing::IndexScheme(material).size();
  const auto entries = static_cast<double>(e.entries_per_side);
  e.cpu_seconds = c.cpu_seconds_per_entry * entries;
  e.peak_bytes = static_cast<uint64_t>(c.base_bytes + c.bytes_per_entry * entries);
  return e;
}

}  // namespace egtb::retro
