// Value files (<SIG>.egv beside <SIG>.egtb): the Lasker value of every entry of a table without its
// depths, in a form a chess engine keeps in memory and probes in place, decompressing nothing
// (Tablebase::probe_value, egtb_probe_value). A probe in search needs the value alone; the table
// file's blocks of 32,768 zstd-compressed scores cost a whole block's decoding per probe, about
// 50 us where a probe lands in a block not decoded before, as a search's probes of 5-man tables do.
//
// A value file is written from a finished table file (write_value_file, `egtb recompress
// --value-files`), which it leaves as it is, and mapped into memory (MappedFile), where it stays compact:
// each block of V entries (1,024 by default) is stored in the smallest of six forms, four of them
// read at a fixed place (a constant, or packed values) and two read from the block's start: a
// sequence of runs, or of the symbols of the file's pair grammar (value_grammar.hpp), learnt from
// the table's values and kept in the header. Entries that hold no position (invalid, Score::is_invalid) are
// stored as the value before them, which lengthens the runs: a probe never asks for them
// (IndexScheme::index_of). docs/benchmarks.md (*Probes in search*) gives the sizes and times measured.
//
// Each block has a checksum of its own, checked with its structure (a known form, of the size the
// form gives, palette values at most 4) when a probe first reads the block, once; a block of runs is
// checked as it is read (a probe reads no byte past the block's end, and refuses an entry its runs
// do not reach or a token of more than 4 bytes). Opening checks the header and the block index
// (where each block lies, and its checksum) against the index checksum, and that each block lies
// inside the data, after the one before. So opening reads the header and the index alone, 8 bytes a
// block (KQRkr: 215,054 blocks, 1.7 MB of its 6.5 MB), and a search that probes a few thousand
// blocks of a 100 MB file reads and checks those alone. Opening keeps no copy of the index: a probe
// reads its block's offsets (and at its first read, its checksum) in the mapping, with the block,
// under MappedFile's guard (reader.hpp), so that a file cut short in place while mapped fails the
// probe with IoError rather than stopping the process. One rewritten in place at its size is read
// from its new bytes: offsets that no longer place the block inside the data fail the probe with a
// FormatError naming the block, and a block changed after it was checked is read without a second
// check, but still within the block and as 0 to 4 (else a FormatError naming the block:
// value_in_block, ValueTable::value_of). A damaged or tampered file is refused with a
// FormatError naming it (at opening, or at the probe of a damaged or malformed block, naming the
// block); a probe reads no byte outside its block and returns no value but 0 to 4. All integers
// are little-endian.
//
//   +-----------------------------+  offset 0
//   | header (H bytes)            |  fixed fields, then the signature, zero padded
//   +-----------------------------+  offset H
//   | block offsets (n + 1 u32)   |  where block i begins in the data; the last: the data's size
//   +-----------------------------+  offset H + 4 (n + 1)
//   | block checksums (n u32)     |  the low 32 bits of the XXH3-64 of each block's bytes
//   +-----------------------------+  offset H + 4 (2n + 1)
//   | index checksum (8 bytes)    |  XXH3-64 of every byte above it
//   +-----------------------------+  offset D = H + 4 (2n + 1) + 8
//   | data                        |  the blocks back to back, to the end of the file
//   +-----------------------------+  end of file
//
// Header:
//
//   off  size  field
//     0     8  magic 89 45 47 54 56 0d 0a 1a ("\x89EGTV\r\n\x1a": the table file's, V for values)
//     8     4  value file version: 3 (version 2 had no grammar, version 1 one checksum over the
//              whole file at its end)
//    12     4  H, the header size in bytes, a multiple of 8
//    16     4  rules id (rules.hpp)
//    20     4  metrics of the table file it was written from (MetricSet bits)
//    24     4  index scheme id      } as in the table file: the entries are numbered as there
//    28     4  index scheme version }
//    32     4  index order          }
//    36     4  V, entries per block, a power of two (each side's last block may hold fewer)
//    40     8  entries with White to move, N_w
//    48     8  entries with Black to move, N_b
//    56     8  block count n = ceil(N_w / V) + ceil(N_b / V): White's blocks, then Black's
//    64     8  file size in bytes
//    72     8  the file checksum of the table file it was written from (TableHeader::checksum)
//    80     2  signature length S, then S bytes of canonical signature ("KQk"); zeros up to G,
//              the next multiple of 8
//     G     4  R, the grammar's rules (0 to 4,091)
//   G+4    4R  the rules in order, rule r (symbol 5 + r) as two u16: its left and right symbols,
//              each below 5 + r; zeros up to H
//
// A block of m entries, values v_0 .. v_(m-1), begins with a byte k naming its form:
//
//   0-4  Constant   every value is k; nothing follows.
//   5    Runs       one token per run of equal values, in order: (length - 1) * 5 + value, as a
//                   LEB128 varint (7 bits a byte, low bits first, bit 7 set on every byte but the
//                   last); the lengths add up to m. Read from the start of the block.
//   6    Base 5     ceil(m / 3) bytes, v_j the digit j % 3 of byte j / 3: v_3i + 5 v_3i+1 + 25 v_3i+2.
//   7    Two        a byte a | b << 4 (a = v_0, b the other value), then ceil(m / 8) bytes: v_j is b
//                   where bit j % 8 of byte j / 8 is set, else a.
//   8    Four       four bytes p_0 .. p_3 (the values ascending, the last repeated up to four), then
//                   ceil(m / 4) bytes: v_j is p_c, c in bits 2 (j % 4) and 2 (j % 4) + 1 of byte j / 4.
//   9    Pairs      the block's n symbols of the grammar, w = bit_width(4 + R) bits each (3 to 12),
//                   symbol k in bits k w to k w + w - 1 of the bytes that follow, low bits first;
//                   their strings add up to m values. ceil(n w / 8) bytes. Read from the start.
// Bits and digits past entry m - 1 (past the last symbol) are zero.
//
// The writer keeps the smallest form, the first of Constant, Two, Four, Base 5, Runs and Pairs on a
// tie, so a block of Runs or Pairs is smaller than Base 5 would be: a probe reads fewer than 1 +
// ceil(V / 3) bytes of it (343 for V = 1,024), and one of another form reads one byte at a place
// it computes. The grammar is learnt from the blocks of the table, or, past 2^24 entries, from
// evenly spaced blocks holding about 2^24 (PairGrammar::learn); the rules are a few KB.
//
// Worked example, blocks of V = 8 entries. Values 4 4 4 4 4 4 2 2 (mates, then draws):
//   Runs    05 1d 07      tokens (6 - 1) * 5 + 4 = 29 = 0x1d, (2 - 1) * 5 + 2 = 7
//   Two     07 24 c0      a = 4, b = 2; bits 6 and 7 set
//   Four    08 02 04 04 04 55 05   the values ascending, the last repeated; codes 1 1 1 1, 1 1 0 0
//   Base 5  06 7c 7c 0c   4 + 5 * 4 + 25 * 4 = 124 twice, then 2 + 5 * 2 = 12
// Two and Runs take 3 bytes, and Two comes first: the block is 07 24 c0, and entry 6 is bit 6 of
// c0, set: b, 2 (a draw). A block of 16 entries, ten 4s and six 2s, is Runs 05 31 1b (9 * 5 + 4,
// 5 * 5 + 2), 3 bytes against Two's 4 (07 24 00 fc): entry 12 lies past the first run's 10
// entries, in the second: 2. With the rules of value_grammar.hpp's example ((4, 4), (5, 5) and
// (6, 2): symbols below 8, 3 bits each), 4 4 4 4 2 4 4 0 is Pairs 09 2f 00: symbols 7 5 0, the
// bits 111 101 000 read low bits first (7 + 5 * 8 = 47 = 0x2f).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/value_grammar.hpp"
#include "indexing/index.hpp"

