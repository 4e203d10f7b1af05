// HugePageAllocator: an allocator for the arrays read at random over hundreds of megabytes or more
// (the solver's bit sets and depth bytes, a table side held in memory). Each of its blocks of
// 64 MiB or more starts on a 2 MiB boundary and is marked MADV_HUGEPAGE before it is touched, so
// that Linux backs it with transparent huge pages where its setting is `madvise` (Debian's
// default): one TLB entry then covers 2 MiB instead of 4 KiB, and a random read rarely walks the
// page tables. Example: `egtb verify KQRkr --part 2/40 --threads 1` (its 485 MB of entries held
// whole) took 4.8-5.0 s of user CPU with huge pages against 5.4-5.6 s without, and generating
// KQRkr 7.7-8.0 s against 8.2-8.4 s, 1.5 MB more at its peak; a 6-man KNNNkn held whole (4.3 GB)
// was loaded and checked in part with 11.6 s user and 4 s system CPU against 19-21 s and 14 s
// (docs/benchmarks.md). Smaller blocks come from operator new: with huge pages for every block of
// 2 MiB or more, KQRkr's bit sets of 15 MB each took 26 MB more in all, their last pages partly
// used. Where the kernel has no huge pages to give, the memory is what operator new would give.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory_resource>
#include <mutex>
#include <new>
#include <vector>

#include <sys/mman.h>

namespace egtb {

inline constexpr size_t HugePageBytes = size_t{2} << 20;
// The smallest block given huge pages: its last page, partly used, wastes at most 3% of it.
inline constexpr size_t HugePageBlockBytes = size_t{64} << 20;

template <class T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  [[nodiscard]] T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < HugePageBlockBytes) return static_cast<T*>(::operator new(bytes));
    void* p = std::aligned_alloc(HugePageBytes, rounded(bytes));
    if (!p) throw std::bad_alloc();
    ::madvise(p, rounded(bytes), MADV_HUGEPAGE);  // advice only: without it, normal pages
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < HugePageBlockBytes)
      ::operator delete(p);
    else
      std::free(p);
  }

  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }

private:
  // `bytes` rounded up to whole huge pages, as aligned_alloc wants a multiple of the alignment.
  static size_t rounded(size_t bytes) { return (bytes + HugePageBytes - 1) / HugePageBytes * HugePageBytes; }
};

// HugePageResource: memory on 2 MiB huge pages for many blocks of a few kilobytes each that are
// kept and touched at random (the block cache's decoded blocks, under a pool resource that carves
// them: block_cache.hpp). A requested size under a quarter of a huge page is cut from the current
// 2 MiB region, the rest of which serves the next requests, and stays until the resource is
// destroyed (a pool resource returns its chunks only then); a larger one is mapped on its own, on
// huge pages as far as it fills them and on normal pages after, and unmapped when returned.
// Example: a cache filled with 64,603 blocks of 1,024 entries (2 KiB each) touches 65 huge pages
// where operator new's memory took 32,000 page faults of 4 KiB, each some microseconds in a
// virtual machine (docs/benchmarks.md).
// Where the kernel gives no huge pages, the regions are normal pages. Thread-safe.
class HugePageResource final : public std::pmr::memory_resource {
public:
  HugePageResource() = default;
  HugePageResource(const HugePageResource&) = delete;
  HugePageResource& operator=(const HugePageResource&) = delete;
  ~HugePageResource() override;

private:
  std::mutex mutex_;
  std::vector<std::pair<void*, size_t>> regions_;  // the shared regions, unmapped at the end
  std::byte* next_ = nullptr;                      // the current region's free part
  size_t left_ = 0;

  void* do_allocate(size_t bytes, size_t alignment) override;
  void do_deallocate(void* p, size_t bytes, size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

}  // namespace egtb
