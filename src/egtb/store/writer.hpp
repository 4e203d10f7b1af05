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
#include "indexing/index_order.hpp"

namespace egtb {

class Table;
class TableLock;

// zstd levels a table may be written with (`egtb generate --compression-level`; measured in
// docs/table-sizes.md): 3, the default, keeps writing far faster than solving. A finished set is
// made smaller once by `egtb recompress` (recompress.hpp), whose defaults are the archival level and
// block size below: on the 3-5-man set, level 15 on blocks of 2^17 entries (256 KiB decoded) takes
// about 0.75 of level 3's bytes on 2^15-entry blocks, as much as level 19 on 2^17-entry blocks at
// a third of its compression time (zstd tunes a level for inputs of at most 256 KiB, so a bigger
// block loses more than it gains below level 16).
inline constexpr int DefaultCompressionLevel = 3;
inline constexpr int ArchivalCompressionLevel = 15;
inline constexpr uint32_t ArchivalBlockEntries = uint32_t{1} << 17;
inline constexpr int MaxCompressionLevel = 22;
// Stalemate-only files (rules.hpp, StalemateOnly) are written once from full tables, in seconds, and
// read by probes only: level 19 on blocks of 2^18 entries (512 KiB decoded). On the 3-4-man set
// (docs/table-sizes.md) their entries take 2.51 MB at generate's level 3 on 2^15-entry blocks, 1.67
// MB at level 19 on 2^17, 1.57 MB on 2^18, under 5% of the 33.3 MB of the full set as generate
// writes it; most of it is KNNk, KBBk and KPkp, whose stalemate values and DTS are most of their
// information.
inline constexpr int StalemateOnlyCompressionLevel = 19;
inline constexpr uint32_t StalemateOnlyBlockEntries = uint32_t{1} << 18;

// The most entries a block may hold: a block's stored size is a u32 of the block index
// (format.hpp), and 2^30 entries take at most 2^31 bytes plus zstd's few bytes of framing.
inline constexpr uint32_t MaxBlockEntries = uint32_t{1} << 30;

// The index orders a file may be written in (order_choice.hpp, writable_orders).
enum class OrderSet : uint8_t {
  Solvable,  // those the solve of another table reads quickly: `egtb generate`'s files
  Any,       // every order: files read by probes only (`egtb recompress`'s archival files)
};

struct WriteOptions {
  int level = DefaultCompressionLevel;           // zstd level, 1 to MaxCompressionLevel
  int threads = 0;                               // compression threads; 0 = every core
  uint32_t block_entries = DefaultBlockEntries;  // 1 to MaxBlockEntries
  TransformChoice transform = TransformChoice::Planes;
  OrderSet orders = OrderSet::Solvable;
  // Store invalid entries as copies of their neighbours' scores (format.hpp, Filled files): about
  // 6% fewer bytes at a high level; probes read such a file as fast, other readers restore the
  // invalid entries from the index as they decode each block.
  bool fill = false;
};

// What a file records besides its entries.
struct TableDescription {
  std::string signature;
  Rules rules = Rules::Lasker;
  MetricSet metrics;
  uint32_t index_scheme = 0;
  uint32_t index_version = 0;
  std::string generator;
  uint32_t index_order = 0;  // indexing::IndexOrder::code() in index layout version 2, else 0

  // The description of a table of `material` (canonical) written by this program in `order`: this
  // build's index layout and generator version.
  [[nodiscard]] static TableDescription of(const Material& material, Rules rules, MetricSet metrics,
                                           const indexing::IndexOrder& order);
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

// Writes `bytes` as the file at `path` as table files are written: to the temporary file, synced,
// then renamed over `path` (a file already there is left as it was on failure). Throws IoError.
void write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes);

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
