// A set of tables as a graph of jobs for an existing scheduler: Make on one machine, Slurm on a
// cluster, or any other engine through JSON. Tables are the unit of work; each job runs
// `egtb generate SIG --no-closure`, which builds that table alone after its subtables (the edges:
// direct_dependencies, egtb/core/material.hpp) and fails, naming them, when one is missing. Each
// table carries its estimated cost (retro/cost_model.hpp), from which the Slurm jobs ask for
// memory and CPUs.
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "api/generate.hpp"
#include "egtb/core/material.hpp"
#include "egtb/store/rules.hpp"
#include "indexing/index.hpp"
#include "retro/cost_model.hpp"

namespace egtb::api {

// The most men a plan may have: beyond Material::MaxMen a plan is an estimate only (its JSON; the
// tables are marked unbuildable and Make or Slurm jobs are refused), for sizing machines for 6 and
// 7 men (docs/scale.md): as many as an index scheme holds (its sizes are 64-bit and exact).
inline constexpr int PlanMaxMen = indexing::MaxIndexMen;

struct PlanRequest {
  // The options of every job's `egtb generate` (api/generate.hpp; its signatures, closure, force and
  // threads are the plan's to set): jobs.directory is where they build (absolute for Slurm), and
  // jobs.max_memory the memory a job's solve may take, a table whose whole solve is estimated
  // above it being planned in slices or on the lean path, with the memory of that solve (0: each
  // table planned as `egtb generate` without --max-memory solves it on this machine,
  // retro::default_plan).
  GenerateRequest jobs;
  std::filesystem::path program = "egtb";  // the egtb the jobs run
  int max_cpus = 2;                        // the most CPUs (threads) a Slurm job asks for
};

struct PlannedTable {
  Material material;                   // canonical
  std::vector<Material> dependencies;  // the tables it is built from (direct_dependencies)
  std::filesystem::path file;          // the table file it writes
  retro::CostEstimate cost;
  retro::SolvePlan solve;            // how its job solves it (PlanRequest::jobs)
  bool buildable = true;             // at most Material::MaxMen men: this build can generate it
  int cpus = 1;                      // CPUs of its Slurm job: one per JobSecondsPerCpu of estimated CPU time
  uint64_t memory_bytes = 0;         // memory its Slurm job asks for: solve.peak_bytes with a margin
  std::vector<std::string> command;  // its job's command line, program first (threads not included)
};

// A Slurm job gets one CPU per this many estimated CPU seconds, up to PlanRequest::max_cpus: a
// table of a minute or less gains little from a second thread (the solver scales 1.9x on two).
inline constexpr double JobSecondsPerCpu = 60;

struct Plan {
  PlanRequest request;
  std::vector<PlannedTable> tables;  // in build order: every table after its dependencies
};

// The plan of `targets` (canonical) and every table they depend on.
[[nodiscard]] Plan make_plan(const std::vector<Material>& targets, const PlanRequest& request);

// A Makefile with a target per table file (throws InputError when a table is not buildable) whose order-only
// prerequisites are its subtables' files, so that `make -j N` builds N tables at once (EGTB, DIR and THREADS
// may be overridden).
[[nodiscard]] std::string plan_makefile(const Plan& plan);

// Slurm batch scripts, one per table ("KQk.sbatch": --mem and --cpus-per-task from the estimate),
// and "submit.sh", which submits them in build order with --dependency=afterok on the jobs of
// each table's subtables: (file name, contents) pairs. Throws InputError when a table is not
// buildable.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> plan_slurm(const Plan& plan);

}  // namespace egtb::api
