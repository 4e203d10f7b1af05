#include <thread>
#include <vector>

#include "indexing/bitset.hpp"
#include "tests/support/catch.hpp"

using namespace egtb::indexing;

namespace {

BitSet make(Index size, std::initializer_list<Index> members) {
  BitSet set(size);
  for (Index i : members) set.set(i);
  return set;
}

std::vector<Index> members(const BitSet& set, Index begin, Index end) {
  std::vector<Index> out;
  set.for_each(begin, end, [&](Index i) { out.push_back(i); });
  return out;
}

}  // namespace

TEST_CASE("bit set basics and the documented example", "[bitset]") {
  BitSet set = make(100, {3, 64, 99});
  CHECK(set.size() == 100);
  CHECK(set.word_count() == 2);
  CHECK(set.words()[0] == uint64_t{1} << 3);
  CHECK(set.words()[1] == ((uint64_t{1} << 0) | (uint64_t{1} << 35)));
  CHECK(set.test(64));
  CHECK_FALSE(set.test(65));
  CHECK(set.count() == 3);
  CHECK(set.count(4, 100) == 2);
  CHECK(set.count(64, 64) == 0);
  set.reset(64);
  CHECK(set.count() == 2);
  CHECK(set.to_bytes() == std::vector<uint8_t>{8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8});
}

TEST_CASE("bit set algebra, iteration and search", "[bitset]") {
  const BitSet a = make(130, {0, 5, 63, 64, 127, 129});
  const BitSet b = make(130, {5, 64, 100});
  BitSet both = a;
  both &= b;
  CHECK(members(both, 0, 130) == std::vector<Index>{5, 64});
  BitSet either = a;
  either |= b;
  CHECK(either.count() == 7);
  BitSet only_a = a;
  only_a.and_not(b);
  CHECK(members(only_a, 0, 130) == std::vector<Index>{0, 63, 127, 129});
  BitSet differ = a;
  differ ^= b;
  CHECK(members(differ, 0, 130) == std::vector<Index>{0, 63, 100, 127, 129});
  CHECK(members(a, 1, 128) == std::vector<Index>{5, 63, 64, 127});
  CHECK(members(a, 64, 65) == std::vector<Index>{64});
  CHECK(a.find_next(0) == 0);
  CHECK(a.find_next(6) == 63);
  CHECK(a.find_next(65) == 127);
  CHECK(a.find_next(130) == 130);
  CHECK(make(130, {}).find_next(0) == 130);
  BitSet full(130);
  full.set_all();
  CHECK(full.count() == 130);
  CHECK(full.words()[2] == 3);
  full.clear();
  CHECK(full.none());
}

TEST_CASE("bit set bytes round trip and reject bad input", "[bitset]") {
  const BitSet a = make(100, {3, 64, 99});
  const auto bytes = a.to_bytes();
  const auto back = BitSet::from_bytes(bytes, 100);
  REQUIRE(back.has_value());
  CHECK(*back == a);
  CHECK(BitSet::from_bytes(bytes, 200).error() == "a bit set of 200 indices takes 25 bytes, not 13");
  auto padded = bytes;
  padded.back() |= 0x80;
  CHECK(BitSet::from_bytes(padded, 100).error() == "bit set bytes have bits set past index 99");
}

TEST_CASE("concurrent set_atomic loses no bit and reports each change once", "[bitset]") {
  constexpr Index Size = 1 << 16;
  BitSet set(Size);
  std::vector<uint64_t> changed(4, 0);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (Index i = t % 2; i < Size; i += 2)
        if (set.set_atomic(i)) ++changed[t];
    });
  for (auto& th : threads) th.join();
  CHECK(set.count() == Size);
  CHECK(changed[0] + changed[1] + changed[2] + changed[3] == Size);
  CHECK(set.test_atomic(Size - 1));
  set.reset_atomic(Size - 1);
  CHECK_FALSE(set.test(Size - 1));
}
