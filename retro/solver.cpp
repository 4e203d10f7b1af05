// The solver (solver.hpp): WordSolver decides one slice's positions depth after depth, phase after
// phase, on the sets of slice_sets.hpp; solve_slices runs it on each slice of a table in turn and
// hands every solved slice to the slice storage (solved_slice.hpp).
#include "retro/solver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "egtb/core/movegen.hpp"
#include "indexing/bitset.hpp"
#include "indexing/word_layout.hpp"
#include "retro/depth_records.hpp"
#include "retro/depths.hpp"
#include "retro/due_lists.hpp"
#include "retro/ep_positions.hpp"
#include "retro/paged_exits.hpp"
#include "retro/scratch_file.hpp"
#include "retro/slice_sets.hpp"
#include "retro/solved_slice.hpp"
#include "retro/word_exits.hpp"
#include "retro/word_moves.hpp"

namespace egtb::retro {

namespace {

// Flags a king pair; only when it is not flagged yet, so that threads working on neighbouring pairs
// do not keep writing (and stealing from each other) the cache line of flags they share.
void flag(std::vector<std::atomic<uint8_t>>& pairs, size_t pair) {
  if (!pairs[pair].load(std::memory_order_relaxed)) pairs[pair].store(1, std::memory_order_relaxed);
}

using Men = indexing::IndexScheme::Men;
using Clock = std::chrono::steady_clock;

// The metrics of the phases the solver runs: the rules' phases in order, up to the first one the
// configuration leaves out.
MetricSet phases_run(const SolveConfig& config) {
  MetricSet run;
  for (const SolvePhase& p : solve_phases(config.rules)) {
    if (!config.metrics.contains(p.metric)) break;
    run = MetricSet::from_bits(run.bits() | MetricSet{p.metric}.bits());
  }
  return run;
}

// The pair slots of a layout, those whose kings are one pawnless king pair (kk_map.hpp) next to
// each other. A pawn table's promotions lead into pawnless subtables, the large ones paged (read
// block by block through a cache, retro/subtables.hpp), and the king pairs that are images of one
// pawnless pair read the same blocks of them: KRPkr's 1806 pairs are images of KQRkr's 462, so
// seeding them in this order reads a block of KQRkr for about four pairs at once instead of once
// for each. Example: Ka1 kc3 and Ka8 kc6 (two pairs of KRPkr) are both the pawnless pair Ka1 kc3.
// Pawnless tables: the slots in order.
std::vector<uint32_t> promotion_order(const indexing::WordLayout& layout) {
  const indexing::KkMap& kings = layout.kings();
  std::vector<uint32_t> order(static_cast<size_t>(layout.pair_slots()));
  std::iota(order.begin(), order.end(), 0);
  if (!kings.pawns) return order;
  const auto pawnless_pair = [&](uint32_t slot) {
    const auto& k = kings.kings[slot % static_cast<uint32_t>(kings.size)];
    return indexing::PawnlessKings.pair[indexing::KkMap::at(k[0], k[1])];
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return pawnless_pair(a) < pawnless_pair(b); });
  return order;
}

// The king pairs of a layout's first variant in promotion_order.
std::vector<uint32_t> king_pair_order(const indexing::WordLayout& layout) {
  std::vector<uint32_t> order = promotion_order(layout);
  std::erase_if(order, [&](uint32_t slot) { return slot >= static_cast<uint32_t>(layout.kings().size); });
  return order;
}

// The phases whose moves out of the table the first phase's seeding scores: the first, and the
// second when it is solved (it files the second's view of them as it goes).
struct SeedPhases {
  std::array<PhaseValues, 2> values;
  size_t count = 1;
  [[nodiscard]] std::span<const PhaseValues> span() const { return std::span(values).first(count); }
};
SeedPhases seed_phases(Rules rules, std::span<const SolvePhase> phases, MetricSet solved) {
  const bool later = phases.size() > 1 && solved.contains(phases[1].metric);
  return {{PhaseValues::of(rules, 0), PhaseValues::of(rules, later ? 1 : 0)}, later ? size_t{2} : size_t{1}};
}

// Where the solve keeps its scratch files (SolveConfig::scratch_directory).
std::filesystem::path scratch_directory(const SolveConfig& config) {
  return config.scratch_directory.empty() ? std::filesystem::temp_directory_path() : config.scratch_directory;
}

// The slices of a table solved so far, where the steps of a placement slice's digit pawns lead.
class SolvedSlices final : public FinishedSlices {
public:
  explicit SolvedSlices(const Solution::Sets& sets) : sets_(sets) {}

  void scores(Color stm, const Men& men, Bitboard squares, Score* out) const override {
    const size_t s = sets_.slices.slice_of(men);
    if (s >= sets_.solved.size()) throw std::logic_error("a pawn step leads to a slice not solved yet");
    sets_.solved[s].word_scores(stm, sets_.solved[s].layout().word_of(men), squares, out);
  }
  [[nodiscard]] Score ep_score(const Position& pos) const override {
    const auto entry = sets_.scheme.index_of(pos);
    if (!entry || *entry < sets_.scheme.normal_size())
      throw std::logic_error("a double step to an e.p. position without an e.p. entry");
    const auto& scores = sets_.ep_scores[static_cast<size_t>(to_index(pos.side_to_move()))];
    return Score::from_raw(scores[static_cast<size_t>(*entry - sets_.scheme.normal_size())]);
  }

private:
  const Solution::Sets& sets_;
};

class WordSolver {
public:
  WordSolver(const indexing::IndexScheme& scheme, SliceSets& sets, const Subtables& subtables,
             const SolveConfig& config, MetricSet solved, Clock::time_point start,
             const FinishedSlices* finished, const PagedExits::Slice* paged = nullptr)
      : scheme_(scheme),
        layout_(sets.layout),
        moves_(layout_),
        exits_(scheme_.material(), subtables),
        word_exits_(layout_, scheme_, exits_, finished, paged ? ExitChildren::Unpaged : ExitChildren::All),
        paged_(paged),
        config_(config),
        start_(start),
        sides_(sets.sides),
        ep_(sets.ep),
        sets_(sets),
        records_(nullptr),
        target_(layout_.words() * 64),
        target_pairs_(static_cast<size_t>(layout_.pair_slots())),
        pulling_(static_cast<size_t>(layout_.pair_slots())),
        phases_(sets.phases),
        seed_order_(promotion_order(layout_)),
        solved_(solved) {
    const uint64_t positions = layout_.words() * 64;
    const auto pairs = static_cast<size_t>(layout_.pair_slots());
    // The two sides' sets and depth bytes are allocated and filled side by side: filling them
    // touches every page for the first time, which for a 5-man table is some 400 MB (KQRkr: 7% of
    // its CPU time, all of it on one thread before the first parallel step when made one by one).
    const auto make_side = [&](Color c) {
      sides_[static_cast<size_t>(to_index(c))] = std::make_unique<Side>(
          positions, pairs, stalemate_passes(config.rules), config.lean, c == Color::Black);
    };
    tbb::parallel_invoke([&] { make_side(Color::White); }, [&] { make_side(Color::Black); });
    if (config.lean)
      sets.records = std::make_unique<DepthRecords>(scratch_directory(config), pairs, layout_.pair_words());
    records_ = sets.records.get();
  }

