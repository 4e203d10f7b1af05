// egtb bench generate SIG [--dir DIR] [--threads LIST] [--json]: solves one table in memory in
// four configurations (1 and 2 threads, DTM alone and DTM+DTS; --threads changes the counts) and
// prints wall and CPU seconds, peak memory and positions per second for each, plus the ratios.
// Its dependencies are built into --dir first if missing; nothing is written for the table itself,
// and the time does not include turning the result into the storage index.
#include <sys/resource.h>

#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "retro/scheduler.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

struct Run {
  int threads = 1;
  bool dts = true;
  double wall = 0;
  double cpu = 0;
  uint64_t peak_bytes = 0;
  uint64_t positions = 0;
};

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto s = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return s(u.ru_utime) + s(u.ru_stime);
}

// Resets the kernel's peak-resident-memory mark of this process (Linux: VmHWM).
void reset_peak_memory() { std::ofstream("/proc/self/clear_refs") << "5"; }

// The peak resident memory since the last reset, from /proc/self/status (0 when unavailable).
uint64_t peak_memory_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

// The positions of a solved table (not timed: the storage index is filled block by block).
uint64_t count_positions(const retro::Solution& solution) {
  constexpr uint64_t Block = 1 << 16;
  std::vector<uint16_t> scores(Block);
  uint64_t positions = 0;
  for (Color c : {Color::White, Color::Black})
    for (uint64_t first = 0; first < solution.scheme().size(); first += Block) {
      const auto span = std::span<uint16_t>(scores).first(std::min(Block, solution.scheme().size() - first));
      solution.fill(c, first, span);
      positions += compute_stats(span).positions();
    }
  return positions;
}

// Times one configuration; the positions are counted in the first run's solution only (every
// configuration solves the same positions).
Run measure(const Material& m, const retro::Subtables& subtables, int threads, bool dts,
            uint64_t& positions) {
  retro::GeneratorConfig config;
  config.threads = threads;
  config.metrics = dts ? MetricSet{Metric::Dtm, Metric::Dts} : MetricSet{Metric::Dtm};
  reset_peak_memory();
  const double cpu_start = cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  const auto solution = retro::solve_table(m, subtables, config);
  Run run{threads, dts, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          cpu_seconds() - cpu_start, peak_memory_bytes()};
  if (positions == 0) positions = count_positions(*solution);
  run.positions = positions;
  return run;
}

std::string run_line(const Run& r) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << std::left << std::setw(9) << (r.dts ? "dtm,dts" : "dtm")
      << std::right << std::setw(3) << r.threads << " threads  " << std::setw(8) << r.wall << " s wall  "
      << std::setw(8) << r.cpu << " s cpu  " << std::setw(6) << (r.peak_bytes >> 20) << " MB peak  "
      << std::setw(10) << with_commas(static_cast<uint64_t>(static_cast<double>(r.positions) / r.wall))
      << " positions/s";
  return out.str();
}

Json run_json(const Run& r) {
  return {{"metrics", r.dts ? "dtm,dts" : "dtm"},
          {"threads", r.threads},
          {"wall_seconds", r.wall},
          {"cpu_seconds", r.cpu},
          {"peak_bytes", r.peak_bytes},
          {"positions", r.positions},
          {"positions_per_second", static_cast<double>(r.positions) / r.wall}};
}

// Ratios between the runs: DTM+DTS against DTM alone, the most threads against one.
void print_ratios(const std::vector<Run>& runs) {
  const auto find = [&](int threads, bool dts) -> const Run* {
    for (const Run& r : runs)
      if (r.threads == threads && r.dts == dts) return &r;
    return nullptr;
  };
  const int most = runs.back().threads;
  std::cout << std::fixed << std::setprecision(2);
  for (int t : {runs.front().threads, most})
    if (const Run* a = find(t, false), *b = find(t, true); a && b)
      std::cout << "DTM+DTS / DTM alone, " << t << " threads: " << b->wall / a->wall << "x wall\n";
  for (bool dts : {false, true})
    if (const Run* a = find(runs.front().threads, dts), *b = find(most, dts); a && b && a != b)
      std::cout << (dts ? "dtm,dts" : "dtm") << ": " << most << " threads are " << a->wall / b->wall
                << "x faster than " << a->threads << '\n';
}

}  // namespace

int bench_generate(const std::vector<std::string>& args) {
  CommandLine cl("bench generate", "Time the solver on one table: threads and metrics compared in one run.");
  cl.positional("SIG", "the material signature, e.g. KQRkr");
  cl.options()("dir", po::value<std::string>()->value_name("DIR"),
               "where its dependencies are (default ./tables)")(
      "threads", po::value<std::string>()->value_name("LIST"), "thread counts to compare (default 1,2)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const auto parsed = Material::parse(cl.argument("SIG"));
  if (!parsed) throw UsageError(parsed.error());
  const Material m = parsed->normalized();
  retro::BuildOptions options;
  options.directory = cl.option("dir", "tables");
  const std::vector<Material> dependencies = m.successors();
  retro::build_tables(dependencies, options);
  const retro::Subtables subtables =
      retro::Subtables::load(m, options.directory, Rules::Lasker, all_metrics(Rules::Lasker));
  std::vector<Run> runs;
  uint64_t positions = 0;
  for (int threads : thread_list_option(cl))
    for (bool dts : {false, true}) {
      runs.push_back(measure(m, subtables, threads, dts, positions));
      if (!cl.json()) std::cout << m.str() << "  " << run_line(runs.back()) << std::endl;
    }
  if (cl.json()) {
    Json list = Json::array();
    for (const Run& r : runs) list.push_back(run_json(r));
    print_json({{"benchmark", "generate"}, {"signature", m.str()}, {"runs", list}});
  } else {
    print_ratios(runs);
  }
  return ExitSuccess;
}

}  // namespace egtb::cli
