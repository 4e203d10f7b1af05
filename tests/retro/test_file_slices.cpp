// File slices solved two at a time side by side (retro/solver.cpp, solve_slices): their progress
// reaches the caller on its own thread, the plies of one slice at a time, the positions resolved
// summed over the slices and never going back; a full disk in one slice stops the solve with an
// IoError naming the scratch file.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <optional>
#include <thread>
#include <vector>

#include "retro/solver.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

retro::SolveConfig file_slices(const std::filesystem::path& scratch) {
  return sliced_config(scratch, indexing::Slicing::Files);
}

TEST_CASE("file slices side by side report their progress on the caller's thread, one slice at a time",
          "[retro]") {
  const TempDir dir;
  solved("KPPk");  // its subtables
  retro::SolveConfig config = file_slices(dir.path());
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  int calls = 0, backwards = 0, jumps = 0;
  uint64_t last = 0;
  std::vector<size_t> slices_told;         // Progress::slices of each report
  size_t slice = 0, slice_back = 0;        // the slice of the last report; reports of an earlier one
  std::optional<retro::Progress> solving;  // the last report of a ply, until a slice finishes
  config.progress = [&](const retro::Progress& p) {
    if (std::this_thread::get_id() != caller) {
      ++elsewhere;
      return;
    }
    ++calls;
    slices_told.push_back(p.slices);
    if (p.slice < slice || p.slice < 1 || p.slice > p.slices) ++slice_back;
    slice = p.slice;
    if (p.resolved < last) ++backwards;
    last = p.resolved;
    // The plies shown are one slice's until it finishes: within a metric they only go up.
    if (p.stage == retro::Stage::Solving && solving && solving->metric == p.metric && p.ply < solving->ply)
      ++jumps;
    solving = p.stage == retro::Stage::Solving ? std::optional(p) : std::nullopt;
  };
  const auto solution = retro::solve_table(parse_material("KPPk"), solved_tables(), config);
  CHECK(solution->slices() > 2);
  CHECK(elsewhere == 0);
  CHECK(backwards == 0);
  CHECK(jumps == 0);
  CHECK(calls > 0);
  // Each report names its slice among all of them, the slices the caller's thread solves in turn.
  CHECK(
      std::all_of(slices_told.begin(), slices_told.end(), [&](size_t n) { return n == solution->slices(); }));
  CHECK(slice_back == 0);
  CHECK(slice == solution->slices());  // the finish
  // The sum over the slices is what the whole solve counts.
  retro::SolveConfig whole = file_slices(dir.path());
  whole.slicing = indexing::Slicing::Whole;
  uint64_t whole_last = 0;
  size_t whole_slices = 0;
  whole.progress = [&](const retro::Progress& p) {
    whole_last = p.resolved;
    whole_slices = std::max(whole_slices, p.slice * p.slices);  // 1 of 1 throughout
  };
  (void)retro::solve_table(parse_material("KPPk"), solved_tables(), whole);
  CHECK(last == whole_last);
  CHECK(whole_slices == 1);
  CHECK(same_scores(*retro::to_table(*solution), solved("KPPk")));
}

TEST_CASE("file slices side by side on a full disk stop with an IoError naming the finished slices",
          "[retro]") {
  const TempDir dir;
  solved("KPPk");  // its subtables, solved before the limit
  const FileSizeLimit limit(4096);
  CHECK_THROWS_WITH(
      retro::solve_table(parse_material("KPPk"), solved_tables(), file_slices(dir.path())),
      Catch::Contains(dir.path().string()) && Catch::Contains("cannot write the finished slices"));
}

}  // namespace
}  // namespace egtb::test
