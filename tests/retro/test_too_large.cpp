// generate refuses a table whose solve cannot fit the machine before it builds anything, also the
// small tables of its closure that would fit (retro::TableTooLarge). The machine's memory is given
// (GenerateOptions::machine_memory), so the test needs none of it.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "retro/cost_model.hpp"
#include "retro/scheduler.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/wide_material.hpp"

namespace egtb::test {
namespace {

constexpr uint64_t GiB = uint64_t{1} << 30;

// An empty table directory, removed at the end, and the options of a one-thread build into it.
struct EmptyDirectory {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("egtb-too-large-" + std::to_string(::getpid()));
  retro::GenerateOptions options;
  EmptyDirectory() {
    std::filesystem::remove_all(path);
    options.directory = path;
    options.threads = 1;
  }
  ~EmptyDirectory() { std::filesystem::remove_all(path); }
  [[nodiscard]] bool empty() const {
    return !std::filesystem::exists(path) || std::filesystem::is_empty(path);
  }
};

std::string refusal(const Material& target, const retro::GenerateOptions& options) {
  try {
    retro::generate_tables(std::span(&target, 1), options);
  } catch (const retro::TableTooLarge& e) {
    return e.what();
  }
  return "not refused";
}

TEST_CASE("a 6-man table larger than the machine is refused before its closure is built", "[retro][wide]") {
  EmptyDirectory dir;
  retro::GenerateOptions& options = dir.options;
  options.machine_memory = 8 * GiB;
  // KNNNNk: 462 * 64^4 layout positions per side at LeanBytesPerPosition each on the lean path
  // (cost_model.hpp) and its subtables (KNNNk, 17 M entries per side, and smaller), loaded whole
  // at 4 bytes an entry; lean, as a pawnless table has no slices.
  const Material knnnnk = wide_material("KNNNNk");
  const retro::CostEstimate cost = retro::estimate_cost(knnnnk);
  CHECK_FALSE(cost.pages_subtables);
  const double bytes = retro::BaseBytes + retro::LeanBytesPerPosition * 462.0 * 64 * 64 * 64 * 64 +
                       4.0 * static_cast<double>(cost.whole_subtable_entries);
  const uint64_t needed = retro::smallest_plan(cost).peak_bytes;
  CHECK(static_cast<double>(needed) == Approx(bytes));
  char gib[16];
  std::snprintf(gib, sizeof gib, "%.1f", static_cast<double>(needed) / static_cast<double>(GiB));
  CHECK(refusal(knnnnk, options) ==
        "KNNNNk: its solve is estimated at " + std::string(gib) +
            " GiB in the least memory this build can (egtb plan KNNNNk), more "
            "than this machine's 8.0 GiB: nothing was built; it needs --max-memory " +
            std::to_string((needed + (1 << 20) - 1) >> 20) + "M or more, on a machine with that much memory");
  // Its 3-5-man subtables (KNNNk, KNNk, ...) would fit: none was built.
  CHECK(dir.empty());
}

TEST_CASE("every pawnless 6-man table is planned on the lean path under 20 GiB", "[retro][wide]") {
  // This machine's 23.5 GiB: the whole solve (about 31 GB) does not fit, the lean one (about 17.7
  // GB, 16.5 GiB) does, and is the smallest plan, for the smallest layout of identical men as for
  // the largest class.
  constexpr uint64_t Machine = 23 * GiB + GiB / 2;
  for (const char* sig : {"KNNNNk", "KQRBkr", "KQRkqr", "KQQQQk"}) {
    INFO(sig);
    const retro::CostEstimate cost = retro::estimate_cost(wide_material(sig));
    CHECK(cost.peak_bytes > Machine);
    const retro::SolvePlan plan = retro::plan_solve(cost, Machine);
    CHECK((plan.lean && plan.peak_bytes == cost.lean_peak_bytes));
    CHECK(retro::smallest_plan(cost).lean);
    CHECK(plan.peak_bytes < 20 * GiB);
  }
}

TEST_CASE("a limit below every plan refuses nothing, the machine's memory does", "[retro]") {
  EmptyDirectory dir;
  retro::GenerateOptions& options = dir.options;
  const Material kqk = wide_material("KQk");
  options.machine_memory = 1 << 20;  // KQk takes about 9 MB
  CHECK(refusal(kqk, options).starts_with("KQk: its solve is estimated at 9 MiB"));
  CHECK(dir.empty());
  // A limit below every plan chooses the smallest; the machine decides what cannot be built.
  options.machine_memory = 0;
  options.max_memory = 1 << 20;
  CHECK(refusal(kqk, options) == "not refused");
  CHECK(std::filesystem::exists(dir.path / "KQk.egtb"));
}

TEST_CASE("a limit above the machine's memory is the machine's", "[retro]") {
  EmptyDirectory dir;
  retro::GenerateOptions& options = dir.options;
  // KRkp solved whole is estimated above this machine, in slices below it: sliced, though
  // --max-memory would let it be solved whole.
  const Material krkp = wide_material("KRkp");
  const retro::CostEstimate cost = retro::estimate_cost(krkp);
  REQUIRE(cost.sliced_peak_bytes < cost.peak_bytes);
  options.machine_memory = (cost.sliced_peak_bytes + cost.peak_bytes) / 2;
  options.max_memory = uint64_t{1} << 40;
  const std::vector<retro::GenerateRecord> records = retro::generate_tables(std::span(&krkp, 1), options);
  REQUIRE(records.back().material == krkp);
  CHECK(records.back().slices == cost.slices);
  CHECK(cost.slices > 1);
}

}  // namespace
}  // namespace egtb::test
