// egtb bench index SIG... [--entries N] [--json]: the speed of a table's index scheme, no table file
// needed.
//
// Two passes over a window of N consecutive entries (default 10,000,000) from the middle of the
// normal section with White to move, the order the verifier and the statistics read a table in:
// `men` decodes each entry to its men's squares (IndexScheme::men_at, the verifier's inner step),
// `round trip` decodes each valid entry to a position and encodes it back (decode, then index_of,
// the probe's step), checking that it comes back to an entry of the same position. Each pass
// reports nanoseconds per entry of CPU time (on a loaded machine the fairer measure). The 6-man
// schemes are timed without their memory: only the scheme is built.
#include <ctime>
#include <iomanip>
#include <iostream>

#include "egtb/core/position.hpp"
#include "indexing/index.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

struct IndexPass {
  std::string name;
  uint64_t entries = 0;
  uint64_t valid = 0;
  double cpu_seconds = 0;

  [[nodiscard]] double ns_per_entry() const {
    return entries > 0 ? cpu_seconds * 1e9 / static_cast<double>(entries) : 0.0;
  }
};

template <class Visit>
IndexPass timed(std::string name, indexing::Index begin, indexing::Index end, Visit visit) {
  IndexPass pass{std::move(name), end - begin};
  const std::clock_t start = std::clock();
  for (indexing::Index i = begin; i < end; ++i) pass.valid += visit(i) ? 1U : 0U;
  pass.cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  return pass;
}

std::vector<IndexPass> run_passes(const indexing::IndexScheme& scheme, uint64_t entries) {
  const indexing::Index size = scheme.normal_size();
  const indexing::Index begin = size > entries ? (size - entries) / 2 : 0;
  const indexing::Index end = std::min(size, begin + entries);
  indexing::IndexScheme::Men men;
  Position pos;
  std::vector<IndexPass> passes;
  passes.push_back(timed("men", begin, end, [&](indexing::Index i) { return scheme.men_at(i, men); }));
  passes.push_back(timed("round trip", begin, end, [&](indexing::Index i) {
    if (!scheme.decode(i, Color::White, pos)) return false;
    const std::optional<indexing::Index> back = scheme.index_of(pos);
    if (!back || !scheme.position_at(*back, Color::White))
      throw std::logic_error("bench index: entry " + std::to_string(i) + " does not encode back");
    return true;
  }));
  return passes;
}

}  // namespace

int bench_index(const std::vector<std::string>& args) {
  CommandLine cl("bench index", "Time a table's index scheme: decoding entries and encoding positions.");
  cl.rest("SIG", "material signatures (no table files needed)");
  cl.options()("entries", po::value<std::string>()->value_name("N"),
               "consecutive entries timed per signature (default 10000000)");
  cl.json_option();
  if (!cl.parse(args)) return ExitSuccess;
  const auto entries =
      static_cast<uint64_t>(parse_int(cl.option("entries", "10000000"), "--entries", 1, 1'000'000'000));
  if (cl.rest_arguments().empty()) throw UsageError("bench index: name at least one signature");
  Json json = Json::array();
  for (const std::string& text : cl.rest_arguments()) {
    const auto material = Material::parse(text);
    if (!material) throw UsageError(material.error());
    const indexing::IndexScheme scheme(*material);
    for (const IndexPass& p : run_passes(scheme, entries)) {
      if (cl.json())
        json.push_back({{"table", text},
                        {"pass", p.name},
                        {"entries", p.entries},
                        {"valid", p.valid},
                        {"cpu_seconds", p.cpu_seconds},
                        {"ns_per_entry", p.ns_per_entry()}});
      else
        std::cout << std::left << std::setw(8) << text << std::setw(12) << p.name << std::right << p.entries
                  << " entries (" << p.valid << " valid)  " << std::fixed << std::setprecision(3)
                  << p.cpu_seconds << " s cpu  " << std::setprecision(1) << p.ns_per_entry()
                  << " ns per entry\n";
    }
  }
  if (cl.json()) print_json({{"benchmark", "index"}, {"passes", json}});
  return ExitSuccess;
}

}  // namespace egtb::cli
