// The solver's generation index: the positions of one material signature (per side to move)
// grouped 64 to a machine word, so that the retrograde solver moves sets of positions with a few
// bitboard operations instead of one position at a time. The storage index (index.hpp) is what
// table files use; the solver converts its results into it when it finishes.
//
// A position is a word and a bit: position = word * 64 + bit. The bit is the square of one man,
// the innermost (the last piece in the scheme's man order, or the last pawn when the table has no
// piece besides the kings); the word holds the king pair and a digit for every other man:
//
//   word = pair * pair_words + Σ digit(man) * stride(man)
//
//   pair    the king pair, numbered as in kk_map.hpp (462 without pawns, 1806 with pawns);
//   digit   a piece's square 0 ... 63, a pawn's square less 8 (a2 = 0 ... h7 = 47);
//   stride  the product of the radices (64 or 48) of the digits after it, the last digit's 1.
//
// Unlike the storage index, squares are not ranked among the free ones and identical men are not
// merged: a word may hold men that overlap (no position), two rooks appear in both orders, and
// both mirror images of a position whose kings share the a1-h8 diagonal have their own word. In
// exchange a man's move changes one digit by the difference of two squares, and the moves of the
// innermost man stay inside one word.
//
// Example, KQRkr (men K k Q R r, innermost r, strides Q 64 and R 1, 4096 words per pair): Ka1 kc1
// is pair 0, Qd4 and Rh1 are the digits 27 and 7, so the word is 0 * 4096 + 27 * 64 + 7 = 1735,
// and a black rook on e8 is bit 60: position 1735 * 64 + 60 = 111,100. The move Qd4-d5 leads to
// word 1735 + (35 - 27) * 64 = 2247, bit 60 again. KRPkr (men K k R P r, innermost r): the pawn's
// digit has radix 48, so a pair has 64 * 48 words and the rook's stride is 48.
//
// File slices. A pawn moves along its file and leaves the table when it captures or promotes, so
// inside a table only the kings' mirror (a king crossing from the d- to the e-file flips the board
// left to right, kk_map.hpp) changes the files of the pawns. The digit pawns (the pawns that are
// not the innermost man) therefore split a pawn table into independent slices: a slice is a set
// of variants, each a file for every digit pawn, closed under the mirror (file f <-> 7 - f) and
// under exchanging identical pawns, and no move inside the table leaves it. A slice's layout holds
// only its variants, the pawn digits being ranks:
//
//   word = (variant * pairs + pair) * pair_words + Σ digit(man) * stride(man)
//
//   digit   of a digit pawn, its rank less 1 (rank 2 = 0 ... rank 7 = 5), radix 6; its file is the
//           variant's.
//
// The pair slot (variant * pairs + pair) takes the place of the pair. Example, KRPkr: a variant is
// the file of the white pawn, a slice the files {f, 7 - f}: four slices (a/h, b/g, c/f, d/e) of
// two variants, each 2 * 1806 pair slots of 64 * 6 words, a quarter of the table. Ka1 kc1 Rd4 Pb3
// re8 lies in slice b/g, variant b (0): pair 0, word 0 * 384 + 27 * 6 + 1 = 163. KPPkp (digit
// pawns P P, innermost p): 64 file pairs, closed under the mirror and the exchange of the white
// pawns, give 20 slices of two or four variants, and a variant of files (c, c) one of two.
//
// Placement slices. A variant may fix the digit pawns' squares instead of their files: its layout
// then has no digit for them (radix 1), and a digit pawn's step leaves the slice for one where the
// pawn stands further up, which the solver finishes first (pawn-move order, PawnSlices) and reads
// as it reads a subtable. KRPkr: 24 slices of two variants (Pb3 with its mirror Pg3, ...), each a
// 24th of the table: 2 * 1806 pair slots of 64 words; Ka1 kc1 Rd4 Pb3 re8 is word 0 * 64 + 27 = 27
// of slice {b3, g3}, variant b3 (0).
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "egtb/core/symmetry.hpp"
#include "indexing/index.hpp"
#include "indexing/kk_map.hpp"

