// One block of a table file: how a run of raw 16-bit scores becomes the bytes stored on disk and
// back. format.hpp documents the four transforms byte by byte; this header is the code side.
// The zstd contexts live behind a pimpl, so no zstd type leaks into the store's headers.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace egtb {

enum class BlockTransform : uint8_t {
  Constant = 0,    // every entry equal: the two bytes of that score, no compression
  Planes = 1,      // zstd frame of two byte planes (low bytes, then high bytes) of a depth-halved code
  Dictionary = 2,  // zstd frame of a sorted list of the distinct scores and one byte code per entry
  Packed = 3,      // a sorted list of the distinct scores and a code of a few bits per entry, not
                   // compressed: read in place, one entry at a time (packed_entry)
};

[[nodiscard]] std::string to_string(BlockTransform t);

// How the writer chooses a transform for blocks that are not constant.
// Planes is as small as Dictionary within 1-2% on real tables and twice as fast to write.
enum class TransformChoice : uint8_t {
  Planes,      // always Planes
  Dictionary,  // Dictionary when at most 256 distinct scores, else Planes
  Smallest,    // whichever of the two is smaller (archival: twice the compression time)
  Packed,      // Packed when at most 256 distinct scores, else Planes: read in place by probes
};

struct EncodedBlock {
  BlockTransform transform = BlockTransform::Constant;
  std::vector<uint8_t> bytes;
};

// Compresses blocks; one per thread (it owns a zstd compression context).
class BlockEncoder {
public:
  explicit BlockEncoder(int level, TransformChoice choice = TransformChoice::Planes);
  ~BlockEncoder();
  BlockEncoder(const BlockEncoder&) = delete;
  BlockEncoder& operator=(const BlockEncoder&) = delete;

  [[nodiscard]] EncodedBlock encode(std::span<const uint16_t> scores);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  TransformChoice choice_;

  EncodedBlock encode_planes(std::span<const uint16_t> scores);
  EncodedBlock encode_dictionary(std::span<const uint16_t> scores, std::span<const uint16_t> distinct);
  static EncodedBlock encode_packed(std::span<const uint16_t> scores, std::span<const uint16_t> distinct);
  std::vector<uint8_t> compress(std::span<const uint8_t> raw);
};

// Expands stored bytes into exactly `entries` raw scores. Returns an empty string on success,
// else what is wrong with the bytes ("zstd: Corrupted block detected", "decoded 12 bytes, expected
// 14"). Thread-safe: each thread uses its own decompression context.
[[nodiscard]] std::string decode_block(BlockTransform transform, std::span<const uint8_t> bytes,
                                       std::span<uint16_t> entries);

// What is wrong with the stored bytes of a Packed block of `entries` entries, or "": its size, its
// list of scores strictly ascending, the bits after the last code zero. A probe checks a block so
// before it reads the block in place; each code is checked as it is read (packed_entry: a code
// past the list is refused), so that a block's first read does not walk its codes.
[[nodiscard]] std::string check_packed_block(std::span<const uint8_t> bytes, size_t entries);

// Entry j of a Packed block that check_packed_block accepted, read in place: one or two bytes of
// codes and two of the list. Whatever the bytes, it reads none outside `bytes`; nothing when entry
// j's code or its score lies past them or the code is past the list (the block changed since it
// was checked). Example: the block 02 02 00 10 00 9c 00 42 02 (format.hpp) gives 16 for j = 3.
[[nodiscard]] std::optional<uint16_t> packed_entry(std::span<const uint8_t> bytes, size_t j);

// Whether a block of this transform can be read in place, one entry at a time (Constant, Packed).
[[nodiscard]] bool in_place_transform(BlockTransform transform);

// What is wrong with the stored bytes of a Constant or Packed block of `entries` entries, or "":
// a Constant block's size (decode_block says the same), check_packed_block for a Packed one.
[[nodiscard]] std::string check_in_place_block(BlockTransform transform, std::span<const uint8_t> bytes,
                                               size_t entries);

// Entry j of a Constant or Packed block, read where its bytes lie (packed_entry for a Packed
// block; a Constant block's two bytes, little-endian). Nothing when the bytes are not such a
// block's: a Constant block not of 2 bytes, or what packed_entry refuses.
[[nodiscard]] std::optional<uint16_t> in_place_entry(BlockTransform transform, std::span<const uint8_t> bytes,
                                                     size_t j);

// Replaces each invalid entry (Score::is_invalid) with the valid score before it, or with the
// first valid score for those before any: what a filled file stores (format.hpp). A block without
// a valid entry is left as it is. Example: 5 156 5 5 16 5 becomes 156 156 156 156 16 16.
void fill_invalid(std::span<uint16_t> scores);

// The depth-halved 16-bit code of the Planes transform and its inverse (a bijection on uint16_t).
[[nodiscard]] uint16_t plane_code(uint16_t raw);
[[nodiscard]] uint16_t plane_decode(uint16_t code);

}  // namespace egtb
