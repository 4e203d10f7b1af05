// Bit sets in compressed form, for writing frontiers and result sets (indexing/bitset.hpp).
//
// Layout: the zstd frame of BitSet::to_bytes() ((size + 7) / 8 little-endian bytes), preceded by
// the XXH3-64 checksum of the uncompressed bytes (8 bytes, little-endian). Example: a set of
// 1,000,000 bits with 3 bits set compresses from 125,000 bytes to about 30 bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/expected.hpp"
#include "indexing/bitset.hpp"

namespace egtb {

[[nodiscard]] std::vector<uint8_t> compress_bitset(const indexing::BitSet& set, int level = 3);

// The set of `size` bits stored in `bytes`, or what is wrong (bad frame, checksum, length).
[[nodiscard]] Expected<indexing::BitSet, std::string> decompress_bitset(std::span<const uint8_t> bytes,
                                                                        indexing::Index size);

}  // namespace egtb
