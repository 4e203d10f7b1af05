#include "api/plan.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "api/errors.hpp"
#include "egtb/store/format.hpp"
#include "retro/process_usage.hpp"

namespace egtb::api {

namespace {

constexpr uint64_t MiB = uint64_t{1} << 20;

// The memory a job asks for: the estimated peak plus a quarter and 64 MiB, in whole MiB.
uint64_t job_memory(uint64_t peak_bytes) {
  const uint64_t bytes = peak_bytes + peak_bytes / 4 + 64 * MiB;
  return (bytes + MiB - 1) / MiB * MiB;
}

int job_cpus(double cpu_seconds, int max_cpus) {
  const int cpus = static_cast<int>(std::ceil(cpu_seconds / JobSecondsPerCpu));
  return std::clamp(cpus, 1, std::max(1, max_cpus));
}

// A word for a POSIX shell: 'it''s' -> 'it'\''s'.
std::string shell_quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string megabytes(uint64_t bytes) { return std::to_string((bytes + MiB - 1) / MiB); }

// "# KQRk: 1806336 entries per side, estimated 0.2 s CPU, peak 25 MB", "... peak 254 MB in 24 slices".
std::string cost_comment(const PlannedTable& t) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << "# " << t.material.str() << ": " << t.cost.entries_per_side << " entries per side, estimated "
      << t.cost.cpu_seconds << " s CPU, peak " << megabytes(t.solve.peak_bytes) << " MB";
  if (t.solve.sliced()) out << " in " << t.solve.slices << " slices";
  if (t.solve.lean) out << " on the lean path";
  return out.str();
}

// A table's Makefile rule: its file, after its subtables' files (order-only: a table is not out of
// date when a subtable is rewritten, it would be built the same).
std::string makefile_rule(const PlannedTable& t, Rules rules) {
  std::string out = cost_comment(t) + "\n$(DIR)/" + t.file.filename().string() + ":";
  if (!t.dependencies.empty()) out += " |";
  for (const Material& d : t.dependencies) out += " $(DIR)/" + table_path("", d, rules).filename().string();
  return out + "\n\t$(GENERATE) " + t.material.str() + "\n";
}

// Jobs only for tables this build can generate: "KQRBkqr has 7 men; this build generates at most 6".
void require_buildable(const Plan& plan) {
  for (const PlannedTable& t : plan.tables)
    if (!t.buildable)
      throw InputError(t.material.str() + " has " + std::to_string(t.material.men()) +
                       " men; this build generates at most " + std::to_string(Material::MaxMen) +
                       " (a plan beyond that is an estimate: --format json)");
}

// The request of the job that builds `table`.
GenerateRequest job_request(const PlanRequest& request, const Material& table) {
  GenerateRequest job = request.jobs;
  job.signatures = {table.str()};
  job.all = std::nullopt;
  job.closure = false;
  job.force = false;
  job.threads = 0;
  return job;
}

}  // namespace

Plan make_plan(const std::vector<Material>& targets, const PlanRequest& request) {
  check_options(request.jobs, OptionSpelling::CommandLine);
  const GenerateRequest& jobs = request.jobs;
  Plan plan{request, {}};
  for (const Material& m : dependency_closure(targets)) {
    PlannedTable t;
    t.material = m;
    t.dependencies = direct_dependencies(m);
    t.file = table_path(jobs.directory, m, jobs.rules);
    t.cost = retro::estimate_cost(m);
    t.solve = jobs.max_memory > 0 ? retro::plan_solve(t.cost, jobs.max_memory)
                                  : retro::default_plan(t.cost, retro::physical_memory_bytes());
    t.buildable = m.men() <= Material::MaxMen;
    t.cpus = job_cpus(t.cost.cpu_seconds, request.max_cpus);
    t.memory_bytes = job_memory(t.solve.peak_bytes);
    t.command = {request.program.string(), "generate"};
    const std::vector<std::string> args = generate_arguments(job_request(request, m));
    t.command.insert(t.command.end(), args.begin(), args.end());
    plan.tables.push_back(std::move(t));
  }
  return plan;
}

