// egtb bench query SIG... 'QUERY' [--dir DIR] [--convention C] [--threads LIST] [--repeat N] [--json]:
// the speed of counting table scans (query/scan.hpp).
//
// For each thread count of LIST (default 1,2) the scan runs N times (default 3) and the fastest
// run is reported: entries read from the table files per second per thread (the rate the
// issue's target of 1,000,000 positions per second per core is measured in), positions the query
// was evaluated on, and the process CPU time of that run with the entries per CPU second (on a
// loaded machine the wall-clock rates understate the speed; the CPU rate does not). The tables are read from
// disk (page cache) and decompressed by every run, as `egtb query --count` does.
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "api/query.hpp"
#include "query/scan.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct ScanTiming {
  int threads = 1;
  query::ScanSummary summary;
  double cpu_seconds = 0;

  [[nodiscard]] double per_thread(uint64_t n) const {
    return summary.seconds > 0 ? static_cast<double>(n) / summary.seconds / threads : 0.0;
  }
  // The rate per second of CPU time, which a busy machine does not distort.
  [[nodiscard]] double per_cpu_second(uint64_t n) const {
    return cpu_seconds > 0 ? static_cast<double>(n) / cpu_seconds : 0.0;
  }
};

ScanTiming fastest_run(const query::ScanQuery& q, const std::vector<Material>& tables, query::ScanOptions o,
                       int threads, int repeat) {
  o.threads = threads;
  ScanTiming best;
  for (int i = 0; i < repeat; ++i) {
    const std::clock_t cpu_start = std::clock();
    const query::ScanSummary s = query::scan_tables(q, tables, o);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    if (i == 0 || s.seconds < best.summary.seconds) best = {threads, s, cpu};
  }
  return best;
}

Json timing_json(const ScanTiming& t) {
  return {{"threads", t.threads},
          {"matches", t.summary.matches},
          {"entries", t.summary.entries},
          {"evaluated", t.summary.evaluated},
          {"seconds", t.summary.seconds},
          {"cpu_seconds", t.cpu_seconds},
          {"entries_per_second_per_thread", t.per_thread(t.summary.entries)},
          {"evaluated_per_second_per_thread", t.per_thread(t.summary.evaluated)},
          {"entries_per_cpu_second", t.per_cpu_second(t.summary.entries)}};
}

void print_timing(const ScanTiming& t) {
  std::cout << std::fixed << std::setprecision(3) << "threads " << t.threads << "  matches "
            << t.summary.matches << "  entries " << t.summary.entries << "  evaluated " << t.summary.evaluated
            << "  " << t.summary.seconds << " s wall, " << t.cpu_seconds << " s cpu  " << std::setprecision(1)
            << t.per_thread(t.summary.entries) / 1e6 << " M entries/s/thread, "
            << t.per_thread(t.summary.evaluated) / 1e6 << " M evaluated/s/thread, "
            << t.per_cpu_second(t.summary.entries) / 1e6 << " M entries per cpu second\n";
}

std::vector<Material> materials(const std::vector<std::string>& texts) {
  std::vector<Material> tables;
  for (const std::string& text : texts) {
    const auto m = Material::parse(text);
    if (!m) throw UsageError(m.error());
    tables.push_back(*m);
  }
  if (tables.empty()) throw UsageError("bench query: name at least one signature and a query");
  return tables;
}

}  // namespace

int bench_query(const std::vector<std::string>& args) {
  CommandLine cl("bench query", "Time counting scans of tables: entries per second per thread.");
  cl.rest("ARG", "material signatures, then the query");
  cl.options()("dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "convention", po::value<std::string>()->value_name("NAME"), "index462 (default), physical or classes")(
      "threads", po::value<std::string>()->value_name("LIST"), "thread counts to time (default 1,2)")(
      "repeat", po::value<std::string>()->value_name("N"),
      "runs per thread count, the fastest counts (default 3)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  std::vector<std::string> rest = cl.rest_arguments();
  if (rest.size() < 2) throw UsageError("bench query: name at least one signature and a query");
  const std::string source = rest.back();
  rest.pop_back();
  const query::ScanQuery q = api::prepare_query(source);
  query::ScanOptions o;
  o.list = false;
  o.directory = cl.option("dir", "tables");
  o.convention = convention_option(cl);
  const std::string convention(indexing::convention_name(o.convention));
  const int repeat = parse_int(cl.option("repeat", "3"), "--repeat", 1, 1000);
  Json runs = Json::array();
  for (int threads : thread_list_option(cl)) {
    const ScanTiming t = fastest_run(q, materials(rest), o, threads, repeat);
    if (cl.json())
      runs.push_back(timing_json(t));
    else
      print_timing(t);
  }
  if (cl.json())
    print_json({{"benchmark", "query"}, {"query", source}, {"convention", convention}, {"runs", runs}});
  return ExitSuccess;
}

}  // namespace egtb::cli
