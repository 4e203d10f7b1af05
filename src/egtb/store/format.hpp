// The table file format, byte by byte.
//
// A table file holds the scores of one material signature (KQk.egtb) for both sides to move. It
// is built for probing: a probe reads the header once, then one compressed block per position,
// never the whole file. Every byte is covered by a checksum, so a damaged file is reported, never
// misread. All integers are little-endian.
//
//   +-----------------------------+  offset 0
//   | header (H bytes)            |  fixed fields, then signature and generator text, zero padded
//   +-----------------------------+  offset H
//   | block index (24 bytes each) |  where each block is, its transform and checksum
//   +-----------------------------+
//   | file checksum (8 bytes)     |  XXH3-64 of every byte above it
//   +-----------------------------+  offset D = H + 24 * block_count + 8
//   | blocks                      |  back to back, in index order, up to the end of the file
//   +-----------------------------+
//
// Header:
//
//   off  size  field
//     0     8  magic 89 45 47 54 42 0d 0a 1a ("\x89EGTB\r\n\x1a", PNG style: the high byte and
//              the CR LF / ^Z catch 7-bit transfers, newline conversion and text-mode reads)
//     8     4  format version: 2 (FormatVersion); 3 (FilledFormatVersion) for a file whose flags
//              are not all zero, which a reader of version 2 alone must refuse; 4
//              (PackedFormatVersion) for a file with flag bit 1, whose blocks may be Packed (below)
//    12     4  H, the header size in bytes, a multiple of 8
//    16     4  metrics the entries carry: bit 0 DTM, bit 1 DTS (MetricSet, rules.hpp); 2 (DTS
//              alone) marks a stalemate-only table (below)
//    20     4  block entries B: entries per block (the last block of each side may hold fewer)
//    24     4  index scheme id      } of the indexing scheme that numbered the entries; a reader
//    28     4  index scheme version } refuses a table whose scheme differs from its own
//    32     8  entries with White to move, N_w
//    40     8  entries with Black to move, N_b
//    48     8  block count n = ceil(N_w / B) + ceil(N_b / B)
//    56     8  file size in bytes (a shorter file is truncated)
//    64    68  White-to-move statistics (table_stats.hpp): 6 x u64 counts of values 0, 1, 2, 3, 4
//              and of invalid entries, 5 x i32 the deepest depth of values 0 to 4 (-1: no entry of
//              that value)
//   132     4  flags: bit 0 Filled, bit 1 Packed (below); 0 in a file of version 2, bit 0 alone in
//              version 3, bit 1 and maybe bit 0 in version 4
//   136    68  Black-to-move statistics, the same way
//   204     4  zero
//   208     4  rules id (rules.hpp: 0 Lasker)
//   212     4  index order: the order of the index digits (indexing/index_order.hpp) in index
//              layout version 2 ("P Kk R r" of KRPkr is 0x4213); 0 in version 1, which has none
//   216     2  signature length S, then S bytes of canonical signature ("KQk")
//   218+S   2  generator length G, then G bytes of generator version ("egtb 0.1.0")
//              zero bytes up to H

