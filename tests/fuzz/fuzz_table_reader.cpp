// libFuzzer target for the table reader (egtb/store/reader.hpp): the header, the block index and
// the blocks of any file must be read or refused with a FormatError, never crash, hang, read out
// of bounds or allocate without limit, whether read block by block or, packed, in place. The file
// is the input past its first byte, an odd first byte recomputing every checksum first (each
// block's, then the file checksum; tests/fuzz/memory_file.hpp).
// Built with -DEGTB_FUZZ=ON under clang 16 (see tests/query/fuzz_parser.cpp and docs/testing.md):
//   build-fuzz/tests/fuzz/fuzz_table_reader build-fuzz/corpus-table tests/fuzz/corpus/table
//   -max_total_time=600
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <xxhash.h>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "tests/fuzz/memory_file.hpp"

namespace {

using namespace egtb;

constexpr uint64_t MaxBlocksRead = 64;  // enough for the seeds' tables; a fuzzed count may be huge

// Recomputes the block checksums and the file checksum (format.hpp) where the fields allow.
void fix_checksums(std::vector<uint8_t>& file) {
  if (file.size() < 64) return;
  uint32_t header_size = 0;
  std::memcpy(&header_size, file.data() + 12, 4);
  const uint64_t blocks = fuzz::load(file, 48, 8);
  if (header_size > file.size() || blocks > (file.size() - header_size) / 24) return;
  for (uint64_t i = 0; i < blocks; ++i) {
    const size_t entry = header_size + 24 * i;
    const uint64_t offset = fuzz::load(file, entry, 8);
    const uint64_t stored = fuzz::load(file, entry + 8, 4);
    if (offset <= file.size() && stored <= file.size() - offset)
      fuzz::store(file, entry + 16, 8, XXH3_64bits(file.data() + offset, stored));
  }
  const size_t index_end = header_size + 24 * blocks;
  if (index_end + 8 <= file.size()) fuzz::store(file, index_end, 8, XXH3_64bits(file.data(), index_end));
}

// Opens the file as a Tablebase does (mapped, for positions only) and, when its blocks are read in
// place (a packed file), reads the first, middle and last entry of each block so.
void read_in_place(const std::string& path) {
  TableRequirements probed;
  probed.positions_only = true;
  probed.mapped = true;
  const TableReader reader(path, probed);
  if (!reader.reads_in_place()) return;
  for (uint64_t b = 0; b < reader.header().block_count && b < MaxBlocksRead; ++b) {
    const uint64_t count = block_span(reader.header(), b).count;
    for (const uint64_t j : {uint64_t{0}, count / 2, count - 1}) {
      try {
        (void)reader.entry_in_place(b, j);
      } catch (const FormatError&) {
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<std::string> path = fuzz::input_file(data, size, fix_checksums);
  if (!path) return 0;
  try {
    const TableReader reader(*path);
    std::vector<uint16_t> scores;
    const uint64_t blocks = reader.header().block_count;
    for (uint64_t b = 0; b < blocks && b < MaxBlocksRead; ++b) {
      try {
        reader.read_block(b, scores);
      } catch (const FormatError&) {
      }
    }
    if (blocks <= MaxBlocksRead) reader.verify(1);
    read_in_place(*path);
  } catch (const StoreError&) {
  }
  return 0;
}
