// egtb bench perft [--depth N] [--fen FEN] [--json]: timed workloads; the others are in bench_*.cpp.
#include <chrono>
#include <iomanip>
#include <iostream>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct PerftTiming {
  uint64_t nodes = 0;
  double seconds = 0;
};

PerftTiming time_perft(const Position& pos, int depth) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t nodes = perft(pos, depth);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  return {nodes, elapsed.count()};
}

double mnodes_per_second(const PerftTiming& t) {
  return t.seconds > 0 ? static_cast<double>(t.nodes) / t.seconds / 1e6 : 0.0;
}

int bench_perft(const std::vector<std::string>& args) {
  CommandLine cl("bench perft", "Time perft (leaf counting by legal move generation) from a position.");
  cl.options()("depth", po::value<std::string>()->value_name("N"), "depth in plies, 1 to 20 (default 6)")(
      "fen", po::value<std::string>()->value_name("FEN"), "the position (default: the initial position)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const Position pos = parse_position(cl.option("fen", "startpos"));
  const int depth = parse_int(cl.option("depth", "6"), "--depth", 1, 20);
  const PerftTiming t = time_perft(pos, depth);
  if (cl.json()) {
    print_json({{"benchmark", "perft"},
                {"fen", to_fen(pos)},
                {"depth", depth},
                {"nodes", t.nodes},
                {"seconds", t.seconds},
                {"mnodes_per_second", mnodes_per_second(t)}});
    return ExitSuccess;
  }
  std::cout << "fen       " << to_fen(pos) << "\ndepth     " << depth << "\nnodes     " << t.nodes
            << std::fixed << std::setprecision(3) << "\nseconds   " << t.seconds << std::setprecision(1)
            << "\nMnodes/s  " << mnodes_per_second(t) << '\n';
  return ExitSuccess;
}

struct Benchmark {
  const char* name;
  const char* summary;
  int (*run)(const std::vector<std::string>&);
};

constexpr Benchmark Benchmarks[] = {
    {"perft", "time perft from a position (default: the initial position, depth 6)", bench_perft},
    {"generate", "time the solver on one table: 1 and 2 threads, DTM alone and DTM+DTS", bench_generate},
    {"index", "time a table's index scheme: decoding entries and encoding positions", bench_index},
    {"probe", "time probes of random legal positions of the tables in a directory", bench_probe},
    {"query", "time counting query scans of tables, 1 and 2 threads", bench_query},
    {"pgn", "time reading the games of a PGN file: parsing, replaying, the parallel stream", bench_pgn},
};

void print_help() {
  std::cout << "Usage: egtb bench <benchmark> [options]\n\nTime a workload and print its speed.\n\n"
               "Benchmarks:\n";
  for (const Benchmark& b : Benchmarks) std::cout << "  " << b.name << "  " << b.summary << '\n';
  std::cout << "\nSee egtb bench <benchmark> --help for its options.\n";
}

}  // namespace

int cmd_bench(const std::vector<std::string>& args) {
  if (args.empty()) throw UsageError("bench: missing benchmark name (see egtb bench --help)");
  if (args[0] == "--help" || args[0] == "-h") {
    print_help();
    return ExitSuccess;
  }
  for (const Benchmark& b : Benchmarks)
    if (args[0] == b.name) return b.run({args.begin() + 1, args.end()});
  throw UsageError("bench: unknown benchmark '" + args[0] + "' (see egtb bench --help)");
}

}  // namespace egtb::cli