namespace egtb {

inline constexpr std::array<uint8_t, 8> ValueFileMagic = {0x89, 'E', 'G', 'T', 'V', '\r', '\n', 0x1a};
inline constexpr uint32_t ValueFileVersion = 3;
inline constexpr uint32_t DefaultValueBlockEntries = 1u << 10;
inline constexpr uint32_t MaxValueBlockEntries = 1u << 20;  // entries per block at most
inline constexpr const char* ValueFileExtension = ".egv";

// The value file of a table file: tables/KQk.egv for tables/KQk.egtb, tables/KQk.stalemate-wins.egv
// for tables/KQk.stalemate-wins.egtb.
[[nodiscard]] std::filesystem::path value_file_path(const std::filesystem::path& table_file);

// What value_in_block returns for an entry a block's runs do not reach.
inline constexpr uint8_t UnreachedValue = 0xff;

// The grammar of a file without rules.
[[nodiscard]] const PairGrammar& no_rules();

// The bytes of one block of values (each 0 to 4) in its smallest form (above); Pairs only with a
// parser, in its grammar's symbols.
[[nodiscard]] std::vector<uint8_t> encode_value_block(std::span<const uint8_t> values,
                                                      const PairParser* parser = nullptr);
// What is wrong with the bytes of a block of `entries` values, or nothing when they are one, as far
// as it can be told without reading the block through: its form, the size that form gives, and the
// palette of Two and Four; every byte of Base 5; every symbol of Pairs, known to the grammar, their
// strings m values, the bits after them zero. Runs are checked as they are read (value_in_block).
[[nodiscard]] std::optional<std::string> check_value_block(std::span<const uint8_t> block, uint32_t entries,
                                                           const PairGrammar& grammar = no_rules());
// Value j (0 to 4) of a block that check_value_block accepted, j below its entries; UnreachedValue
// when the block is runs or symbols that end before entry j, or runs with a token of more than 4
// bytes, or symbols the grammar does not know. Whatever the bytes, it reads none past the block:
// a block whose form byte changed since it was checked gives UnreachedValue when entry j's byte
// lies past the block's end, and a changed palette may give a value past 4.
[[nodiscard]] uint8_t value_in_block(std::span<const uint8_t> block, uint32_t j,
                                     const PairGrammar& grammar = no_rules());

// check_value_block and value_in_block at once, as a probe's first read of a block asks (one walk
// through a block of pairs where the two would take one and a half on average): value j of a block
// check_value_block accepts, j below its entries, else what check_value_block says is wrong.
[[nodiscard]] Expected<uint8_t, std::string> checked_value_in_block(std::span<const uint8_t> block,
                                                                    uint32_t entries, uint32_t j,
                                                                    const PairGrammar& grammar = no_rules());

// The six forms of a block (above), as `egtb info` names them; a block's form is
// value_block_form(its first byte).
inline constexpr std::array<const char*, 6> ValueBlockForms = {"constant", "runs", "base 5",
                                                               "two",      "four", "pairs"};
// The place in ValueBlockForms of the form a block's first byte names (0-4: constant; 5-9 as above).
[[nodiscard]] constexpr size_t value_block_form(uint8_t first_byte) {
  return first_byte <= 4 ? 0 : first_byte - 4u;
}

// What the blocks of a value file hold, counted by check_every_block: how many blocks of each form
// and their bytes, in the order of ValueBlockForms, and the grammar's rules. Example, blocks of
// 1,024 entries: KRkr.egv (281,016 bytes) has 2,527 rules, so symbols of 12 bits, and 3,469 of its
// 3,470 blocks are pairs (242,914 bytes), one of two values; KQk.egv's 56 blocks are 28 constant (a
// byte each) and 28 of pairs, and KBNk.egv's 3,470 are 765 constant, 443 of runs, where runs are
// smaller, and 2,262 of pairs.
struct ValueFileContents {
  std::array<uint64_t, ValueBlockForms.size()> blocks{};
  std::array<uint64_t, ValueBlockForms.size()> bytes{};
  uint32_t grammar_rules = 0;
  int symbol_bits = 0;  // of a block of pairs
};

// What writing a value file did.
struct ValueFileRecord {
  std::filesystem::path path;
  uint64_t table_bytes = 0;  // the table file's size
  uint64_t value_bytes = 0;  // the value file's size
};

// Writes value_file_path(table_file) from the table file (every block checksum checked), through a
// temporary file renamed once complete, as tables are written. The table must hold the value of
// each position (DTM among its metrics: not a stalemate-only table). Throws IoError or FormatError
// naming a file, std::invalid_argument when block_entries is not a power of two up to 2^20.
ValueFileRecord write_value_file(const std::filesystem::path& table_file,
                                 uint32_t block_entries = DefaultValueBlockEntries);

// A value file mapped into memory and checked, then probed in place.
class ValueTable {
public:
  // Maps and checks the file at `path`, and that it is what `required` asks for (as TableReader
  // checks a table file). Throws IoError or FormatError naming the file.
  ValueTable(const std::filesystem::path& path, const TableRequirements& required);

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] const indexing::IndexScheme& scheme() const { return scheme_; }
  [[nodiscard]] Rules rules() const { return header_.rules; }
  [[nodiscard]] MetricSet metrics() const { return header_.metrics; }
  // The file checksum of the table file it was written from.
  [[nodiscard]] uint64_t table_checksum() const { return table_checksum_; }
  [[nodiscard]] uint64_t file_bytes() const { return bytes_.size(); }
  // The fields a value file shares with a table file's header: signature, rules, metrics, index
  // scheme, version and order, entries per side, entries per block, blocks and file size.
  [[nodiscard]] const TableHeader& header() const { return header_; }