  // Solves the slice.
  void run() {
    report(Stage::Setup, 0);
    find_valid();
    build_ep_nodes();
    for (phase_ = 0; phase_ < phases_.size() && solved_.contains(phases_[phase_].metric); ++phase_) {
      values_ = PhaseValues::of(config_.rules, phase_);
      seed();
      iterate();
      if (phase_ == 0) mark_first_decided();
    }
    finish();
  }

private:
  const indexing::IndexScheme& scheme_;
  const indexing::WordLayout& layout_;
  WordMoves moves_;
  ExitTables exits_;
  WordExits word_exits_;
  const PagedExits::Slice* paged_;  // the moves into paged subtables, scored before; or null
  const SolveConfig& config_;
  Clock::time_point start_;
  uint64_t resolved_ = 0;  // the positions this slice resolved so far
  std::array<std::unique_ptr<Side>, 2>& sides_;
  // The e.p. section, by side to move: every entry, the undecided ones, those decided at the
  // depth being propagated and at the depth being decided.
  std::array<std::vector<EpNode>, 2>& ep_;
  const SliceSets& sets_;
  DepthRecords* records_;  // the lean path's (SolveConfig::lean), else null
  std::array<std::vector<uint64_t>, 2> ep_open_, ep_frontier_, ep_next_;
  // The targets, the predecessors of the opponent's frontier, of the side being decided, and a
  // flag per king pair (its words hold a target bit). A ply decides one side and then the other
  // (decide_side), each leaving the set empty: one set for both sides, a bit per position of one
  // side (KQRBkr: 0.97 GB) less than a set per side.
  BitSet target_;
  std::vector<std::atomic<uint8_t>> target_pairs_;
  std::vector<uint8_t> pulling_;  // by pair slot, while scattering: find_pulling
  int ep_horizon_ = -1;           // the largest depth an e.p. node waits for in this phase
  std::span<const SolvePhase> phases_;
  std::vector<uint32_t> seed_order_;  // promotion_order(layout_)
  MetricSet solved_;                  // the metrics of the phases to solve
  size_t phase_ = 0;                  // the phase being solved
  PhaseValues values_;                // how children count in it

  Side& side(Color c) { return *sides_[static_cast<size_t>(to_index(c))]; }
  [[nodiscard]] uint64_t pair_words() const { return layout_.pair_words(); }
  [[nodiscard]] size_t pair_of(uint64_t p) const { return static_cast<size_t>(layout_.slot_of(p / 64)); }
  // Adds position p to `set` and flags its king pair in `pairs`.
  void mark(BitSet& set, std::vector<std::atomic<uint8_t>>& pairs, uint64_t p) const {
    set.set(p);
    flag(pairs, pair_of(p));
  }
  [[nodiscard]] size_t pair_count() const { return static_cast<size_t>(layout_.pair_slots()); }
  // The king pairs of a variant (pair slots count them in every variant).
  [[nodiscard]] size_t king_pairs() const { return static_cast<size_t>(layout_.kings().size); }

  void report(Stage stage, int ply) {
    if (!config_.progress) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    const Metric metric = phase_ < phases_.size() ? phases_[phase_].metric : Metric::Dtm;
    config_.progress(Progress{stage, metric, ply, resolved_, seconds});
  }

  // Decided in the first phase: what is not undecided (invalid positions included, which the
  // scores tell apart by their depth byte), and the e.p. nodes' bases so decided. (The lean
  // path's records tell the phase of each decided position.)
  void mark_first_decided() {
    for (Color c : {Color::White, Color::Black}) {
      Side& s = side(c);
      for (EpNode& e : ep_[static_cast<size_t>(to_index(c))])
        e.base_first = e.valid && !s.undecided.test(e.base);
      if (records_) continue;
      s.first_decided = s.undecided;
      for (uint64_t& w : s.first_decided.words()) w = ~w;
    }
  }