// Block index entry i (at H + 24 i): u64 offset of the block from the start of the file, u32
// stored size, u8 transform, 3 zero bytes, u64 XXH3-64 of the stored bytes. Blocks 0 ..
// ceil(N_w / B) - 1 hold White-to-move entries [i B, (i + 1) B); the rest hold Black-to-move
// entries the same way. A reader checks that each block it reads lies within the blocks (from D to
// the file size); a reader of the whole file checks too that they are contiguous and end there.
//
// Entries are raw 16-bit Scores (score.hpp): value code in bits 0-2, depth in bits 3-15. Each
// block is stored with one of four transforms (block_codec.hpp):
//
//   0 Constant    all entries equal: the 2 bytes of that score, nothing else.
//   1 Planes      a zstd frame of 2m bytes for m entries: the low bytes of the m plane codes,
//                 then their high bytes. The plane code drops the depth parity a valid score
//                 already implies (odd for values 4 and 3, even for 0, 1 and the rest):
//                   half = depth >> 1, residual = (depth & 1) xor implied parity,
//                   low  = value | (half & 31) << 3,  high = half >> 5 | residual << 7.
//                 Depths below 64 plies make the high plane all zero, which zstd stores in a
//                 few bytes, so the low plane carries a whole table of such depths.
//   2 Dictionary  a zstd frame of: u8 k - 1, k distinct scores (u16, ascending), then m one-byte
//                 codes, each an index into that list. Written on request (TransformChoice) for
//                 blocks of at most 256 distinct scores.
//   3 Packed      not compressed: u8 k - 1, k distinct scores (u16, strictly ascending), then m
//                 codes of w = bit_width(k - 1) bits each (0 to 8), each an index into that list:
//                 the code of entry j in bits j w to j w + w - 1 of the bytes after the list, low
//                 bits first, the bits after the last code zero; 1 + 2k + ceil(m w / 8) bytes.
//                 Only in files with flag bit 1 (Packed, version 4: `egtb recompress --packed`),
//                 whose blocks of more than 256 distinct scores are Planes. A probe reads one
//                 entry where the block lies in the mapped file, decoding nothing (Table), after
//                 checking the block's checksum and structure at its first read.
//                 Example: entries 156 2 2 16 156 2 ("mates in 10", draws, "is mated, DTM 2"):
//                 k = 3 (2 16 156), w = 2, codes 2 0 0 1 2 0: the 9 bytes 02 | 02 00 10 00 9c 00 |
//                 42 02 (2 | 1 << 6 = 0x42, then 2). Entry 3 is bits 6-7 of 0x42, code 1: 16.
//
// Filled files (flag bit 0, `egtb recompress --fill`): every invalid entry of a block (one that
// holds no position: men overlapping, the side not to move in check) is stored as a copy of the
// score before it, or of the block's first valid score when none is before it (fill_invalid,
// block_codec.hpp); a block without a valid entry keeps its invalid codes. Runs of equal scores
// then stay unbroken, and the file takes a few percent fewer bytes (docs/table-sizes.md). The
// header's statistics are those of the table as solved (invalid entries counted as such). A
// probe, which only asks for the entries of legal positions (IndexScheme::index_of), reads a
// filled block as stored; every other reader gets the invalid codes back from the index as each
// block is decoded (TableReader, from the men of each entry: IndexScheme::for_each_invalid).
// Example: a block of entries 156 5 5 16 5 (5 invalid) is stored as 156 156 156 16 16; one of
// 5 5 16 as 16 16 16.
//
// Stalemate-only files (metrics 2, `egtb generate --metrics dts`; rules.hpp, StalemateOnly) hold
// the same 16-bit entries with two kinds of valid score: value 3 or 1 with its DTS, exactly as the
// full table has it, and value 2 with depth 0 for every other position, read "not a stalemate win
// or loss" (the full table's 4, 2 or 0). They are always written filled (flag bit 0, format
// version 3), so a block without stalemates is one Constant block of 2 bytes. Example: a block of
// full-table entries 156 2 5 16 27 ("mates in 10", draw, invalid, "is mated, DTM 2", "stalemates
// in 3": 3 | 3 << 3) is stored as 2 2 2 2 27; one of 156 5 16 as 2 2 2, a Constant block "02 00".
// On the 3-4-man set they take 4.7% of the bytes of the full tables (docs/table-sizes.md).
//
// Why these choices (measured on DTM tables built from Gaviota's 3-4-man tables, indexed with 462
// king pairs, 25-40% of the entries invalid): Planes and Dictionary come within 1-2% of each
// other, and value/depth planes, zstd dictionaries trained per table, or one frame for the whole
// table gain nothing or lose random access. Blocks of 32768 entries (64 KiB decoded) decode in
// about 50 us; doubling B saves 3-5% of the size at level 3 and doubles that latency. zstd level 3
// compresses 170-370 MB/s per thread; level 7 is 5-13% smaller at a third of that speed, level 19
// 20-25% smaller at 3-6 MB/s, too slow for generation by default (WriteOptions and `egtb generate
// --compression-level` pick; the default is 3). At high levels bigger blocks gain more: zstd tunes
// each level for inputs up to 256 KiB, and `egtb recompress` writes level 15 on blocks of 2^17
// entries, which takes about three quarters of level 3's bytes on the 3-5-man set
// (docs/table-sizes.md). Each table's order of index digits (index_order.hpp) is chosen as it is
// written, by the bytes a sample of its blocks takes at level 3 in each order it may take
// (order_choice.hpp: generate keeps the king pair leading where other solves page the table).
//
// Worked example: a toy "KQk" file with B = 4, N_w = 5, N_b = 4, metrics DTM and DTS, Lasker
// rules, index scheme 1 version 2 with the order "Kk Q" (code 0x21), generator "egtb 0.1.0", and
// these entries:
//   White to move: 156 156 156 156 | 5   four times "mates in 10" (4 | 19 << 3), then invalid (5)
//   Black to move: 2 2 16 2              draws and one "is mated, DTM 2" (0 | 2 << 3)
// It is 341 bytes (hex dump, offsets in hex):
//   000  89 45 47 54 42 0d 0a 1a  02 00 00 00  f0 00 00 00   magic, version 2, H = 240
//   010  03 00 00 00  04 00 00 00  01 00 00 00  02 00 00 00   metrics 3, B = 4, scheme 1, version 2
//   020  05 00 00 00 00 00 00 00  04 00 00 00 00 00 00 00     N_w = 5, N_b = 4
//   030  03 00 00 00 00 00 00 00  55 01 00 00 00 00 00 00     3 blocks, file size 341
//   040  White: counts 0 0 0 0 4, invalid 1 (u64 each), max depths ff ff ff ff (value 0) ff ff ff ff
//        ff ff ff ff ff ff ff ff 13 00 00 00 (value 4: 19), 00 00 00 00
//   088  Black: counts 1 0 3 0 0, invalid 0, max depths 02 00 00 00, ff ff ff ff, 00 00 00 00 (the
//        draws' depth 0), ff ff ff ff, ff ff ff ff, 00 00 00 00
//   0d0  00 00 00 00 21 00 00 00                              rules 0 (Lasker), index order 0x21
//   0d8  03 00 4b 51 6b  0a 00 65 67 74 62 20 30 2e 31 2e 30  "KQk", "egtb 0.1.0", zeros up to 0f0
//   0f0  block 0: offset 40 01 .. (320), size 2, transform 0, checksum 27 d2 a8 77 6c b7 f1 96
//   108  block 1: offset 42 01 .. (322), size 2, transform 0, checksum 2c 82 ee ad 68 7f 0b 24
//   120  block 2: offset 44 01 .. (324), size 17, transform 1, checksum a2 84 16 7c 46 a5 51 ad
//   138  97 63 ca 6a e6 11 53 29                              file checksum (XXH3-64 of 000-137)
//   140  9c 00                                                block 0: Constant 156
//   142  05 00                                                block 1: Constant 5 (one entry)
//   144  28 b5 2f fd 20 08 41 00 00  02 02 08 02  00 00 00 00 block 2: Planes, a zstd frame
// In block 2 the plane code of a draw (2) is 02 and that of "is mated, DTM 2" is 0 | 1 << 3 = 08;
// the high plane is all zero. zstd stored these 8 bytes raw (so small an input does not
// compress): magic 28 b5 2f fd, frame header 20 08 (content size 8), block header 41 00 00 (last
// block, raw, 8 bytes). On real tables blocks of 32768 entries shrink 5 to 15 times.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/block_codec.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/table_stats.hpp"

