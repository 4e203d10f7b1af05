// Reading a solution (solver.hpp) in the order of a storage index: the runs of the index
// (IndexScheme::for_each_run) located among the solved slices (solved_slice.hpp) by RunPositions, so
// that a table is written a range of entries at a time (Solution::fill).
#include <algorithm>
#include <array>
#include <optional>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "retro/solved_slice.hpp"
#include "retro/solver.hpp"

namespace egtb::retro {

using Men = indexing::IndexScheme::Men;

Solution::Solution(std::unique_ptr<Sets> sets) : sets_(std::move(sets)) {}
Solution::~Solution() = default;

const indexing::IndexScheme& Solution::scheme() const { return sets_->scheme; }
Rules Solution::rules() const { return sets_->rules; }
MetricSet Solution::metrics() const { return sets_->metrics; }
size_t Solution::slices() const { return sets_->slices.size(); }

namespace {

// Where the entries of the runs of a storage scheme (IndexScheme::for_each_run) lie among the
// solved slices. Within a run only the run man moves: in a table solved whole, or when the run
// man is not a digit pawn (a piece, or the layout's innermost man: WordLayout), its entries lie in
// one slice a position step apart (one word_of per run). Example: KQkpp in "Kk Q pp" by 20 file
// slices, a run is the queen's squares with the pawns fixed, the bits of one word. When the run
// man is a digit pawn of a sliced table its square chooses the slice, so each square's slice and
// position is kept and carried to the next run by the one piece that moved between them (KRPkr in
// "Kk R r P" by 24 placement slices: a run is the pawn's 48 squares in 24 slices, and the next run
// moves the black rook a square, one step in each). A run that moves a king, a pawn or two men
// starts afresh. A storage order without a run man (KPPPk's "PPP Kk", the king pair innermost) has
// each entry a run of its own (unless gathered: Solution::gather), located once from the caller's
// men (not from a copy of them: copying the men just decoded, a store read back wider than it was
// written, took 15% of KPPkp's writing whole in "Kk p PP" before its black pawn became the run man).
class RunPositions {
public:
  RunPositions(const Solution::Sets& sets, const indexing::IndexScheme& scheme)
      : sets_(sets),
        scheme_(scheme),
        step_(scheme.run_man()),
        one_slice_(step_ != 0 && (sets.slices.size() == 1 || !is_pawn(step_) ||
                                  step_ == sets.solved.front().layout().inner())),
        packed_(sets.scratch != nullptr),
        shared_steps_(pieces_step_alike()),
        kept_words_(one_slice_ && !packed_ && step_ == sets.solved.front().layout().inner()) {}

  void start(const Men& run) {
    if (one_slice_ || step_ == 0) run_ = locate(run);
    if (step_ == 0) return;
    if (!one_slice_) follow(run);
    men_ = run;
  }

  // The raw score of side c of the run's entry with the run man on s: a packed slice's through
  // a hold, of that square (of the run, when its entries lie in one slice; of the chunk, when
  // each entry is a run of its own).
  uint16_t raw_score(Color c, Square s) {
    const Where where = at(s);
    if (!packed_) return where.slice->score(c, where.position).raw();
    SolvedSlice::Hold& hold = step_ == 0   ? holds_[hold_slot(where, c)]
                              : one_slice_ ? run_hold_
                                           : square_holds_[static_cast<size_t>(to_index(s))];
    if (!hold.holds(where.slice, c, where.position)) hold = where.slice->hold(c, where.position);
    return hold.raw(where.position);
  }

  // Whether fill_words reads the runs: a table solved whole, kept in memory, whose run man is its
  // layout's innermost man, so that each run is the bits of one word.
  [[nodiscard]] bool reads_words() const { return kept_words_; }
  // Writes the scores of side c of the storage entries [first, end) (normal entries) into out
  // (out[0] for entry first), each run's from its word (SliceSets::Word): its sets and depth bytes
  // read once, and each entry's score from them without a branch on its value. Example: KRPPk in
  // "Kk R PP", a run is the rook's squares with the pawns fixed, some 30 of its 62 entries in a
  // block of 32,768 (the run's entries lie 1,128 apart); reading the whole word's 64 scores for
  // them took 36% of the CPU time of writing the table.
  void fill_words(Color c, indexing::Index first, indexing::Index end, std::span<uint16_t> out) const {
    const SolvedSlice& slice = sets_.solved.front();
    std::optional<SliceSets::Word> word;
    scheme_.for_each_run(
        first, end, [&](const Men& run) { word.emplace(slice.kept_word(c, locate(run).position / 64)); },
        [&](indexing::Index i, Square s) { out[i - first] = word->raw(static_cast<size_t>(to_index(s))); });
  }

private:
  struct Where {
    const SolvedSlice* slice = nullptr;
    uint64_t position = 0;
  };

