#include "retro/paged_exits.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "retro/word_moves.hpp"

namespace egtb::retro {

namespace {

using Word = PagedExits::Word;

// What the pass scores one slice with.
struct SliceScorer {
  indexing::WordLayout layout;
  WordMoves moves;
  WordExits exits;
  uint64_t variants;
  // By side to move: whether a capture leads into a paged subtable (else only promotions do),
  // and whether the innermost man is a pawn of that side.
  std::array<bool, 2> captures_page, inner_pawn;

  SliceScorer(const indexing::IndexScheme& scheme, const indexing::PawnSlice& slice, const ExitTables& tables)
      : layout(scheme, slice),
        moves(layout),
        exits(layout, scheme, tables, nullptr, ExitChildren::Paged),
        variants(layout.pair_slots() / static_cast<uint64_t>(layout.kings().size)) {
    for (Color c : {Color::White, Color::Black}) {
      captures_page[static_cast<size_t>(to_index(c))] = tables.pages_captures(c);
      inner_pawn[static_cast<size_t>(to_index(c))] =
          layout.man_piece(layout.inner()) == make_piece(c, PieceType::Pawn);
    }
  }
  // The positions of word w that may have a move into a paged subtable with c to move: all of
  // them where a capture leads into one or a pawn of c besides the innermost man stands on its
  // 7th rank, else those with the innermost man a pawn of c on its 7th, else none. Example, KPPkp
  // (5 men: only promotions lead into paged tables; the innermost man is the black pawn) with the
  // white pawns on b5 and c6: none with White to move, those with the black pawn on rank 2 with
  // Black to move.
  [[nodiscard]] Bitboard may_page(const WordMen& w, Color c) const {
    const auto side = static_cast<size_t>(to_index(c));
    const Bitboard seventh = word_detail::relative_rank_bb(c, 6);
    if (captures_page[side] || (w.pawns[side] & seventh)) return ~Bitboard{0};
    return inner_pawn[side] ? seventh : 0;
  }
};

// The words of one king pair, slice and side to move found by the pass.
struct Found {
  std::vector<Word> words;
  std::vector<uint16_t> depths;

