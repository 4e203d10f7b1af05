#include "query/scan.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <memory>

#include "egtb/core/symmetry.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "query/parser.hpp"
#include "query/tablebase_context.hpp"

namespace egtb::query {

namespace {

using indexing::Convention;
using indexing::Index;

// Blocks per wave: a wave is scanned in parallel, then its matches are reported in order.
constexpr size_t CountWaveBlocksPerThread = 64;
constexpr size_t ListWaveBlocksPerThread = 4;

constexpr std::array<Symmetry, 1> OneImage = {Symmetry::Identity};
constexpr std::array<Symmetry, 2> MirrorImages = {Symmetry::Identity, Symmetry::FlipFiles};
constexpr std::array<Symmetry, 4> Rotations = {Symmetry::Identity, Symmetry::RotateLeft, Symmetry::Rotate180,
                                               Symmetry::RotateRight};

// The distinct images an entry of this physical weight stands for (pawnless_index.cpp: an entry
// of weight 4 shares its eight images with its diagonal mirror entry, the rotations being its own).
std::span<const Symmetry> images_of(uint32_t physical_weight) {
  switch (physical_weight) {
    case 8: return AllSymmetries;
    case 4: return Rotations;
    case 2: return MirrorImages;
    default: return OneImage;
  }
}

// One table being scanned; read-only while workers run.
struct TableScan {
  Material scanned;
  Material canonical;
  bool flipped = false;
  TableReader reader;
  indexing::IndexScheme scheme;
  TableFacts facts;
  bool invariant = false;
  std::array<std::vector<uint64_t>, 2> accept;  // per stored side: one bit per raw score

  TableScan(const Material& m, const std::filesystem::path& path, Rules rules, const ScanQuery& q)
      : scanned(m),
        canonical(m.normalized()),
        flipped(!(m == canonical)),
        reader(path, {m, rules, {}}),
        scheme(reader.scheme()),
        facts(facts_of_header(reader.header())),
        invariant(canonical.has_pawns() ? q.invariant_pawns : q.invariant_pawnless) {
    for (int side = 0; side < 2; ++side)
      accept[static_cast<size_t>(side)] = accepted_scores(q.condition, side);
  }

  [[nodiscard]] bool accepts(int side, uint16_t raw) const {
    return (accept[static_cast<size_t>(side)][raw >> 6] >> (raw & 63)) & 1;
  }
  [[nodiscard]] bool side_needed(int side) const {
    for (uint64_t word : accept[static_cast<size_t>(side)])
      if (word) return true;
    return false;
  }

private:
  [[nodiscard]] std::vector<uint64_t> accepted_scores(const ScoreCondition& c, int stored_side) const {
    const Color stored = stored_side == 0 ? Color::White : Color::Black;
    const Color stm = flipped ? ~stored : stored;
    std::vector<uint64_t> bits(65536 / 64);
    for (uint32_t raw = 0; raw < 65536; ++raw)
      if (c.accepts(stm, Score::from_raw(static_cast<uint16_t>(raw)), facts))
        bits[raw >> 6] |= uint64_t{1} << (raw & 63);
    return bits;
  }
};

// Table values of the entry being evaluated come from its stored score; other positions are probed.
class ScanContext final : public TablebaseContext {
public:
  using TablebaseContext::TablebaseContext;

  void set_entry(const Position* pos, Score score, const TableFacts* facts) {
    current_ = pos;
    score_ = score;
    facts_ = facts;
  }

  [[nodiscard]] std::optional<int64_t> term(ScoreTerm t, const Position& pos) const override {
    return &pos == current_ ? score_term(t, score_, *facts_) : TablebaseContext::term(t, pos);
  }

private:
  const Position* current_ = nullptr;
  Score score_;
  const TableFacts* facts_ = nullptr;
};

struct ChunkResult {
  uint64_t count = 0;
  uint64_t entries = 0;
  uint64_t evaluated = 0;
  std::vector<Match> matches;
};

// The per-thread state of a scan: an evaluator and its table context, and scratch space.
class Worker {
public:
  Worker(const Program& program, const Tablebase& tb, const Cancellation* cancellation)
      : context_(tb), evaluator_(program, &context_, cancellation) {}