  // Calls body(c, pair, first word, end word) for every king pair (pair slot) of both sides, in
  // parallel; each thread takes runs of pairs in `order` (a permutation of the pairs; empty: in
  // order).
  template <class Body>
  void for_each_pair(Body&& body, std::span<const uint32_t> order = {}) {
    const size_t units = 2 * pair_count();
    tbb::parallel_for(tbb::blocked_range<size_t>(0, units), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t u = r.begin(); u != r.end(); ++u) {
        const Color c = u < pair_count() ? Color::White : Color::Black;
        const size_t pair = order.empty() ? u % pair_count() : order[u % pair_count()];
        body(c, pair, pair * pair_words(), (pair + 1) * pair_words());
      }
    });
  }
  // Calls body(pair, first word, end word) for every king pair (pair slot) of one side, in parallel.
  template <class Body>
  void for_each_slot(Body&& body) {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, pair_count()), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t pair = r.begin(); pair != r.end(); ++pair)
        body(pair, pair * pair_words(), (pair + 1) * pair_words());
    });
  }

  void find_valid() {
    for_each_pair([&](Color c, size_t, uint64_t begin, uint64_t end) {
      Side& s = side(c);
      WordMen w;
      for (uint64_t word = begin; word != end; ++word) {
        moves_.decode(word, w);
        const Bitboard v = moves_.valid(w, c);
        if (!records_) s.depth.set_valid(word, v);
        s.undecided.words()[word] = v;
        s.nonwon.words()[word] = v;
      }
    });
  }

  // The candidates of word w (side c to move) with a move inside the table to a position of the
  // opponent's `targets` set, e.p. positions included.
  Bitboard escaping(const WordMen& w, Color c, Bitboard candidates, const uint64_t* targets) const {
    Bitboard ep = 0;
    Bitboard good = moves_.forward(w, c, candidates, targets, ep);
    for (Bitboard b = ep & candidates & ~good; b;) {
      const Square sq = pop_lsb(b);
      if (double_step_escapes(w, c, sq, targets)) good |= square_bb(sq);
    }
    return good;
  }

  // True when a double step of the position of word w with the innermost man on sq (side c to
  // move) reaches a position of `targets` or an e.p. position not won.
  bool double_step_escapes(const WordMen& w, Color c, Square sq, const uint64_t* targets) const {
    Men men = w.men;
    men.squares[static_cast<size_t>(layout_.inner())] = sq;
    const Position pos = *layout_.placement(men, c);
    Bitboard steppers = pos.pieces(c, PieceType::Pawn) & word_detail::relative_rank_bb(c, 1);
    for (int j = 2; j < layout_.man_count(); ++j)
      if (layout_.fixed_in_slice(j)) steppers &= ~square_bb(men.squares[static_cast<size_t>(j)]);
    for (Bitboard pawns = steppers; pawns;) {
      const Square from = pop_lsb(pawns);
      const Square one = square_at(to_index(from) + pawn_push(c));
      const Square two = square_at(to_index(one) + pawn_push(c));
      if (!pos.empty(one) || !pos.empty(two)) continue;
      const Position child = pos.after(Move(from, two));
      if (child.king_attacked(c)) continue;
      if (child.ep_square() != Square::None) {
        const auto entry = scheme_.index_of(child);
        if (!entry) throw std::logic_error("an e.p. position reached by a legal move has no entry");
        if (sets_.ep_node(~c, *entry - scheme_.normal_size()).state != EpNode::State::Won) return true;
        continue;
      }
      const uint64_t p = layout_.position_of(men_of(scheme_, child));
      if ((targets[p / 64] >> (p % 64)) & 1) return true;
    }
    return false;
  }

  // Where seeding files positions due later, on the seeding thread.
  struct SeedLists {
    DueLists::Adder terminal_later, deferred, later_pending, later_bounds;
    DueLists::Adder bounds, pending_wins;  // the lean path's (Side::bounds, Side::pending_wins)
    DepthSet pending;                      // of the pair being seeded
  };

  // Seeds a phase: terminal positions, the moves out of the table, and the positions none of
  // whose moves inside the table escape. The first phase also files the next one's view of the
  // moves out of the table (Side::later_pending, later_bounds); the next one seeds from it.
  void seed() {
    if (phase_ > 0) {
      start_later_phase();
      seed_later_phase();
    } else {
      seed_first_phase();
    }
    seed_ep();
  }

  // Seeds the first phase's positions, filing the second phase's view as it goes.
  void seed_first_phase() {
    const SeedPhases phases = seed_phases(config_.rules, phases_, solved_);
    const bool later = phases.count > 1;
    for_each_pair(
        [&](Color c, size_t pair, uint64_t begin, uint64_t end) {
          const uint64_t* escapes = side(~c).nonwon.words().data();
          Side& s = side(c);
          SeedLists lists{s.terminal_later.adder(),
                          s.deferred.adder(),
                          s.later_pending.adder(),
                          s.later_bounds.adder(),
                          s.bounds.adder(),
                          s.pending_wins.adder(),
                          {}};
          WordMen w;
          std::array<WordExitSummary, 2> exits;
          for (uint64_t word = begin; word != end; ++word) {
            const Bitboard open = s.undecided.words()[word];
            if (!open) continue;
            moves_.decode(word, w);
            const Bitboard inside = escaping(w, c, open, escapes);
            const Bitboard candidates = open & moves_.exit_candidates(w, c);
            word_exits_.summarize(w, c, candidates, phases.span(), std::span(exits).first(phases.count));
            if (paged_) paged_->add(c, word, candidates, std::span(exits).first(phases.count));
            for (Bitboard b = (exits[0].moves | ~inside) & open; b;)
              seed_position(c, w, pop_lsb(b), inside, exits[0], lists);
            if (later) file_later(word, exits, lists);
          }
          add_pending_depths(s, pair, lists.pending);
        },
        seed_order_);
  }

  // Files the second phase's view of the moves out of the table of the positions of `word` that
  // have some, exits[1], but for those that win through one in the first phase (exits[0]), which
  // are decided there.
  static void file_later(uint64_t word, const std::array<WordExitSummary, 2>& exits, SeedLists& lists) {
    const Bitboard open = exits[0].moves & ~exits[0].win;
    for (Bitboard b = exits[1].win & open; b;) {
      const auto k = static_cast<size_t>(to_index(pop_lsb(b)));
      lists.later_pending.add(exits[1].win_depth[k], word * 64 + k);
    }
    for (Bitboard b = exits[1].bound & ~exits[1].escape & open; b;) {
      const auto k = static_cast<size_t>(to_index(pop_lsb(b)));
      lists.later_bounds.add(exits[1].loss_bound[k], word * 64 + k);
    }
  }

  // Seeds the second phase from the first's filing: the open positions whose every move inside
  // the table reaches a won position and whose moves out of it do not escape lose, when their
  // loss bound (Side::depth, or on the lean path Side::bounds) comes. Each open position has a
  // legal move (the first phase decided or filed for this one those with none) but those that pass.
  void seed_later_phase() {
    for_each_pair([&](Color c, size_t, uint64_t begin, uint64_t end) {
      Side& s = side(c);
      const uint64_t* escapes = side(~c).nonwon.words().data();
      DueLists::Adder deferred = s.deferred.adder();
      uint64_t waiting = 0;
      WordMen w;
      for (uint64_t word = begin; word != end; ++word) {
        Bitboard open = s.undecided.words()[word] & ~s.escape.words()[word];
        if (s.passes.size() != 0) open &= ~s.passes.words()[word];
        if (!open) continue;
        moves_.decode(word, w);
        for (Bitboard b = open & ~escaping(w, c, open, escapes); b;) {
          const Square sq = pop_lsb(b);
          const uint64_t p = word * 64 + static_cast<uint64_t>(to_index(sq));
          s.undecided.words()[word] &= ~square_bb(sq);
          if (!records_)
            deferred.add(s.depth.get(p), p);
          else if (s.bounded.test(p))
            ++waiting;  // its bound comes (release_bounds)
          else
            deferred.add(0, p);
        }
      }
      s.waiting.fetch_add(waiting, std::memory_order_relaxed);
    });
  }

  // Seeds position sq of word w (side c to move), which has a move out of the table or none
  // inside it that escapes.
  void seed_position(Color c, const WordMen& w, Square sq, Bitboard inside, const WordExitSummary& exits,
                     SeedLists& lists) {
    Side& s = side(c);
    const uint64_t p = w.word * 64 + static_cast<uint64_t>(to_index(sq));
    if (!contains(exits.moves | inside, sq)) {  // no legal move: mated or stalemated
      Men men = w.men;
      men.squares[static_cast<size_t>(layout_.inner())] = sq;
      const bool mated = layout_.placement(men, c)->in_check();
      const SolvePhase& phase = phases_[phase_];
      if (mated ? phase.checkmate_ends : phase.stalemate_ends)
        decide_now(c, p, 0);
      else if (!mated && phase.stalemate_passes)
        s.passes.set(p);  // decided by the position it passes to, or a dead draw
      else
        lists.terminal_later.add(0, p);
      return;
    }
    const ExitSummary e = contains(exits.moves, sq) ? exits.of(to_index(sq)) : ExitSummary{};
    if (e.escape) {  // it cannot lose in this phase: its byte holds its win (Side::pending)
      s.escape.words()[w.word] |= square_bb(sq);
      if (records_ && e.win_depth != NoWin)
        lists.pending_wins.add(e.win_depth, p);
      else if (!records_)
        s.depth.set(p, e.win_depth != NoWin ? e.win_depth : 0);
      if (e.win_depth != NoWin) lists.pending.add(e.win_depth);
      return;
    }
    if (!contains(inside, sq)) {
      s.undecided.words()[w.word] &= ~square_bb(sq);
      if (!records_) s.depth.set(p, e.loss_bound);
      lists.deferred.add(e.loss_bound, p);
      return;
    }
    set_bound(s, p, e.loss_bound, lists.bounds);
  }

  // Position p of side s (undecided) loses no faster than `bound` through its moves out of the
  // table: its depth byte holds it, or on the lean path Side::bounded and Side::bounds when above 0.
  void set_bound(Side& s, uint64_t p, int bound, DueLists::Adder& bounds) const {
    if (!records_) {
      s.depth.set(p, bound);
      return;
    }
    if (bound == 0) return;
    s.bounded.set(p);
    bounds.add(bound, p);
  }

  // Adds `depths` to the pending wins of side s's king pair.
  static void add_pending_depths(Side& s, size_t pair, const DepthSet& depths) {
    s.pending[pair].add(depths);
    for (int max = s.pending_max.load(std::memory_order_relaxed);
         depths.max > max &&
         !s.pending_max.compare_exchange_weak(max, depths.max, std::memory_order_relaxed);) {
    }
  }

  // Position p of side c is decided at depth d of the current ply's frontier-to-be.
  void decide_now(Color c, uint64_t p, int d) {
    Side& s = side(c);
    s.undecided.reset(p);
    mark(s.next(), s.next_pairs, p);
    if (!records_) s.depth.set(p, d);
  }

  // Starts a phase after the first: the positions with no legal move that end the game in it are
  // decided at depth 0 (Lasker: the stalemates); the open positions take the wins and loss bounds
  // the first phase filed for this one, and those with a bound lose their escape.
  void start_later_phase() {
    for (auto& s : sides_) {
      for (PendingDepths& p : s->pending) p.clear();
      s->pending_max = 0;
      s->deferred.clear();
      s->bounds.clear();
      s->pending_wins.clear();
      s->waiting = 0;
    }
    // The loss bounds left by the earlier phase are void.
    if (records_) {
      for (auto& s : sides_) std::fill(s->bounded.words().begin(), s->bounded.words().end(), 0);
    } else {
      for_each_pair([&](Color c, size_t, uint64_t begin, uint64_t end) {
        Side& s = side(c);
        for (uint64_t word = begin; word != end; ++word)
          for (Bitboard b = s.undecided.words()[word]; b;)
            s.depth.set(word * 64 + static_cast<uint64_t>(to_index(pop_lsb(b))), 0);
      });
    }
    for (Color c : {Color::White, Color::Black}) {
      Side& s = side(c);
      s.terminal_later.for_each(0, [&](uint64_t p) { decide_now(c, p, 0); });
      s.terminal_later.clear();
      for (int d = 1; s.later_bounds.any_from(d); ++d)
        s.later_bounds.for_each(d, [&](uint64_t p) {
          if (!s.undecided.test(p)) return;
          DueLists::Adder bounds = s.bounds.adder();
          set_bound(s, p, d, bounds);
          s.escape.reset(p);
        });
      for (int d = 1; s.later_pending.any_from(d); ++d)
        s.later_pending.for_each(d, [&](uint64_t p) {
          if (!s.undecided.test(p)) return;
          if (records_)
            s.pending_wins.adder().add(d, p);
          else
            s.depth.set(p, d);
          DepthSet depths;
          depths.add(d);
          add_pending_depths(s, pair_of(p), depths);
        });
      s.later_bounds.clear();
      s.later_pending.clear();
    }
  }

  void iterate() {
    for (Color c : {Color::White, Color::Black}) settle_ep(c, 0);
    promote_next(0);
    for (int depth = 1; frontier_open() || pending_from(depth); ++depth) {
      for (Color c : {Color::White, Color::Black}) decide_side(c, depth);
      promote_next(depth);
      report(Stage::Solving, depth);
    }
  }

  // Decides side c's positions at `depth`, its next frontier, from the opponent's frontier. The
  // sides are independent within a ply: a side's losses (even depths) look at the opponent's
  // `nonwon` and won e.p. nodes, which change only with his wins (odd depths).
  void decide_side(Color c, int depth) {
    if (side(c).next_in_frontier) empty_frontier(c);
    scatter(c);
    scatter_ep(c);
    if (!layout_.pawns()) mirror_targets();
    if (depth % 2 == 1) add_pending(c, depth);
    if (depth % 2 == 0 && records_) release_bounds(c, depth);
    decide(c, depth);
    if (depth % 2 == 0) add_deferred(c, depth);
    settle_ep(c, depth);
  }

  [[nodiscard]] bool frontier_open() const {
    for (const auto& s : sides_)
      for (const auto& f : s->frontier_pairs)
        if (f.load(std::memory_order_relaxed)) return true;
    return !ep_frontier_[0].empty() || !ep_frontier_[1].empty();
  }
  [[nodiscard]] bool pending_from(int depth) const {
    for (const auto& s : sides_)
      if (depth <= s->pending_max || s->deferred.any_from(depth) ||
          (s->waiting > 0 && s->bounds.any_from(depth)))
        return true;
    return ep_horizon_ >= depth;
  }

  // Empties the frontier of side c, whose set is to take its next (Side::next_in_frontier): the
  // opponent's half of the ply has read it.
  void empty_frontier(Color c) {
    Side& s = side(c);
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t) {
      clear_frontier(s, pair, begin);
      s.frontier_pairs[pair].store(0, std::memory_order_relaxed);
    });
  }

  // Zeroes the listed frontier words of side s in pair slot `pair` (its words from `begin`).
  void clear_frontier(Side& s, size_t pair, uint64_t begin) const {
    if (!s.frontier_pairs[pair].load(std::memory_order_relaxed)) return;
    for (const uint32_t offset : listed_frontier(s, pair)) s.frontier.words()[begin + offset] = 0;
  }

  // The next frontier, decided at `depth`, becomes the frontier, its words listed
  // (Side::frontier_words) and on the lean path recorded (depth_records.hpp); the old one is cleared
  // (already, for a side whose next is in its frontier's set).
  void promote_next(int depth) {
    for_each_pair([&](Color c, size_t pair, uint64_t begin, uint64_t end) {
      Side& s = side(c);
      if (!s.next_in_frontier) clear_frontier(s, pair, begin);
      const uint8_t next = s.next_pairs[pair].load(std::memory_order_relaxed);
      s.frontier_pairs[pair].store(next, std::memory_order_relaxed);
      s.next_pairs[pair].store(0, std::memory_order_relaxed);
      if (!next) return;
      uint32_t* listed = s.frontier_words.data() + begin;
      uint32_t n = 0;
      for (uint64_t word = begin; word != end; ++word)
        if (s.next().words()[word]) listed[n++] = static_cast<uint32_t>(word - begin);
      s.frontier_count[pair] = n;
      if (records_) records_->append(c, pair, phase_, depth, s.next().words().data() + begin, {listed, n});
    });
    for (auto& s : sides_)
      if (!s->next_in_frontier) std::swap(s->frontier, s->own_next);
    for (size_t c = 0; c < 2; ++c) {
      ep_frontier_[c].swap(ep_next_[c]);
      ep_next_[c].clear();
    }
  }

  // Side t's targets: the predecessors of the opponent's frontier. Each king pair's targets by one
  // thread: the un-moves inside the pair's words, then the kings' moves that keep the pair canonical
  // (WordMoves::plain_king_steps), pulled from the pairs they lead to. Then the other kings'
  // moves, which reach other pairs' words from many threads (atomic).
  void scatter(Color t) {
    const Side& f = side(~t);
    find_pulling(t);
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t) {
      const bool frontier = f.frontier_pairs[pair].load(std::memory_order_relaxed) != 0;
      if (!frontier && !pulling_[pair]) return;
      bool added = false;
      if (frontier) {
        uint64_t* target = target_.words().data();
        for_each_listed_word(f, pair, begin, [&](const WordMen& w, Bitboard bits) {
          added |= add_passes(w.word, t, bits);
          moves_.unmoves(
              w, t, bits,
              [&](uint64_t to, Bitboard b) {
                target[to] |= b;
                added = true;
              },
              [&](int man, Square from, Bitboard b) { add_plain_double_steps(w, ~t, man, from, b); });
        });
      }
      if (pulling_[pair]) added |= pull_plain_king_moves(t, pair, begin);
      if (added) flag(target_pairs_, pair);
    });
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t) {
      if (!f.frontier_pairs[pair].load(std::memory_order_relaxed)) return;
      const Bitboard imaged = moves_.imaged_king_steps(pair % king_pairs(), t);
      if (!imaged) return;  // a pawn table's black king, or its white king off the d-file
      for_each_listed_word(f, pair, begin, [&](const WordMen& w, Bitboard bits) {
        moves_.king_unmoves(w, t, bits, imaged, [&](uint64_t to, Bitboard b) {
          if (!b) return;
          std::atomic_ref<uint64_t>(target_.words()[to]).fetch_or(b, std::memory_order_relaxed);
          flag(target_pairs_, static_cast<size_t>(layout_.slot_of(to)));
        });
      });
    });
  }

  // Calls body(w, bits) for every listed frontier word of side f in pair slot `slot` (flagged),
  // whose words start at `begin`, decoded.
  template <class Body>
  void for_each_listed_word(const Side& f, size_t slot, uint64_t begin, Body&& body) const {
    WordMen w;
    for (const uint32_t offset : listed_frontier(f, slot)) {
      moves_.decode(begin + offset, w);
      body(w, f.frontier.words()[begin + offset]);
    }
  }

  // The frontier words of side s in pair slot `slot` (flagged), as offsets in its words.
  std::span<const uint32_t> listed_frontier(const Side& s, size_t slot) const {
    return {s.frontier_words.data() + slot * pair_words(), s.frontier_count[slot]};
  }

  // Flags in pulling_ the pair slots that pull_plain_king_moves(c, ...) may find targets in: those
  // with a plain king move of c into a pair slot of the opponent's frontier. A plain step taken
  // back is a plain step (both pairs are canonical as they stand), so they are the steps of c's
  // king from the frontier's pair slots. Checked once per pair slot of the frontier instead of once
  // per step of every pair slot: KQPkp's 32 file slices of 3,612 pair slots (of 36 words) run
  // 310-440 plies each, and checking every slot's steps held 4% of their CPU samples (perf); the
  // slices now take 1.5% less CPU time (docs/benchmarks.md, *Slices*).
  void find_pulling(Color c) {
    const indexing::KkMap& kings = layout_.kings();
    const Side& f = side(~c);
    const auto m = static_cast<size_t>(to_index(c));
    std::fill(pulling_.begin(), pulling_.end(), uint8_t{0});
    for (size_t slot = 0; slot < pair_count(); ++slot) {
      if (!f.frontier_pairs[slot].load(std::memory_order_relaxed)) continue;
      const size_t variant_slot = slot - slot % king_pairs();
      std::array<Square, 2> squares = kings.kings[slot % king_pairs()];
      for (Bitboard to = moves_.plain_king_steps(slot % king_pairs(), c); to;) {
        squares[m] = pop_lsb(to);
        pulling_[variant_slot + kings.pair[indexing::KkMap::at(squares[0], squares[1])]] = 1;
      }
    }
  }

  // The predecessors in pair slot `slot` (words from `begin`, side c to move) through the moves
  // of c's king that keep the pair canonical: for each, the frontier bits of the opponent's word
  // at the same offset in the pair the move leads to, but for the square the king left (X cannot
  // have stood there). Bits of words where a fixed man stands on that square are taken too; those
  // words hold no valid position, and deciding ignores them. True when it added any.
  bool pull_plain_king_moves(Color c, size_t slot, uint64_t begin) {
    const indexing::KkMap& kings = layout_.kings();
    const Side& f = side(~c);
    uint64_t* target = target_.words().data() + begin;
    const size_t variant_slot = slot - slot % king_pairs();
    std::array<Square, 2> squares = kings.kings[slot % king_pairs()];
    const auto m = static_cast<size_t>(to_index(c));
    const Bitboard left = ~square_bb(squares[m]);
    Bitboard any = 0;
    for (Bitboard to = moves_.plain_king_steps(slot % king_pairs(), c); to;) {
      squares[m] = pop_lsb(to);
      const size_t from_slot = variant_slot + kings.pair[indexing::KkMap::at(squares[0], squares[1])];
      if (!f.frontier_pairs[from_slot].load(std::memory_order_relaxed)) continue;
      const uint64_t* frontier = f.frontier.words().data() + from_slot * pair_words();
      for (const uint32_t offset : listed_frontier(f, from_slot)) {
        const Bitboard b = frontier[offset] & left;
        target[offset] |= b;
        any |= b;
      }
    }
    return any != 0;
  }

  // The positions of side c in `word` that pass to the frontier positions `bits` (the same
  // placements with the other side to move) join the targets; true when there are any.
  bool add_passes(uint64_t word, Color c, Bitboard bits) {
    Side& s = side(c);
    if (s.passes.size() == 0) return false;
    const Bitboard passing = bits & s.passes.words()[word];
    target_.words()[word] |= passing;
    return passing != 0;
  }

  // The predecessors of frontier positions b of word w (side c to move) through a double step of
  // man `man` from `from` whose move led to them and not to an e.p. position: those where c has no
  // e.p. capture; they join the targets.
  void add_plain_double_steps(const WordMen& w, Color c, int man, Square from, Bitboard b) {
    for (; b; b &= b - 1) {
      const Square sq = lsb(b);
      Men men = w.men;
      men.squares[static_cast<size_t>(layout_.inner())] = sq;
      Position pos = *layout_.placement(men, c);
      const Square to = men.squares[static_cast<size_t>(man)];
      pos.set_ep_square(square_at((to_index(from) + to_index(to)) / 2));
      if (pos.has_ep_capture()) continue;
      men.squares[static_cast<size_t>(man)] = from;
      mark(target_, target_pairs_, layout_.position_of(men));
    }
  }

  // Pawnless tables: a position whose kings share the a1-h8 diagonal and its mirror image are two
  // positions of the layout; both join the targets when one does.
  void mirror_targets() {
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t end) {
      const auto [wk, bk] = layout_.kings().kings[pair];
      if (!indexing::on_diagonal(wk) || !indexing::on_diagonal(bk)) return;
      if (!target_pairs_[pair].load(std::memory_order_relaxed)) return;
      uint64_t* target = target_.words().data();
      WordMen w;
      for (uint64_t word = begin; word != end; ++word) {
        moves_.decode(word, w);
        if (w.overlap) continue;
        indexing::IndexScheme::Men image = w.men;
        for (int j = 2; j < layout_.man_count(); ++j)
          image.squares[static_cast<size_t>(j)] =
              apply(Symmetry::FlipDiag, w.men.squares[static_cast<size_t>(j)]);
        const uint64_t twin = layout_.word_of(image);
        if (twin < word) continue;
        const Bitboard both = target[word] | transpose(target[twin]);
        target[word] = both;
        target[twin] = transpose(both);
      }
    });
  }

  // Side c's positions that win through a move out of the table at `depth` join the targets.
  void add_pending(Color c, int depth) {
    Side& s = side(c);
    if (records_) {
      add_pending_wins(s, depth);
      return;
    }
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t end) {
      if (!s.pending[pair].has(depth)) return;
      Bitboard any = 0;
      for (uint64_t word = begin; word != end; ++word)
        if (const Bitboard open = s.escape.words()[word] & s.undecided.words()[word]) {
          const Bitboard due = open & s.depth.holding(word, depth);
          target_.words()[word] |= due;
          any |= due;
        }
      if (any) flag(target_pairs_, pair);
    });
  }

  // add_pending on the lean path: from Side::pending_wins.
  void add_pending_wins(Side& s, int depth) {
    s.pending_wins.for_each(depth, [&](uint64_t p) {
      if (s.escape.test(p) && s.undecided.test(p)) mark(target_, target_pairs_, p);
    });
    s.pending_wins.drop(depth);
  }

  // The lean path's loss bounds of side c at `depth` are reached: its positions still undecided
  // may now lose at this depth or later, and the losses waiting for them join the next frontier.
  void release_bounds(Color c, int depth) {
    Side& s = side(c);
    std::atomic<uint64_t> released{0};
    s.bounds.for_each(depth, [&](uint64_t p) {
      if (!s.bounded.test(p)) return;
      s.bounded.reset(p);
      if (s.undecided.test(p)) return;
      mark(s.next(), s.next_pairs, p);
      released.fetch_add(1, std::memory_order_relaxed);
    });
    s.bounds.drop(depth);
    s.waiting -= released;
    resolved_ += released;
  }

  void add_deferred(Color c, int depth) {
    Side& s = side(c);
    resolved_ += s.deferred.for_each(depth, [&](uint64_t p) { mark(s.next(), s.next_pairs, p); });
    s.deferred.drop(depth);
  }

  // Decides side c's targets at `depth`: wins at odd depths, losses (the targets whose every move
  // inside the table reaches a won position) at even ones. Leaves the targets empty.
  void decide(Color c, int depth) {
    tbb::enumerable_thread_specific<uint64_t> counts(0);
    Side& s = side(c);
    const uint64_t* escapes = side(~c).nonwon.words().data();
    uint64_t* next_words = s.next().words().data();
    for_each_slot([&](size_t pair, uint64_t begin, uint64_t end) {
      if (!target_pairs_[pair].load(std::memory_order_relaxed)) return;
      target_pairs_[pair].store(0, std::memory_order_relaxed);
      DueLists::Adder deferred = s.deferred.adder();
      uint64_t decided = 0, waiting = 0;
      bool next = false;
      WordMen w;
      for (uint64_t word = begin; word != end; ++word) {
        Bitboard bits = target_.words()[word];
        if (!bits) continue;
        target_.words()[word] = 0;
        bits &= s.undecided.words()[word];
        if (bits && !records_) s.depth.prefetch(word);
        if (depth % 2 == 0) {
          bits &= ~s.escape.words()[word];
          if (!bits) continue;
          moves_.decode(word, w);
          bits &= ~escaping(w, c, bits, escapes);
        }
        if (!bits) continue;
        decided += static_cast<uint64_t>(popcount(bits));
        s.undecided.words()[word] &= ~bits;
        if (depth % 2 == 1) s.nonwon.words()[word] &= ~bits;
        const Bitboard now =
            records_ ? settle_lean(s, word, bits, depth, waiting) : settle(s, word, bits, depth, deferred);
        next_words[word] |= now;
        next |= now != 0;
      }
      if (next) flag(s.next_pairs, pair);
      if (waiting) s.waiting.fetch_add(waiting, std::memory_order_relaxed);
      counts.local() += decided;
    });
    resolved_ += counts.combine(std::plus<>());
  }

  // Positions `bits` of `word` (sets s), just decided at `depth`: each gets its depth, unless a
  // move out of the table loses more slowly (then it is filed in `deferred` for that depth).
  // Returns those that join the next frontier now.
  static Bitboard settle(Side& s, uint64_t word, Bitboard bits, int depth, DueLists::Adder& deferred) {
    Bitboard now = bits;
    for (Bitboard b = bits; b;) {
      const Square sq = pop_lsb(b);
      const uint64_t p = word * 64 + static_cast<uint64_t>(to_index(sq));
      if (depth % 2 == 0) {
        const int bound = s.depth.get(p);
        if (bound > depth) {
          deferred.add(bound, p);
          now &= ~square_bb(sq);
          continue;
        }
      }
      s.depth.set(p, depth);
    }
    return now;
  }

  // settle on the lean path: the losses of positions `bits` whose bound is still to come wait for it
  // (release_bounds), counted in `waiting`; a win drops its bound. Returns those that join the
  // next frontier now.
  static Bitboard settle_lean(Side& s, uint64_t word, Bitboard bits, int depth, uint64_t& waiting) {
    Bitboard& bounded = s.bounded.words()[word];
    if (depth % 2 == 1) {
      bounded &= ~bits;
      return bits;
    }
    const Bitboard held = bits & bounded;
    waiting += static_cast<uint64_t>(popcount(held));
    return bits & ~held;
  }

  // The slice's e.p. nodes: their bases and the positions before their double steps.
  void build_ep_nodes() {
    for (Color c : {Color::White, Color::Black}) {
      const size_t index = static_cast<size_t>(to_index(c));
      auto& nodes = ep_[index];
      nodes.resize(sets_.ep_entries[index].size());
      tbb::parallel_for(tbb::blocked_range<size_t>(0, nodes.size(), 1024),
                        [&](const tbb::blocked_range<size_t>& r) {
                          Position pos;
                          for (size_t k = r.begin(); k != r.end(); ++k)
                            if (scheme_.decode(scheme_.normal_size() + sets_.ep_entries[index][k], c, pos))
                              describe_ep(pos, nodes[k]);
                        });
      for (size_t k = 0; k < nodes.size(); ++k)
        if (nodes[k].valid) ep_open_[index].push_back(k);
    }
  }

  void describe_ep(const Position& pos, EpNode& node) const {
    node.valid = true;
    const EpPositions positions = ep_positions(layout_, pos);
    node.base = positions.base;
    node.before = positions.before;
    node.before_inside = positions.before_inside;
    Position base = pos;
    base.set_ep_square(Square::None);
    node.base_moves = legal_moves(base).size() > 0;
  }

  // Seeds the undecided e.p. nodes for a phase: their captures' summary, a win through one, and
  // the loss of those whose base contributes no escape (no legal move, or lost in the mate phase).
  void seed_ep() {
    ep_horizon_ = -1;
    for (Color c : {Color::White, Color::Black}) {
      const size_t index = static_cast<size_t>(to_index(c));
      Position pos;
      for (const uint64_t j : ep_open_[index]) {
        EpNode& e = ep_[index][j];
        if (!scheme_.decode(scheme_.normal_size() + sets_.ep_entries[index][j], c, pos))
          throw std::logic_error("e.p. entry turned invalid");
        e.exits = ExitSummary{};
        for (Move m : legal_moves(pos))
          if (m.kind() == MoveKind::EnPassant) add_exit(e.exits, values_, exits_.probe(pos, m));
        e.pending = e.exits.win_depth != NoWin ? e.exits.win_depth : -1;
        ep_horizon_ = std::max(ep_horizon_, e.pending);
        // A base without a legal move gives the node no move (it ends the game or passes, which
        // the node, having its e.p. captures, does not): only those captures count.
        const bool base_refuted = !e.base_moves || (phase_ > 0 && e.base_first);
        if (base_refuted && !e.exits.escape) lose_ep(e, e.exits.loss_bound, -1);
      }
    }
  }

  // E.p. node e is lost at `depth`; it joins the frontier now when depth == now.
  void lose_ep(EpNode& e, int depth, int now) {
    e.state = EpNode::State::Lost;
    e.first = phase_ == 0;
    e.depth = depth;
    e.due = depth;
    ep_horizon_ = std::max(ep_horizon_, depth > now ? depth : -1);
  }

  // Decides side c's e.p. nodes at `depth` from their bases decided at that depth and their captures.
  void settle_ep(Color c, int depth) {
    const size_t side_index = static_cast<size_t>(to_index(c));
    const Side& s = side(c);
    std::vector<uint64_t> still_open;
    for (const uint64_t j : ep_open_[side_index]) {
      EpNode& e = ep_[side_index][j];
      if (e.state == EpNode::State::Open) {
        const bool base_now = e.base_moves && s.next().test(e.base);
        if (e.pending == depth || (base_now && depth % 2 == 1)) {
          e.state = EpNode::State::Won;
          e.first = phase_ == 0;
          e.depth = depth;
          e.due = depth;
        } else if (base_now && !e.exits.escape) {
          lose_ep(e, std::max(depth, e.exits.loss_bound), depth);
        }
      }
      if (e.state != EpNode::State::Open && e.due == depth)
        ep_next_[side_index].push_back(j);
      else if (e.state == EpNode::State::Open || e.due > depth)
        still_open.push_back(j);
    }
    ep_open_[side_index].swap(still_open);
  }

  // The positions of side t before the double steps of the opponent's e.p. nodes in the frontier
  // join the targets.
  void scatter_ep(Color t) {
    const auto c = static_cast<size_t>(to_index(~t));
    for (const uint64_t j : ep_frontier_[c]) {
      const EpNode& e = ep_[c][j];
      if (!e.before_inside) continue;  // a slice solved later reaches it through an exit
      for_each_labelling(layout_, e.before, [&](uint64_t p) { mark(target_, target_pairs_, p); });
    }
  }

  // Frees what the scores do not need; on the lean path, writes the records held.
  void finish() {
    report(Stage::Finish, 0);
    if (records_) records_->flush();
    target_ = BitSet();
    for (auto& s : sides_) {
      for (BitSet* set : {&s->nonwon, &s->escape, &s->frontier, &s->own_next}) *set = BitSet();
      if (!records_) continue;
      s->bounded = BitSet();
      std::vector<uint32_t>().swap(s->frontier_words);
    }
  }
};

