// bench_indexing [SIGNATURE ...]: index sizes and index_of / position_at throughput.
//
// For each signature: entries per side to move, then decode() over (up to 50 million) consecutive
// entries in millions of entries per second, and index_of() over a sample of the valid positions
// found, in millions of positions per second, after a warm-up. One thread; times are processor time
// (std::clock), so that other processes on a shared machine distort them less.
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include "indexing/index.hpp"

using namespace egtb;
using namespace egtb::indexing;

namespace {

double seconds_since(std::clock_t start) {
  return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

struct Throughput {
  double decode_mps = 0;
  double index_of_mps = 0;
  double valid_share = 0;
};

Throughput measure(const IndexScheme& scheme, Color stm) {
  const Index limit = std::min<Index>(scheme.size(), 50'000'000);
  const Index stride = std::max<Index>(1, limit / 200'000);
  std::vector<Position> sample;
  Position pos;
  uint64_t valid = 0;
  for (Index i = 0; i < std::min<Index>(limit, 1'000'000); ++i) valid += scheme.decode(i, stm, pos) ? 1u : 0u;
  valid = 0;
  sample.reserve(limit / stride + 1);
  const std::clock_t start = std::clock();
  for (Index i = 0; i < limit; ++i) {
    if (!scheme.decode(i, stm, pos)) continue;
    ++valid;
    if (i % stride == 0) sample.push_back(pos);
  }
  Throughput t;
  t.decode_mps = static_cast<double>(limit) / seconds_since(start) / 1e6;
  t.valid_share = static_cast<double>(valid) / static_cast<double>(limit);
  const int rounds = 20;
  Index checksum = 0;
  const std::clock_t encode_start = std::clock();
  for (int r = 0; r < rounds; ++r)
    for (const Position& p : sample) checksum += scheme.index_of(p).value_or(0);
  t.index_of_mps = static_cast<double>(sample.size()) * rounds / seconds_since(encode_start) / 1e6;
  if (checksum == 1) std::puts("");
  return t;
}

void report(const std::string& signature) {
  const auto material = Material::parse(signature);
  if (!material) {
    std::printf("%s: %s\n", signature.c_str(), material.error().c_str());
    return;
  }
  const IndexScheme scheme(*material);
  const Throughput t = measure(scheme, Color::White);
  std::printf(
      "%-7s %5d pairs  %12llu entries (%9llu e.p.)  %8.1f MB/side at 1 byte  decode %6.1f M/s (%4.1f%% "
      "valid)  "
      "index_of %6.1f M/s\n",
      material->str().c_str(), scheme.king_pairs(), static_cast<unsigned long long>(scheme.size()),
      static_cast<unsigned long long>(scheme.ep_size()), static_cast<double>(scheme.size()) / 1e6,
      t.decode_mps, 100 * t.valid_share, t.index_of_mps);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> signatures(argv + 1, argv + argc);
  if (signatures.empty()) signatures = {"KQk", "KBNk", "KPkp", "KRBkn", "KRPkr", "KQPkq", "KPPkp"};
  for (const std::string& s : signatures) report(s);
}
