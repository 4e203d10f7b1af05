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
#pragma once

#include <array>
#include <cstdint>
#include <optional>
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

class WordLayout {
public:
  using Men = IndexScheme::Men;

  // The layout of a scheme's material, with the scheme's men (Men holds them in its order).
  explicit WordLayout(const IndexScheme& scheme);

  [[nodiscard]] int man_count() const { return men_; }
  [[nodiscard]] Piece man_piece(int j) const { return pieces_[static_cast<size_t>(j)]; }
  // The scheme man whose square is the bit.
  [[nodiscard]] int inner() const { return inner_; }
  // Words per side to move, and per king pair.
  [[nodiscard]] uint64_t words() const { return words_; }
  [[nodiscard]] uint64_t pair_words() const { return pair_words_; }
  [[nodiscard]] const KkMap& kings() const { return *kings_; }
  [[nodiscard]] bool pawns() const { return kings_->pawns; }
  // The word stride of man j (not a king, not the innermost).
  [[nodiscard]] uint64_t stride(int j) const { return strides_[static_cast<size_t>(j)]; }
  // A man's digit on square s (pawns on a2 ... h7 only).
  [[nodiscard]] static int digit(bool pawn, Square s) { return pawn ? to_index(s) - 8 : to_index(s); }
  // The word difference when man j (not a king, not the innermost) moves from `from` to `to`.
  [[nodiscard]] int64_t step(int j, Square from, Square to) const {
    return static_cast<int64_t>(strides_[static_cast<size_t>(j)]) * (to_index(to) - to_index(from));
  }

  // The men of a word, the innermost left out: the kings and every digit's man.
  void decode(uint64_t word, Men& men) const;
  // The word of men whose kings form a canonical pair (the innermost man is not read).
  [[nodiscard]] uint64_t word_of(const Men& men) const;
  // The position of men whose kings form a canonical pair.
  [[nodiscard]] uint64_t position_of(const Men& men) const {
    return word_of(men) * 64 + static_cast<uint64_t>(to_index(men.squares[static_cast<size_t>(inner_)]));
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
  std::array<int, MaxIndexMen> radices_{};
  const KkMap* kings_;
  uint64_t pair_words_ = 1;
  uint64_t words_ = 0;
  // decode() without a division per digit: the pair by one multiplication (words below 2^32;
  // wider ones, from 7 men on, with the division instruction), and for every word of a pair (its
  // offset) the squares of the digits' men, indexed by man.
  FastDivisor pair_divisor_;
  bool decode_32bit_ = false;
  std::vector<std::array<Square, MaxIndexMen>> offset_squares_;
};

}  // namespace egtb::indexing