std::string plan_makefile(const Plan& plan) {
  require_buildable(plan);
  const GenerateRequest& r = plan.request.jobs;
  std::string options = r.max_memory > 0 ? " --max-memory $(MAX_MEMORY)" : "";
  if (r.metrics) options += " --metrics " + to_string(*r.metrics);
  if (r.compression_level != DefaultCompressionLevel)
    options += " --compression-level " + std::to_string(r.compression_level);
  std::string out =
      "# " + std::to_string(plan.tables.size()) +
      " tables, each built by `egtb generate SIG --no-closure` after its subtables: make -j N builds N\n"
      "# at once. Written by egtb plan; estimates from retro/cost_model.hpp.\n"
      "EGTB ?= " +
      plan.request.program.string() + "\nDIR ?= " + r.directory.string() + "\nTHREADS ?= 1\n" +
      (r.max_memory > 0 ? "MAX_MEMORY ?= " + std::to_string(r.max_memory) + "\n" : "") +
      "GENERATE = $(EGTB) generate --no-closure --dir $(DIR) --threads $(THREADS) --rules " +
      std::string(rules_name(r.rules)) + options + "\n\n.PHONY: all\nall:";
  for (const PlannedTable& t : plan.tables) out += " $(DIR)/" + t.file.filename().string();
  out += "\n";
  for (const PlannedTable& t : plan.tables) out += "\n" + makefile_rule(t, r.rules);
  return out;
}

std::vector<std::pair<std::string, std::string>> plan_slurm(const Plan& plan) {
  require_buildable(plan);
  std::vector<std::pair<std::string, std::string>> files;
  std::string submit =
      "#!/bin/bash\n"
      "# Submits one Slurm job per table in build order, each after the jobs of its subtables\n"
      "# (--dependency=afterok; a failed job cancels the jobs that need it), and prints\n"
      "# 'SIG JOBID' per table. Arguments go to every sbatch (e.g. --partition=P). Written by egtb plan.\n"
      "set -euo pipefail\ncd \"$(dirname \"$0\")\"\nmkdir -p logs\ndeclare -A job\n"
      "submit() {  # SIG SUBTABLE...\n"
      "  local sig=$1 deps=\"\" d\n  shift\n"
      "  for d in \"$@\"; do deps=\"$deps:${job[$d]}\"; done\n"
      "  local after=()\n"
      "  [ -z \"$deps\" ] || after=(\"--dependency=afterok$deps\" --kill-on-invalid-dep=yes)\n"
      "  job[$sig]=$(sbatch --parsable \"${after[@]}\" \"${extra[@]}\" \"$sig.sbatch\")\n"
      "  job[$sig]=${job[$sig]%%;*}\n  echo \"$sig ${job[$sig]}\"\n}\nextra=(\"$@\")\n";
  for (const PlannedTable& t : plan.tables) {
    std::string script = "#!/bin/bash\n#SBATCH --job-name=egtb-" + t.material.str() +
                         "\n#SBATCH --cpus-per-task=" + std::to_string(t.cpus) +
                         "\n#SBATCH --mem=" + megabytes(t.memory_bytes) + "M\n#SBATCH --output=logs/" +
                         t.material.str() + "-%j.out\n" + cost_comment(t) + "\nexec";
    for (const std::string& word : t.command) script += " " + shell_quoted(word);
    script += " --threads \"${SLURM_CPUS_PER_TASK:-1}\"\n";
    files.emplace_back(t.material.str() + ".sbatch", script);
    submit += "submit " + t.material.str();
    for (const Material& d : t.dependencies) submit += " " + d.str();
    submit += "\n";
  }
  files.emplace_back("submit.sh", submit);
  return files;
}

}  // namespace egtb::api
