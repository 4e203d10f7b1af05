// Writing table files (format.hpp): blocks compressed in parallel (TBB), checksummed, and written to a
// temporary file that is renamed to its final name only once complete and synced to disk.
//
// A run that fails or is interrupted never leaves a file that looks like a table: the data goes
// to "<name>.tmp.<host>.<pid>" in the destination directory (removed on any error; after a crash it is
// left behind under a name no reader opens), is fsync'd, and only then renamed over
// "<signature>.egtb", after which the directory is fsync'd too.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "egtb/core/material.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/block_codec.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/table_stats.hpp"

namespace egtb {

class Table;
class TableLock;

// zstd levels a table may be written with (`egtb generate --compression-level`; measured in
// format.hpp and README.md, *Table sizes*): 3, the default, keeps writing far faster than solving;
// 15-19 make 3-5-man tables 13-22% smaller at 15-50 times the compression time; 20-22 gain nothing
// more on 64 KiB blocks. A block decodes about 10% slower at level 19.
inline constexpr int DefaultCompressionLevel = 3;
// The level `egtb recompress` rewrites finished tables with (recompress.hpp).
inline constexpr int ArchivalCompressionLevel = 19;
inline constexpr int MaxCompressionLevel = 22;

// The most entries a block may hold: a block's stored size is a u32 of the block index
// (format.hpp), and 2^30 entries take at most 2^31 bytes plus zstd's few bytes of framing.
inline constexpr uint32_t MaxBlockEntries = uint32_t{1} << 30;

struct WriteOptions {
  int level = DefaultCompressionLevel;           // zstd level, 1 to MaxCompressionLevel
  int threads = 0;                               // compression threads; 0 = every core
  uint32_t block_entries = DefaultBlockEntries;  // 1 to MaxBlockEntries
  TransformChoice transform = TransformChoice::Planes;
};

// What a file records besides its entries.
struct TableDescription {
  std::string signature;
  Rules rules = Rules::Lasker;
  MetricSet metrics;
  uint32_t index_scheme = 0;
  uint32_t index_version = 0;
  std::string generator;

  // The description of a table of `material` (canonical) written by this program: this build's
  // index layout and generator version.
  [[nodiscard]] static TableDescription of(const Material& material, Rules rules, MetricSet metrics);
};

// Where the entries of a table come from when they are not held in memory whole: fills `out`
// with the raw scores of entries first ... first + out.size() - 1 of one side to move. Called
// from several threads at once, for disjoint ranges.
using EntrySource = std::function<void(Color side, uint64_t first, std::span<uint16_t> out)>;

// Writes a table file at `path` whose sides to move have `entries` entries ([0] White, [1] Black),
// asking `source` for them block by block; returns the header written (its statistics counted
// from the entries). Throws IoError naming the file and the failed operation (the temporary file
// is removed and a table already at `path` is left as it was), std::invalid_argument when an
// entry is Score::unknown() or block_entries is 0 or past MaxBlockEntries.
TableHeader write_table_file(const std::filesystem::path& path, const TableDescription& description,
                             std::array<uint64_t, 2> entries, const EntrySource& source,
                             const WriteOptions& options = {});
// The same from raw scores per side to move in memory.
TableHeader write_table_file(const std::filesystem::path& path, const TableDescription& description,
                             std::array<std::span<const uint16_t>, 2> entries,
                             const WriteOptions& options = {});

// Writes an in-memory table to its file in `directory` (table_path) and returns that path.
std::filesystem::path write_table(const std::filesystem::path& directory, const Table& table,
                                  const WriteOptions& options = {});

// The temporary name the writer uses for `path` in this process: "KQk.egtb.tmp.<host>.<pid>" (the
// host keeps names apart when machines share the directory over a network file system).
[[nodiscard]] std::filesystem::path temporary_path(const std::filesystem::path& path);

// Removes temporary files (<table>.egtb.tmp.<host>.<pid>) left in `directory` by runs that died;
// returns how many were removed. A file is kept while a process of this host with its pid lives,
// or while another process holds its table's lock (table_lock.hpp).
int remove_stale_temporaries(const std::filesystem::path& directory);
// The same for the temporary files of the table at `table`, whose lock the caller holds.
int remove_stale_temporaries(const std::filesystem::path& table, const TableLock& held);

}  // namespace egtb
