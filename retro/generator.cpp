#include "retro/generator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "indexing/bitset.hpp"
#include "retro/predecessors.hpp"
#include "retro/state.hpp"
#include "retro/successors.hpp"

namespace egtb::retro {

using indexing::Index;

const char* phase_name(Phase p) {
  switch (p) {
    case Phase::Setup: return "setup";
    case Phase::Mates: return "mates";
    case Phase::Stalemates: return "stalemates";
    case Phase::Finish: return "finish";
  }
  return "?";
}

namespace {

constexpr Index Grain = 4096;
constexpr int NoWin = Score::MaxDepth + 1;

Lasker win_value(Phase p) { return p == Phase::Mates ? Lasker::Mates : Lasker::Stalemates; }
Lasker loss_value(Phase p) { return p == Phase::Mates ? Lasker::Mated : Lasker::Stalemated; }

// For every depth, the blocks of 256 entries that hold a position resolved (or pending) at
// that depth, so that the scan of a ply visits only those blocks. Example: a position stored at
// index 10,000 with depth 7 sets bit 39 (10,000 >> 8) of depth 7's bitmap. The bitmaps are
// allocated on first use, as most depths never occur.
class BlockMarks {
public:
  // Small blocks keep the scans short (a block holds positions of many depths); the bitmaps of
  // KRPkr, the largest table, take 163 KB per depth and side.
  static constexpr unsigned BlockShift = 8;

  explicit BlockMarks(Index entries) : blocks_((entries >> BlockShift) + 1), maps_(Score::MaxDepth + 1) {}
  ~BlockMarks() { clear(); }
  BlockMarks(const BlockMarks&) = delete;
  BlockMarks& operator=(const BlockMarks&) = delete;

  void mark(int depth, Index i) {
    indexing::BitSet& map = map_of(depth);
    const Index block = i >> BlockShift;
    if (!map.test_atomic(block)) map.set_atomic(block);
  }

  // The first entries of the blocks marked for `depth`, ascending.
  [[nodiscard]] std::vector<Index> blocks(int depth) const {
    std::vector<Index> out;
    const indexing::BitSet* map = maps_[static_cast<size_t>(depth)].load(std::memory_order_acquire);
    if (map) map->for_each([&](Index block) { out.push_back(block << BlockShift); });
    return out;
  }

  void clear() {
    for (auto& slot : maps_) delete slot.exchange(nullptr);
  }

private:
  Index blocks_;
  std::vector<std::atomic<indexing::BitSet*>> maps_;

  indexing::BitSet& map_of(int depth) {
    auto& slot = maps_[static_cast<size_t>(depth)];
    indexing::BitSet* map = slot.load(std::memory_order_acquire);
    if (map) return *map;
    auto* fresh = new indexing::BitSet(blocks_);
    if (slot.compare_exchange_strong(map, fresh, std::memory_order_acq_rel)) return *fresh;
    delete fresh;
    return *map;
  }
};

// The scratch space of one thread.
struct Workspace {
  PredecessorWorkspace predecessors;
  SuccessorWorkspace successors;
  // The predecessors of the entries propagated before: each waits one entry for its cache line.
  // Those of the entry before the last are screened (undecided ones only; see Solver::undecided_),
  // those screened one entry earlier are due for their update.
  std::vector<Predecessor> screened;
  std::vector<Predecessor> due;
};

// What the moves leaving the table contribute to one phase.
struct ExitSummary {
  int win_depth = NoWin;  // fastest win through a move out of the table
  int loss_bound = 0;     // slowest loss through a move out of the table to an opponent's win
  int opponent_wins = 0;  // moves out of the table to a position the opponent wins
};

class Solver {
public:
  Solver(const Material& material, const Subtables& subtables, const GeneratorConfig& config)
      : table_(std::make_shared<SolvedTable>(material)),
        scheme_(table_->scheme),
        predecessors_(scheme_),
        successors_(scheme_),
        exits_(material, subtables),
        config_(config),
        arena_(config.threads > 0 ? config.threads
                                  : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))),
        start_(std::chrono::steady_clock::now()) {
    for (auto& s : state_) s.assign(scheme_.size(), State::invalid().raw());
    for (auto& m : marks_) m = std::make_unique<BlockMarks>(scheme_.size());
    for (auto& u : undecided_) {
      u = indexing::BitSet(scheme_.size());
      u.set_all();
    }
  }