  // Scans one block. Listing with a limit, it stops once the block alone holds `needed` matches
  // (they come before its later ones); it also stops when `halt` says so, asked before each entry
  // the query runs on (a slow query, e.g. dtmend, takes milliseconds per position) and every 64
  // entries between, then counting only the entries it saw.
  template <typename Halt>
  void scan_block(const TableScan& t, uint64_t block, const ScanOptions& o, uint64_t needed, const Halt& halt,
                  ChunkResult& out) {
    const BlockSpan span = block_span(t.reader.header(), block);
    t.reader.read_block(block, scores_);
    const Color stored = span.side == 0 ? Color::White : Color::Black;
    size_t k = 0;
    for (; k < scores_.size(); ++k) {
      if (needed && out.matches.size() >= needed) break;
      const bool accepted = t.accepts(span.side, scores_[k]);
      if ((accepted || (k & 63) == 0) && halt()) break;
      if (accepted) entry(t, stored, span.first + k, Score::from_raw(scores_[k]), o, out);
    }
    out.entries += k == scores_.size() ? span.count : k;
  }

private:
  ScanContext context_;
  Evaluator evaluator_;
  std::vector<uint16_t> scores_;
  Position decoded_;
  Position oriented_;
  Position image_;

  void entry(const TableScan& t, Color stored, Index i, Score s, const ScanOptions& o, ChunkResult& out) {
    if (!t.scheme.decode(i, stored, decoded_)) return;
    indexing::EntryWeights w{1, 1, 1};
    if (o.convention != Convention::Index462) w = t.scheme.weights(i, decoded_);
    if (w.get(o.convention) == 0) return;
    const Position* p = &decoded_;
    if (t.flipped) {
      oriented_ = color_flipped(decoded_);
      p = &oriented_;
    }
    // One evaluation stands for the entry, except when physical images are listed or may differ.
    if (o.convention != Convention::Physical || (t.invariant && !o.list)) {
      if (o.list)
        report(*p, i, s, t, out);
      else if (matches(*p, s, t, out))
        out.count += w.get(o.convention);
      return;
    }
    if (t.invariant && !matches(*p, s, t, out)) return;  // no image can match
    for (Symmetry sym : images_of(w.physical)) {
      image_ = apply(sym, *p);
      if (o.list)
        report(image_, i, s, t, out);
      else if (matches(image_, s, t, out))
        ++out.count;
    }
  }

  bool matches(const Position& p, Score s, const TableScan& t, ChunkResult& out) {
    context_.set_entry(&p, s, &t.facts);
    ++out.evaluated;
    return evaluator_.matches(p);
  }

  void report(const Position& p, Index i, Score s, const TableScan& t, ChunkResult& out) {
    context_.set_entry(&p, s, &t.facts);
    ++out.evaluated;
    const Expected<Value, QueryError> v = evaluator_.evaluate(p);
    if (!v || !v->matched) return;
    out.matches.push_back({t.scanned, i, p, s, *v, evaluator_.notes()});
    ++out.count;
  }
};

// Adds the signatures of `tables` to summary.incomplete, each once.
void add_incomplete(ScanSummary& summary, const std::vector<Material>& tables) {
  for (const Material& m : tables)
    if (std::find(summary.incomplete.begin(), summary.incomplete.end(), m) == summary.incomplete.end())
      summary.incomplete.push_back(m);
}

class TableScanner {
public:
  TableScanner(const ScanQuery& q, const ScanOptions& o, const MatchSink& sink)
      : query_(q),
        options_(o),
        sink_(sink),
        tablebase_(o.directory, {TablebaseOptions::DefaultCacheBytes, o.rules}),
        arena_(o.threads > 0 ? o.threads : tbb::task_arena::automatic),
        workers_(
            [this] { return std::make_unique<Worker>(query_.program, tablebase_, options_.cancellation); }) {}

