// egtb bench probe [--dir DIR] [--count N] [--seed S] [--json]: probes per second on warm tables.
//
// Draws N random legal positions from the tables in DIR (api/sample.hpp: every orientation path of
// Tablebase::probe is timed), probes them all once to warm the block cache, then times a second
// pass. The Python and C benchmarks (bench/bench_bindings.py) time the same positions.
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <stdexcept>

#include "api/sample.hpp"
#include "api/signatures.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct PassTime {
  double seconds = 0;      // wall
  double cpu_seconds = 0;  // of the process, which probes on one thread
};

// The time to probe every position once; throws on a failed probe.
PassTime probe_all(const Tablebase& tb, const std::vector<Position>& positions) {
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (const Position& pos : positions)
    if (const auto score = tb.probe(pos); !score) throw std::runtime_error(score.error().message);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return {elapsed.count(), static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC};
}

struct ProbeTiming {
  size_t tables = 0;
  size_t probes = 0;
  PassTime cold;
  PassTime warm;
  BlockCache::Stats cache;

  [[nodiscard]] double per_second() const { return rate(warm.seconds); }
  // Per second of CPU time: what other jobs on a shared machine leave out of the wall figure.
  [[nodiscard]] double per_cpu_second() const { return rate(warm.cpu_seconds); }

private:
  [[nodiscard]] double rate(double seconds) const {
    return seconds > 0 ? static_cast<double>(probes) / seconds : 0.0;
  }
};

void print_timing(const ProbeTiming& t) {
  std::cout << "tables        " << t.tables << "\nprobes        " << t.probes << std::fixed
            << std::setprecision(3) << "\ncold seconds  " << t.cold.seconds << "\nwarm seconds  "
            << t.warm.seconds << " (CPU " << t.warm.cpu_seconds << ")" << std::setprecision(0)
            << "\nprobes/s      " << t.per_second() << " (per CPU second " << t.per_cpu_second() << ")"
            << "\ncache blocks  " << t.cache.blocks << " (" << (t.cache.bytes >> 20) << " MiB), hits "
            << t.cache.hits << ", misses " << t.cache.misses << '\n';
}

Json timing_json(const ProbeTiming& t) {
  return {{"benchmark", "probe"},
          {"tables", t.tables},
          {"probes", t.probes},
          {"cold_seconds", t.cold.seconds},
          {"warm_seconds", t.warm.seconds},
          {"warm_cpu_seconds", t.warm.cpu_seconds},
          {"probes_per_second", t.per_second()},
          {"probes_per_cpu_second", t.per_cpu_second()},
          {"cache_blocks", t.cache.blocks},
          {"cache_bytes", t.cache.bytes}};
}

}  // namespace

int bench_probe(const std::vector<std::string>& args) {
  CommandLine cl("bench probe",
                 "Time Tablebase::probe on random legal positions of the tables in a directory.");
  const auto text = [](const char* name) { return po::value<std::string>()->value_name(name); };
  cl.options()("dir", text("DIR"), "the table directory (default: tables)");
  cl.options()("count", text("N"), "positions to probe (default 1000000)");
  cl.options()("seed", text("S"), "random seed (default 1)");
  cl.options()("cache-mb", text("MB"), "decoded-block cache limit in MiB (default 1024)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::string dir = cl.option("dir", "tables");
  const int count = parse_int(cl.option("count", "1000000"), "--count", 1, 100'000'000);
  const int seed = parse_int(cl.option("seed", "1"), "--seed", 0, 1'000'000'000);
  TablebaseOptions options;
  options.cache_bytes = cache_bytes_option(cl);
  const Tablebase tb(dir, options);
  const std::vector<Position> positions =
      api::random_positions(tb, static_cast<size_t>(count), static_cast<uint64_t>(seed));
  ProbeTiming t;
  t.tables = api::available_tables(tb).size();
  t.probes = positions.size();
  t.cold = probe_all(tb, positions);
  t.warm = probe_all(tb, positions);
  t.cache = tb.cache_stats();
  if (cl.json())
    print_json(timing_json(t));
  else
    print_timing(t);
  return ExitSuccess;
}

}  // namespace egtb::cli
