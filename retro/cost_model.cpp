#include "retro/cost_model.hpp"

#include <algorithm>

#include "indexing/index.hpp"
#include "indexing/word_layout.hpp"
#include "retro/solver.hpp"
#include "retro/subtables.hpp"

namespace egtb::retro {

namespace {

// The fraction of a table's layout in its largest slice: its variants (keys) over all
// of them. Only for tables of several slices (one slice, the whole table, has no keys).
double largest_slice_fraction(const indexing::PawnSlices& slices) {
  size_t largest = 0;
  size_t keys = 0;
  for (size_t s = 0; s < slices.size(); ++s) {
    largest = std::max(largest, slices[s].keys.size());
    keys += slices[s].keys.size();
  }
  return static_cast<double>(largest) / static_cast<double>(keys);
}

}  // namespace

CostEstimate estimate_cost(const Material& material) {
  const CostCoefficients& c = material.has_pawns() ? PawnCost : PawnlessCost;
  CostEstimate e;
  const indexing::IndexScheme scheme(material);
  e.entries_per_side = scheme.size();
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
  const auto sliced_peak = [&](const indexing::PawnSlices& slices, double slice_bytes) {
    return static_cast<uint64_t>(around + slice_bytes * largest_slice_fraction(slices) * positions +
                                 SliceOverheadBytesPerPosition * positions);
  };
  e.slicing = indexing::pawn_slicing(scheme);
  const indexing::PawnSlices slices(scheme, e.slicing);
  e.slices = slices.size();
  const double slice_bytes = e.slicing == indexing::Slicing::Files ? static_cast<double>(FileSlicesAtOnce) *
                                                                         FileSliceBytes * c.bytes_per_position
                                                                   : c.bytes_per_position;
  e.sliced_peak_bytes = e.slices == 1 ? e.peak_bytes : sliced_peak(slices, slice_bytes);
  e.lean_peak_bytes = static_cast<uint64_t>(around + LeanBytesPerPosition * positions);
  if (e.slicing == indexing::Slicing::Placements && e.pages_subtables) {
    const indexing::PawnSlices joined(scheme, indexing::Slicing::PromotionsJoined);
    if (joined.size() < slices.size()) {
      e.joined_slices = joined.size();
      e.joined_peak_bytes = sliced_peak(joined, c.bytes_per_position);
    }
  }
  return e;
}

SolvePlan plan_solve(const CostEstimate& cost, uint64_t max_memory) {
  SolvePlan plan;
  plan.peak_bytes = cost.peak_bytes;
  if (max_memory == 0 || cost.peak_bytes <= max_memory) return plan;
  if (cost.slices == 1) {
    plan.lean = true;
    plan.peak_bytes = cost.lean_peak_bytes;
    return plan;
  }
  const bool join = cost.joined_slices > 0 && cost.joined_peak_bytes <= max_memory;
  plan.slicing = join ? indexing::Slicing::PromotionsJoined : cost.slicing;
  plan.slices = join ? cost.joined_slices : cost.slices;
  plan.peak_bytes = join ? cost.joined_peak_bytes : cost.sliced_peak_bytes;
  return plan;
}

SolvePlan smallest_plan(const CostEstimate& cost) { return plan_solve(cost, 1); }

double plan_cpu_seconds(const CostEstimate& cost, const SolvePlan& plan) {
  if (plan.lean) return LeanCpuRatio * cost.cpu_seconds;
  switch (plan.slicing) {
    case indexing::Slicing::Whole: return cost.cpu_seconds;
    case indexing::Slicing::PromotionsJoined: return JoinedSlicesCpuRatio * cost.cpu_seconds;
    case indexing::Slicing::Placements: return PlacementSlicesCpuRatio * cost.cpu_seconds;
    case indexing::Slicing::Files: return FileSlicesCpuRatio * cost.cpu_seconds;
  }
  return cost.cpu_seconds;
}

SolvePlan default_plan(const CostEstimate& cost, uint64_t machine_memory) {
  SolvePlan best = plan_solve(cost, 0);
  if (cost.peak_bytes >= SmallSolveBytes) {
    // Every plan plan_solve makes, from the whole solve down to the least memory.
    for (const uint64_t limit : {cost.joined_peak_bytes, cost.sliced_peak_bytes, cost.lean_peak_bytes}) {
      const SolvePlan plan = plan_solve(cost, limit);
      if (plan.peak_bytes < best.peak_bytes && plan_cpu_seconds(cost, plan) <= cost.cpu_seconds) best = plan;
    }
  }
  return best.peak_bytes <= machine_memory ? best : plan_solve(cost, machine_memory);
}

SolvePlan choose_plan(const CostEstimate& cost, uint64_t max_memory, uint64_t machine_memory) {
  if (max_memory > 0) return plan_solve(cost, std::min(max_memory, machine_memory));
  return default_plan(cost, machine_memory);
}

}  // namespace egtb::retro
