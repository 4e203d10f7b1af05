#include "egtb/core/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace egtb {

namespace {

// Requests of this size or more are mapped on their own.
constexpr size_t OwnRegionBytes = HugePageBytes / 4;

size_t whole_huge_pages(size_t bytes) { return (bytes + HugePageBytes - 1) / HugePageBytes * HugePageBytes; }

// `bytes` (whole huge pages) mapped on a huge-page boundary and marked MADV_HUGEPAGE: twice as
// much is mapped, and the parts before the boundary and past the end are unmapped again.
void* map_huge(size_t bytes) {
  void* mapped =
      ::mmap(nullptr, bytes + HugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(mapped);
  const uintptr_t aligned = (start + HugePageBytes - 1) / HugePageBytes * HugePageBytes;
  if (aligned > start) ::munmap(mapped, aligned - start);
  if (const size_t tail = start + HugePageBytes - aligned; tail > 0)
    ::munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  ::madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);  // advice only
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

HugePageResource::~HugePageResource() {
  for (const auto& [region, bytes] : regions_) ::munmap(region, bytes);
}

void* HugePageResource::do_allocate(size_t bytes, size_t alignment) {
  if (bytes >= OwnRegionBytes) return map_huge(whole_huge_pages(bytes));
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
  if (bytes >= OwnRegionBytes) ::munmap(p, whole_huge_pages(bytes));
}

}  // namespace egtb
