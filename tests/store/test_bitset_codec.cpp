#include "egtb/store/bitset_codec.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using indexing::BitSet;

TEST_CASE("a compressed bit set round-trips and is small when sparse", "[bitset]") {
  BitSet set(1'000'003);
  for (indexing::Index i : {0ULL, 64ULL, 999'999ULL, 1'000'002ULL}) set.set(i);
  const std::vector<uint8_t> bytes = compress_bitset(set);
  CHECK(bytes.size() < 200);
  const auto back = decompress_bitset(bytes, set.size());
  REQUIRE(back.has_value());
  CHECK(*back == set);
}

TEST_CASE("a damaged compressed bit set is refused", "[bitset]") {
  BitSet set(5000);
  for (indexing::Index i = 0; i < 5000; i += 7) set.set(i);
  std::vector<uint8_t> bytes = compress_bitset(set);
  CHECK_FALSE(decompress_bitset(bytes, 4000).has_value());
  std::vector<uint8_t> checksum_damaged = bytes;
  checksum_damaged[0] ^= 1;
  CHECK(decompress_bitset(checksum_damaged, 5000).error() == "compressed bit set: checksum mismatch");
  bytes.back() ^= 0xff;
  CHECK_FALSE(decompress_bitset(bytes, 5000).has_value());
  CHECK_FALSE(decompress_bitset(std::span<const uint8_t>(bytes.data(), 3), 5000).has_value());
}