namespace egtb {

inline constexpr std::array<uint8_t, 8> FileMagic = {0x89, 'E', 'G', 'T', 'B', '\r', '\n', 0x1a};
inline constexpr uint32_t FormatVersion = 2;
inline constexpr uint32_t FilledFormatVersion = 3;
inline constexpr uint32_t PackedFormatVersion = 4;
// Header flag bits (offset 132).
inline constexpr uint32_t FilledFlag = 1;
inline constexpr uint32_t PackedFlag = 2;
inline constexpr uint32_t DefaultBlockEntries = 1u << 15;
inline constexpr const char* TableExtension = ".egtb";

inline constexpr size_t FixedHeaderBytes = 216;
inline constexpr size_t BlockIndexEntryBytes = 24;
inline constexpr size_t MaxHeaderBytes = 4096;

// Everything the header says about a table (the fixed fields and the two texts).
struct TableHeader {
  uint32_t format_version = FormatVersion;
  std::string signature;
  Rules rules = Rules::Lasker;
  MetricSet metrics;
  uint32_t block_entries = DefaultBlockEntries;
  uint32_t index_scheme = 0;
  uint32_t index_version = 0;
  uint32_t index_order = 0;           // IndexOrder::code(), 0 in index layout version 1
  std::array<uint64_t, 2> entries{};  // per side to move, indexed by to_index(Color)
  uint64_t block_count = 0;
  uint64_t file_size = 0;
  std::array<SideStats, 2> stats{};
  bool filled = false;  // invalid entries stored as copies of their neighbours' scores (FilledFlag)
  bool packed = false;  // blocks may be Packed, read in place by probes (PackedFlag)
  std::string generator;
  uint64_t checksum = 0;  // the file checksum: XXH3-64 of header and block index

