#include "stats/statistics.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/reader.hpp"

namespace egtb::stats {

namespace {

using indexing::Index;
using indexing::IndexScheme;

constexpr size_t CodeCount = size_t{1} << 16;
constexpr Index NoIndex = std::numeric_limits<Index>::max();

// Per raw score code of one side to move: the summed weights of its entries and the smallest
// index among its entries of non-zero weight.
struct CodeTotals {
  std::vector<uint64_t> weight = std::vector<uint64_t>(CodeCount);
  std::vector<Index> first = std::vector<Index>(CodeCount, NoIndex);

  void merge(const CodeTotals& other) {
    for (size_t raw = 0; raw < CodeCount; ++raw) {
      weight[raw] += other.weight[raw];
      first[raw] = std::min(first[raw], other.first[raw]);
    }
  }
};

using SideTotals = std::array<CodeTotals, 2>;

// One thread's share of a scan.
struct ScanState {
  SideTotals sides;
  std::vector<uint16_t> block;
  Position pos;
};

struct ScanJob {
  const TableReader& reader;
  const IndexScheme& scheme;
  Convention convention;
};

Color side_color(int side) { return side == 0 ? Color::White : Color::Black; }

// Adds the weights of the valid entries of one block.
void scan_block(const ScanJob& job, uint64_t block, ScanState& state) {
  const BlockSpan span = block_span(job.reader.header(), block);
  job.reader.read_block(block, state.block);
  const Color stm = side_color(span.side);
  CodeTotals& totals = state.sides[static_cast<size_t>(span.side)];
  for (uint64_t j = 0; j < span.count; ++j) {
    const uint16_t raw = state.block[j];
    if (!Score::from_raw(raw).is_valid()) continue;
    const Index i = span.first + j;
    if (!job.scheme.decode(i, stm, state.pos))
      throw FormatError(job.reader.path(), "entry " + std::to_string(i) + " has a score but no position");
    const uint32_t w = job.scheme.weights(i, state.pos).get(job.convention);
    if (w == 0) continue;
    totals.weight[raw] += w;
    totals.first[raw] = std::min(totals.first[raw], i);
  }
}

// The totals of every block, scanned in parallel.
SideTotals scan_table(const ScanJob& job, int threads) {
  tbb::enumerable_thread_specific<ScanState> states;
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, job.reader.header().block_count),
                      [&](const tbb::blocked_range<uint64_t>& r) {
                        ScanState& state = states.local();
                        for (uint64_t b = r.begin(); b != r.end(); ++b) scan_block(job, b, state);
                      });
  });
  SideTotals totals;
  for (const ScanState& state : states)
    for (size_t side = 0; side < 2; ++side) totals[side].merge(state.sides[side]);
  return totals;
}

SideSummary summarize(const CodeTotals& totals) {
  SideSummary s;
  for (size_t raw = 0; raw < CodeCount; ++raw) {
    const uint64_t w = totals.weight[raw];
    if (w == 0) continue;
    const Score score = Score::from_raw(static_cast<uint16_t>(raw));
    const auto v = static_cast<size_t>(to_index(score.value()));
    s.lasker[v] += w;
    if (score.value() != Lasker::Draw) s.depths[v][score.depth()] += w;
  }
  return s;
}

// The deepest positions of one metric that `winner` wins: its wins with it to move and its
// opponent's losses with the opponent to move; the depth parities keep the two apart.
std::optional<Deepest> deepest(Rules rules, Metric metric, Color winner, const SideTotals& totals,
                               const std::array<SideSummary, 2>& sides, const IndexScheme& scheme) {
  const std::optional<SolvePhase> phase = phase_of(rules, metric);
  if (!phase) return std::nullopt;
  std::optional<Deepest> best;
  for (const auto& [stm, value] : {std::pair{winner, phase->win}, std::pair{~winner, phase->loss}}) {
    const size_t side = static_cast<size_t>(to_index(stm));
    const DepthHistogram& h = sides[side].depths[static_cast<size_t>(to_index(value))];
    if (h.empty() || (best && h.rbegin()->first <= best->plies)) continue;
    const auto [plies, positions] = *h.rbegin();
    if (plies == 0) continue;  // the (stale)mates on the board: nobody forces them
    const Index first = totals[side].first[Score(value, plies).raw()];
    best = Deepest{metric, winner, plies, positions, stm, *scheme.position_at(first, stm), {}};
  }
  return best;
}

// The optimal line of an example (egtb/store/line.hpp).
std::vector<Move> line_of(const Tablebase& tablebase, const Position& example) {
  auto line = optimal_line(tablebase, example);
  if (!line) throw std::runtime_error("the optimal line of " + to_fen(example) + ": " + line.error().message);
  return std::move(*line);
}

}  // namespace

uint64_t SideSummary::positions() const {
  uint64_t n = 0;
  for (uint64_t count : lasker) n += count;
  return n;
}

DepthHistogram SideSummary::dtm() const {
  DepthHistogram h = depths[static_cast<size_t>(to_index(Lasker::Mates))];
  for (const auto& [plies, n] : depths[static_cast<size_t>(to_index(Lasker::Mated))]) h[plies] += n;
  return h;
}

DepthHistogram SideSummary::dts() const {
  DepthHistogram h = depths[static_cast<size_t>(to_index(Lasker::Stalemates))];
  for (const auto& [plies, n] : depths[static_cast<size_t>(to_index(Lasker::Stalemated))]) h[plies] += n;
  return h;
}

TableStatistics compute_statistics(const Tablebase& tablebase, const Material& material,
                                   const StatsOptions& options) {
  const TableReader reader(tablebase.table_path(material), {material, tablebase.rules(), {}});
  TableStatistics out;
  out.material = reader.material();
  out.convention = options.convention;
  out.rules = reader.rules();
  out.metrics = reader.header().metrics;
  const IndexScheme& scheme = reader.scheme();
  const SideTotals totals = scan_table({reader, scheme, options.convention}, options.threads);
  for (size_t side = 0; side < 2; ++side) out.sides[side] = summarize(totals[side]);
  for (Metric m : AllMetrics)
    for (Color winner : {Color::White, Color::Black}) {
      std::optional<Deepest>& d = out.deepest[to_index(m)][static_cast<size_t>(to_index(winner))];
      d = deepest(out.rules, m, winner, totals, out.sides, scheme);
      if (d) d->line = line_of(tablebase, d->example);
    }
  return out;
}

}  // namespace egtb::stats