  // Checks every block as a probe's first read does, and that each block of runs reaches its last
  // entry: all that opening leaves to the probes (egtb info), and counts what the blocks hold.
  // Throws FormatError naming the first bad block.
  ValueFileContents check_every_block() const;

  // The value of entry `index` of side `stm`; index below the scheme's size. Throws FormatError
  // naming the file and the block when the block, read for the first time, is malformed.
  [[nodiscard]] Lasker at(Color stm, indexing::Index index) const;

private:
  // Where a block lies in the data: its offset and the next block's, side by side in the index.
  // Read from the mapping at each probe, since the file may have changed in place since opening
  // checked them. Example: offsets 0 3 7 ... place block 1 at bytes [3, 7) of the data.
  struct BlockPlace {
    uint32_t begin = 0;
    uint32_t end = 0;
  };
  static_assert(sizeof(BlockPlace) == 8);

  std::filesystem::path path_;
  MappedFile bytes_;
  TableHeader header_;  // the fields a value file shares with a table file
  uint64_t table_checksum_ = 0;
  uint64_t offsets_ = 0;       // offset of the block offsets (H)
  uint64_t sums_ = 0;          // offset of the block checksums
  uint64_t data_ = 0;          // offset of the data
  uint64_t white_blocks_ = 0;  // blocks of White to move, ahead of Black's
  int block_shift_ = 0;        // log2 of V
  PairGrammar grammar_;
  indexing::IndexScheme scheme_;
  // A bit per block, set once the block's structure was checked (by any thread).
  std::unique_ptr<std::atomic<uint64_t>[]> checked_blocks_;