  // The run's entry with the run man on s.
  Where at(Square s) {
    const auto step = static_cast<size_t>(step_);
    if (one_slice_)
      return {run_.slice, run_.position + static_cast<uint64_t>(run_.slice->layout().position_step(
                                              step_, men_.squares[step], s))};
    if (step_ == 0) return run_;
    Where& where = by_square_[static_cast<size_t>(to_index(s))];
    if (!contains(known_, s)) {
      men_.squares[step] = s;
      where = locate(men_);
      where.position -= base_;
      known_ |= square_bb(s);
    }
    return {where.slice, where.position + base_};
  }

  // The slot of holds_ for the chunk of `where` of side c: its slice, side and chunk number hashed
  // (Fibonacci hashing: times 2^64 / golden ratio, the top bits).
  [[nodiscard]] size_t hold_slot(const Where& where, Color c) const {
    const auto slice = static_cast<uint64_t>(where.slice - sets_.solved.data());
    const uint64_t key = ((where.position / SolvedSlice::ChunkEntries * sets_.solved.size() + slice) << 1) |
                         static_cast<uint64_t>(to_index(c));
    return static_cast<size_t>(key * 0x9E3779B97F4A7C15 >> (64 - HoldBits));
  }

  [[nodiscard]] bool is_pawn(int j) const { return type_of(scheme_.man_piece(j)) == PieceType::Pawn; }

  // True when a move of a piece (not a king, not a pawn) steps the positions of every slice alike.
  // A piece's digit is its square (WordLayout::digit), so a step of one square per piece tells.
  // Example: KRPkr's 24 placement slices differ only in the pawn's square, and a rook's move from
  // a1 to b1 adds the same in each; follow() then moves one base for all 48 of a run's squares.
  [[nodiscard]] bool pieces_step_alike() const {
    for (int j = 2; j < scheme_.man_count(); ++j) {
      if (is_pawn(j)) continue;
      const int64_t step = sets_.solved.front().layout().position_step(j, Square::A1, Square::B1);
      for (const SolvedSlice& slice : sets_.solved)
        if (slice.layout().position_step(j, Square::A1, Square::B1) != step) return false;
    }
    return true;
  }

  [[nodiscard]] Where locate(const Men& men) const {
    const indexing::PawnSlices::Place place = sets_.slices.place_of(men);
    const SolvedSlice& slice = sets_.solved[place.slice];
    return {&slice, slice.layout().position_of(men, place.variant)};
  }

  // Carries the kept squares' positions to `run`, or forgets them.
  void follow(const Men& run) {
    int moved = -1;
    for (int j = 0; j < scheme_.man_count(); ++j) {
      const auto k = static_cast<size_t>(j);
      if (j == step_ || run.squares[k] == men_.squares[k]) continue;
      if (moved >= 0 || j < 2 || is_pawn(j)) {
        known_ = 0;
        return;
      }
      moved = j;
    }
    if (moved < 0) return;
    const auto k = static_cast<size_t>(moved);
    if (shared_steps_) {
      base_ += static_cast<uint64_t>(
          sets_.solved.front().layout().position_step(moved, men_.squares[k], run.squares[k]));
      return;
    }
    for (Bitboard b = known_; b; b &= b - 1) {
      Where& w = by_square_[static_cast<size_t>(to_index(lsb(b)))];
      w.position +=
          static_cast<uint64_t>(w.slice->layout().position_step(moved, men_.squares[k], run.squares[k]));
    }
  }

