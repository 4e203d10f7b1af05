#include "egtb/store/recompress.hpp"

#include <algorithm>
#include <vector>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table_lock.hpp"

namespace egtb {

namespace {

// Entries first ... first + out.size() - 1 of side `stm`, from the blocks of `reader` that
// hold them (one block when the block sizes of both files agree).
void read_range(const TableReader& reader, Color stm, uint64_t first, std::span<uint16_t> out) {
  std::vector<uint16_t> block;
  uint64_t done = 0;
  while (done < out.size()) {
    const uint64_t index = first + done;
    reader.read_block(reader.block_of(stm, index), block);
    const size_t from = reader.offset_in_block(index);
    const size_t n = std::min<uint64_t>(block.size() - from, out.size() - done);
    std::copy_n(block.begin() + static_cast<std::ptrdiff_t>(from), n,
                out.begin() + static_cast<std::ptrdiff_t>(done));
    done += n;
  }
}

}  // namespace

RecompressResult recompress_table_file(const std::filesystem::path& path, const WriteOptions& options) {
  const auto lock = TableLock::try_acquire(path);
  if (!lock) throw FormatError(path, "another process holds the table's lock (an egtb generate writing it?)");
  const TableReader reader(path, TableRequirements::file_only());
  const TableHeader& old = reader.header();
  const TableDescription description{old.signature,    old.rules,         old.metrics,
                                     old.index_scheme, old.index_version, old.generator};
  const TableHeader written = write_table_file(
      path, description, old.entries,
      [&](Color stm, uint64_t first, std::span<uint16_t> out) { read_range(reader, stm, first, out); },
      options);
  return {old.file_size, written.file_size};
}

}  // namespace egtb
