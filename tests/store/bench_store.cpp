// Table file throughput and probe latency on synthetic tables: `bench_store [SIGNATURE...]`.
// A program, not a test. Each table uses the real index scheme, its real invalid entries, and
// made-up values shaped like an endgame: mostly draws, wins and losses where the defending king
// stands on the edge (depth from the kings' distance), rare stalemates in the corners.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>

#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"

using namespace egtb;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

Score synthetic_score(const Position& pos) {
  const Square bk = pos.king_square(Color::Black);
  const int edge = std::min({file_of(bk), 7 - file_of(bk), rank_of(bk), 7 - rank_of(bk)});
  const int distance = square_distance(pos.king_square(Color::White), bk);
  const bool white = pos.side_to_move() == Color::White;
  if (edge > 0) return Score::draw();
  if ((file_of(bk) == 0 || file_of(bk) == 7) && (rank_of(bk) == 0 || rank_of(bk) == 7) && distance == 2)
    return white ? Score(Lasker::Stalemates, 2 * distance - 1) : Score(Lasker::Stalemated, 2 * distance);
  return white ? Score(Lasker::Mates, 2 * distance + 1) : Score(Lasker::Mated, 2 * distance);
}

Table synthetic_table(const indexing::IndexScheme& scheme) {
  Table table(scheme.material());
  Position pos;
  for (Color stm : {Color::White, Color::Black})
    for (indexing::Index i = 0; i < scheme.size(); ++i)
      table.set(stm, i, scheme.decode(i, stm, pos) ? synthetic_score(pos) : Score::invalid());
  return table;
}

// Nanoseconds per probe over the given positions.
double probe_ns(const Tablebase& tb, const std::vector<Position>& positions) {
  const auto start = Clock::now();
  uint64_t sum = 0;
  for (const Position& pos : positions) sum += tb.probe(pos).value().raw();
  const double ns = seconds_since(start) * 1e9 / static_cast<double>(positions.size());
  return sum == 0 ? ns : ns;  // keeps the probes from being optimised away
}

void bench(const std::string& signature, const std::filesystem::path& dir) {
  const indexing::IndexScheme scheme(*Material::parse(signature));
  const Table table = synthetic_table(scheme);
  const double raw_mb = static_cast<double>(4 * table.size()) / 1e6;
  const uint64_t positions = table.stats(Color::White).positions() + table.stats(Color::Black).positions();
  for (int level : {1, 3, 7, 19}) {
    WriteOptions options;
    options.level = level;
    auto start = Clock::now();
    const auto path = write_table(dir, table, options);
    const double write_s = seconds_since(start);
    start = Clock::now();
    const auto loaded = Table::load(path);
    const double load_s = seconds_since(start);
    const auto bytes = std::filesystem::file_size(path);
    std::printf(
        "%-6s level %2d: %10llu bytes, %.4f bytes/position, %.4f bytes/entry, write %5.0f MB/s, load %5.0f "
        "MB/s\n",
        signature.c_str(), level, static_cast<unsigned long long>(bytes),
        static_cast<double>(bytes) / static_cast<double>(positions),
        static_cast<double>(bytes) / static_cast<double>(2 * table.size()), raw_mb / write_s,
        raw_mb / load_s);
  }
  write_table(dir, table);
  std::mt19937_64 rng(1);
  std::vector<Position> sample;
  while (sample.size() < 20000) {
    const auto pos = scheme.position_at(rng() % scheme.size(), rng() % 2 ? Color::Black : Color::White);
    if (pos) sample.push_back(*pos);
  }
  const Tablebase cached(dir);
  (void)probe_ns(cached, sample);
  TablebaseOptions no_cache;
  no_cache.cache_bytes = 0;
  const Tablebase uncached(dir, no_cache);
  std::printf("%-6s probe: %.0f ns cached, %.0f ns uncached (one block read and decoded per probe)\n",
              signature.c_str(), probe_ns(cached, sample), probe_ns(uncached, sample));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> signatures(argv + 1, argv + argc);
  if (signatures.empty()) signatures = {"KQk", "KRkr", "KPkp", "KQRk"};
  const egtb::test::TempDir dir;
  for (const std::string& s : signatures) bench(s, dir.path());
}
