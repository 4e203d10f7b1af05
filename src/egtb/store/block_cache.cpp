#include "egtb/store/block_cache.hpp"

#include <algorithm>

#include "egtb/core/huge_pages.hpp"

namespace egtb {

namespace {

constexpr size_t MinShardBytes = size_t{8} << 20;
constexpr size_t MaxShards = 16;

// The most blocks of one size a pool takes from the huge pages at once: a generated table's block of
// 32,768 entries (64 KiB) then comes in chunks of one huge page, 2 MiB, one of 1,024 entries in
// chunks of 64 KiB cut from a shared huge page. The pool hands out the unused blocks of its newest
// chunk before the freed ones of older chunks, so what a full cache touches is its limit plus one
// chunk. Unbounded, chunks double (16, 32, ... 256 MiB of 64 KiB blocks) and a cache of 256 MiB held
// 485 MiB (docs/benchmarks.md, *The block cache's memory*).
constexpr size_t MaxBlocksPerChunk = 32;

// A cache's block memory: a pool that keeps blocks of each size (2 KiB for 1,024 entries) in chunks
// of huge pages and reuses freed ones, behind a mutex. Blocks larger than a quarter of a huge page
// (more than 262,144 entries) are mapped on their own (HugePageResource).
class BlockMemory final : public std::pmr::memory_resource {
public:
  BlockMemory() : pool_(options(), &pages_) {}

private:
  std::mutex mutex_;
  HugePageResource pages_;
  std::pmr::unsynchronized_pool_resource pool_;

  static std::pmr::pool_options options() {
    std::pmr::pool_options o;
    o.largest_required_pool_block = HugePageBytes / 4;
    o.max_blocks_per_chunk = MaxBlocksPerChunk;
    return o;
  }
  void* do_allocate(size_t bytes, size_t alignment) override {
    const std::lock_guard lock(mutex_);
    return pool_.allocate(bytes, alignment);
  }
  void do_deallocate(void* p, size_t bytes, size_t alignment) override {
    const std::lock_guard lock(mutex_);
    pool_.deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

}  // namespace

BlockCache::BlockCache(size_t capacity_bytes, Memory memory)
    : capacity_(capacity_bytes),
      memory_(memory == Memory::HugePagePool ? std::make_shared<BlockMemory>() : nullptr) {
  const size_t count = std::clamp<size_t>(capacity_bytes / MinShardBytes, 1, MaxShards);
  for (size_t i = 0; i < count; ++i) {
    shards_.push_back(std::make_unique<Shard>());
    shards_.back()->capacity = capacity_bytes / count;
  }
}

BlockCache::Shard& BlockCache::shard_of(const Key& key) const {
  // The high bits of the hash: the low ones also pick the bucket inside the shard's map.
  return *shards_[(KeyHash{}(key) >> 40) % shards_.size()];
}

BlockCache::Block BlockCache::find(const Key& key) {
  Shard& s = shard_of(key);
  const std::lock_guard lock(s.mutex);
  const auto it = s.where.find(key);
  if (it == s.where.end()) {
    ++s.misses;
    return nullptr;
  }
  ++s.hits;
  s.lru.splice(s.lru.begin(), s.lru, it->second);
  return it->second->second;
}

void BlockCache::insert(const Key& key, Block block) {
  Shard& s = shard_of(key);
  const size_t cost = charge(*block);
  if (cost > s.capacity) return;
  const std::lock_guard lock(s.mutex);
  if (const auto it = s.where.find(key); it != s.where.end()) {
    s.lru.splice(s.lru.begin(), s.lru, it->second);
    return;
  }
  s.lru.emplace_front(key, std::move(block));
  s.where.emplace(key, s.lru.begin());
  s.bytes += cost;
  evict_beyond_limit(s);
}

void BlockCache::evict_beyond_limit(Shard& s) {
  while (s.bytes > s.capacity) {
    const auto& [key, block] = s.lru.back();
    s.bytes -= charge(*block);
    s.where.erase(key);
    s.lru.pop_back();
    ++s.evictions;
  }
}

BlockCache::Stats BlockCache::stats() const {
  Stats total;
  for (const auto& s : shards_) {
    const std::lock_guard lock(s->mutex);
    total.hits += s->hits;
    total.misses += s->misses;
    total.evictions += s->evictions;
    total.bytes += s->bytes;
    total.blocks += s->lru.size();
  }
  return total;
}

}  // namespace egtb