namespace egtb::indexing {

// Layout positions per side to move, words() * 64, from the material alone (for cost estimates of
// tables too large to lay out): the king pairs times 64 bits times the radix of every other man.
// KQRkr: 462 * 64 * 64 * 64 = 121,110,528; KRPkr: 1806 * 64 * 48 * 64 = 355,074,048 (the rook's
// digit 64, the pawn's 48, the innermost black rook's bit 64); KPPk: 1806 * 48 * 64.
[[nodiscard]] uint64_t layout_positions(const Material& material);

// How a pawn table is split for the solver: not at all, by the files of its digit pawns, by their
// squares (placements), or by placements with the promoting ones joined: the placement slices of
// equal advance in which a digit pawn stands on its 7th rank become one slice. Their promotions
// read the same blocks of the paged subtables, which a slice of its own each reads again: KRPkr's
// four slices of a pawn on the 7th decode blocks of its paged subtables 41,671 times, as the
// subtables' 64 MiB cache holds about 1,000 of the 11,671 they read; joined, 11,671 times, for a
// slice four times the size (KRPkr's peak 230 -> 388 MB).
enum class Slicing : uint8_t { Whole, Files, Placements, PromotionsJoined };

// The digit pawns of a scheme's layout and the key of their files or squares: per digit pawn i
// (in man order) a digit, its file (0 ... 7, base 8) or its square less 8 (a2 = 0 ... h7 = 47,
// base 48), times base^i. Example, KPPkp by placements (digit pawns P P): pawns on b2 and c4 give
// 1 + 18 * 48 = 865; by files, 1 + 2 * 8 = 17.
class DigitPawns {
public:
  explicit DigitPawns(const IndexScheme& scheme, bool placement = false);

  [[nodiscard]] int count() const { return count_; }
  [[nodiscard]] int man(int i) const { return men_[static_cast<size_t>(i)]; }
  [[nodiscard]] bool placement() const { return base_ == 48; }
  // Keys run below base^count().
  [[nodiscard]] uint32_t keys() const { return keys_; }
  [[nodiscard]] uint32_t key(const IndexScheme::Men& men) const;
  [[nodiscard]] int digit(uint32_t key, int i) const { return static_cast<int>(key / power(i) % base_); }
  [[nodiscard]] int file(uint32_t key, int i) const { return digit(key, i) % 8; }
  // The rank (1 ... 6 for rank 2 ... 7) of a placement key's digit pawn i.
  [[nodiscard]] int rank(uint32_t key, int i) const { return digit(key, i) / 8 + 1; }
  // The key with digit pawn i's digit replaced by d.
  [[nodiscard]] uint32_t with_digit(uint32_t key, int i, int d) const {
    return key - static_cast<uint32_t>(digit(key, i)) * power(i) + static_cast<uint32_t>(d) * power(i);
  }
  // The digit of the mirror image (file f <-> 7 - f).
  [[nodiscard]] int mirrored(int d) const { return d - d % 8 + 7 - d % 8; }

private:
  std::array<int, MaxIndexMen> men_{};
  int count_ = 0;
  uint32_t base_ = 8;
  uint32_t keys_ = 1;
  [[nodiscard]] uint32_t power(int i) const {
    uint32_t p = 1;
    for (int k = 0; k < i; ++k) p *= base_;
    return p;
  }
};

// A slice: the keys of its variants. No keys: the whole table.
struct PawnSlice {
  std::vector<uint32_t> keys;
  bool placement = false;  // the keys are placement keys

  // Its variants: a key each, the whole table one.
  [[nodiscard]] size_t variants() const { return keys.empty() ? 1 : keys.size(); }
};

// The slices of a scheme. File slices come in the order of their smallest key; placement slices
// in pawn-move order, every slice after those its pawns' steps lead to: by descending advance (the
// ranks of the white digit pawns plus 7 less those of the black ones), then by smallest key. A
// pawnless table, a table without digit pawns, and one whose innermost man is a pawn identical to
// a digit pawn while it has e.p. positions (exchanging them moves an e.p. position's predecessors
// to another slice) are one slice, the whole table.
class PawnSlices {
public:
  PawnSlices(const IndexScheme& scheme, Slicing slicing);

