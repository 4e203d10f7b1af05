// The sets the solver (solver.cpp) works on, one file slice (indexing/word_layout.hpp) at a time: per
// side to move a bit per position of the slice's word layout (undecided, decided in the first
// phase, the frontier of the depth being propagated, ...), a depth byte per position (depths.hpp),
// and the positions with an e.p. right as nodes of their own. The slice storage (solved_slice.hpp)
// reads a solved slice's scores from them.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "indexing/bitset.hpp"
#include "indexing/word_layout.hpp"
#include "retro/depth_records.hpp"
#include "retro/depths.hpp"
#include "retro/due_lists.hpp"
#include "retro/word_exits.hpp"

namespace egtb::retro {

using indexing::BitSet;

// A set of depths: a bit per depth below 127, bit 127 for every depth from 127 on, and the
// largest. Example: {3, 9, 200} is bits 3, 9 and 127 with max 200, and has(300) is true.
struct DepthSet {
  std::array<uint64_t, 2> words{};
  int max = 0;

  void add(int depth) {
    const int b = std::min(depth, 127);
    words[static_cast<size_t>(b / 64)] |= Bitboard{1} << (b % 64);
    max = std::max(max, depth);
  }
  [[nodiscard]] bool has(int depth) const {
    const int b = std::min(depth, 127);
    return (words[static_cast<size_t>(b / 64)] >> (b % 64)) & 1;
  }
};

// A king pair's depths of wins through a move out of the table (Side::pending), added to from
// many threads (the largest of them all is kept apart, in Side::pending_max).
class PendingDepths {
public:
  void add(const DepthSet& depths) {
    for (size_t k = 0; k < 2; ++k)
      if (depths.words[k]) words_[k].fetch_or(depths.words[k], std::memory_order_relaxed);
  }
  [[nodiscard]] bool has(int depth) const {
    return DepthSet{{words_[0].load(std::memory_order_relaxed), words_[1].load(std::memory_order_relaxed)}, 0}
        .has(depth);
  }
  void clear() {
    for (auto& w : words_) w.store(0, std::memory_order_relaxed);
  }

private:
  std::array<std::atomic<uint64_t>, 2> words_{};
};

// The sets of one side to move, a bit per position of the word layout.
struct Side {
  BitSet undecided;      // valid, value not known yet (on the lean path kept to the end: with the
                         // records, it tells a draw, undecided, from no position, neither)
  BitSet nonwon;         // valid and not known to be won: what the opponent's moves may escape to
  BitSet escape;         // this phase: a move out of the table that the opponent does not win
  BitSet first_decided;  // after the first phase: decided there
  BitSet frontier;       // decided at the depth being propagated
  // Decided at the depth being decided: own_next, or for the side decided second in a ply (Black)
  // the frontier's set. White's half of a ply reads Black's frontier and Black's half writes Black's
  // next, so the set is emptied between them (WordSolver::decide_side) and serves both: a bit per
  // position less on one side (KQRkr: 15 MB of 480; a pawnless 6-man table: 0.97 GB).
  BitSet own_next;
  bool next_in_frontier = false;
  // The depth of a decided position; before, its exits' loss bound, or for one of `escape` its
  // win through an exit (`pending`). Empty on the lean path, which keeps instead:
  Depths depth;
  // the positions with a loss bound above 0 not reached yet (undecided ones, and the losses
  // waiting for theirs), their bounds by bound, the count of losses waiting, and the wins
  // through an exit of `escape`'s positions by depth.
  BitSet bounded;
  DueLists bounds;
  std::atomic<uint64_t> waiting{0};
  DueLists pending_wins;
  DueLists terminal_later;  // no legal move, ending the game in a later phase (Lasker: stalemates)
  // The wins through a move out of the table, by king pair: the depths at which positions of the
  // pair win through one, and the largest of them all. The positions are the undecided ones of
  // `escape` whose depth byte holds the depth (none of them loses in the phase: their byte is
  // free), so that they take no list of their own (KRPkr's took 150 MB).
  std::vector<PendingDepths> pending;
  std::atomic<int> pending_max{0};
  DueLists deferred;  // losses slower than the moves inside the table tell
  // The second phase's view of the moves out of the table, filed while seeding the first, which
  // probes the same children (KRPkr's second-phase seeding took 2.7 of 23.6 s probing them again):
  // its wins through one, by depth, and the loss bounds above 0, by bound, of the positions none
  // of whose moves out of the table escape in it. Its escapes are the first phase's (`escape`)
  // but for those: a move the opponent does not win in the second phase he does not win in the
  // first, and a position whose only escapes in the first are stalemates for him has a bound.
  DueLists later_pending, later_bounds;
  BitSet passes;  // no legal move, not in check, and the rules pass: its one move is a pass
  // A flag per king pair: the pair's words hold a frontier / next bit. (The targets, the
  // predecessors of the opponent's frontier, are the solver's, one side at a time.)
  std::vector<std::atomic<uint8_t>> frontier_pairs, next_pairs;
  // The frontier's words of each flagged pair slot, listed as it becomes the frontier: offsets in
  // the slot's words, frontier_count[slot] of them from frontier_words[slot * pair_words].
  std::vector<uint32_t> frontier_words, frontier_count;

