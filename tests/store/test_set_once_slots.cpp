#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "egtb/store/set_once_slots.hpp"

using egtb::SetOnceSlots;

namespace {

struct Named {
  int name = 0;
};

// A hash whose top `bits` bits are `slot`.
uint64_t hash_at(uint64_t slot, int bits) { return slot << (64 - bits) | 0x1234; }

}  // namespace

TEST_CASE("set-once slots find each object past the others of its search, wrapping at the end") {
  // The header's example: 4 slots, hashes at slots 3, 3 and 0.
  SetOnceSlots<Named> slots(2);
  const std::array<Named, 4> objects = {Named{1}, Named{2}, Named{3}, Named{4}};
  const auto named = [](int name) { return [name](const Named& n) { return n.name == name; }; };
  CHECK(slots.find(hash_at(3, 2), named(1)) == nullptr);
  REQUIRE(slots.add(hash_at(3, 2), &objects[0]));
  REQUIRE(slots.add(hash_at(3, 2), &objects[1]));
  REQUIRE(slots.add(hash_at(0, 2), &objects[2]));
  CHECK(slots.find(hash_at(3, 2), named(1)) == &objects[0]);
  CHECK(slots.find(hash_at(3, 2), named(2)) == &objects[1]);  // slot 0, after slot 3
  CHECK(slots.find(hash_at(0, 2), named(3)) == &objects[2]);  // slot 1, after the second
  CHECK(slots.find(hash_at(0, 2), named(1)) == nullptr);      // not in slots 0 and 1; slot 2 is empty
  CHECK(slots.find(hash_at(1, 2), named(3)) == &objects[2]);
  CHECK(slots.find(hash_at(2, 2), named(3)) == nullptr);  // slot 2 is empty
  // Three quarters set: a fourth is refused and the slots stay as they were.
  CHECK(!slots.add(hash_at(2, 2), &objects[3]));
  CHECK(slots.find(hash_at(2, 2), named(4)) == nullptr);
  CHECK(slots.find(hash_at(3, 2), named(2)) == &objects[1]);
}

TEST_CASE("set-once slots are searched by many threads while one adds") {
  // 600 objects, many sharing a first slot (hashes at 64 slots of 1,024): readers search for every
  // object added so far (a count the writer publishes after each add) and must find each.
  constexpr int Bits = 10;
  constexpr int Count = 600;
  std::vector<Named> objects(Count);
  for (int k = 0; k < Count; ++k) objects[static_cast<size_t>(k)].name = k;
  const auto hash_of = [](int k) { return hash_at(static_cast<uint64_t>(k % 64) * 16, Bits); };
  SetOnceSlots<Named> slots(Bits);
  std::atomic<int> added = 0;
  std::atomic<int> missed = 0;
  std::vector<std::thread> readers;
  for (int r = 0; r < 3; ++r)
    readers.emplace_back([&] {
      while (added.load(std::memory_order_acquire) < Count) {
        const int n = added.load(std::memory_order_acquire);
        for (int k = 0; k < n; ++k)
          if (slots.find(hash_of(k), [k](const Named& o) { return o.name == k; }) !=
              &objects[static_cast<size_t>(k)])
            ++missed;
      }
    });
  for (int k = 0; k < Count; ++k) {
    REQUIRE(slots.add(hash_of(k), &objects[static_cast<size_t>(k)]));
    added.store(k + 1, std::memory_order_release);
  }
  for (std::thread& t : readers) t.join();
  CHECK(missed == 0);
  for (int k = 0; k < Count; ++k)
    CHECK(slots.find(hash_of(k), [k](const Named& o) { return o.name == k; }) ==
          &objects[static_cast<size_t>(k)]);
}