  const Solution::Sets& sets_;
  const indexing::IndexScheme& scheme_;
  const int step_;
  const bool one_slice_;
  const bool packed_;        // every slice packed: a table of several
  const bool shared_steps_;  // pieces_step_alike()
  // A table solved whole, kept in memory, whose run man is its layout's innermost man: each run
  // is the bits of one word, whose sets and depth bytes fill_words reads once (SliceSets::Word),
  // rather than each entry's through score(). Example: KQRkr in "Kk Q R r", a run is the
  // black rook's squares with the other men fixed: 64 scores read together, some 60 of them written.
  const bool kept_words_;
  Men men_;
  Where run_;
  // The kept squares' slices and positions, less base_: with shared steps the move between two
  // runs adds to base_ alone, else to each kept position (base_ stays 0).
  std::array<Where, 64> by_square_{};
  uint64_t base_ = 0;
  Bitboard known_ = 0;
  SolvedSlice::Hold run_hold_;
  std::array<SolvedSlice::Hold, 64> square_holds_{};
  // Holds by chunk (hold_slot), for entries located one by one: KPPPk in "PPP Kk" by 20 file
  // slices reads chunks of many pair slots in turn (consecutive entries move its kings), and one
  // hold for all would miss at nearly every entry.
  static constexpr int HoldBits = 8;
  std::array<SolvedSlice::Hold, size_t{1} << HoldBits> holds_{};
};

// The squares of the layout's innermost man on which the men of a word (WordLayout::decode: every
// man but the innermost) form a position that a storage entry reads (RunPositions::locate): no two
// men on one square, and identical men in ascending order of their squares, as IndexScheme::men_at
// gives them. The layout holds every order of identical men (WordLayout), each with the position's
// score; taking one order, Solution::gather writes each entry once.
// Example, KPPPk (men K k P P P, the third pawn innermost) in a file slice: the word of pawns on a3
// and c5 has the innermost pawn's squares after c5 (c5 itself left out), the word of pawns on c5
// and a3 none.
Bitboard read_squares(const indexing::WordLayout& layout, const Men& men) {
  const int inner = layout.inner();
  Bitboard squares =
      type_of(layout.man_piece(inner)) == PieceType::Pawn ? ~(Rank1BB | Rank8BB) : ~Bitboard{0};
  Bitboard occupied = 0;
  for (int j = 0; j < layout.man_count(); ++j) {
    if (j == inner) continue;
    const Square s = men.squares[static_cast<size_t>(j)];
    if (contains(occupied, s)) return 0;
    occupied |= square_bb(s);
  }
  for (int j = 3; j < layout.man_count(); ++j) {
    if (layout.man_piece(j) != layout.man_piece(j - 1)) continue;
    const Square before = men.squares[static_cast<size_t>(j - 1)];
    const Square after = men.squares[static_cast<size_t>(j)];
    if (j == inner)
      squares &= ~((square_bb(before) << 1) - 1);  // above `before`
    else if (j - 1 == inner)
      squares &= square_bb(after) - 1;  // below `after`
    else if (to_index(before) > to_index(after))
      return 0;
  }
  return squares & ~occupied;
}

// Writes the scores of side c of a packed slice into `out`, the normal entries of `storage`.
void gather_slice(const SolvedSlice& slice, const indexing::IndexScheme& storage, Color c,
                  std::span<uint16_t> out) {
  const indexing::WordLayout& layout = slice.layout();
  slice.for_each_chunk(c, [&](uint64_t first, std::span<const uint16_t> raw) {
    std::array<Square, 64> squares;
    std::array<indexing::Index, 64> entries;
    for (size_t w = 0; w < raw.size(); w += 64) {
      Men men;
      layout.decode((first + w) / 64, men);
      int n = 0;
      for (Bitboard b = read_squares(layout, men); b; b &= b - 1)
        if (raw[w + static_cast<size_t>(to_index(lsb(b)))] != Score::invalid().raw())
          squares[static_cast<size_t>(n++)] = lsb(b);
      storage.index_of_squares(men, layout.inner(), squares.data(), n, entries.data());
      for (int k = 0; k < n; ++k)
        out[entries[static_cast<size_t>(k)]] =
            raw[w + static_cast<size_t>(to_index(squares[static_cast<size_t>(k)]))];
    }
  });
}

}  // namespace

bool Solution::gather(const indexing::IndexScheme& storage, uint64_t max_bytes, int threads) {
  if (gathered_order_ == storage.order()) return true;
  gathered_order_.reset();
  gathered_ = {};
  const indexing::Index entries = storage.normal_size();
  if (!sets_->scratch || sets_->solved.size() < 2 || storage.run_man() != 0 || 4 * entries > max_bytes)
    return false;
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  for (Color c : {Color::White, Color::Black}) {
    auto& out = gathered_[static_cast<size_t>(to_index(c))];
    out.assign(static_cast<size_t>(entries), Score::invalid().raw());
    arena.execute([&] {
      tbb::parallel_for(size_t{0}, sets_->solved.size(),
                        [&](size_t k) { gather_slice(sets_->solved[k], storage, c, out); });
    });
  }
  gathered_order_ = storage.order();
  return true;
}

void Solution::fill(const indexing::IndexScheme& scheme, Color c, indexing::Index first,
                    std::span<uint16_t> out) const {
  std::fill(out.begin(), out.end(), Score::invalid().raw());
  const indexing::Index end = first + out.size();
  const indexing::Index normal_end = std::min(end, scheme.normal_size());
  if (gathered_order_ == scheme.order()) {
    const auto& gathered = gathered_[static_cast<size_t>(to_index(c))];
    if (first < normal_end)
      std::copy(gathered.begin() + static_cast<ptrdiff_t>(first),
                gathered.begin() + static_cast<ptrdiff_t>(normal_end), out.begin());
  } else if (RunPositions positions(*sets_, scheme); positions.reads_words()) {
    positions.fill_words(c, first, normal_end, out);
  } else {
    scheme.for_each_run(
        first, normal_end, [&](const Men& run) { positions.start(run); },
        [&](indexing::Index i, Square s) { out[i - first] = positions.raw_score(c, s); });
  }
  const auto& ep = sets_->ep_scores[static_cast<size_t>(to_index(c))];
  for (indexing::Index i = std::max(first, scheme.normal_size()); i < end; ++i)
    out[i - first] = ep[static_cast<size_t>(i - scheme.normal_size())];
}

std::shared_ptr<Table> to_table(const Solution& solution) {
  auto table = std::make_shared<Table>(solution.scheme().material(), solution.rules(), solution.metrics());
  for (Color c : {Color::White, Color::Black}) solution.fill(table->scheme(), c, 0, table->raw(c));
  return table;
}

}  // namespace egtb::retro