  Side(uint64_t positions, size_t pairs, bool with_passes, bool lean, bool next_in_frontier_set)
      : undecided(positions),
        nonwon(positions),
        escape(positions),
        frontier(positions),
        own_next(next_in_frontier_set ? 0 : positions),
        next_in_frontier(next_in_frontier_set),
        depth(lean ? 0 : positions),
        bounded(lean ? positions : 0),
        bounds(positions),
        pending_wins(positions),
        terminal_later(positions),
        pending(pairs),
        deferred(positions),
        later_pending(positions),
        later_bounds(positions),
        passes(with_passes ? positions : 0),
        frontier_pairs(pairs),
        next_pairs(pairs),
        frontier_words(positions / 64),
        frontier_count(pairs) {}

  [[nodiscard]] BitSet& next() { return next_in_frontier ? frontier : own_next; }
  [[nodiscard]] const BitSet& next() const { return next_in_frontier ? frontier : own_next; }
};

// A position with an e.p. right (an entry of the storage index's e.p. section). Its moves are
// those of its base, the same men without the right, and its e.p. captures, which leave the
// table: its value follows from its base's and from those captures, and it is decided when they
// decide it (WordSolver::settle_ep). Its only predecessors are the positions before the double
// step, which reach it instead of the base.
//
// Its positions are 64-bit layout positions (retro/ep_positions.hpp): a 6-man table with pawns of
// both colours has more than 2^32 positions per side (KRPkrp: 1806 king pairs * 64 * 48 * 48
// words * 64 = 17 G), and the e.p. nodes of its king pairs from 455 on stand above 2^32.
struct EpNode {
  enum class State : uint8_t { Open, Won, Lost };

  uint64_t base = 0;          // the base's position (identical men in ascending square order)
  uint64_t before = 0;        // the position before the step, the same way (for_each_labelling: the others)
  bool before_inside = true;  // it lies in the slice (ep_positions.hpp)
  bool valid = false;         // the entry holds a position
  bool base_moves = true;     // the base has a legal move
  State state = State::Open;
  bool first = false;       // decided in the first phase
  bool base_first = false;  // its base was decided in the first phase
  int depth = 0;
  int due = -1;       // the depth at which a loss decided early joins the frontier
  int pending = -1;   // the depth of a win through an e.p. capture
  ExitSummary exits;  // the e.p. captures, for the current phase
};

// One file slice (indexing/word_layout.hpp) as the solver works on it: per side to move its
// valid and undecided positions, those decided in the first phase and every depth, and the e.p.
// nodes whose base lies in it. A slice is solved whole before the next one is set up: no move
// inside the table leaves it.
struct SliceSets {
  SliceSets(const indexing::IndexScheme& scheme, const indexing::PawnSlice& slice,
            std::span<const SolvePhase> p)
      : layout(scheme, slice), phases(p) {
    for (size_t f = 0; f < std::min<size_t>(2, phases.size()); ++f)
      decided_value[1 - f] = {phases[f].loss, phases[f].win};
  }

  indexing::WordLayout layout;
  std::span<const SolvePhase> phases;
  std::array<std::unique_ptr<Side>, 2> sides;
  std::unique_ptr<DepthRecords> records;            // the lean path's decided plies
  std::array<std::vector<EpNode>, 2> ep;            // by side to move
  std::array<std::vector<uint64_t>, 2> ep_entries;  // the e.p. entry of each node, ascending
  // The value of a decided position by [decided in the first phase][depth parity]: the phase's
  // loss at even depths, its win at odd ones.
  std::array<std::array<Lasker, 2>, 2> decided_value{};

  [[nodiscard]] const Side& side(Color c) const { return *sides[static_cast<size_t>(to_index(c))]; }

  // The node of side c's e.p. entry j, which lies in this slice.
  [[nodiscard]] const EpNode& ep_node(Color c, uint64_t j) const {
    const auto& entries = ep_entries[static_cast<size_t>(to_index(c))];
    const auto at = std::lower_bound(entries.begin(), entries.end(), j);
    if (at == entries.end() || *at != j) throw std::logic_error("an e.p. position outside its slice");
    return ep[static_cast<size_t>(to_index(c))][static_cast<size_t>(at - entries.begin())];
  }

