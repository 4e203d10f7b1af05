#include "retro/cost_model.hpp"

#include <algorithm>

#include "indexing/index.hpp"
#include "indexing/word_layout.hpp"
#include "retro/subtables.hpp"

namespace egtb::retro {

namespace {

// The fraction of a table's layout in its largest file slice: its variants (file keys) over all
// of them (1 for one slice, the whole table).
double largest_slice_fraction(const indexing::FileSlices& slices) {
  size_t largest = 0;
  size_t keys = 0;
  for (size_t s = 0; s < slices.size(); ++s) {
    largest = std::max(largest, slices[s].keys.size());
    keys += slices[s].keys.size();
  }
  return keys == 0 ? 1.0 : static_cast<double>(largest) / static_cast<double>(keys);
}

}  // namespace

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
  const double around =
      BaseBytes + BytesPerSubtableEntry * static_cast<double>(e.whole_subtable_entries) + cache;
  e.peak_bytes = static_cast<uint64_t>(around + c.bytes_per_position * positions);
  const indexing::FileSlices slices{indexing::IndexScheme(material)};
  e.file_slices = slices.size();
  e.sliced_peak_bytes =
      e.file_slices == 1
          ? e.peak_bytes
          : static_cast<uint64_t>(around + c.bytes_per_position * largest_slice_fraction(slices) * positions +
                                  PackedBytesPerPosition * positions);
  return e;
}

SolvePlan plan_solve(const CostEstimate& cost, uint64_t max_memory) {
  SolvePlan plan;
  plan.file_slices = max_memory > 0 && cost.peak_bytes > max_memory && cost.file_slices > 1;
  plan.peak_bytes = plan.file_slices ? cost.sliced_peak_bytes : cost.peak_bytes;
  return plan;
}

}  // namespace egtb::retro
