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
#include <new>

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

}  // namespace egtb
