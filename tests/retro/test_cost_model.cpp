// The cost model's estimates (retro/cost_model.hpp) for 6- and 7-man tables, which `egtb plan`
// will give once this build generates them: entries past 2^32 and memory past 4 GiB do not wrap.
// The expected figures are the coefficients times the index sizes, computed here.
#include "retro/cost_model.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/wide_material.hpp"

namespace egtb::test {
namespace {

TEST_CASE("cost estimates of 6- and 7-man tables keep their 64-bit sizes", "[retro][wide]") {
  struct Case {
    const char* signature;
    uint64_t entries;
    const retro::CostCoefficients& c;
  };
  const Case cases[] = {
      // 1806 * 62 * 48 * 62 * 48 normal entries and 1806 * 14 * 62 * 62 e.p. entries.
      {"KRPkrp", uint64_t{15'994'976'256} + 97'191'696, retro::PawnCost},
      {"KQRBkr", uint64_t{462} * 62 * 62 * 62 * 62, retro::PawnlessCost},
      {"KQRBkqr", uint64_t{462} * 62 * 62 * 62 * 62 * 62, retro::PawnlessCost},
  };
  for (const Case& k : cases) {
    INFO(k.signature);
    const retro::CostEstimate e = retro::estimate_cost(wide_material(k.signature));
    CHECK(e.entries_per_side == k.entries);
    const double entries = static_cast<double>(k.entries);
    CHECK(e.cpu_seconds == Approx(k.c.cpu_seconds_per_entry * entries));
    CHECK(static_cast<double>(e.peak_bytes) == Approx(k.c.base_bytes + k.c.bytes_per_entry * entries));
    CHECK(e.peak_bytes > (uint64_t{1} << 32));
  }
}

}  // namespace
}  // namespace egtb::test
