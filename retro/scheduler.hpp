// Builds tables with everything they depend on, in dependency order, into one directory.
//
// A table is built after every table its captures and promotions lead to. A table already in the
// directory is kept when every checksum of it verifies (header, block index, every block) and it
// holds the requested rules and metrics; otherwise it is rebuilt, and the record says why. The
// store writes each table under a temporary name and renames it only when complete, so an
// interrupted run leaves no table that looks valid and the next run resumes after the last
// finished table. The scheduler only schedules: opening, checking, loading and writing tables
// belong to the store (egtb/store), solving to the solver (generator.hpp).
#pragma once

#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/writer.hpp"
#include "retro/generator.hpp"

namespace egtb::retro {

struct BuildOptions {
  std::filesystem::path directory = "tables";
  int threads = 0;  // 0: every core
  Rules rules = Rules::Lasker;
  MetricSet metrics = all_metrics(Rules::Lasker);  // {DTM} alone: mates only
  bool force = false;  // rebuild the named targets even when present (not their dependencies)
  int compression_level = DefaultCompressionLevel;  // zstd level of the written files (writer.hpp)
  std::function<void(const Material&, const Progress&)> progress;
};

struct BuildRecord {
  Material material;
  std::filesystem::path path;
  bool built = false;           // false: a table with every checksum verified was already there
  std::string replaced;         // built over a file that could not be kept: why, e.g. "damaged: ..."
  TableHeader header;           // of the file written, or of the one kept
  double seconds = 0;           // wall time of the build
  double cpu_seconds = 0;       // user + system time of the build
  uint64_t peak_rss_bytes = 0;  // the process's peak resident memory after the build
};

// Builds `targets` (canonical) and their dependency closure; calls `on_table` after each table
// (built or kept), in build order. Throws IoError / FormatError / std::runtime_error.
std::vector<BuildRecord> build_tables(std::span<const Material> targets, const BuildOptions& options,
                                      const std::function<void(const BuildRecord&)>& on_table = {});

}  // namespace egtb::retro