  // Blocks holding one side's entries.
  [[nodiscard]] uint64_t blocks_of_side(int side) const;
  // Bytes before the first block: header, block index and file checksum.
  [[nodiscard]] uint64_t data_offset() const;
  // Positions (valid entries) of both sides to move.
  [[nodiscard]] uint64_t positions() const;
  // File bytes per position of both sides, and per index entry (valid or not) of both sides; 0
  // when there are none.
  [[nodiscard]] double bytes_per_position() const;
  [[nodiscard]] double bytes_per_entry() const;
};

struct BlockRef {
  uint64_t offset = 0;
  uint32_t size = 0;
  BlockTransform transform = BlockTransform::Constant;
  uint64_t checksum = 0;  // XXH3-64 of the stored bytes
};

// Which side and entries a block covers.
struct BlockSpan {
  int side = 0;
  uint64_t first = 0;  // first entry of that side
  uint64_t count = 0;
};

// The block holding entry `index` of side `side`, and the entries a block covers.
[[nodiscard]] uint64_t block_of(const TableHeader& h, int side, uint64_t index);
[[nodiscard]] BlockSpan block_span(const TableHeader& h, uint64_t block);

// H for this header: the fixed fields and both texts, rounded up to a multiple of 8.
[[nodiscard]] uint64_t header_bytes(const TableHeader& h);

// Header, block index and file checksum as stored; sets h.checksum.
[[nodiscard]] std::vector<uint8_t> encode_preamble(TableHeader& h, std::span<const BlockRef> blocks);

// The header size H from the first 16 bytes of a file, after checking magic and format version.
// Throws FormatError naming `path`.
[[nodiscard]] uint64_t decode_header_size(std::span<const uint8_t> first16,
                                          const std::filesystem::path& path);
// The header fields from its H bytes, unchecked: the caller checks the file checksum, then calls
// check_header before trusting them.
[[nodiscard]] TableHeader decode_header(std::span<const uint8_t> header, const std::filesystem::path& path);
// Throws FormatError unless the fields agree: block count, counts adding up to the entries.
void check_header(const TableHeader& h, const std::filesystem::path& path);
// Block index entry `block` from its BlockIndexEntryBytes bytes, checked: a known transform and
// stored bytes within the blocks of header `h` (data_offset() to the file size). What a probe
// needs of the index, read entry by entry. Example: 48 01 00 00 00 00 00 00 | 9a 00 00 00 |
// 01 00 00 00 | 8 checksum bytes is a Planes block of 154 bytes at offset 328. Throws FormatError
// naming `path`.
[[nodiscard]] BlockRef decode_block_ref(const TableHeader& h, uint64_t block, std::span<const uint8_t> entry,
                                        const std::filesystem::path& path);
// The whole block index, checked: every entry as decode_block_ref checks it, and the blocks
// contiguous from data_offset() to the file size. Throws FormatError naming `path`.
[[nodiscard]] std::vector<BlockRef> decode_block_index(const TableHeader& h, std::span<const uint8_t> index,
                                                       const std::filesystem::path& path);

// The rules of a header's rules id, and its metrics from their bits, checked: every bit names a
// metric, and the metrics are those of the first phases of the rules (a table solves its rules'
// phases in order: a Lasker table holds DTM, or DTM and DTS), or DTS alone in a stalemate-only
// Lasker table (rules.hpp, StalemateOnly). Example: bits 0x4 (DTE) in a Lasker table are refused.
// Throw FormatError naming `path`.
[[nodiscard]] Rules header_rules(uint32_t id, const std::filesystem::path& path);
[[nodiscard]] MetricSet header_metrics(uint32_t bits, Rules rules, const std::filesystem::path& path);

// The order of a header's index digits by the men they place ("P Kk R r", IndexOrder::str): the
// king pair leading in index layout version 1; the code in hex when it names no order of the table.
[[nodiscard]] std::string index_order_name(const TableHeader& h);

// XXH3-64 of a byte range (block checksums and the file checksum).
[[nodiscard]] uint64_t checksum_of(std::span<const uint8_t> bytes);
// checksum_of the bytes of `first` followed by those of `then`, without joining them: a header
// copied out of a mapped file and the block index read in the mapping. Example: checksum_of(a, b)
// is checksum_of(ab). Holds no object with a destructor, so it may run under MappedFile's guard.
[[nodiscard]] uint64_t checksum_of(std::span<const uint8_t> first, std::span<const uint8_t> then);

// "rebuild it with: egtb generate KQk --force --dir tables" for the table file tables/KQk.egtb
// ("... KQk --rules stalemate-wins ..." for tables/KQk.stalemate-wins.egtb).
[[nodiscard]] std::string rebuild_hint(const std::filesystem::path& table_file);
// The command that writes a value file again from its table: "write it again with: egtb
// recompress KQk --dir tables --value-files" for tables/KQk.egv.
[[nodiscard]] std::string rewrite_values_hint(const std::filesystem::path& value_file);

// Where the table of a signature (either colour orientation) lives in a directory:
// <directory>/<canonical signature>.egtb under Lasker rules, e.g. tables/KQk.egtb for Kkq, and
// <directory>/<signature>.<rules>.egtb under others (tables/KQk.stalemate-wins.egtb), so that
// tables of every rule set live side by side. The one path builder.
[[nodiscard]] std::filesystem::path table_path(const std::filesystem::path& directory,
                                               const Material& material, Rules rules = Rules::Lasker);

}  // namespace egtb