  // Value j of block b, the block checked at its first read. Throws FormatError naming the block
  // when it is damaged or malformed, or its runs end before entry j.
  [[nodiscard]] uint8_t value_of(uint64_t b, uint32_t j) const;
  // Block b's place, read from the index in the mapping: to be called under MappedFile's guard.
  // A place whose bytes are not inside the data, after its begin, is empty (begin == end): the
  // index changed in place since opening checked it.
  [[nodiscard]] BlockPlace place_of(uint64_t b) const;
  // Runs read(the bytes of block b) in the mapping under MappedFile's guard, and returns the
  // block's place: what every read of a block does (`read` holds no object with a destructor,
  // MappedFile::guarded). Throws IoError (cut_short) when the file was cut short, FormatError
  // naming the block when the index no longer places it inside the data.
  template <class Read>
  BlockPlace read_block(uint64_t b, const Read& read) const;
  // Throws IoError: `what` could not be read, the file was cut short in place since it was mapped.
  [[noreturn]] void cut_short(const std::string& what) const;
  // Reads the header and checks the file (constructor).
  [[nodiscard]] indexing::IndexScheme checked(const TableRequirements& required);
  // Places the block index after a header of h_size bytes (`fixed`: the first FixedValueHeaderBytes
  // of the file), checks the header and index against the index checksum, and returns a copy of
  // the header's h_size bytes.
  [[nodiscard]] std::vector<uint8_t> place_index(uint32_t h_size, std::span<const uint8_t> fixed);
  // Checks that the block offsets place every block inside the data, each after the one before.
  void check_offsets() const;
  // Value j of block b at its first read: the block copied out of the mapping (whose pages may
  // go), its checksum and structure checked and entry j read in one walk (checked_value_in_block),
  // and the block marked checked. Throws FormatError naming the block when it is damaged or
  // malformed.
  [[nodiscard]] uint8_t first_value_of(uint64_t b, uint32_t j) const;
};

}  // namespace egtb