  std::shared_ptr<SolvedTable> run() {
    arena_.execute([&] {
      setup();
      iterate(Phase::Mates);
      if (config_.dts) {
        seed_stalemates();
        iterate(Phase::Stalemates);
      }
      finish();
    });
    return table_;
  }

private:
  std::shared_ptr<SolvedTable> table_;
  const indexing::IndexScheme& scheme_;
  Predecessors predecessors_;
  Successors successors_;
  ExitTables exits_;
  const GeneratorConfig& config_;
  tbb::task_arena arena_;
  std::chrono::steady_clock::time_point start_;
  std::array<std::vector<uint16_t>, 2> state_;
  std::array<std::unique_ptr<BlockMarks>, 2> marks_;
  // Per side, a bit for every entry that may still be Open or Pending: cleared when the entry is
  // decided, never set again. A 16th of the states' size, it lets the updates pass over the
  // predecessors already decided (61% of them in KQRkr) without touching their states.
  std::array<indexing::BitSet, 2> undecided_;
  std::atomic<int> max_depth_{0};

  State load(Color c, Index i) {
    return State::from_raw(std::atomic_ref<uint16_t>(state_[static_cast<size_t>(to_index(c))][i])
                               .load(std::memory_order_relaxed));
  }
  void store(Color c, Index i, State s) {
    std::atomic_ref<uint16_t>(state_[static_cast<size_t>(to_index(c))][i])
        .store(s.raw(), std::memory_order_relaxed);
    if (s.is_resolved())
      decided(c, i, s.depth());
    else if (s.is_pending())
      note_depth(c, i, s.depth());
  }
  // Entry i of side c is resolved at `depth`.
  void decided(Color c, Index i, int depth) {
    note_depth(c, i, depth);
    undecided_[static_cast<size_t>(to_index(c))].reset_atomic(i);
  }
  // Records that entry i of side c becomes due at ply `depth`.
  void note_depth(Color c, Index i, int depth) {
    note_depth(depth);
    marks_[static_cast<size_t>(to_index(c))]->mark(depth, i);
  }
  void note_depth(int depth) {
    if (depth > Score::MaxDepth)
      throw std::overflow_error("depth exceeds " + std::to_string(Score::MaxDepth) + " plies");
    int seen = max_depth_.load(std::memory_order_relaxed);
    while (depth > seen && !max_depth_.compare_exchange_weak(seen, depth, std::memory_order_relaxed)) {
    }
  }

  template <class Body>
  void for_each_entry(Body&& body) {
    for (Color c : {Color::White, Color::Black}) {
      tbb::parallel_for(tbb::blocked_range<Index>(0, scheme_.size(), Grain),
                        [&](const tbb::blocked_range<Index>& r) {
                          Workspace ws;
                          for (Index i = r.begin(); i != r.end(); ++i) body(c, i, ws);
                        });
    }
  }

  void report(Phase phase, int ply, uint64_t resolved) {
    if (!config_.progress) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    config_.progress(Progress{phase, ply, resolved, seconds});
  }

  // What the moves out of the table listed in ws.exits contribute to `phase`.
  ExitSummary summarize_exits(Color c, Phase phase, const SuccessorWorkspace& ws) const {
    ExitSummary e;
    for (Move m : ws.exits) {
      const Score child = ws.general ? exits_.probe(ws.pos, m) : exits_.probe(scheme_, ws.men, c, m);
      if (!child.is_valid()) throw std::logic_error("a subtable holds no value for a legal position");
      if (child.value() == loss_value(phase)) e.win_depth = std::min(e.win_depth, child.depth() + 1);
      if (child.value() == win_value(phase)) {
        e.loss_bound = std::max(e.loss_bound, child.depth() + 1);
        ++e.opponent_wins;
      }
    }
    return e;
  }

