// Builds tables with everything they depend on, in dependency order, into one directory.
//
// A table is built after every table its captures and promotions lead to. Tables already in the
// directory whose file opens cleanly (header and block index checksums) and holds the requested
// metrics are kept; a table is written under a temporary name and renamed only when complete,
// so an interrupted run leaves no table that looks valid and the next run resumes after the
// last finished table.
#pragma once

#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/table_stats.hpp"
#include "egtb/store/writer.hpp"
#include "retro/generator.hpp"

namespace egtb::retro {

struct BuildOptions {
  std::filesystem::path directory = "tables";
  int threads = 0;     // 0: every core
  bool dts = true;     // false: DTM only
  bool force = false;  // rebuild the named targets even when present (not their dependencies)
  int compression_level = DefaultCompressionLevel;  // zstd level of the written files (writer.hpp)
  std::function<void(const Material&, const Progress&)> progress;
};

struct BuildRecord {
  Material material;
  std::filesystem::path path;
  bool built = false;  // false: a valid table was already there
  std::array<SideStats, 2> stats{};
  double seconds = 0;           // wall time of the build
  double cpu_seconds = 0;       // user + system time of the build
  uint64_t peak_rss_bytes = 0;  // the process's peak resident memory after the build
};

// The file a table lives in: <directory>/<canonical signature>.egtb.
[[nodiscard]] std::filesystem::path table_path(const std::filesystem::path& directory, const Material& m);

// True when the file exists, opens cleanly and holds at least the requested metrics.
[[nodiscard]] bool table_is_usable(const std::filesystem::path& path, bool need_dts);

// Builds `targets` (canonical) and their dependency closure; calls `on_table` after each table
// (built or skipped), in build order. Throws IoError / FormatError / std::runtime_error.
std::vector<BuildRecord> build_tables(std::span<const Material> targets, const BuildOptions& options,
                                      const std::function<void(const BuildRecord&)>& on_table = {});

// Subtables with more entries per side than this are paged (read block by block through a cache
// of PagedCacheBytes) instead of loaded whole: the 5-man tables that promotions of a 5-man pawn
// table lead into, which would otherwise double the memory its solution needs.
inline constexpr uint64_t PagedSubtableEntries = 50'000'000;
inline constexpr size_t PagedCacheBytes = size_t{64} << 20;

// The solved successor tables of `material` (its captures and promotions), loaded from
// `directory`; throws when one is missing or, with need_dts, holds DTM only.
[[nodiscard]] Subtables load_subtables(const Material& material, const std::filesystem::path& directory,
                                       bool need_dts);

// Removes temporary files (<table>.egtb.tmp.<pid>) left in `directory` by runs that died;
// returns how many were removed. Files of running processes are kept.
int remove_stale_temporaries(const std::filesystem::path& directory);

// Loads a finished table file into memory for solving, verifying or scanning.
[[nodiscard]] std::shared_ptr<SolvedTable> load_solved_table(const std::filesystem::path& path);
// Opens a finished table file whose scores are read on demand through `cache`.
[[nodiscard]] std::shared_ptr<SolvedTable> load_paged_table(const std::filesystem::path& path,
                                                            std::shared_ptr<BlockCache> cache);

// Writes a solution to `<directory>/<signature>.egtb` (atomically) and returns the header written.
TableHeader save_solution(const std::filesystem::path& directory, const Solution& solution,
                          const WriteOptions& options = {});
// Writes a solved table to its file in `directory` (atomically) and returns the path.
std::filesystem::path save_solved_table(const std::filesystem::path& directory, const SolvedTable& table,
                                        const WriteOptions& options = {});

}  // namespace egtb::retro
