// egtb bench probe [--dir DIR] [--count N] [--seed S] [--json]: probes per second on warm tables.
//
// Draws N random legal positions from the tables in DIR (a random valid entry of a random table,
// side to move at random, then a random board symmetry and, half of the time, the colour flip, so
// that every orientation path of Tablebase::probe is timed), probes them all once to warm the
// block cache, then times a second pass.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <random>
#include <stdexcept>

#include "egtb/core/symmetry.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/tablebase.hpp"
#include "indexing/index.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

// The index schemes of the table files in `dir`, in file name order.
std::vector<indexing::IndexScheme> tables_in(const std::filesystem::path& dir) {
  if (!std::filesystem::is_directory(dir)) throw UsageError("bench probe: no directory " + dir.string());
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == TableExtension) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<indexing::IndexScheme> schemes;
  for (const auto& file : files)
    if (const auto m = Material::parse(file.stem().string()); m && m->is_canonical())
      schemes.emplace_back(*m);
  if (schemes.empty())
    throw UsageError("bench probe: no tables in " + dir.string() + " (build some with egtb generate)");
  return schemes;
}

// A random legal position of one of the tables, in a random orientation.
Position random_position(const std::vector<indexing::IndexScheme>& schemes, std::mt19937_64& rng) {
  const auto& scheme = schemes[rng() % schemes.size()];
  Position pos;
  bool valid = false;
  while (!valid) valid = scheme.decode(rng() % scheme.size(), rng() % 2 ? Color::White : Color::Black, pos);
  const int symmetries = scheme.material().has_pawns() ? 2 : SymmetryCount;
  pos = apply(AllSymmetries[rng() % static_cast<uint64_t>(symmetries)], pos);
  return rng() % 2 ? color_flipped(pos) : pos;
}

std::vector<Position> random_positions(const std::vector<indexing::IndexScheme>& schemes, int count,
                                       uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Position> positions;
  positions.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) positions.push_back(random_position(schemes, rng));
  return positions;
}

// Seconds to probe every position once; throws on a failed probe.
double probe_all(const Tablebase& tb, const std::vector<Position>& positions) {
  const auto start = std::chrono::steady_clock::now();
  for (const Position& pos : positions)
    if (const auto score = tb.probe(pos); !score) throw std::runtime_error(score.error().message);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count();
}

struct ProbeTiming {
  size_t tables = 0;
  size_t probes = 0;
  double cold_seconds = 0;
  double warm_seconds = 0;
  BlockCache::Stats cache;

  [[nodiscard]] double per_second() const {
    return warm_seconds > 0 ? static_cast<double>(probes) / warm_seconds : 0.0;
  }
};

void print_timing(const ProbeTiming& t) {
  std::cout << "tables        " << t.tables << "\nprobes        " << t.probes << std::fixed
            << std::setprecision(3) << "\ncold seconds  " << t.cold_seconds << "\nwarm seconds  "
            << t.warm_seconds << std::setprecision(0) << "\nprobes/s      " << t.per_second()
            << "\ncache blocks  " << t.cache.blocks << " (" << (t.cache.bytes >> 20) << " MiB), hits "
            << t.cache.hits << ", misses " << t.cache.misses << '\n';
}

Json timing_json(const ProbeTiming& t) {
  return {{"benchmark", "probe"},
          {"tables", t.tables},
          {"probes", t.probes},
          {"cold_seconds", t.cold_seconds},
          {"warm_seconds", t.warm_seconds},
          {"probes_per_second", t.per_second()},
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
  options.cache_bytes = size_t{1} << 20;
  options.cache_bytes *=
      static_cast<size_t>(parse_int(cl.option("cache-mb", "1024"), "--cache-mb", 1, 1 << 20));
  const auto schemes = tables_in(dir);
  const std::vector<Position> positions = random_positions(schemes, count, static_cast<uint64_t>(seed));
  const Tablebase tb(dir, options);
  ProbeTiming t;
  t.tables = schemes.size();
  t.probes = positions.size();
  t.cold_seconds = probe_all(tb, positions);
  t.warm_seconds = probe_all(tb, positions);
  t.cache = tb.cache_stats();
  if (cl.json())
    print_json(timing_json(t));
  else
    print_timing(t);
  return ExitSuccess;
}

}  // namespace egtb::cli