  // The score of layout position p of side c (not on the lean path, whose slices are packed).
  [[nodiscard]] Score score(Color c, uint64_t p) const {
    return Score::from_raw(Word(*this, c, p / 64).raw(static_cast<size_t>(p % 64)));
  }
  // The scores of one word's positions of one side (not on the lean path), read a position at a
  // time from the word's sets and depth bytes, which are read from memory once. Without a branch
  // on what the position holds (none, undecided, decided in either phase, at either parity), which
  // varies from bit to bit: the decided score is chosen from the depth's parity and the phase, then
  // replaced by a draw where the position is undecided and by invalid where it holds none; only a
  // depth set aside (Depths::Aside, rare) is read from the depths on a branch of its own.
  // Example: a byte of 7 decided in the first phase gives (the first phase's win, 7); the same
  // byte undecided, a draw.
  class Word {
  public:
    Word(const SliceSets& sets, Color c, uint64_t word)
        : sets_(&sets),
          side_(&sets.side(c)),
          word_(word),
          open_(side_->undecided.words()[word]),
          // empty until the first phase ends (and when it does not run): no position decided
          first_(side_->first_decided.words().empty() ? 0 : side_->first_decided.words()[word]),
          bytes_(side_->depth.word_bytes(word)) {}

    // The raw score of the position of bit k, score()'s.
    [[nodiscard]] uint16_t raw(size_t k) const {
      const uint16_t byte = bytes_[k];
      const auto in_first = static_cast<size_t>((first_ >> k) & 1);
      if (byte == Depths::Aside && !((open_ >> k) & 1)) [[unlikely]]
        return sets_->decided_score(in_first != 0, side_->depth.get(word_ * 64 + k)).raw();
      const auto decided =
          static_cast<uint16_t>(to_index(sets_->decided_value[in_first][byte & 1u]) | byte << 3);
      // All ones where the position is undecided, where it is none.
      const auto undecided = static_cast<uint16_t>(-static_cast<uint16_t>((open_ >> k) & 1));
      const auto none = static_cast<uint16_t>(-static_cast<uint16_t>(byte == Depths::Invalid));
      const auto raw = static_cast<uint16_t>((decided & ~undecided) | (DrawCode & undecided));
      return static_cast<uint16_t>((raw & ~none) | (InvalidCode & none));
    }

  private:
    static constexpr uint16_t DrawCode = Score::draw().raw();
    static constexpr uint16_t InvalidCode = Score::invalid().raw();
    const SliceSets* sets_;
    const Side* side_;
    uint64_t word_;
    Bitboard open_, first_;
    const uint8_t* bytes_;
  };
  // The raw scores of the 64 positions of `word` of side c, score()'s, into out[0..63]: a word's
  // sets and depth bytes read once (packing a slice asks for all of its positions).
  void word_scores(Color c, uint64_t word, uint16_t* out) const {
    if (records) {
      lean_word_scores(c, word, out);
      return;
    }
    const Word w(*this, c, word);
    for (size_t k = 0; k < 64; ++k) out[k] = w.raw(k);
  }
  // word_scores on the lean path: from the depths of the word's pair slot, rebuilt from the
  // records once per slot and thread (the packing asks for a slot's words in a row). A position
  // with no record is a draw when still undecided, else no position: every valid position starts
  // undecided and leaves it only to be recorded. Example: bit k of the word undecided, code k
  // NotDecided: a draw; both not: invalid (say, the kings adjacent).
  void lean_word_scores(Color c, uint64_t word, uint16_t* out) const {
    struct Rebuilt {
      uint64_t records = ~uint64_t{0};
      Color c = Color::White;
      uint64_t slot = 0;
      std::vector<uint16_t> codes;
    };
    thread_local Rebuilt rebuilt;
    const uint64_t slot = layout.slot_of(word);
    if (rebuilt.records != records->id() || rebuilt.c != c || rebuilt.slot != slot) {
      rebuilt.records = ~uint64_t{0};
      rebuilt.codes.resize(static_cast<size_t>(layout.pair_words() * 64));
      records->rebuild(c, static_cast<size_t>(slot), rebuilt.codes);
      rebuilt = {records->id(), c, slot, std::move(rebuilt.codes)};
    }
    const Bitboard open = side(c).undecided.words()[word];
    const uint16_t* codes = rebuilt.codes.data() + (word - slot * layout.pair_words()) * 64;
    for (uint64_t k = 0; k < 64; ++k) {
      const uint16_t code = codes[k];
      if (code == DepthRecords::NotDecided)
        out[k] = (open >> k) & 1 ? Score::draw().raw() : Score::invalid().raw();
      else
        out[k] =
            decided_score((code & DepthRecords::FirstPhase) != 0, code & ~DepthRecords::FirstPhase).raw();
    }
  }
  [[nodiscard]] Score ep_score(const EpNode& e) const {
    if (!e.valid) return Score::invalid();
    if (e.state == EpNode::State::Open) return Score::draw();
    return decided_score(e.first, e.depth);
  }
  // A position decided in the first phase or the second at `depth` (odd for wins).
  [[nodiscard]] Score decided_score(bool first, int depth) const {
    return Score(decided_value[first][static_cast<size_t>(depth & 1)], depth);
  }
};

// A solved slice: the scores of its layout positions. A table of one slice keeps them as the

}  // namespace egtb::retro