  // Appends the summaries `out` of word `word`.
  void append(uint64_t word, std::span<const WordExitSummary> out) {
    Word w{word, depths.size(), {}};
    for (size_t k = 0; k < out.size(); ++k) {
      const WordExitSummary& o = out[k];
      w.sets[k] = {o.moves, o.escape, o.win, o.bound};
      for (Bitboard b = o.win; b;)
        depths.push_back(static_cast<uint16_t>(o.win_depth[static_cast<size_t>(to_index(pop_lsb(b)))]));
      for (Bitboard b = o.bound; b;)
        depths.push_back(static_cast<uint16_t>(o.loss_bound[static_cast<size_t>(to_index(pop_lsb(b)))]));
    }
    words.push_back(w);
  }
};

// Sets depths[i] of the bits i of `from` that `bits` holds to `depth` (the next of `next` each), or
// to better(depths[i], depth) where `set` has them already.
template <class Better>
void add_depths(Bitboard from, Bitboard bits, const uint16_t*& next, Bitboard& set,
                std::array<int, 64>& depths, Better better) {
  for (Bitboard b = from; b;) {
    const Square sq = pop_lsb(b);
    const int depth = *next++;
    if (!contains(bits, sq)) continue;
    int& to = depths[static_cast<size_t>(to_index(sq))];
    to = contains(set, sq) ? better(to, depth) : depth;
    set |= square_bb(sq);
  }
}

}  // namespace

PagedExits::PagedExits(const indexing::IndexScheme& scheme, const indexing::PawnSlices& slices,
                       const ExitTables& exits, std::span<const PhaseValues> phases,
                       std::span<const uint32_t> pair_order, const std::filesystem::path& directory)
    : file_(directory, "the moves into paged subtables"),
      phases_(phases.size()),
      segments_(2 * slices.size(), std::vector<Segment>(pair_order.size())) {
  if (phases_ == 0 || phases_ > 2)
    throw std::logic_error("paged exits scored for other phases than the solver's");
  std::vector<std::unique_ptr<SliceScorer>> scorers;
  for (size_t k = 0; k < slices.size(); ++k) {
    scorers.push_back(std::make_unique<SliceScorer>(scheme, slices[k], exits));
    pair_words_.push_back(scorers.back()->layout.pair_words());
    pair_slots_.push_back(scorers.back()->layout.pair_slots());
  }
  const uint64_t pairs = pair_order.size();
  tbb::parallel_for(tbb::blocked_range<size_t>(0, pairs, 1), [&](const tbb::blocked_range<size_t>& r) {
    WordMen w;
    std::array<WordExitSummary, 2> out;
    for (size_t i = r.begin(); i != r.end(); ++i) {
      const uint32_t pair = pair_order[i];
      std::vector<Found> found(segments_.size());
      for (size_t k = 0; k < scorers.size(); ++k) {
        const SliceScorer& s = *scorers[k];
        for (Color c : {Color::White, Color::Black}) {
          Found& f = found[2 * k + static_cast<size_t>(to_index(c))];
          for (uint64_t v = 0; v < s.variants; ++v) {
            const uint64_t slot = v * pairs + pair;
            for (uint64_t word = slot * pair_words_[k]; word != (slot + 1) * pair_words_[k]; ++word) {
              s.moves.decode(word, w);
              const Bitboard may = s.may_page(w, c);
              if (!may) continue;
              const Bitboard bits = may & s.moves.valid(w, c) & s.moves.exit_candidates(w, c);
              if (!bits) continue;
              s.exits.summarize(w, c, bits, phases, std::span(out).first(phases_));
              if (out[0].moves) f.append(word, std::span(out).first(phases_));
            }
          }
        }
      }
      // The pair's words of every slice and side, one after the other, in one write.
      std::vector<uint8_t> buffer;
      std::vector<Segment> at(found.size());
      for (size_t p = 0; p < found.size(); ++p) {
        at[p] = {buffer.size(), static_cast<uint32_t>(found[p].words.size()),
                 static_cast<uint32_t>(found[p].depths.size())};
        const auto* words = reinterpret_cast<const uint8_t*>(found[p].words.data());
        const auto* depths = reinterpret_cast<const uint8_t*>(found[p].depths.data());
        buffer.insert(buffer.end(), words, words + found[p].words.size() * sizeof(Word));
        buffer.insert(buffer.end(), depths, depths + found[p].depths.size() * sizeof(uint16_t));
      }
      const uint64_t offset = file_.append(buffer);
      for (size_t p = 0; p < found.size(); ++p)
        segments_[p][pair] = {offset + at[p].offset, at[p].words, at[p].depths};
    }
  });
}

PagedExits::Slice PagedExits::slice(size_t k) const {
  Slice out;
  out.pair_words_ = pair_words_[k];
  out.phases_ = phases_;
  for (size_t c = 0; c < 2; ++c) {
    Slice::Part& part = out.parts_[c];
    std::vector<uint8_t> buffer;
    for (const Segment& s : segments_[2 * k + c]) {
      if (s.words == 0) continue;  // no depths either
      const size_t first_word = part.words.size();
      const uint64_t first_depth = part.depths.size();
      part.words.resize(first_word + s.words);
      part.depths.resize(first_depth + s.depths);
      buffer.resize(s.words * sizeof(Word) + s.depths * sizeof(uint16_t));
      file_.read(s.offset, buffer);
      std::memcpy(part.words.data() + first_word, buffer.data(), s.words * sizeof(Word));
      if (s.depths > 0)
        std::memcpy(part.depths.data() + first_depth, buffer.data() + s.words * sizeof(Word),
                    s.depths * sizeof(uint16_t));
      for (size_t j = first_word; j < part.words.size(); ++j) part.words[j].first_depth += first_depth;
    }
    // The king pairs' words interleave by pair slot (variant * pairs + pair): sorted, and indexed by slot.
    std::sort(part.words.begin(), part.words.end(),
              [](const Word& a, const Word& b) { return a.word < b.word; });
    part.slot_begin.assign(static_cast<size_t>(pair_slots_[k]) + 1, 0);
    for (const Word& word : part.words)
      ++part.slot_begin[static_cast<size_t>(word.word / out.pair_words_) + 1];
    for (size_t s = 1; s < part.slot_begin.size(); ++s) part.slot_begin[s] += part.slot_begin[s - 1];
  }
  return out;
}

void PagedExits::Slice::add(Color c, uint64_t word, Bitboard bits, std::span<WordExitSummary> out) const {
  if (out.size() > phases_) throw std::logic_error("paged exits asked for a phase not scored");
  const Part& part = parts_[static_cast<size_t>(to_index(c))];
  const auto slot = static_cast<size_t>(word / pair_words_);
  const auto first = part.words.begin() + part.slot_begin[slot];
  const auto last = part.words.begin() + part.slot_begin[slot + 1];
  const auto at = std::lower_bound(first, last, word, [](const Word& w, uint64_t x) { return w.word < x; });
  if (at == last || at->word != word) return;
  const uint16_t* next = part.depths.data() + at->first_depth;
  for (size_t k = 0; k < out.size(); ++k) {
    const auto& [moves, escape, win, bound] = at->sets[k];
    WordExitSummary& o = out[k];
    o.moves |= moves & bits;
    o.escape |= escape & bits;
    add_depths(win, bits, next, o.win, o.win_depth, [](int a, int b) { return std::min(a, b); });
    add_depths(bound, bits, next, o.bound, o.loss_bound, [](int a, int b) { return std::max(a, b); });
  }
}

}  // namespace egtb::retro
