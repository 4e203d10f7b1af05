// The cost model's estimates (retro/cost_model.hpp) for 6- and 7-man tables, which `egtb plan
// --all 6|7` prints: layout positions past 2^32 and memory past 4 GiB do not wrap. The expected
// figures are the coefficients times layout sizes and subtable entries computed here by hand.
#include "indexing/index.hpp"
#include "retro/cost_model.hpp"
#include "retro/subtables.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/wide_material.hpp"

namespace egtb::test {
namespace {

TEST_CASE("cost estimates of 6- and 7-man tables keep their 64-bit sizes", "[retro][wide]") {
  struct Case {
    const char* signature;
    uint64_t layout_positions;  // king pairs * 64 for the innermost piece * the other men's radices
    const retro::CostCoefficients& c;
  };
  const Case cases[] = {
      {"KRPkrp", uint64_t{1806} * 64 * 64 * 48 * 48, retro::PawnCost},
      {"KQRBkr", uint64_t{462} * 64 * 64 * 64 * 64, retro::PawnlessCost},
      {"KQRBkqr", uint64_t{462} * 64 * 64 * 64 * 64 * 64, retro::PawnlessCost},
  };
  for (const Case& k : cases) {
    INFO(k.signature);
    const Material m = wide_material(k.signature);
    const retro::CostEstimate e = retro::estimate_cost(m);
    CHECK(e.layout_positions_per_side == k.layout_positions);
    CHECK(e.entries_per_side == indexing::IndexScheme(m).size());
    // Every subtable of these has over PagedTableEntries entries: all are paged.
    CHECK(e.whole_subtable_entries == 0);
    CHECK(e.pages_subtables);
    const double positions = static_cast<double>(k.layout_positions);
    CHECK(e.cpu_seconds == Approx(k.c.cpu_seconds_per_position * positions));
    CHECK(static_cast<double>(e.peak_bytes) ==
          Approx(retro::BaseBytes + k.c.bytes_per_position * positions + retro::PagedCacheBytes));
    CHECK(e.peak_bytes > (uint64_t{1} << 32));
  }
}

TEST_CASE("cost estimates count the subtables loaded whole", "[retro]") {
  // KPPk promotes into KQPk, KRPk, KBPk, KNPk, and the black king's capture leads to KPk: all
  // small, loaded whole.
  const Material m = wide_material("KPPk");
  const retro::CostEstimate e = retro::estimate_cost(m);
  uint64_t whole = 0;
  for (const char* next : {"KQPk", "KRPk", "KBPk", "KNPk", "KPk"})
    whole += indexing::IndexScheme(wide_material(next)).size();
  CHECK(e.whole_subtable_entries == whole);
  CHECK_FALSE(e.pages_subtables);
  CHECK(e.layout_positions_per_side == uint64_t{1806} * 64 * 48);
}

TEST_CASE("cost estimates of a solve in slices", "[retro]") {
  // KRPkr: the pawn's square (24, by the mirror) makes 24 placement slices, each a 24th of the
  // layout; its promotions lead into paged 5-man tables, its captures (a promotion on rxr among
  // them) into 4-man ones loaded whole.
  const retro::CostEstimate krpkr = retro::estimate_cost(wide_material("KRPkr"));
  const auto positions = static_cast<double>(uint64_t{1806} * 64 * 48 * 64);
  uint64_t whole = 0;
  for (const char* next : {"KRPk", "KPkr", "KRkr", "KQRk", "KRRk", "KRBk", "KRNk"})
    whole += indexing::IndexScheme(wide_material(next)).size();
  CHECK(krpkr.whole_subtable_entries == whole);
  CHECK(krpkr.slices == 24);
  const double around = retro::BaseBytes + retro::BytesPerSubtableEntry * static_cast<double>(whole) +
                        static_cast<double>(retro::PagedCacheBytes);
  CHECK(static_cast<double>(krpkr.sliced_peak_bytes) ==
        Approx(around + retro::PawnCost.bytes_per_position * positions / 24 +
               retro::SliceOverheadBytesPerPosition * positions));
  // Solved whole without a limit or under one it fits; in slices under one it does not.
  CHECK_FALSE(retro::plan_solve(krpkr, 0).sliced());
  CHECK(retro::plan_solve(krpkr, 0).peak_bytes == krpkr.peak_bytes);
  CHECK_FALSE(retro::plan_solve(krpkr, krpkr.peak_bytes).sliced());
  CHECK(retro::plan_solve(krpkr, krpkr.peak_bytes - 1).sliced());
  CHECK(retro::plan_solve(krpkr, 1).peak_bytes == krpkr.sliced_peak_bytes);
  // Its four slices of a pawn on the 7th joined: 21 slices, the largest a sixth of the layout;
  // planned when that fits the limit.
  CHECK(krpkr.slicing == indexing::Slicing::Placements);
  CHECK(krpkr.joined_slices == 21);
  CHECK(static_cast<double>(krpkr.joined_peak_bytes) ==
        Approx(around + retro::PawnCost.bytes_per_position * positions / 6 +
               retro::SliceOverheadBytesPerPosition * positions));
  const retro::SolvePlan joined = retro::plan_solve(krpkr, krpkr.joined_peak_bytes);
  CHECK((joined.sliced() && joined.slicing == indexing::Slicing::PromotionsJoined));
  CHECK((joined.slices == 21 && joined.peak_bytes == krpkr.joined_peak_bytes));
  const retro::SolvePlan apart = retro::plan_solve(krpkr, krpkr.joined_peak_bytes - 1);
  CHECK((apart.sliced() && apart.slicing == indexing::Slicing::Placements));
  CHECK((apart.slices == 24 && apart.peak_bytes == krpkr.sliced_peak_bytes));
  CHECK(retro::plan_solve(krpkr, 0).slicing == indexing::Slicing::Whole);
  // KRPk's subtables are all loaded whole: nothing to gain by joining.
  CHECK(retro::estimate_cost(wide_material("KRPk")).joined_slices == 0);
  // A table of slices is never planned on the lean path, not even below every plan.
  CHECK_FALSE(retro::plan_solve(krpkr, 1).lean);
  // A pawnless table is one slice: never sliced; on the lean path under a limit its whole solve
  // does not fit, its estimate the lean one.
  const retro::CostEstimate kqrkr = retro::estimate_cost(wide_material("KQRkr"));
  CHECK(kqrkr.slices == 1);
  CHECK(kqrkr.sliced_peak_bytes == kqrkr.peak_bytes);
  CHECK_FALSE(retro::plan_solve(kqrkr, 1).sliced());
  const double kqrkr_around =
      retro::BaseBytes + retro::BytesPerSubtableEntry * static_cast<double>(kqrkr.whole_subtable_entries);
  CHECK(static_cast<double>(kqrkr.lean_peak_bytes) ==
        Approx(kqrkr_around + retro::LeanBytesPerPosition * 462.0 * 64 * 64 * 64));
  CHECK(kqrkr.lean_peak_bytes < kqrkr.peak_bytes);
  CHECK_FALSE(retro::plan_solve(kqrkr, 0).lean);
  CHECK_FALSE(retro::plan_solve(kqrkr, kqrkr.peak_bytes).lean);
  const retro::SolvePlan lean = retro::plan_solve(kqrkr, kqrkr.peak_bytes - 1);
  CHECK((lean.lean && lean.slicing == indexing::Slicing::Whole && lean.peak_bytes == kqrkr.lean_peak_bytes));
  CHECK(retro::smallest_plan(kqrkr).lean);
  // KPPkp: two digit pawns, 20 file slices; the largest holds 4 of the 64 file pairs.
  const retro::CostEstimate kppkp = retro::estimate_cost(wide_material("KPPkp"));
  CHECK(kppkp.slices == 20);
}

TEST_CASE("without a limit each table takes the leanest path that costs no time", "[retro]") {
  constexpr uint64_t Machine = uint64_t{24} << 30;
  // KRPkr: its 21 slices with the promoting ones joined read the paged subtables no more than the
  // whole solve: as fast, in about a third of the memory; its 24 slices apart would read them again.
  const retro::CostEstimate krpkr = retro::estimate_cost(wide_material("KRPkr"));
  const retro::SolvePlan free = retro::default_plan(krpkr, Machine);
  CHECK((free.slicing == indexing::Slicing::PromotionsJoined && free.slices == 21));
  CHECK(free.peak_bytes == krpkr.joined_peak_bytes);
  CHECK(free.peak_bytes < krpkr.peak_bytes / 3);
  CHECK(retro::plan_cpu_seconds(krpkr, free) == krpkr.cpu_seconds);
  CHECK(retro::plan_cpu_seconds(krpkr, retro::smallest_plan(krpkr)) > krpkr.cpu_seconds);
  // A machine too small for the joined slices gets the 24, whatever they cost.
  const retro::SolvePlan small = retro::default_plan(krpkr, krpkr.joined_peak_bytes - 1);
  CHECK((small.slicing == indexing::Slicing::Placements && small.slices == 24));
  // --max-memory decides when given: 1 TiB keeps KRPkr whole.
  CHECK_FALSE(retro::choose_plan(krpkr, uint64_t{1} << 40, Machine).sliced());
  CHECK(retro::choose_plan(krpkr, 0, Machine).slices == 21);
  // KQPkp's 32 file slices take more CPU time than its whole solve (FileSlicesCpuRatio): whole.
  const retro::CostEstimate kqpkp = retro::estimate_cost(wide_material("KQPkp"));
  CHECK(kqpkp.slicing == indexing::Slicing::Files);
  CHECK_FALSE(retro::default_plan(kqpkp, Machine).sliced());
  CHECK(retro::default_plan(kqpkp, kqpkp.peak_bytes - 1).sliced());
  // KQRkr: the lean path takes more CPU time (LeanCpuRatio): whole, unless the machine is smaller.
  const retro::CostEstimate kqrkr = retro::estimate_cost(wide_material("KQRkr"));
  CHECK_FALSE(retro::default_plan(kqrkr, Machine).lean);
  CHECK(retro::default_plan(kqrkr, kqrkr.peak_bytes - 1).lean);
  // KRPk (57 MB) has little to save: whole, though its slices page nothing.
  const retro::CostEstimate krpk = retro::estimate_cost(wide_material("KRPk"));
  CHECK(krpk.peak_bytes < retro::SmallSolveBytes);
  CHECK_FALSE(retro::default_plan(krpk, Machine).sliced());
}

}  // namespace
}  // namespace egtb::test