  // Seeds entry i of both sides for the mate phase. A normal-section entry's men are decoded once
  // for both.
  void setup_entry(Index i, SuccessorWorkspace& ws) {
    if (scheme_.is_ep_entry(i)) {
      for (Color c : {Color::White, Color::Black}) seed_mates(c, i, successors_.moves_general(i, c, ws), ws);
      return;
    }
    if (!scheme_.men_at(i, ws.men)) return;  // men sharing a square: Invalid for both sides
    for (Color c : {Color::White, Color::Black}) seed_mates(c, i, successors_.moves_of_men(i, c, ws), ws);
  }

  // Seeds one entry with these moves (listed in ws) for the mate phase: invalid, terminal,
  // pending win, lost, or open.
  void seed_mates(Color c, Index i, const std::optional<EntryMoves>& moves, SuccessorWorkspace& ws) {
    if (!moves) return;  // stays Invalid
    if (moves->count == 0) {
      store(c, i, State::resolved(moves->in_check ? Lasker::Mated : Lasker::Stalemated, 0));
      return;
    }
    seed(c, i, Phase::Mates, summarize_exits(c, Phase::Mates, ws), moves->count);
  }

  // Stores what the moves out of the table decide for entry i with `moves` moves not yet refuted
  // before this phase's exits: a pending win, a loss when no move is left, or still open.
  void seed(Color c, Index i, Phase phase, const ExitSummary& e, int moves) {
    const int counter = moves - e.opponent_wins;
    if (e.win_depth != NoWin)
      store(c, i, State::pending(e.win_depth));
    else if (counter == 0)
      store(c, i, State::resolved(loss_value(phase), e.loss_bound));
    else if (counter <= State::MaxCounter)
      store(c, i, State::open(counter, e.loss_bound));
    else
      throw std::logic_error("more legal moves than the solver's state can count");
  }

  void setup() {
    report(Phase::Setup, 0, 0);
    tbb::parallel_for(tbb::blocked_range<Index>(0, scheme_.size(), Grain),
                      [&](const tbb::blocked_range<Index>& r) {
                        SuccessorWorkspace ws;
                        for (Index i = r.begin(); i != r.end(); ++i) setup_entry(i, ws);
                      });
  }

  // Re-seeds an open entry for the stalemate phase from its moves out of the table.
  void seed_stalemate_entry(Color c, Index i, SuccessorWorkspace& ws) {
    const State s = load(c, i);
    if (!s.is_open()) return;
    successors_.moves(i, c, ws);
    seed(c, i, Phase::Stalemates, summarize_exits(c, Phase::Stalemates, ws), s.counter());
  }

  void seed_stalemates() {
    max_depth_ = 0;
    for (auto& m : marks_) m->clear();
    for_each_entry([&](Color c, Index i, Workspace&) {
      const State s = load(c, i);
      if (s.is_resolved() && s.value() == Lasker::Stalemated) note_depth(c, i, s.depth());
    });
    for_each_entry([&](Color c, Index i, Workspace& ws) { seed_stalemate_entry(c, i, ws.successors); });
  }

  // A predecessor of a lost position wins at `depth` unless it is already decided.
  void mark_win(Color c, Index j, Phase phase, int depth) {
    std::atomic_ref<uint16_t> cell(state_[static_cast<size_t>(to_index(c))][j]);
    uint16_t raw = cell.load(std::memory_order_relaxed);
    while (State::from_raw(raw).is_unresolved()) {
      const State s = State::from_raw(raw);
      if (s.is_pending() && s.depth() <= depth) return;
      if (cell.compare_exchange_weak(raw, State::resolved(win_value(phase), depth).raw(),
                                     std::memory_order_relaxed)) {
        decided(c, j, depth);
        return;
      }
    }
  }