  [[nodiscard]] int threads() { return arena_.max_concurrency(); }
  // The tables without every metric that the query's move and line filters opened.
  [[nodiscard]] std::vector<Material> incomplete_tables() const { return tablebase_.incomplete_tables(); }

  // Scans one table; false when the listing limit was reached.
  bool scan(const Material& m, ScanSummary& summary) {
    const TableScan t(m, tablebase_.table_path(m), tablebase_.rules(), query_);
    if (!t.reader.header().metrics.contains(all_metrics(tablebase_.rules())))
      add_incomplete(summary, {t.canonical});
    const std::vector<uint64_t> blocks = blocks_to_read(t);
    TableTally tally{m, 0, 0, 0};
    const size_t wave =
        (options_.list ? ListWaveBlocksPerThread : CountWaveBlocksPerThread) * static_cast<size_t>(threads());
    bool more = true;
    for (size_t start = 0; start < blocks.size() && more; start += wave) {
      const std::span<const uint64_t> part(blocks.data() + start, std::min(wave, blocks.size() - start));
      const uint64_t needed =
          options_.list && options_.limit ? options_.limit - (summary.matches + tally.matches) : 0;
      more = merge(run_wave(t, part, needed), tally, summary) && !stopped_;
      if (options_.progress) options_.progress({m, tally.entries, total_entries(t)});
    }
    summary.tables.push_back(tally);
    summary.stopped = stopped_;
    return more;
  }

private:
  const ScanQuery& query_;
  const ScanOptions& options_;
  const MatchSink& sink_;
  Tablebase tablebase_;
  tbb::task_arena arena_;
  tbb::enumerable_thread_specific<std::unique_ptr<Worker>> workers_;
  std::atomic<bool> stopped_ = false;

  // True once ScanOptions::cancellation is requested (then set for good).
  bool cancelled() {
    if (!stopped_.load(std::memory_order_relaxed) && options_.cancellation &&
        options_.cancellation->requested())
      stopped_ = true;
    return stopped_.load(std::memory_order_relaxed);
  }
  // True once cancelled() or ScanOptions::stop has said so (asked before each block).
  bool stop_requested() {
    if (!stopped_.load(std::memory_order_relaxed) && options_.stop && options_.stop()) stopped_ = true;
    return cancelled();
  }

  static uint64_t total_entries(const TableScan& t) {
    return t.reader.entries(Color::White) + t.reader.entries(Color::Black);
  }

  static std::vector<uint64_t> blocks_to_read(const TableScan& t) {
    std::vector<uint64_t> blocks;
    const TableHeader& h = t.reader.header();
    for (int side = 0; side < 2; ++side) {
      if (!t.side_needed(side)) continue;
      const uint64_t first = side == 0 ? 0 : h.blocks_of_side(0);
      for (uint64_t b = 0; b < h.blocks_of_side(side); ++b) blocks.push_back(first + b);
    }
    return blocks;
  }

