// Reading table files (format.hpp): the header and block index once, then single blocks on demand.
//
// Opening reads and checks the header and the block index against the file checksum, and the file
// size against the header; every block read checks that block's checksum before decoding it. A
// damaged file therefore raises FormatError naming the file (and the block), never returns a
// wrong score.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table.hpp"

namespace egtb {

class TableReader {
public:
  // Opens and checks a table file. Throws IoError (cannot open or read) or FormatError.
  explicit TableReader(const std::filesystem::path& path);
  ~TableReader();
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] const TableHeader& header() const { return header_; }
  [[nodiscard]] const BlockRef& block_ref(uint64_t block) const { return blocks_[block]; }
  [[nodiscard]] uint64_t entries(Color stm) const {
    return header_.entries[static_cast<size_t>(to_index(stm))];
  }

  // The block holding entry `index` of side `stm`, and that entry's position inside it.
  [[nodiscard]] uint64_t block_of(Color stm, uint64_t index) const;
  [[nodiscard]] size_t offset_in_block(uint64_t index) const { return index % header_.block_entries; }

  // Reads, checks and decodes one block into `out` (resized to the block's entries). Safe to
  // call from several threads at once. Throws FormatError or IoError.
  void read_block(uint64_t block, std::vector<uint16_t>& out) const;
  // The score of one entry, read from its block (no caching: Tablebase caches).
  [[nodiscard]] Score read_entry(Color stm, uint64_t index) const;
  // Reads, checks and decodes one block into `out`, which has exactly the block's entries.
  void read_block(uint64_t block, std::span<uint16_t> out) const;
  // Every entry of one side to move, in index order, into `out` of entries(stm) entries.
  void read_side(Color stm, std::span<uint16_t> out) const;
  [[nodiscard]] std::vector<uint16_t> read_side(Color stm) const;
  // Reads every block and compares the decoded values with the header's counts and maxima.
  void verify() const;

private:
  std::filesystem::path path_;
  int fd_ = -1;
  TableHeader header_;
  std::vector<BlockRef> blocks_;

  void open_checked();
  // Header, block index and file checksum, the checksum checked; decodes header_.
  [[nodiscard]] std::vector<uint8_t> read_preamble(uint64_t actual_size);
  [[nodiscard]] std::vector<uint8_t> read_bytes(uint64_t offset, uint64_t size,
                                                const std::string& what) const;
  [[nodiscard]] std::string describe_block(uint64_t block) const;
};

// The header of a table file, after checking the file checksum (for `egtb info`).
[[nodiscard]] TableHeader read_header(const std::filesystem::path& path);

// The material of a table header, after checking that this program can use the table: a valid
// canonical signature, this build's index scheme and version, the scheme's number of entries per
// side to move. Throws FormatError naming `path` otherwise.
[[nodiscard]] Material check_compatible(const TableHeader& h, const std::filesystem::path& path);

// A whole table file in memory (for the solver's subtables and for statistics), checked like
// verify_file and with check_compatible.
[[nodiscard]] Table load_table(const std::filesystem::path& path);

// Checks every checksum of a file and that its entries match the header's counts (for `egtb
// info` and `egtb verify`). Throws FormatError or IoError naming the first problem.
void verify_file(const std::filesystem::path& path);

}  // namespace egtb
