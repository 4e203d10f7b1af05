// egtb plan SIG... [--all N] [--rules R] --format make|slurm|json [--dir DIR] [--egtb PATH]
// [--cpus N] [--max-memory SIZE] [--out DIR]: the tables of a set as jobs for Make, Slurm or any engine
// (api/plan.hpp).
#include <filesystem>
#include <iostream>

#include "api/json.hpp"
#include "api/options.hpp"
#include "api/plan.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/output.hpp"

namespace egtb::cli {

namespace {

api::PlanRequest plan_request(const CommandLine& cl, bool absolute_directory) {
  api::PlanRequest request;
  api::GenerateRequest& jobs = request.jobs;
  jobs.directory = cl.option("dir", "tables");
  if (absolute_directory) jobs.directory = std::filesystem::absolute(jobs.directory).lexically_normal();
  jobs.rules = rules_of(cl);
  if (cl.flag("max-memory")) jobs.max_memory = api::bytes_named(cl.option("max-memory", ""), "--max-memory");
  if (cl.flag("metrics")) jobs.metrics = api::metrics_named(cl.option("metrics", "dtm,dts"), "--metrics");
  jobs.compression_level = parse_int(cl.option("compression-level", std::to_string(DefaultCompressionLevel)),
                                     "--compression-level", 1, MaxCompressionLevel);
  request.program = cl.option("egtb", std::filesystem::read_symlink("/proc/self/exe").string());
  request.max_cpus = parse_int(cl.option("cpus", "2"), "--cpus", 1, 1024);
  return request;
}

// Writes the Slurm scripts into `out` (created), executable.
void write_files(const std::filesystem::path& out,
                 const std::vector<std::pair<std::string, std::string>>& files) {
  std::filesystem::create_directories(out);
  for (const auto& [name, text] : files) write_file(out / name, text, true);
}

}  // namespace

int cmd_plan(const std::vector<std::string>& args) {
  CommandLine cl("plan",
                 "The tables of a set and their dependencies as jobs for Make, Slurm or another engine.");
  cl.rest("SIG", "material signatures such as KQk, KRPkr or KQvK");
  cl.options()("all", po::value<std::string>()->value_name("N"),
               "every signature of 3 to N men (6 or 7: estimates only, --format json)")(
      "format", po::value<std::string>()->value_name("F"),
      "make (a Makefile on stdout), slurm (scripts in --out) or json")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory of the jobs (default ./tables)")(
      "egtb", po::value<std::string>()->value_name("PATH"), "the egtb the jobs run (default: this one)")(
      "cpus", po::value<std::string>()->value_name("N"), "the most CPUs a Slurm job asks for (default 2)")(
      "max-memory", po::value<std::string>()->value_name("SIZE"),
      "memory a job's build may take (800M, 2G): passed to egtb generate; tables estimated above it "
      "are planned in slices or on the lean path (default: each as egtb generate solves it on this machine)")(
      "metrics", po::value<std::string>()->value_name("LIST"),
      "dtm,dts (default) or dtm: passed to egtb generate")(
      "compression-level", po::value<std::string>()->value_name("N"),
      "zstd level of the files, 1 to 22 (default 3): passed to egtb generate")(
      "out", po::value<std::string>()->value_name("DIR"), "where --format slurm writes its scripts");
  cl.rules_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::string format = cl.option("format", "json");
  if (format != "make" && format != "slurm" && format != "json")
    throw UsageError("--format must be make, slurm or json, not '" + format + "'");
  if (format == "slurm" && !cl.flag("out"))
    throw UsageError("--format slurm needs --out DIR for its scripts");
  const api::Plan plan =
      api::make_plan(parse_signatures(cl, "plan", api::PlanMaxMen), plan_request(cl, format == "slurm"));
  if (format == "make") {
    std::cout << api::plan_makefile(plan);
  } else if (format == "slurm") {
    write_files(cl.option("out", ""), api::plan_slurm(plan));
    std::cout << "wrote " << plan.tables.size() << " job scripts and submit.sh to " << cl.option("out", "")
              << " (run submit.sh there)" << std::endl;
  } else {
    print_json(api::to_json(plan));
  }
  return ExitSuccess;
}

}  // namespace egtb::cli
