// Every 3- and 4-man table, solved in dependency order, verified one ply forward and against
// Gaviota at every position. CI runs it explicitly (ctest -L slow, or test_retro "[all4]").
#include <chrono>
#include <iostream>

#include "retro/verify.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

#ifdef EGTB_HAVE_GAVIOTA
#include "retro/gaviota.hpp"
#endif

namespace egtb::test {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void compare_with_gaviota(const Table& table, const std::optional<std::filesystem::path>& dir) {
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  const retro::GaviotaReport report = retro::compare_with_gaviota(table, *dir, TestThreads);
  INFO(retro::format_report(report));
  CHECK(report.ok());
  CHECK(report.positions_checked > 0);
#endif
}

}  // namespace

TEST_CASE("every 3- and 4-man table verifies, forward and against Gaviota", "[slow][all4]") {
  const auto gaviota = gaviota_dir_or_skip();
  const auto signatures = all_signatures(4);
  REQUIRE(signatures.size() == 35);
  double solve_time = 0;
  double verify_time = 0;
  double gaviota_time = 0;
  for (const Material& m : signatures) {
    INFO(m.str());
    auto start = std::chrono::steady_clock::now();
    const Table& table = solved(m);
    solve_time += seconds_since(start);
    start = std::chrono::steady_clock::now();
    const retro::VerifyReport report = retro::verify_table(table, solved_tables(), TestThreads);
    verify_time += seconds_since(start);
    INFO(retro::format_report(report));
    CHECK(report.ok());
    start = std::chrono::steady_clock::now();
    compare_with_gaviota(table, gaviota);
    gaviota_time += seconds_since(start);
  }
  std::cout << "35 tables: solve " << solve_time << " s, verify " << verify_time << " s, Gaviota "
            << gaviota_time << " s\n";
}

}  // namespace egtb::test
