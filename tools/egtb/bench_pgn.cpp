// egtb bench pgn FILE [--threads 1,2] [--json]: games per second of reading PGN.
//
// Three passes over the file: the parser alone (syntax: tags, comments, variations, moves as
// text), the serial reader (parsed and replayed: every move checked against its position, as
// GameReader does), and the parallel stream of annotate and query --pgn-in (api/game_stream.hpp)
// with nothing done per game, once per thread count. Each pass reports wall-clock and CPU seconds
// (every thread's, user and system: on a shared machine the fairer measure). Compare with
// pgn-extract on the same file: bench/pgn_bench.sh.
#include <chrono>
#include <ctime>
#include <iomanip>
#include <iostream>

#include "api/game_stream.hpp"
#include "api/input.hpp"
#include "pgn/reader.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct Pass {
  std::string name;
  uint64_t games = 0;
  uint64_t errors = 0;
  double seconds = 0;      // wall clock
  double cpu_seconds = 0;  // of every thread of the process, user and system
};

template <class Read>
Pass timed(std::string name, const std::string& path, Read read) {
  api::InputFile in(path, "PGN file");
  Pass pass{std::move(name)};
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  read(in.stream(), pass);
  pass.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  pass.cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  return pass;
}

std::vector<Pass> run_passes(const std::string& path, const std::vector<int>& threads) {
  std::vector<Pass> passes;
  passes.push_back(timed("parse", path, [](std::istream& in, Pass& p) {
    pgn::Parser parser(in);
    while (auto game = parser.next()) (*game ? p.games : p.errors)++;
  }));
  passes.push_back(timed("read", path, [](std::istream& in, Pass& p) {
    pgn::GameReader reader(in);
    while (auto game = reader.next()) (*game ? p.games : p.errors)++;
  }));
  for (int n : threads)
    passes.push_back(timed("stream, " + std::to_string(n) + " threads", path, [n](std::istream& in, Pass& p) {
      const api::GameStreamCounts c = api::for_each_game(
          in, {n, {}, {}}, [](pgn::Game&) { return api::GameDelivery{}; }, [](const auto&) {});
      p.games = c.games - c.errors;
      p.errors = c.errors;
    }));
  return passes;
}

}  // namespace

int bench_pgn(const std::vector<std::string>& args) {
  CommandLine cl("bench pgn",
                 "Time reading the games of a PGN file: parsing, replaying, the parallel stream.");
  cl.positional("FILE", "the PGN file");
  cl.options()("threads", po::value<std::string>()->value_name("N,..."),
               "thread counts of the stream (default 1,2)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::vector<Pass> passes = run_passes(cl.argument("FILE"), thread_list_option(cl));
  Json json = Json::array();
  for (const Pass& p : passes) {
    const auto per = [&](double seconds) {
      return seconds > 0 ? static_cast<double>(p.games + p.errors) / seconds : 0;
    };
    if (cl.json())
      json.push_back({{"pass", p.name},
                      {"games", p.games},
                      {"errors", p.errors},
                      {"seconds", p.seconds},
                      {"cpu_seconds", p.cpu_seconds},
                      {"games_per_second", per(p.seconds)},
                      {"games_per_cpu_second", per(p.cpu_seconds)}});
    else
      std::cout << std::left << std::setw(20) << p.name << std::right << std::setw(10) << p.games << " games "
                << std::setw(6) << p.errors << " errors " << std::fixed << std::setprecision(2)
                << std::setw(8) << p.seconds << " s " << std::setprecision(0) << std::setw(10)
                << per(p.seconds) << " games/s " << std::setprecision(2) << std::setw(8) << p.cpu_seconds
                << " CPU s " << std::setprecision(0) << std::setw(10) << per(p.cpu_seconds)
                << " games/CPU s\n";
  }
  if (cl.json()) print_json(json);
  return ExitSuccess;
}

}  // namespace egtb::cli
