// The moves out of a table solved in slices into its paged subtables (retro/subtables.hpp), scored
// for every slice in one pass, king pair by king pair, before the first slice is solved.
//
// Why: the children of one slice's promotions spread over every block of a paged subtable, so a
// table whose slices each score their own read every block of every paged subtable once a slice:
// KQPkp's 32 file slices took 4 times the CPU time of its whole solve, most of it decoding the
// same blocks of KQQkp, KQPkq, ... again. In one pass the blocks a king pair's children lie in are
// read once for the positions of that king pair in every slice, as a whole solve reads them.
//
// What is kept, in a scratch file (KQPkp: 186 MB, which a slice at a time reads back): for each
// slice, side to move and king pair, the words that have such a move, ascending, each with its
// summary for each phase solved (WordExitSummary's four bit sets) and the depths of its `win` and
// `bound` bits in bit order. Example: word 163 of slice 0 with White to move, whose positions of
// bits 3 and 9 promote into KQQkp, bit 9 into a child the opponent loses at depth 6 in the first
// phase: moves = escape = bits 3 and 9, win = bit 9, and the depths {7}. A slice's seeding adds
// these to what it scores itself (ExitChildren::Unpaged).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "egtb/core/bitboard.hpp"
#include "indexing/word_layout.hpp"
#include "retro/scratch_file.hpp"
#include "retro/word_exits.hpp"

namespace egtb::retro {

class PagedExits {
public:
  // Scores the moves into paged subtables of the legal positions of every slice of `slices` for
  // `phases` (at most two, as WordSolver's first phase files them), visiting the king pairs in
  // `pair_order` (a permutation of the king pairs) in parallel, into a scratch file in
  // `directory`. Throws IoError when the file cannot be written (a full disk).
  PagedExits(const indexing::IndexScheme& scheme, const indexing::PawnSlices& slices, const ExitTables& exits,
             std::span<const PhaseValues> phases, std::span<const uint32_t> pair_order,
             const std::filesystem::path& directory);

  // A word's summaries: moves, escape, win and bound of each phase, and where its depths begin.
  struct Word {
    uint64_t word = 0;
    uint64_t first_depth = 0;
    std::array<std::array<Bitboard, 4>, 2> sets{};
  };

  // The summaries of one slice, read back into memory.
  class Slice {
  public:
    // Adds to out[k] (the summaries of phase k of the positions `bits` of word `word` with c to
    // move, scored without these moves) those of these moves.
    void add(Color c, uint64_t word, Bitboard bits, std::span<WordExitSummary> out) const;

  private:
    friend class PagedExits;
    // One side to move: its words ascending, where each pair slot's begin, the depths.
    struct Part {
      std::vector<Word> words;
      std::vector<uint32_t> slot_begin;  // pair slots + 1 entries
      std::vector<uint16_t> depths;
    };
    std::array<Part, 2> parts_;
    uint64_t pair_words_ = 1;
    size_t phases_ = 1;
  };
  [[nodiscard]] Slice slice(size_t k) const;

private:
  // Where one king pair's words of one slice and side to move lie in the file: `words` Word
  // records, then `depths` depths.
  struct Segment {
    uint64_t offset = 0;
    uint32_t words = 0;
    uint32_t depths = 0;
  };
  ScratchFile file_;
  size_t phases_;
  std::vector<uint64_t> pair_words_;            // by slice
  std::vector<uint64_t> pair_slots_;            // by slice
  std::vector<std::vector<Segment>> segments_;  // by slice * 2 + side to move, by king pair
};

}  // namespace egtb::retro