  [[nodiscard]] size_t size() const { return slices_.size(); }
  [[nodiscard]] const PawnSlice& operator[](size_t s) const { return slices_[s]; }
  // Where men lie: their slice, and their variant in it (their key's place among its keys, as
  // WordLayout numbers them). Example: KPPkp's file slice of keys {1, 8, 55, 62} (white pawns on
  // the a and b files, or the g and h files) holds digit pawns on b2 and a4 (key 1 + 0 * 8 = 1)
  // as its variant 0, and on a4 and b2 (key 8) as its variant 1.
  struct Place {
    size_t slice = 0;
    uint64_t variant = 0;
  };
  [[nodiscard]] Place place_of(const IndexScheme::Men& men) const {
    if (slices_.size() == 1) return {};
    const uint32_t key = pawns_.key(men);
    return {slice_of_key_[key], variant_of_key_[key]};
  }
  // The slice of men of the scheme's material (kings canonical or not).
  [[nodiscard]] size_t slice_of(const IndexScheme::Men& men) const { return place_of(men).slice; }

private:
  DigitPawns pawns_;
  std::vector<PawnSlice> slices_;
  // Slicing::PromotionsJoined: joins the placement slices of equal advance with a digit pawn on
  // its 7th rank, each group where its first one stood.
  void join_promoting(const IndexScheme& scheme);
  std::vector<uint16_t> slice_of_key_;
  std::vector<uint16_t> variant_of_key_;
};

// How a pawn table is sliced when it must be (egtb generate --max-memory, which joins the promoting
// placement slices when the limit allows: retro/cost_model.hpp): by placements when it has one
// digit pawn (KRPkr: 24 slices of a 24th of the table, 405 MB and 34 s against 705 MB and 36 s in
// 4 file slices, both with their finished slices in memory), by files when it has more:
// by placements they would be hundreds of slices (KBPkp 1,152), and every slice with a pawn on
// its 7th rank reads again the paged subtables its promotions lead to (KBPkp 431 s against 136 s
// in 32 file slices). Whole without digit pawns.
[[nodiscard]] Slicing pawn_slicing(const IndexScheme& scheme);

class WordLayout {
public:
  using Men = IndexScheme::Men;

  // The layout of a scheme's material, with the scheme's men (Men holds them in its order): the
  // whole table, or one of its file slices.
  explicit WordLayout(const IndexScheme& scheme, const PawnSlice& slice = {});

  // The innermost man of a scheme's layout.
  [[nodiscard]] static int inner_man(const IndexScheme& scheme);

  [[nodiscard]] int man_count() const { return men_; }
  [[nodiscard]] Piece man_piece(int j) const { return pieces_[static_cast<size_t>(j)]; }
  // The scheme man whose square is the bit.
  [[nodiscard]] int inner() const { return inner_; }
  // Words per side to move, and per pair slot.
  [[nodiscard]] uint64_t words() const { return words_; }
  [[nodiscard]] uint64_t pair_words() const { return pair_words_; }
  // The pair slots: the king pairs of every variant (of the one variant of a whole table).
  [[nodiscard]] uint64_t pair_slots() const { return words_ / pair_words_; }
  // The pair slot of a word: word / pair_words(), by one multiplication where words fit 32 bits.
  [[nodiscard]] uint64_t slot_of(uint64_t word) const {
    return decode_32bit_ ? pair_divisor_.quotient(static_cast<uint32_t>(word)) : word / pair_words_;
  }
  [[nodiscard]] const KkMap& kings() const { return *kings_; }
  [[nodiscard]] bool pawns() const { return kings_->pawns; }
  // The word stride of man j (not a king, not the innermost).
  [[nodiscard]] uint64_t stride(int j) const { return strides_[static_cast<size_t>(j)]; }
  // Man j's digit on square s (not a king, not the innermost; pawns on a2 ... h7 only).
  [[nodiscard]] int digit(int j, Square s) const {
    const int r = radices_[static_cast<size_t>(j)];
    return r == 64 ? to_index(s) : r == 48 ? to_index(s) - 8 : r == 6 ? rank_of(s) - 1 : 0;
  }
  // Man j stays on its square inside the layout: a digit pawn of a placement slice, whose steps
  // lead to other slices.
  [[nodiscard]] bool fixed_in_slice(int j) const { return radices_[static_cast<size_t>(j)] == 1; }
  // Whether men (kings canonical or not) lie in the layout's slice.
  [[nodiscard]] bool holds(const Men& men) const {
    return variant_of_key_.empty() || variant_of_key_[digit_pawns_.key(men)] >= 0;
  }
  // The word difference when man j (not a king, not the innermost) moves from `from` to `to`
  // (along its file, for a pawn).
  [[nodiscard]] int64_t step(int j, Square from, Square to) const {
    return static_cast<int64_t>(strides_[static_cast<size_t>(j)]) * (digit(j, to) - digit(j, from));
  }

