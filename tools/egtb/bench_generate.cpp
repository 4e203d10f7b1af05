// egtb bench generate SIG [--dir DIR] [--threads LIST] [--rules LIST] [--json]: solves one table in
// memory in several configurations (1 and 2 threads, DTM alone and DTM+DTS; --threads changes the
// counts; --rules adds the table under other rule sets, each with all its metrics) and prints wall
// and CPU seconds, peak memory and positions per second for each, plus the ratios.
// Its dependencies are built into --dir first if missing; nothing is written for the table itself,
// and the time does not include turning the result into the storage index.

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "retro/process_usage.hpp"
#include "retro/scheduler.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

struct Run {
  int threads = 1;
  Rules rules = Rules::Lasker;
  MetricSet metrics;
  double wall = 0;
  double cpu = 0;
  uint64_t peak_bytes = 0;
  uint64_t positions = 0;
};

// The positions of a solved table (not timed: the storage index is filled block by block).
uint64_t count_positions(const retro::Solution& solution) {
  constexpr uint64_t Block = 1 << 16;
  std::vector<uint16_t> scores(Block);
  uint64_t positions = 0;
  for (Color c : {Color::White, Color::Black})
    for (uint64_t first = 0; first < solution.scheme().size(); first += Block) {
      const auto span = std::span<uint16_t>(scores).first(std::min(Block, solution.scheme().size() - first));
      solution.fill(solution.scheme(), c, first, span);
      positions += compute_stats(span).positions();
    }
  return positions;
}

// Times one configuration; the positions are counted in the first run's solution only (every
// configuration solves the same positions).
Run measure(const Material& m, const retro::Subtables& subtables, int threads, Rules rules, MetricSet metrics,
            uint64_t& positions) {
  retro::SolveConfig config;
  config.threads = threads;
  config.rules = rules;
  config.metrics = metrics;
  retro::reset_peak_resident();
  const double cpu_start = retro::process_cpu_seconds();
  const auto start = std::chrono::steady_clock::now();
  const auto solution = retro::solve_table(m, subtables, config);
  Run run{threads,
          rules,
          metrics,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
          retro::process_cpu_seconds() - cpu_start,
          retro::peak_resident_bytes()};
  if (positions == 0) positions = count_positions(*solution);  // the same positions under every rule set
  run.positions = positions;
  return run;
}

std::vector<Rules> parse_rules_list(const std::string& text) {
  std::vector<Rules> list;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const std::optional<Rules> r = parse_rules(item);
    if (!r)
      throw UsageError("--rules takes names of rule sets (lasker, stalemate-wins, stalemate-passes), not '" +
                       item + "'");
    list.push_back(*r);
  }
  if (list.empty()) throw UsageError("--rules needs a list such as lasker,stalemate-wins");
  return list;
}

// "dtm", "dtm,dts" under Lasker; "stalemate-wins dte" under the others.
std::string run_label(const Run& r) {
  const std::string metrics = to_string(r.metrics);
  return r.rules == Rules::Lasker ? metrics : std::string(rules_name(r.rules)) + " " + metrics;
}

std::string run_line(const Run& r) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << std::left << std::setw(9) << run_label(r) << std::right
      << std::setw(3) << r.threads << " threads  " << std::setw(8) << r.wall << " s wall  " << std::setw(8)
      << r.cpu << " s cpu  " << std::setw(6) << (r.peak_bytes >> 20) << " MB peak  " << std::setw(10)
      << with_commas(static_cast<uint64_t>(static_cast<double>(r.positions) / r.wall)) << " positions/s";
  return out.str();
}

Json run_json(const Run& r) {
  return {
      {"rules", rules_name(r.rules)}, {"metrics", to_string(r.metrics)},
      {"threads", r.threads},         {"wall_seconds", r.wall},
      {"cpu_seconds", r.cpu},         {"peak_bytes", r.peak_bytes},
      {"positions", r.positions},     {"positions_per_second", static_cast<double>(r.positions) / r.wall}};
}

// Ratios between the runs: DTM+DTS against DTM alone, other rules against Lasker's DTM+DTS, the
// most threads against one.
void print_ratios(const std::vector<Run>& runs) {
  const auto find = [&](int threads, Rules rules, MetricSet metrics) -> const Run* {
    for (const Run& r : runs)
      if (r.threads == threads && r.rules == rules && r.metrics == metrics) return &r;
    return nullptr;
  };
  const MetricSet dtm{Metric::Dtm};
  const MetricSet full = all_metrics(Rules::Lasker);
  const int fewest = runs.front().threads;
  const int most = runs.back().threads;
  std::cout << std::fixed << std::setprecision(2);
  for (int t : {fewest, most}) {
    const Run* lasker = find(t, Rules::Lasker, full);
    if (const Run* a = find(t, Rules::Lasker, dtm); a && lasker)
      std::cout << "DTM+DTS / DTM alone, " << t << " threads: " << lasker->wall / a->wall << "x wall\n";
    for (Rules r : {Rules::StalemateWins, Rules::StalematePasses})
      if (const Run* b = find(t, r, all_metrics(r)); b && lasker)
        std::cout << rules_name(r) << " / lasker dtm,dts, " << t << " threads: " << b->wall / lasker->wall
                  << "x wall, " << b->cpu / lasker->cpu << "x cpu\n";
    if (most == fewest) break;
  }
  for (const Run& a : runs)
    if (const Run* b = find(most, a.rules, a.metrics); a.threads == fewest && b && b != &a)
      std::cout << run_label(a) << ": " << most << " threads are " << a.wall / b->wall << "x faster than "
                << a.threads << '\n';
}

}  // namespace

int bench_generate(const std::vector<std::string>& args) {
  CommandLine cl("bench generate", "Time the solver on one table: threads and metrics compared in one run.");
  cl.positional("SIG", "the material signature, e.g. KQRkr");
  cl.options()("dir", po::value<std::string>()->value_name("DIR"),
               "where its dependencies are (default ./tables)")(
      "threads", po::value<std::string>()->value_name("LIST"), "thread counts to compare (default 1,2)")(
      "rules", po::value<std::string>()->value_name("LIST"),
      "rule sets to compare (default lasker; e.g. lasker,stalemate-wins,stalemate-passes)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const auto parsed = Material::parse(cl.argument("SIG"));
  if (!parsed) throw UsageError(parsed.error());
  const Material m = parsed->normalized();
  retro::GenerateOptions options;
  options.directory = cl.option("dir", "tables");
  const std::vector<Rules> rule_sets = parse_rules_list(cl.option("rules", "lasker"));
  const std::vector<int> thread_counts = thread_list_option(cl);
  std::vector<Run> runs;
  uint64_t positions = 0;
  for (Rules rules : rule_sets) {
    options.rules = rules;
    options.metrics = all_metrics(rules);
    retro::generate_tables(m.successors(), options);
    const retro::Subtables subtables =
        retro::Subtables::load(m, options.directory, rules, all_metrics(rules));
    std::vector<MetricSet> metric_sets{all_metrics(rules)};
    if (rules == Rules::Lasker) metric_sets.insert(metric_sets.begin(), MetricSet{Metric::Dtm});
    for (int threads : thread_counts)
      for (MetricSet metrics : metric_sets) {
        runs.push_back(measure(m, subtables, threads, rules, metrics, positions));
        if (!cl.json()) std::cout << m.str() << "  " << run_line(runs.back()) << std::endl;
      }
  }
  std::stable_sort(runs.begin(), runs.end(),
                   [](const Run& a, const Run& b) { return a.threads < b.threads; });
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
