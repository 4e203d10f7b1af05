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

// Entries of `reader`'s table in any layout of its material: straight from the blocks in the file's
// own layout, otherwise moved entry by entry through `table` (the same file, paged).
OrderedEntrySource entries_of(const TableReader& reader, const Table& table) {
  return
      [&reader, &table](const indexing::IndexScheme& to, Color stm, uint64_t first, std::span<uint16_t> out) {
        if (to.same_layout(reader.scheme()))
          read_range(reader, stm, first, out);
        else
          read_reindexed(table, to, stm, first, out);
      };
}

}  // namespace

RecompressResult recompress_table_file(const std::filesystem::path& path, const WriteOptions& options,
                                       const RecompressProgress& progress) {
  const auto lock = TableLock::try_acquire(path);
  if (!lock) throw FormatError(path, "another process holds the table's lock (an egtb generate writing it?)");
  remove_stale_temporaries(path, *lock);  // an interrupted recompress's half-written file
  const TableReader reader(path);
  const TableHeader& old = reader.header();
  const auto table = Table::page(path, {}, std::make_shared<BlockCache>(ReindexCacheBytes));
  const OrderedEntrySource read_in = entries_of(reader, *table);
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

namespace egtb {

TableHeader write_metric_subset(const std::filesystem::path& from, const std::filesystem::path& to,
                                MetricSet metrics, const WriteOptions& options) {
  const TableReader reader(from);
  const TableHeader& full = reader.header();
  if (!full.metrics.contains(metrics))
    throw std::invalid_argument(from.string() + " holds " + to_string(full.metrics) + ", not " +
                                to_string(metrics));
  const auto table = Table::page(from, {}, std::make_shared<BlockCache>(ReindexCacheBytes));
  const OrderedEntrySource read = entries_of(reader, *table);
  const OrderedEntrySource subset = [&](const indexing::IndexScheme& scheme, Color stm, uint64_t first,
                                        std::span<uint16_t> out) {
    read(scheme, stm, first, out);
    for (uint16_t& raw : out) raw = as_stored(full.rules, metrics, Score::from_raw(raw)).raw();
  };
  const indexing::IndexOrder order = choose_index_order(reader.material(), subset, options);
  const indexing::IndexScheme scheme(reader.material(), order);
  return write_table_file(
      to, TableDescription::of(reader.material(), full.rules, metrics, order), full.entries,
      [&](Color stm, uint64_t first, std::span<uint16_t> out) { subset(scheme, stm, first, out); }, options);
}

}  // namespace egtb
