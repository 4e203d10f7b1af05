#include "egtb/core/huge_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace egtb {

namespace {

// Requests of this size or more are mapped on their own.
constexpr size_t OwnRegionBytes = HugePageBytes / 4;

// `bytes` rounded up to whole pages of the system: the length of its mapping.
size_t mapping_bytes(size_t bytes) {
  static const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  return (bytes + page - 1) / page * page;
}

// `bytes` mapped on a huge-page boundary, the huge pages it fills marked MADV_HUGEPAGE. A last huge
// page it fills in part stays in normal pages, which the kernel cannot back by a huge page as the
// mapping ends inside it. Example: a pool's chunk of 32 blocks of 64 KiB is 2 MiB of blocks and a
// few bytes of bookkeeping after them: one huge page and one 4 KiB page, where a mapping rounded up
// to whole huge pages took two huge pages once the bookkeeping was written (4 MiB resident for 2 MiB
// of blocks). A huge page more is mapped, and the parts before the boundary and past the end are
// unmapped again.
void* map_huge(size_t bytes) {
  const size_t length = mapping_bytes(bytes);
  void* mapped =
      ::mmap(nullptr, length + HugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (start + HugePageBytes - 1) / HugePageBytes * HugePageBytes;
  if (aligned > start) ::munmap(mapped, aligned - start);
  if (const size_t tail = start + HugePageBytes - aligned; tail > 0)
    ::munmap(reinterpret_cast<void*>(aligned + length), tail);
  if (const size_t whole = length / HugePageBytes * HugePageBytes; whole > 0)
    ::madvise(reinterpret_cast<void*>(aligned), whole, MADV_HUGEPAGE);  // advice only
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

HugePageResource::~HugePageResource() {
  for (const auto& [region, bytes] : regions_) ::munmap(region, bytes);
}

void* HugePageResource::do_allocate(size_t bytes, size_t alignment) {
  if (bytes >= OwnRegionBytes) return map_huge(bytes);
  const std::lock_guard lock(mutex_);
  size_t skip = next_ ? (alignment - reinterpret_cast<uintptr_t>(next_) % alignment) % alignment : 0;
  if (!next_ || skip + bytes > left_) {
    regions_.reserve(regions_.size() + 1);  // so that recording the region cannot fail
    next_ = static_cast<std::byte*>(map_huge(HugePageBytes));
    regions_.emplace_back(next_, HugePageBytes);
    left_ = HugePageBytes;
    skip = 0;  // a region starts on a huge-page boundary, aligned for any request
  }
  void* p = next_ + skip;
  next_ += skip + bytes;
  left_ -= skip + bytes;
  return p;
}

void HugePageResource::do_deallocate(void* p, size_t bytes, size_t /*alignment*/) {
  if (bytes >= OwnRegionBytes) ::munmap(p, mapping_bytes(bytes));
}

}  // namespace egtb
