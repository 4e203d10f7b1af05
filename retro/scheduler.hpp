// Builds tables with everything they depend on, in dependency order, into one directory.
//
// A table is built after every table its captures and promotions lead to. A table already in the
// directory is kept when every checksum of it verifies (header, block index, every block) and it
// holds the requested rules and metrics; otherwise it is rebuilt, and the record says why. The
// store writes each table under a temporary name and renames it only when complete, so an
// interrupted run leaves no table that looks valid and the next run resumes after the last
// finished table. The scheduler only schedules: opening, checking, loading and writing tables
// belong to the store (egtb/store), solving to the solver (solver.hpp).
//
// Several processes may build into one directory at once (on one machine, or on several sharing
// it over NFS): a table is built only under its lock (egtb/store/table_lock.hpp), so each table is
// built once. A process takes the first table, in build order, whose subtables are finished and
// whose lock is free; when every such table is held by others it polls until one is released
// (then it finds that table built, or builds it itself when its holder died). Example: three
// processes on --all 4 take KQk, KRk and KBk, the first to finish takes KNk, and KPk waits until
// all four are finished.
#pragma once

#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/writer.hpp"
#include "retro/solver.hpp"

namespace egtb::retro {

// The tables that are neither present nor among the targets of a build without its closure.
class MissingSubtables : public std::runtime_error {
public:
  MissingSubtables(const std::filesystem::path& directory,
                   const std::vector<std::pair<Material, Material>>& missing);
};

// A table the run would build whose solve, in the least memory this build can (smallest_plan,
// cost_model.hpp), is estimated above the machine's memory: refused before any table is built.
class TableTooLarge : public std::runtime_error {
public:
  TableTooLarge(const Material& table, uint64_t needed_bytes, uint64_t machine_bytes);
};

struct GenerateOptions {
  std::filesystem::path directory = "tables";
  int threads = 0;  // 0: every core
  Rules rules = Rules::Lasker;
  MetricSet metrics = all_metrics(Rules::Lasker);  // {DTM} alone: mates only
  // Rebuild the named targets even when present (not their dependencies): each target's file is,
  // after the run, one written after the run started; a target another process rebuilt in the
  // meantime is kept (GenerateRecord::by_other_process), not rebuilt again.
  bool force = false;
  // false: build the targets alone; every table they need must be present or among the targets
  // (for Make and Slurm, which order the tables themselves: api/plan.hpp).
  bool closure = true;
  int compression_level = DefaultCompressionLevel;  // zstd level of the written files (writer.hpp)
  // Memory a table's build may take, in bytes, at most the machine's. A table whose whole solve is
  // estimated above it (cost_model.hpp) is solved one slice at a time, or on the lean path
  // (SolveConfig::slicing and lean, plan_solve): the limit is what decides, not a promise. 0: no
  // limit; each table takes the path of least memory that costs no time and fits the machine's
  // memory (default_plan).
  uint64_t max_memory = 0;
  // The machine's memory in bytes; 0: its physical memory (physical_memory_bytes). A table whose
  // smallest plan is estimated above it is refused before any table is built (TableTooLarge).
  uint64_t machine_memory = 0;
  std::function<void(const Material&, const Progress&)> progress;
  // Called before each pause (20 ms, doubling up to half a second) while this process waits: the
  // tables whose locks other processes hold (it has nothing else to build until one is released).
  // An exception it throws (Ctrl-C in Python) ends the wait and the run.
  std::function<void(const std::vector<Material>& held)> waiting;
  // Called before solving a table with what the user should know, e.g. that a subtable's file
  // will make the solve slow (Subtables::slowly_paged) and how to rewrite it.
  std::function<void(const Material&, const std::string& message)> warning;
};

// The wall seconds of a build's stages, which add up to its time but for a few milliseconds.
struct GenerateStages {
  double load = 0;   // reading the subtables
  double solve = 0;  // solving, whole or slice by slice
  double order = 0;  // choosing the index order: sample blocks compressed in each candidate order
  double write = 0;  // filling, compressing and writing every block of the file
};

struct GenerateRecord {
  Material material;
  std::filesystem::path path;
  bool built = false;                // false: a table with every checksum verified was already there
  std::string replaced;              // built over a file that could not be kept: why, e.g. "damaged: ..."
  TableHeader header;                // of the file written, or of the one kept
  double seconds = 0;                // wall time of the build
  double cpu_seconds = 0;            // user + system time of the build
  uint64_t peak_rss_bytes = 0;       // peak resident memory while it was built (process_usage.hpp)
  size_t slices = 0;                 // built: the slices solved one after the other (1: whole)
  bool lean = false;                 // built: on the lean path (SolveConfig::lean)
  GenerateStages stages;             // built: where its wall time went
  std::vector<Material> waited_for;  // tables other processes held while this one waited, before this table
  double wait_seconds = 0;           // how long it waited
  bool by_other_process = false;     // kept, and written while this process ran: another process built it
};

// Builds `targets` (canonical) and their dependency closure (the targets alone without
// options.closure); calls `on_table` after each table (built or kept), in build order. Throws
// IoError / FormatError / std::runtime_error, MissingSubtables without options.closure when a
// table the targets need is neither present nor a target, TableTooLarge when a table to build
// cannot be solved in the machine's memory.
std::vector<GenerateRecord> generate_tables(std::span<const Material> targets, const GenerateOptions& options,
                                            const std::function<void(const GenerateRecord&)>& on_table = {});

}  // namespace egtb::retro
