// HugePageAllocator: blocks of 64 MiB or more start on a 2 MiB boundary (what huge pages need),
// smaller ones come from operator new, and both hold what is written, as a vector grows and
// shrinks through the threshold.
#include <cstdint>
#include <numeric>
#include <vector>

#include "egtb/core/huge_pages.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

TEST_CASE("huge-page blocks are 2 MiB-aligned and hold what is written", "[core][memory]") {
  using Words = std::vector<uint64_t, HugePageAllocator<uint64_t>>;
  const size_t large = HugePageBlockBytes / sizeof(uint64_t) + 3;  // just above the threshold
  Words words(large);
  CHECK(reinterpret_cast<uintptr_t>(words.data()) % HugePageBytes == 0);
  std::iota(words.begin(), words.end(), uint64_t{7});
  CHECK(words.front() == 7);
  CHECK(words.back() == 7 + large - 1);

  Words small(1000, 5);  // from operator new: no alignment asked
  CHECK(small[999] == 5);
  small.resize(large, 9);  // grows into a huge-page block, keeping its contents
  CHECK(reinterpret_cast<uintptr_t>(small.data()) % HugePageBytes == 0);
  CHECK(small[999] == 5);
  CHECK(small[1000] == 9);
  small.resize(10);
  small.shrink_to_fit();  // back below the threshold
  CHECK(small.size() == 10);
  CHECK(small[9] == 5);
}
