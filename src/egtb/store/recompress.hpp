// Rewriting a finished table file with other write options, most often a higher zstd level: the
// solver writes at level 3 to keep generation fast, and an archived or distributed set is
// recompressed once afterwards, without solving anything again.
//
//   recompress_table_file("tables/KQRkr.egtb", {.level = 19});   // 49.9 MB -> 39.9 MB
//
// The entries are read block by block from the file itself (every block checksum checked) and
// written through write_table_file, so the file is replaced only once the new one is complete
// and synced (a temporary file that an interrupted run left for the table is removed first,
// remove_stale_temporaries); header fields other than the block layout and file size (signature,
// rules, metrics, generator, statistics) are carried over. The order of the index digits is chosen
// again (order_choice.hpp), so a file of index layout version 1 comes out in version 2, its entries
// moved to their places in the order whose sample compresses best.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>

#include "egtb/store/writer.hpp"

namespace egtb {

struct RecompressResult {
  uint64_t bytes_before = 0;
  uint64_t bytes_after = 0;
};

// Told how far the writing of the new file has come: `written` of the table's `total` entries (both
// sides to move), after each block; called from several threads at once (the writer's).
using RecompressProgress = std::function<void(uint64_t written, uint64_t total)>;

// Rewrites the table file at `path` with `options`, calling `progress` (when set) as it writes.
// Throws IoError or FormatError naming the file (a damaged file, or one this program cannot index,
// is left as it was), or FormatError when another process holds the table's lock (an `egtb
// generate` writing it).
RecompressResult recompress_table_file(const std::filesystem::path& path, const WriteOptions& options,
                                       const RecompressProgress& progress = {});

// Writes at `to` the table of the file at `from` as a table storing only `metrics` of its rules:
// each entry as_stored (rules.hpp), so that a stalemate-only table (StalemateOnly, `egtb generate
// --metrics dts`) keeps values 3 and 1 with their DTS and stores everything else as 2. The index
// order is chosen again for the new entries; options.fill is for the caller to choose. Returns the
// header written. Throws IoError or FormatError naming a file, std::invalid_argument when `from`
// lacks a metric of `metrics`.
TableHeader write_metric_subset(const std::filesystem::path& from, const std::filesystem::path& to,
                                MetricSet metrics, const WriteOptions& options);

}  // namespace egtb
