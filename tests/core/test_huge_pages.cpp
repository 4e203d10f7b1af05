// HugePageAllocator: blocks of 64 MiB or more start on a 2 MiB boundary (what huge pages need),
// smaller ones come from operator new, and both hold what is written, as a vector grows and
// shrinks through the threshold. HugePageResource: small requests side by side in 2 MiB regions,
// large ones mapped alone, a large one's last huge page, filled in part, not mapped past its last
// page.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <numeric>
#include <set>
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

TEST_CASE("HugePageResource cuts small requests from 2 MiB regions and maps large ones alone",
          "[core][memory]") {
  HugePageResource memory;
  constexpr size_t Blocks = 3000, BlockBytes = 2048;  // 1,024 entries of two bytes
  std::vector<uint8_t*> blocks;
  for (size_t i = 0; i < Blocks; ++i) {
    auto* block = static_cast<uint8_t*>(memory.allocate(BlockBytes, 2));
    std::fill(block, block + BlockBytes, static_cast<uint8_t>(i));
    blocks.push_back(block);
  }
  CHECK(reinterpret_cast<uintptr_t>(blocks[0]) % HugePageBytes == 0);  // a region's start
  std::set<uintptr_t> regions;
  for (size_t i = 0; i < Blocks; ++i) {
    CHECK((blocks[i][0] == static_cast<uint8_t>(i) && blocks[i][BlockBytes - 1] == static_cast<uint8_t>(i)));
    regions.insert(reinterpret_cast<uintptr_t>(blocks[i]) / HugePageBytes);
  }
  CHECK(regions.size() == 3);  // 6,144,000 bytes in three regions of 2 MiB, no block split
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < Blocks; ++i) CHECK(blocks[i] - blocks[i - 1] >= static_cast<ptrdiff_t>(BlockBytes));

  (void)memory.allocate(1, 1);
  CHECK(reinterpret_cast<uintptr_t>(memory.allocate(64, 64)) % 64 == 0);

  const size_t large = 3 * HugePageBytes / 2;
  auto* own = static_cast<uint8_t*>(memory.allocate(large, 64));
  CHECK(reinterpret_cast<uintptr_t>(own) % HugePageBytes == 0);
  own[0] = 1;
  own[large - 1] = 2;
  CHECK(own[0] + own[large - 1] == 3);
  memory.deallocate(own, large, 64);
}

// A pool's chunk of 32 blocks of 64 KiB and its bookkeeping: 2 MiB and a few bytes. Its mapping ends
// at the page holding its last byte, so that writing that byte takes a 4 KiB page, not a second
// huge page (a mapping rounded up to whole huge pages made a block cache hold twice its limit).
TEST_CASE("HugePageResource maps a large request up to its last page, not its last huge page",
          "[core][memory]") {
  HugePageResource memory;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t request = HugePageBytes + 64;
  auto* chunk = static_cast<uint8_t*>(memory.allocate(request, 64));
  chunk[0] = 1;
  chunk[request - 1] = 2;
  CHECK(chunk[0] + chunk[request - 1] == 3);
  unsigned char resident = 0;
  CHECK(::mincore(chunk + HugePageBytes, 1, &resident) == 0);  // the last byte's page is mapped
  CHECK((resident & 1) == 1);
  // The next page is not: mincore fails with ENOMEM on an address outside every mapping.
  CHECK(::mincore(chunk + HugePageBytes + page, page, &resident) == -1);
  CHECK(errno == ENOMEM);
  memory.deallocate(chunk, request, 64);
}
