// BlockCache: decoded blocks of table files, least recently used evicted first, within a memory
// limit in bytes. Shared by every table of a Tablebase and safe for concurrent use. The blocks a
// probing cache decodes live in its own memory: huge pages (HugePageResource, huge_pages.hpp)
// carved by a pool into blocks of each size, whose freed blocks serve the next ones of that size.
//
// Large caches are split into shards by key hash, each with its own mutex and an equal share of
// the limit, so that probing threads rarely wait for each other; small caches (under 8 MiB per
// shard) have a single shard and are exactly LRU. A block is charged its entries' bytes plus
// BlockOverhead; a block larger than a shard's limit is never kept.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <new>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

namespace egtb {

// The allocator of decoded blocks: from a block cache's pool (BlockCache::Memory::HugePagePool: huge
// pages carved into blocks, so that filling a large cache touches few pages), or from operator new. It leaves
// value-initialised elements as the memory held them: resizing a block for a decoder that then writes every
// entry skips clearing it first (a twelfth of a cache miss's time on the archival tables). A block keeps its
// memory resource alive, so it may outlive its cache (a thread's recent blocks, table.hpp).
template <class T>
struct BlockAllocator {
  using value_type = T;

  BlockAllocator() = default;
  explicit BlockAllocator(std::shared_ptr<std::pmr::memory_resource> resource)
      : memory(std::move(resource)) {}
  template <class U>
  BlockAllocator(const BlockAllocator<U>& other) noexcept : memory(other.memory) {}

  [[nodiscard]] T* allocate(size_t n) {
    if (!memory) return static_cast<T*>(::operator new(n * sizeof(T)));
    return static_cast<T*>(memory->allocate(n * sizeof(T), alignof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (!memory)
      ::operator delete(p);
    else
      memory->deallocate(p, n * sizeof(T), alignof(T));
  }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const BlockAllocator<U>& other) const noexcept {
    return memory == other.memory;
  }

  std::shared_ptr<std::pmr::memory_resource> memory;  // null: operator new
};

// The decoded scores of one block.
using BlockEntries = std::vector<uint16_t, BlockAllocator<uint16_t>>;

class BlockCache {
public:
  using Block = std::shared_ptr<const BlockEntries>;

  // Which block of which table (tables are numbered by their owner).
  struct Key {
    uint32_t table = 0;
    uint64_t block = 0;
    bool operator==(const Key&) const = default;
  };

  struct Stats {
    uint64_t hits = 0;
    uint64_t misses = 0;
    uint64_t evictions = 0;
    size_t bytes = 0;   // charged bytes of the blocks held
    size_t blocks = 0;  // blocks held
  };

  // Bookkeeping bytes charged per block on top of its entries (list and map nodes, control block).
  static constexpr size_t BlockOverhead = 128;

  // Where the decoded blocks live.
  enum class Memory : uint8_t {
    Heap,          // operator new: a solve's paged subtables, which evict as they go
    HugePagePool,  // the cache's pool on huge pages: probes, whose cache fills with small blocks
                   // (a first pass over 5-man tables of 1,024-entry blocks: about 43,500 page
                   // faults with the heap, 9,900 with the pool; docs/benchmarks.md)
  };

  explicit BlockCache(size_t capacity_bytes, Memory memory = Memory::Heap);

  [[nodiscard]] size_t capacity() const { return capacity_; }
  // The block, marked most recently used, or nullptr (counted as a miss).
  [[nodiscard]] Block find(const Key& key);
  // Adds a block (or refreshes it), then evicts least recently used blocks beyond the limit.
  void insert(const Key& key, Block block);
  // The block, from the cache or else decoded by load(BlockEntries&) into the cache's memory and
  // inserted.
  template <class Load>
  [[nodiscard]] Block find_or_load(const Key& key, Load&& load) {
    if (Block found = find(key)) return found;
    auto decoded = std::make_shared<BlockEntries>(BlockAllocator<uint16_t>(memory_));
    load(*decoded);
    insert(key, decoded);
    return decoded;
  }
  [[nodiscard]] Stats stats() const;

  [[nodiscard]] static size_t charge(std::span<const uint16_t> block) {
    return block.size() * sizeof(uint16_t) + BlockOverhead;
  }

private:
  struct KeyHash {
    // Fibonacci hashing: the multiplication carries every key bit into the high bits.
    size_t operator()(const Key& k) const {
      return (k.block ^ uint64_t{k.table} << 40) * 0x9E3779B97F4A7C15ULL;
    }
  };
  using Lru = std::list<std::pair<Key, Block>>;
  struct Shard {
    mutable std::mutex mutex;
    Lru lru;  // most recently used first
    std::unordered_map<Key, Lru::iterator, KeyHash> where;
    size_t capacity = 0;
    size_t bytes = 0;
    uint64_t hits = 0, misses = 0, evictions = 0;
  };

  size_t capacity_;
  std::vector<std::unique_ptr<Shard>> shards_;
  std::shared_ptr<std::pmr::memory_resource> memory_;  // the pool, or null for the heap

  [[nodiscard]] Shard& shard_of(const Key& key) const;
  static void evict_beyond_limit(Shard& s);
};

}  // namespace egtb
