// The peak resident memory of a table's build: reset before each build, so that a run building
// many tables reports each one's own peak (retro/process_usage.hpp).
#include <sys/mman.h>

#include <cstdint>
#include <cstring>

#include "retro/process_usage.hpp"
#include "tests/support/catch.hpp"

using namespace egtb::retro;

namespace {

constexpr uint64_t MiB = uint64_t{1} << 20;

// Touches `bytes` of fresh memory, then gives it back to the system (mapped and unmapped here, not
// through an allocator that might keep it, as a sanitizer's quarantine does).
void touch_and_free(uint64_t bytes) {
  void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(block != MAP_FAILED);
  std::memset(block, 1, bytes);
  munmap(block, bytes);
}

}  // namespace

TEST_CASE("the peak resident memory counts from its last reset", "[process_usage]") {
  reset_peak_resident();
  const uint64_t before = peak_resident_bytes();
  REQUIRE(before > 0);
  touch_and_free(256 * MiB);
  const uint64_t high = peak_resident_bytes();
  CHECK(high >= before + 200 * MiB);
  reset_peak_resident();
  CHECK(peak_resident_bytes() < high - 200 * MiB);
}

TEST_CASE("CPU seconds grow with work", "[process_usage]") {
  const double start = process_cpu_seconds();
  touch_and_free(64 * MiB);
  CHECK(process_cpu_seconds() > start);
}