  // Scans a wave of blocks in parallel. Listing with a limit, `needed` is the number of matches
  // still wanted: once one block holds that many, the blocks after it are not needed (the matches
  // are reported in block order), so they stop, and so does a slow scan soon after --limit is met.
  std::vector<ChunkResult> run_wave(const TableScan& t, std::span<const uint64_t> blocks, uint64_t needed) {
    std::vector<ChunkResult> results(blocks.size());
    std::atomic<size_t> first_full = blocks.size();  // the first block holding `needed` matches
    arena_.execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, blocks.size(), 1), [&](const tbb::blocked_range<size_t>& r) {
            Worker& w = *workers_.local();
            for (size_t i = r.begin(); i != r.end() && !stop_requested(); ++i) {
              const auto halt = [&] { return i > first_full.load(std::memory_order_relaxed) || cancelled(); };
              if (i > first_full.load(std::memory_order_relaxed)) break;
              try {
                w.scan_block(t, blocks[i], options_, needed, halt, results[i]);
              } catch (const Cancelled&) {
                stopped_ = true;
              }
              if (needed && results[i].matches.size() >= needed) {
                size_t seen = first_full.load();
                while (i < seen && !first_full.compare_exchange_weak(seen, i)) {
                }
              }
            }
          });
    });
    return results;
  }

  // Adds a wave's results in block order; false when the listing limit was reached.
  bool merge(std::vector<ChunkResult> results, TableTally& tally, ScanSummary& summary) {
    for (ChunkResult& r : results) {
      tally.entries += r.entries;
      tally.evaluated += r.evaluated;
      if (!options_.list) {
        tally.matches += r.count;
        continue;
      }
      for (const Match& m : r.matches) {
        if (options_.limit && summary.matches + tally.matches >= options_.limit) return false;
        ++tally.matches;
        if (sink_) sink_(m);
      }
    }
    return !(options_.list && options_.limit && summary.matches + tally.matches >= options_.limit);
  }
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void add_tallies(ScanSummary& s) {
  s.matches = s.entries = s.evaluated = 0;
  for (const TableTally& t : s.tables) {
    s.matches += t.matches;
    s.entries += t.entries;
    s.evaluated += t.evaluated;
  }
}

}  // namespace

Expected<ScanQuery, QueryError> prepare_query(std::string_view source) {
  Expected<NodePtr, QueryError> tree = parse(source);
  if (!tree) return unexpected(tree.error());
  Expected<SemaInfo, QueryError> info = analyze(**tree);
  if (!info) return unexpected(info.error());
  Expected<Program, QueryError> program = compile(**tree, *info);
  if (!program) return unexpected(program.error());
  ScoreCondition condition = ScoreCondition::of(**tree);
  const bool pawnless = symmetry_invariant(**tree, false);
  const bool pawns = symmetry_invariant(**tree, true);
  return ScanQuery{std::string(source),  std::move(*tree), std::move(*program),
                   std::move(condition), pawnless,         pawns};
}

ScanSummary scan_tables(const ScanQuery& query, std::span<const Material> tables, const ScanOptions& options,
                        const MatchSink& on_match) {
  const auto start = std::chrono::steady_clock::now();
  ScanSummary summary;
  TableScanner scanner(query, options, on_match);
  summary.threads = scanner.threads();
  for (const Material& m : tables) {
    const bool more = scanner.scan(m, summary);
    add_tallies(summary);
    if (!more) break;
  }
  add_incomplete(summary, scanner.incomplete_tables());
  summary.seconds = seconds_since(start);
  return summary;
}

ScanSummary scan_positions(const ScanQuery& query, std::span<const Position> positions,
                           const ScanOptions& options, const MatchSink& on_match) {
  const auto start = std::chrono::steady_clock::now();
  std::optional<Tablebase> tablebase;
  std::optional<TablebaseContext> context;
  if (!options.directory.empty())
    context.emplace(tablebase.emplace(options.directory,
                                      TablebaseOptions{TablebaseOptions::DefaultCacheBytes, options.rules}));
  Evaluator evaluator(query.program, context ? &*context : nullptr, options.cancellation);
  ScanSummary summary;
  try {
    for (const Position& pos : positions) {
      if (options.list && options.limit && summary.matches >= options.limit) break;
      if ((options.stop && options.stop()) || (options.cancellation && options.cancellation->requested())) {
        summary.stopped = true;
        break;
      }
      ++summary.evaluated;
      const Expected<Value, QueryError> v = evaluator.evaluate(pos);
      if (!v || !v->matched) continue;
      ++summary.matches;
      if (!options.list || !on_match) continue;
      const Score score = context ? context->score(pos).value_or(Score::unknown()) : Score::unknown();
      on_match({Material::from(pos), 0, pos, score, *v, evaluator.notes()});
    }
  } catch (const Cancelled&) {
    summary.stopped = true;
  }
  summary.entries = summary.evaluated;
  if (tablebase) add_incomplete(summary, tablebase->incomplete_tables());
  summary.seconds = seconds_since(start);
  return summary;
}

}  // namespace egtb::query