  // The position difference when man j (not a king; a pawn along its file) moves from `from` to
  // `to`: the square difference for the innermost man, 64 positions per word step for a digit's
  // man. Example: the innermost man from a1 (0) to c1 (2) adds 2; a whole table's pawn digit of
  // stride s from a2 (digit 0) to a4 (digit 16) adds 64 * 16 * s.
  [[nodiscard]] int64_t position_step(int j, Square from, Square to) const {
    return j == inner_ ? to_index(to) - to_index(from) : 64 * step(j, from, to);
  }

  // The men of a word, the innermost left out: the kings and every digit's man. Returns the word's
  // placement of the digits' men, the same in every king pair: a number below variants *
  // pair_words(). Example: in a layout of one variant and 4,096 words per king pair, word 5 and
  // word 4,101 (the second pair's sixth) both have placement 5.
  uint64_t decode(uint64_t word, Men& men) const;
  // The word of men whose kings form a canonical pair (the innermost man is not read), of the
  // layout's slice; of its variant `variant` when the caller knows it (PawnSlices::place_of).
  [[nodiscard]] uint64_t word_of(const Men& men) const { return word_of(men, variant_of(men)); }
  [[nodiscard]] uint64_t word_of(const Men& men, uint64_t variant) const {
    const uint16_t pair = kings_->pair[KkMap::at(men.squares[0], men.squares[1])];
    assert(pair != KkMap::None);
    uint64_t word = (variant * static_cast<uint64_t>(kings_->size) + pair) * pair_words_;
    for (int j = 2; j < men_; ++j)
      word += square_words_[static_cast<size_t>(j)]
                           [static_cast<size_t>(to_index(men.squares[static_cast<size_t>(j)]))];
    return word;
  }
  // The position of men whose kings form a canonical pair (of variant `variant`).
  [[nodiscard]] uint64_t position_of(const Men& men) const { return position_of(men, variant_of(men)); }
  [[nodiscard]] uint64_t position_of(const Men& men, uint64_t variant) const {
    return word_of(men, variant) * 64 +
           static_cast<uint64_t>(to_index(men.squares[static_cast<size_t>(inner_)]));
  }
  // The men as a Position with `stm` to move, or nothing when two of them share a square
  // (whether the position is legal is not asked).
  [[nodiscard]] std::optional<Position> placement(const Men& men, Color stm) const;
  // The same for layout position p.
  [[nodiscard]] std::optional<Position> placement(uint64_t p, Color stm) const;
  // The symmetry that takes kings on (wk, bk), not touching, to a canonical pair.
  [[nodiscard]] Symmetry canonical_symmetry(Square wk, Square bk) const {
    return kings_->symmetry[KkMap::at(wk, bk)];
  }
  // The position of men in any orientation (kings not touching): their canonical image's.
  [[nodiscard]] uint64_t canonical_position(const Men& men) const;

private:
  int men_ = 0;
  int inner_ = 0;
  std::array<Piece, MaxIndexMen> pieces_{};
  std::array<uint64_t, MaxIndexMen> strides_{};  // 0 for the kings and the innermost man
  // 64 a piece, 48 a pawn, 6 a pawn of a file slice, 1 a pawn of a placement slice
  std::array<int, MaxIndexMen> radices_{};
  // Man j's part of a word on square s, stride(j) * digit(j, s), looked up rather than computed:
  // 0 for the kings and the innermost man. Example: KRPkr whole, the white rook (stride 48, the
  // pawn's radix) on d4 (digit 27) adds 1,296 words, the pawn (stride 1) on b3 (digit 9) adds 9.
  std::array<std::array<uint64_t, 64>, MaxIndexMen> square_words_{};
  const KkMap* kings_;
  uint64_t pair_words_ = 1;
  uint64_t words_ = 0;
  DigitPawns digit_pawns_;
  // A slice's variant by key (-1: another slice's); empty for the whole table.
  std::vector<int8_t> variant_of_key_;
  // decode() without a division per digit: the pair slot by one multiplication (words below 2^32;
  // wider ones, from 7 men on, with the division instruction), and for every variant and word of a
  // pair (its offset) the squares of the digits' men, indexed by man.
  FastDivisor pair_divisor_;
  FastDivisor kings_divisor_;
  bool decode_32bit_ = false;
  uint64_t variants_ = 1;
  std::vector<std::array<Square, MaxIndexMen>> offset_squares_;

  [[nodiscard]] uint64_t variant_of(const Men& men) const;
};

}  // namespace egtb::indexing
