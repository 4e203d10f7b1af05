#include "retro/cost_model.hpp"

#include "indexing/index.hpp"
#include "indexing/word_layout.hpp"
#include "retro/subtables.hpp"

namespace egtb::retro {

CostEstimate estimate_cost(const Material& material) {
  const CostCoefficients& c = material.has_pawns() ? PawnCost : PawnlessCost;
  CostEstimate e;
  e.entries_per_side = indexing::IndexScheme(material).size();
  e.layout_positions_per_side = indexing::layout_positions(material);
  for (const Material& next : direct_dependencies(material)) {
    if (paged_subtable(next))
      e.pages_subtables = true;
    else
      e.whole_subtable_entries += indexing::IndexScheme(next).size();
  }
  const auto positions = static_cast<double>(e.layout_positions_per_side);
  e.cpu_seconds = c.cpu_seconds_per_position * positions;
  const double cache = e.pages_subtables ? static_cast<double>(PagedCacheBytes) : 0;
  e.peak_bytes =
      static_cast<uint64_t>(BaseBytes + c.bytes_per_position * positions +
                            BytesPerSubtableEntry * static_cast<double>(e.whole_subtable_entries) + cache);
  return e;
}

}  // namespace egtb::retro
