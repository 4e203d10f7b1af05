#include "egtb/store/recompress.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "egtb/store/error.hpp"
#include "egtb/store/order_choice.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
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

// Entries first ... first + out.size() - 1 of side `stm` in the layout of `to`, from a table of
// the same material in another layout (IndexScheme::entry_in).
void read_reindexed(const Table& from, const indexing::IndexScheme& to, Color stm, uint64_t first,
                    std::span<uint16_t> out) {
  for (size_t k = 0; k < out.size(); ++k) out[k] = from.at(stm, to.entry_in(from.scheme(), first + k)).raw();
}

// The table's blocks are read through a cache of ReindexCacheBytes, which holds every block of a
// 5-man side (KRPkr's 333 million entries per side take 666 MB decoded), so that each is decoded
// about once however its entries move.
constexpr size_t ReindexCacheBytes = size_t{1} << 30;

}  // namespace

RecompressResult recompress_table_file(const std::filesystem::path& path, const WriteOptions& options,
                                       const RecompressProgress& progress) {
  const auto lock = TableLock::try_acquire(path);
  if (!lock) throw FormatError(path, "another process holds the table's lock (an egtb generate writing it?)");
  remove_stale_temporaries(path, *lock);  // an interrupted recompress's half-written file
  const TableReader reader(path);
  const TableHeader& old = reader.header();
  const auto table = Table::page(path, {}, std::make_shared<BlockCache>(ReindexCacheBytes));
  // Entries of side `stm` in the layout `to`: straight from the blocks when `to` is the file's own
  // layout, otherwise moved entry by entry.
  const auto read_in = [&](const indexing::IndexScheme& to, Color stm, uint64_t first,
                           std::span<uint16_t> out) {
    if (to.same_layout(reader.scheme()))
      read_range(reader, stm, first, out);
    else
      read_reindexed(*table, to, stm, first, out);
  };
  const indexing::IndexOrder order = choose_index_order(reader.material(), read_in, options);
  const indexing::IndexScheme to(reader.material(), order);
  const TableDescription description{
      old.signature, old.rules,   old.metrics, indexing::IndexLayoutId, indexing::IndexLayoutVersion,
      old.generator, order.code()};
  const uint64_t total = old.entries[0] + old.entries[1];
  std::atomic<uint64_t> written_entries{0};
  const TableHeader written = write_table_file(
      path, description, old.entries,
      [&](Color stm, uint64_t first, std::span<uint16_t> out) {
        read_in(to, stm, first, out);
        const uint64_t done = written_entries += out.size();
        if (progress) progress(done, total);
      },
      options);
  return {old.file_size, written.file_size};
}

}  // namespace egtb