// The e.p. entries of each slice, by side to move: those whose base (the same men without the
// right) lies in it, ascending.
std::vector<std::array<std::vector<uint64_t>, 2>> ep_entries_by_slice(const Solution::Sets& sets) {
  std::vector<std::array<std::vector<uint64_t>, 2>> out(sets.slices.size());
  constexpr uint16_t NoSlice = 0xFFFF;
  std::vector<uint16_t> slice_of(static_cast<size_t>(sets.scheme.ep_size()));
  for (Color c : {Color::White, Color::Black}) {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, slice_of.size(), 1024),
                      [&](const tbb::blocked_range<size_t>& r) {
                        Position pos;
                        for (size_t j = r.begin(); j != r.end(); ++j) {
                          slice_of[j] = NoSlice;
                          if (!sets.scheme.decode(sets.scheme.normal_size() + j, c, pos)) continue;
                          pos.set_ep_square(Square::None);
                          slice_of[j] = static_cast<uint16_t>(sets.slices.slice_of(men_of(sets.scheme, pos)));
                        }
                      });
    for (size_t j = 0; j < slice_of.size(); ++j)
      if (slice_of[j] != NoSlice) out[slice_of[j]][static_cast<size_t>(to_index(c))].push_back(j);
  }
  return out;
}

// The moves into paged subtables of every slice of a table sliced by files, scored in one pass
// (retro/paged_exits.hpp); null for a table of one slice, or of placement slices, whose
// promotions lie in the slices of pawns on their 7th (joined by default), or without paged
// subtables.
std::unique_ptr<const PagedExits> paged_exits(const Solution::Sets& sets, const Subtables& subtables,
                                              const SolveConfig& config) {
  if (sets.slices.size() < 2 || sets.slices[0].placement || !sets.metrics.contains(sets.phases[0].metric))
    return nullptr;
  const ExitTables exits(sets.scheme.material(), subtables);
  if (!exits.pages()) return nullptr;
  const SeedPhases phases = seed_phases(config.rules, sets.phases, sets.metrics);
  return std::make_unique<const PagedExits>(
      sets.scheme, sets.slices, exits, phases.span(),
      king_pair_order(indexing::WordLayout(sets.scheme, sets.slices[0])), scratch_directory(config));
}

