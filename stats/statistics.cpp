#include "stats/statistics.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
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

constexpr Index NoIndex = std::numeric_limits<Index>::max();

// Per raw score code of one side to move: the summed weights of its entries, and the smallest
// and the largest index among its entries of non-zero weight. The arrays cover the codes seen so
// far and grow to a block's largest before it is counted: a 3-4-man table's deepest code is a few
// hundred (DTM 70 plies, value 4: 4 | 70 << 3 = 564), not the 65,536 a score could hold, and
// zeroing those for every table and thread was most of `stats --all 4`.
struct CodeTotals {
  // The weights of a code in four lanes, entry i adding to lane i % 4, summed by weight():
  // neighbouring entries mostly share a code, and one sum would make each entry wait on the
  // previous one's store (7% of `stats --all 4`'s CPU time).
  static constexpr size_t Lanes = 4;
  std::vector<std::array<uint64_t, Lanes>> lanes;
  std::vector<Index> first;
  std::vector<Index> last;

  [[nodiscard]] size_t codes() const { return lanes.size(); }
  [[nodiscard]] uint64_t weight(size_t raw) const {
    uint64_t sum = 0;
    for (uint64_t w : lanes[raw]) sum += w;
    return sum;
  }
  void cover(size_t count) {
    if (count <= codes()) return;
    lanes.resize(count, {});
    first.resize(count, NoIndex);
    last.resize(count, 0);
  }
  // Covers every code of `scores`.
  void cover(const std::vector<uint16_t>& scores) {
    if (!scores.empty()) cover(size_t{*std::max_element(scores.begin(), scores.end())} + 1);
  }
  // The bounds are stored only where they change, behind a branch rather than a conditional
  // move: a scan meets entries in increasing order, so the branches are predicted and an entry
  // does not wait on the previous one's store to the same code.
  void add(uint16_t raw, Index i, uint64_t w) {
    lanes[raw][i % Lanes] += w;
    if (i < first[raw]) first[raw] = i;
    if (i > last[raw]) last[raw] = i;
  }
  void merge(const CodeTotals& other) {
    cover(other.codes());
    for (size_t raw = 0; raw < other.codes(); ++raw) {
      for (size_t lane = 0; lane < Lanes; ++lane) lanes[raw][lane] += other.lanes[raw][lane];
      first[raw] = std::min(first[raw], other.first[raw]);
      last[raw] = std::max(last[raw], other.last[raw]);
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
  // index462 only: per side to move, the normal entries that count once more for each unplayable
  // e.p. right of their position (IndexScheme::unplayable_ep_entries).
  std::array<std::vector<Index>, 2> extra;
  const Cancellation* cancellation = nullptr;  // StatsOptions::cancellation

  // Reads block `block` into `out`, first throwing Cancelled if the computation is to end.
  void read_block(uint64_t block, std::vector<uint16_t>& out) const {
    if (cancellation) cancellation->throw_if_requested();
    reader.read_block(block, out);
  }
};

Color side_color(int side) { return side == 0 ? Color::White : Color::Black; }

// Adds `weight` for each entry of a run of block entries (scores[0] is entry `first`). The
// invalid entries are counted too, without a branch, and left out by summarize.
void add_run(const uint16_t* scores, Index first, Index count, uint32_t weight, CodeTotals& totals) {
  for (Index j = 0; j < count; ++j) totals.add(scores[j], first + j, weight);
}

// Adds the weight of each valid entry of a run of block entries, decoding its position.
void add_decoded(const ScanJob& job, const uint16_t* scores, Index first, Index count, Color stm,
                 ScanState& state, CodeTotals& totals) {
  for (Index j = 0; j < count; ++j) {
    const uint16_t raw = scores[j];
    if (!Score::from_raw(raw).is_valid()) continue;
    const Index i = first + j;
    if (!job.scheme.decode(i, stm, state.pos))
      throw FormatError(job.reader.path(), "entry " + std::to_string(i) + " has a score but no position");
    const uint32_t w = job.scheme.weights(i, state.pos).get(job.convention);
    if (w > 0) totals.add(raw, i, w);
  }
}

// Adds the weights of the valid entries of one block: run by run of entries that weigh alike
// (IndexScheme::weight_run), decoding positions only where the weight differs between entries,
// then the unplayable e.p. rights of the block's entries.
void scan_block(const ScanJob& job, uint64_t block, ScanState& state) {
  const BlockSpan span = block_span(job.reader.header(), block);
  job.read_block(block, state.block);
  const Color stm = side_color(span.side);
  CodeTotals& totals = state.sides[static_cast<size_t>(span.side)];
  totals.cover(state.block);
  const Index end = span.first + span.count;
  for (Index i = span.first; i < end;) {
    const IndexScheme::WeightRun run = job.scheme.weight_run(i, job.convention);
    const Index count = std::min(run.end, end) - i;
    const uint16_t* scores = state.block.data() + (i - span.first);
    if (!run.weight)
      add_decoded(job, scores, i, count, stm, state, totals);
    else if (*run.weight > 0)
      add_run(scores, i, count, *run.weight, totals);
    i += count;
  }
  const std::vector<Index>& extra = job.extra[static_cast<size_t>(span.side)];
  for (auto e = std::lower_bound(extra.begin(), extra.end(), span.first); e != extra.end() && *e < end; ++e) {
    const uint16_t raw = state.block[*e - span.first];
    if (Score::from_raw(raw).is_valid()) totals.lanes[raw][0] += 1;
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
  for (size_t raw = 0; raw < totals.codes(); ++raw) {
    const uint64_t w = totals.weight(raw);
    const Score score = Score::from_raw(static_cast<uint16_t>(raw));
    if (w == 0 || !score.is_valid()) continue;
    const auto v = static_cast<size_t>(to_index(score.value()));
    s.lasker[v] += w;
    if (score.value() != Lasker::Draw) s.depths[v][score.depth()] += w;
  }
  return s;
}

// The example of a score code of one side: its entry of non-zero weight whose position has the
// smallest index with the king pair leading (indexing/index.hpp), whatever the order of the
// table's index digits, so that a table gives the same examples in every order. In another order
// only the blocks between the code's first and last entries are read again.
Index example_entry(const ScanJob& job, int side, uint16_t raw, const CodeTotals& totals) {
  const IndexScheme kings_first(job.scheme.material());
  const Index first = totals.first[raw];
  if (job.scheme.same_layout(kings_first)) return first;
  const Color stm = side_color(side);
  const TableHeader& h = job.reader.header();
  Index best = first;
  Index best_key = job.scheme.entry_in(kings_first, first);
  std::vector<uint16_t> block;
  Position pos;
  for (uint64_t b = block_of(h, side, first); b <= block_of(h, side, totals.last[raw]); ++b) {
    const BlockSpan span = block_span(h, b);
    job.read_block(b, block);
    for (size_t k = 0; k < block.size(); ++k) {
      const Index i = span.first + k;
      if (block[k] != raw || !job.scheme.decode(i, stm, pos) ||
          job.scheme.weights(i, pos).get(job.convention) == 0)
        continue;
      if (const Index key = job.scheme.entry_in(kings_first, i); key < best_key) {
        best = i;
        best_key = key;
      }
    }
  }
  return best;
}

// The positions of a phase that `winner` wins, as (side to move, value): its wins with it to move
// and its opponent's losses with the opponent to move; the depth parities keep the two apart.
std::array<std::pair<Color, Lasker>, 2> won_by(const SolvePhase& phase, Color winner) {
  return {{{winner, phase.win}, {~winner, phase.loss}}};
}

// The deepest positions of one metric that `winner` wins.
std::optional<Deepest> deepest(Rules rules, Metric metric, Color winner, const SideTotals& totals,
                               const std::array<SideSummary, 2>& sides, const ScanJob& job) {
  const std::optional<SolvePhase> phase = phase_of(rules, metric);
  if (!phase) return std::nullopt;
  std::optional<Deepest> best;
  for (const auto& [stm, value] : won_by(*phase, winner)) {
    const size_t side = static_cast<size_t>(to_index(stm));
    const DepthHistogram& h = sides[side].depths[static_cast<size_t>(to_index(value))];
    if (h.empty() || (best && h.rbegin()->first <= best->plies)) continue;
    const auto [plies, positions] = *h.rbegin();
    if (plies == 0) continue;  // the (stale)mates on the board: nobody forces them
    const Index example = example_entry(job, static_cast<int>(side), Score(value, plies).raw(), totals[side]);
    best = Deepest{metric, winner, plies, positions, stm, *job.scheme.position_at(example, stm), {}};
  }
  return best;
}

}  // namespace

std::vector<Move> example_line(const Tablebase& tablebase, const Position& example) {
  auto line = optimal_line(tablebase, example);
  if (!line) throw std::runtime_error("the optimal line of " + to_fen(example) + ": " + line.error().message);
  return std::move(*line);
}

uint64_t SideSummary::positions() const {
  uint64_t n = 0;
  for (uint64_t count : lasker) n += count;
  return n;
}

DepthHistogram SideSummary::histogram(Rules rules, Metric m) const {
  DepthHistogram h;
  for (Lasker v : rule_values(rules))
    if (v != Lasker::Draw && metric_of(rules, v) == m)
      for (const auto& [plies, n] : depths[static_cast<size_t>(to_index(v))]) h[plies] += n;
  return h;
}

std::optional<DeepestDepth> deepest_depth(Rules rules, const std::array<SideStats, 2>& sides, Metric metric,
                                          Color winner) {
  const std::optional<SolvePhase> phase = phase_of(rules, metric);
  if (!phase) return std::nullopt;
  std::optional<DeepestDepth> best;
  for (const auto& [stm, value] : won_by(*phase, winner)) {
    const int plies =
        sides[static_cast<size_t>(to_index(stm))].max_depths[static_cast<size_t>(to_index(value))];
    // Depth 0 is a (stale)mate on the board, which nobody forces.
    if (plies > 0 && (!best || plies > best->plies)) best = DeepestDepth{plies, stm};
  }
  return best;
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
  ScanJob job{reader, scheme, options.convention, {}, options.cancellation};
  if (options.convention == Convention::Index462)
    for (int side = 0; side < 2; ++side)
      job.extra[static_cast<size_t>(side)] = scheme.unplayable_ep_entries(side_color(side));
  const SideTotals totals = scan_table(job, options.threads);
  for (size_t side = 0; side < 2; ++side) out.sides[side] = summarize(totals[side]);
  // A stalemate-only table has no DTM, and no optimal line: its examples come without one.
  const bool stalemate_only = out.metrics == StalemateOnly;
  for (Metric m : rule_metrics(out.rules))
    for (Color winner : {Color::White, Color::Black}) {
      if (stalemate_only && m != Metric::Dts) continue;
      std::optional<Deepest>& d = out.deepest[to_index(m)][static_cast<size_t>(to_index(winner))];
      d = deepest(out.rules, m, winner, totals, out.sides, job);
      if (d && !stalemate_only) d->line = example_line(tablebase, d->example);
    }
  return out;
}

}  // namespace egtb::stats
