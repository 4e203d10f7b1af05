#include <random>

#include "indexing/binomial.hpp"
#include "indexing/fast_divisor.hpp"
#include "tests/support/catch.hpp"

using namespace egtb::indexing;

namespace {

// The quotient by multiplication against the division instruction, at the edges and at random.
void check_divisor(uint32_t d, std::mt19937& rng) {
  const FastDivisor fast(d);
  for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 2 * d - 1, UINT32_MAX / d * d - 1, UINT32_MAX / d * d,
                     UINT32_MAX - 1, UINT32_MAX})
    REQUIRE(fast.quotient(n) == n / d);
  std::uniform_int_distribution<uint32_t> any;
  for (int k = 0; k < 2000; ++k) {
    const uint32_t n = any(rng);
    REQUIRE(fast.quotient(n) == n / d);
  }
}

}  // namespace

TEST_CASE("the quotient by multiplication equals the division's", "[fast-divisor]") {
  std::mt19937 rng(20261123);
  SECTION("the radices of every group of up to 7 men and per-pair sizes") {
    for (int domain : {48, 62})
      for (int k = 1; k <= 5; ++k) check_divisor(static_cast<uint32_t>(binomial(domain, k)), rng);
    for (uint32_t size : {62u * 62u, 62u * 48u * 62u, 62u * 62u * 62u, 48u * 48u * 48u})
      check_divisor(size, rng);
  }
  SECTION("small, power-of-two and large divisors") {
    for (uint32_t d : {2u, 3u, 7u, 64u, 1u << 16, (1u << 31) - 1, 1u << 31, UINT32_MAX})
      check_divisor(d, rng);
    std::uniform_int_distribution<uint32_t> divisor(2, UINT32_MAX);
    for (int k = 0; k < 200; ++k) check_divisor(divisor(rng), rng);
  }
}