// The progress of a table's slices, reported on the thread that solves the table (a Python
// callback checks there for Ctrl-C): the plies of the slice that thread solves, with the positions
// resolved summed over the slices, counting those of the slices other threads solve beside it.
// Example: the solving thread's slice 3 at DTM ply 40 has resolved 1,000 positions and slice 4,
// on another thread, 300: the line reads "DTM ply 40, 1,300 positions resolved".
class SliceProgress {
public:
  SliceProgress(const SolveConfig& config, size_t slices)
      : report_(config.progress), resolved_(slices), solving_thread_(std::this_thread::get_id()) {}

  // `config` with slice k's progress added here.
  [[nodiscard]] SolveConfig config_of(const SolveConfig& config, size_t k) {
    SolveConfig out = config;
    if (report_) out.progress = [this, k](const Progress& p) { add(k, p); };
    return out;
  }
  // Reports the setup before the first slice (the pass over the moves into paged subtables).
  void setup() const {
    if (report_) report_(Progress{.slices = resolved_.size()});
  }
  // Reports the end of the last slice with every slice's positions.
  void finish(double seconds) {
    if (report_)
      report_(Progress{Stage::Finish, Metric::Dtm, 0, total(), seconds, resolved_.size(), resolved_.size()});
  }

private:
  void add(size_t k, Progress p) {
    {
      const std::lock_guard lock(mutex_);
      resolved_[k] = p.resolved;
    }
    if (std::this_thread::get_id() != solving_thread_) return;
    p.resolved = total();
    p.slice = k + 1;
    p.slices = resolved_.size();
    report_(p);  // outside the lock: the other slice's solver goes on meanwhile
  }
  [[nodiscard]] uint64_t total() {
    const std::lock_guard lock(mutex_);
    return std::accumulate(resolved_.begin(), resolved_.end(), uint64_t{0});
  }