  // A predecessor of a won position has `moves` refuted moves fewer; with none left it is lost,
  // at `depth` or later when a move out of the table loses more slowly. During a ply that
  // resolves wins an Open state changes only here, and the thread that takes its counter to zero
  // is the last to touch it: the counter never goes below zero.
  void refute_moves(Color c, Index j, Phase phase, int depth, int moves, SuccessorWorkspace& ws) {
    std::atomic_ref<uint16_t> cell(state_[static_cast<size_t>(to_index(c))][j]);
    const State s = State::from_raw(cell.load(std::memory_order_relaxed));
    if (!s.is_open()) return;
    const auto before = State::from_raw(
        cell.fetch_sub(static_cast<uint16_t>(moves * State::CounterUnit), std::memory_order_relaxed));
    if (before.counter() != moves) return;
    store(c, j, State::resolved(loss_value(phase), std::max(depth, exit_loss_bound(c, j, phase, s, ws))));
  }

  // The slowest loss through a move out of the table of Open entry j, whose state is s: asked
  // again of the positions that turn out lost when the state holds no exact figure.
  int exit_loss_bound(Color c, Index j, Phase phase, State s, SuccessorWorkspace& ws) const {
    if (s.exit_bound() < State::SaturatedBound) return s.exit_bound();
    successors_.moves(j, c, ws);
    return summarize_exits(c, phase, ws).loss_bound;
  }

  // Entry i of side c was resolved at `ply`: a loss makes every predecessor a win, a win refutes
  // the predecessors' moves to it. The predecessors are screened by the next call and updated by
  // the one after it (or by flush): the updates of one ply may come in any order, as each of them
  // either resolves a win at ply + 1 or takes moves off a counter.
  void propagate(Color c, Index i, Phase phase, int ply, Workspace& ws) {
    predecessors_.collect(i, c, ws.predecessors);
    const indexing::BitSet& undecided = undecided_[static_cast<size_t>(to_index(~c))];
    for (const Predecessor& p : ws.predecessors.found) undecided.prefetch(p.entry);
    update_due(~c, phase, ply, ws);
    screen(~c, ws);
    std::swap(ws.screened, ws.predecessors.found);
  }

  // Moves the undecided entries of side c in ws.screened to ws.due, asking for their states.
  void screen(Color c, Workspace& ws) {
    const indexing::BitSet& undecided = undecided_[static_cast<size_t>(to_index(c))];
    for (const Predecessor& p : ws.screened) {
      if (!undecided.test_atomic(p.entry)) continue;
      __builtin_prefetch(&state_[static_cast<size_t>(to_index(c))][p.entry]);
      ws.due.push_back(p);
    }
    ws.screened.clear();
  }

  // Updates what propagate left waiting, at the end of a thread's range.
  void flush(Color c, Phase phase, int ply, Workspace& ws) {
    update_due(c, phase, ply, ws);
    screen(c, ws);
    update_due(c, phase, ply, ws);
  }

  // Updates the entries of side c in ws.due for a position resolved at `ply`.
  void update_due(Color c, Phase phase, int ply, Workspace& ws) {
    const bool lost = ply % 2 == 0;
    for (const Predecessor& p : ws.due) {
      if (lost)
        mark_win(c, p.entry, phase, ply + 1);
      else
        refute_moves(c, p.entry, phase, ply + 1, p.weight, ws.successors);
    }
    ws.due.clear();
  }

