#include "egtb/store/bitset_codec.hpp"

#include <xxhash.h>
#include <zstd.h>

namespace egtb {

namespace {

constexpr size_t ChecksumBytes = 8;

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get_u64(std::span<const uint8_t> in) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v |= static_cast<uint64_t>(in[i]) << (8 * i);
  return v;
}

}  // namespace

std::vector<uint8_t> compress_bitset(const indexing::BitSet& set, int level) {
  const std::vector<uint8_t> raw = set.to_bytes();
  std::vector<uint8_t> out;
  put_u64(out, XXH3_64bits(raw.data(), raw.size()));
  out.resize(ChecksumBytes + ZSTD_compressBound(raw.size()));
  const size_t n =
      ZSTD_compress(out.data() + ChecksumBytes, out.size() - ChecksumBytes, raw.data(), raw.size(), level);
  out.resize(ChecksumBytes + n);
  return out;
}

Expected<indexing::BitSet, std::string> decompress_bitset(std::span<const uint8_t> bytes,
                                                          indexing::Index size) {
  if (bytes.size() < ChecksumBytes) return unexpected(std::string("compressed bit set: too short"));
  const std::span<const uint8_t> frame = bytes.subspan(ChecksumBytes);
  const unsigned long long expected = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (expected == ZSTD_CONTENTSIZE_ERROR || expected == ZSTD_CONTENTSIZE_UNKNOWN ||
      expected != (size + 7) / 8)
    return unexpected(std::string("compressed bit set: not a zstd frame of the expected length"));
  std::vector<uint8_t> raw(static_cast<size_t>(expected));
  const size_t n = ZSTD_decompress(raw.data(), raw.size(), frame.data(), frame.size());
  if (ZSTD_isError(n) || n != raw.size())
    return unexpected(std::string("compressed bit set: damaged zstd frame"));
  if (XXH3_64bits(raw.data(), raw.size()) != get_u64(bytes))
    return unexpected(std::string("compressed bit set: checksum mismatch"));
  return indexing::BitSet::from_bytes(raw, size);
}

}  // namespace egtb