  std::function<void(const Progress&)> report_;
  std::mutex mutex_;
  std::vector<uint64_t> resolved_;  // by slice, its solver's last count
  std::thread::id solving_thread_;
};

// Each slice's first variant, numbered among the variants of every slice (SolvedSlice).
std::vector<size_t> first_variants(const Solution::Sets& sets) {
  std::vector<size_t> first(sets.slices.size());
  size_t variants = 0;
  for (size_t k = 0; k < first.size(); ++k) {
    first[k] = variants;
    variants += sets.slices[k].variants();
  }
  return first;
}

// Runs `body` so that the parallel loops inside it neither take other work while they wait (a
// thread waiting inside a slice would start another, holding both in memory) nor stop when work
// beside it fails: an exception of another slice cancels the loop over the slices, which must not
// cut this slice's parallel loops short while its solver goes on to the next ply.
template <class Body>
void run_apart(Body&& body) {
  tbb::this_task_arena::isolate([&] {
    tbb::task_group_context own(tbb::task_group_context::isolated);
    tbb::task_group group(own);
    group.run_and_wait(body);
  });
}

// Solves the slices of `sets`, keeping each one solved (packed when there are several). Placement
// slices one after the other, in pawn-move order: a digit pawn's step leads into a slice solved
// before. File slices FileSlicesAtOnce at a time, side by side: no move leads from one to another
// (word_layout.hpp), and the per-ply loops of a file slice over its many small pair slots keep two
// threads busy with little work each. (Keeping the last slice unpacked saved no measurable time in
// KRPkr: 32.3-33.7 s wall against 32.3-32.6 s.)
void solve_slices(Solution::Sets& sets, const Subtables& subtables, const SolveConfig& config) {
  const Clock::time_point start = Clock::now();
  const size_t count = sets.slices.size();
  SliceProgress progress(config, count);
  progress.setup();
  auto ep_entries = ep_entries_by_slice(sets);
  if (count > 1 || config.lean)
    sets.scratch = std::make_unique<ScratchFile>(scratch_directory(config), "the finished slices");
  const SolvedSlices finished(sets);
  const std::unique_ptr<const PagedExits> paged = paged_exits(sets, subtables, config);
  const std::vector<size_t> first = first_variants(sets);
  // Slice k, whose digit pawns' steps lead into the slices `before` (none for a file slice).
  const auto solve = [&](size_t k, const FinishedSlices* before) {
    auto slice = std::make_unique<SliceSets>(sets.scheme, sets.slices[k], sets.phases);
    slice->ep_entries = std::move(ep_entries[k]);
    const std::optional<PagedExits::Slice> paged_slice =
        paged ? std::optional(paged->slice(k)) : std::nullopt;
    const SolveConfig slice_config = progress.config_of(config, k);
    WordSolver(sets.scheme, *slice, subtables, slice_config, sets.metrics, start, before,
               paged_slice ? &*paged_slice : nullptr)
        .run();
    for (size_t c = 0; c < 2; ++c)
      for (size_t n = 0; n < slice->ep[c].size(); ++n)
        sets.ep_scores[c][slice->ep_entries[c][n]] = slice->ep_score(slice->ep[c][n]).raw();
    slice->ep = {};
    return SolvedSlice(std::move(slice), first[k], sets.scratch.get());
  };
  if (count < 2 || sets.slices[0].placement) {
    for (size_t k = 0; k < count; ++k) sets.solved.push_back(solve(k, &finished));
    return;
  }
  std::vector<std::optional<SolvedSlice>> solved(count);
  std::atomic<size_t> next{0};
  const auto lane = [&] {
    for (size_t k; (k = next.fetch_add(1, std::memory_order_relaxed)) < count;) {
      try {
        run_apart([&] { solved[k].emplace(solve(k, nullptr)); });
      } catch (...) {
        next.store(count, std::memory_order_relaxed);  // the other lane starts no slice after its own
        throw;
      }
    }
  };
  tbb::parallel_for(
      size_t{0}, FileSlicesAtOnce, [&](size_t) { lane(); }, tbb::simple_partitioner());
  progress.finish(std::chrono::duration<double>(Clock::now() - start).count());
  for (std::optional<SolvedSlice>& s : solved) sets.solved.push_back(std::move(*s));
}

}  // namespace

std::unique_ptr<Solution> solve_table(const Material& material, const Subtables& subtables,
                                      const SolveConfig& config) {
  auto sets = std::make_unique<Solution::Sets>(material, config.rules, phases_run(config), config.slicing);
  tbb::task_arena arena(config.threads > 0 ? config.threads : tbb::task_arena::automatic);
  arena.execute([&] { solve_slices(*sets, subtables, config); });
  return std::make_unique<Solution>(std::move(sets));
}

std::shared_ptr<Table> solve(const Material& material, const Subtables& subtables,
                             const SolveConfig& config) {
  return to_table(*solve_table(material, subtables, config));
}

}  // namespace egtb::retro