  // Calls body(c, i, ws) for every entry of the blocks marked for `depth`, and end_of_range(c, ws)
  // after each range of blocks a thread takes; returns how many calls of body returned true.
  template <class Body, class End>
  uint64_t count_marked_entries(int depth, Body&& body, End&& end_of_range) {
    tbb::combinable<uint64_t> counts;
    for (Color c : {Color::White, Color::Black}) {
      const std::vector<Index> blocks = marks_[static_cast<size_t>(to_index(c))]->blocks(depth);
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, blocks.size(), 16), [&](const tbb::blocked_range<size_t>& r) {
            Workspace ws;
            uint64_t count = 0;
            for (size_t b = r.begin(); b != r.end(); ++b) {
              const Index end =
                  std::min<Index>(blocks[b] + (Index{1} << BlockMarks::BlockShift), scheme_.size());
              for (Index i = blocks[b]; i != end; ++i)
                if (body(c, i, ws)) ++count;
            }
            end_of_range(c, ws);
            counts.local() += count;
          });
    }
    return counts.combine(std::plus<>());
  }

  // Ply k: pending wins due now are resolved; every position resolved at depth k in this phase
  // updates its predecessors. Returns how many positions were resolved at depth k.
  uint64_t scan_ply(Phase phase, int ply) {
    return count_marked_entries(
        ply,
        [&](Color c, Index i, Workspace& ws) {
          State s = load(c, i);
          if (s.is_pending() && s.depth() == ply) {
            s = State::resolved(win_value(phase), ply);
            store(c, i, s);
          }
          if (!s.is_resolved() || s.depth() != ply) return false;
          if (s.value() != win_value(phase) && s.value() != loss_value(phase)) return false;
          propagate(c, i, phase, ply, ws);
          return true;
        },
        [&](Color c, Workspace& ws) { flush(~c, phase, ply, ws); });
  }

  void iterate(Phase phase) {
    uint64_t total = 0;
    for (int ply = 0; ply <= max_depth_.load(); ++ply) {
      total += scan_ply(phase, ply);
      report(phase, ply, total);
    }
  }

  // Unresolved entries become draws; duplicate entries of symmetric positions copy their twin.
  // The scores replace the states in place (a resolved state is its score), so that a table
  // never needs both arrays at once: KRPkr's states take 1.3 GB. A twin read before or after its
  // own conversion gives the same score, since converting a score again changes nothing.
  void finish() {
    report(Phase::Finish, 0, 0);
    for (auto& m : marks_) m->clear();
    for (Color c : {Color::White, Color::Black}) {
      tbb::parallel_for(tbb::blocked_range<Index>(0, scheme_.size(), Grain),
                        [&](const tbb::blocked_range<Index>& r) {
                          Position pos;
                          indexing::IndexScheme::Men men;
                          for (Index i = r.begin(); i != r.end(); ++i)
                            store_raw(c, i, final_score(c, i, pos, men).raw());
                        });
      table_->scores[static_cast<size_t>(to_index(c))] = std::move(state_[static_cast<size_t>(to_index(c))]);
    }
    table_->has_dts = config_.dts;
  }

  // True for an invalid entry that holds a legal position, the duplicate of a twin entry; then
  // pos holds it. Bare men rule out most entries: overlapping men, or kings off the diagonal.
  bool may_be_duplicate(Color c, Index i, Position& pos, indexing::IndexScheme::Men& men) const {
    if (!scheme_.is_ep_entry(i) && (!scheme_.men_at(i, men) || !scheme_.twin_possible(men))) return false;
    return scheme_.decode(i, c, pos);
  }

  void store_raw(Color c, Index i, uint16_t raw) {
    std::atomic_ref<uint16_t>(state_[static_cast<size_t>(to_index(c))][i])
        .store(raw, std::memory_order_relaxed);
  }

  Score final_score(Color c, Index i, Position& pos, indexing::IndexScheme::Men& men) {
    State s = load(c, i);
    if (s.is_invalid() && may_be_duplicate(c, i, pos, men)) s = load(c, *scheme_.index_of(pos));
    const Score score = s.to_score();
    if (config_.dts || !score.is_valid() || is_mate_value(score.value())) return score;
    return Score::draw();  // a mates-only table does not tell stalemates from draws
  }
};

}  // namespace

std::unique_ptr<Solution> solve_by_words(const Material& material, const Subtables& subtables,
                                         const GeneratorConfig& config);

std::unique_ptr<Solution> solve_table(const Material& material, const Subtables& subtables,
                                      const GeneratorConfig& config) {
  return solve_by_words(material, subtables, config);
}

std::shared_ptr<SolvedTable> solve(const Material& material, const Subtables& subtables,
                                   const GeneratorConfig& config) {
  if (getenv("EGTB_OLD")) {
    Solver solver(material, subtables, config);
    return solver.run();
  }
  const auto solution = solve_table(material, subtables, config);
  auto table = std::make_shared<SolvedTable>(material);
  for (Color c : {Color::White, Color::Black}) {
    auto& scores = table->scores[static_cast<size_t>(to_index(c))];
    scores.resize(table->scheme.size());
    solution->fill(c, 0, scores);
  }
  table->has_dts = solution->has_dts();
  return table;
}

}  // namespace egtb::retro
