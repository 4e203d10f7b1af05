// The solver's byte per position of the generation layout (indexing/word_layout.hpp):
//
//   0 ... 253  a decided position's depth in plies; before it is decided, the loss bound of its
//              moves out of the table (the slowest loss through a capture or promotion into a
//              position the opponent wins, 0 when there is none) or, for a position with a move
//              out of the table that escapes (it cannot lose in the phase), the depth of its
//              fastest win through one (0 when there is none);
//   254        Aside: the depth is 254 or more and kept in a map (the deepest 5-man mates take
//              up to about 250 plies, so the map stays small or empty);
//   255        Invalid: the layout position holds no legal position (men on one square, the side
//              not to move in check), so no separate bit set of valid positions is needed.
//
// Example: a position decided at DTM 19 holds 19; one decided at DTS 300 holds 254, and the map
// 300; depths past Score::MaxDepth (8191, what a table file can store) throw std::overflow_error
// rather than wrap. Bytes of different positions may be written by different threads at once.
#pragma once

#include <algorithm>
#include <cstdint>
#include <mutex>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "egtb/core/bitboard.hpp"
#include "egtb/store/score.hpp"

namespace egtb::retro {

class Depths {
public:
  explicit Depths(uint64_t positions) : bytes_(positions, Invalid) {}

  [[nodiscard]] bool valid(uint64_t p) const { return bytes_[p] != Invalid; }
  // The 64 positions of a word: the valid ones get depth 0, the others Invalid.
  void set_valid(uint64_t word, Bitboard valid) {
    uint8_t* bytes = bytes_.data() + word * 64;
    for (int k = 0; k < 64; ++k) bytes[k] = (valid >> k) & 1 ? 0 : Invalid;
  }
  // The bytes of a word's 64 positions.
  [[nodiscard]] const uint8_t* word_bytes(uint64_t word) const { return bytes_.data() + word * 64; }
  // Asks the processor to fetch the bytes of a word's 64 positions ahead of their reads and writes
  // (the solver's settling of a word, after its moves are looked at, missed the cache on them).
  void prefetch(uint64_t word) const {
    const uint8_t* bytes = word_bytes(word);
    __builtin_prefetch(bytes, 1);
    __builtin_prefetch(bytes + 63, 1);
  }
  // Precondition: valid(p).
  [[nodiscard]] int get(uint64_t p) const {
    const uint8_t b = bytes_[p];
    if (b < Aside) return b;
    const std::lock_guard lock(mutex_);
    return aside_.at(p);
  }
  void set(uint64_t p, int depth) {
    if (depth < Aside) {
      bytes_[p] = static_cast<uint8_t>(depth);
      return;
    }
    if (depth > Score::MaxDepth)
      throw std::overflow_error("depth " + std::to_string(depth) + " exceeds the " +
                                std::to_string(Score::MaxDepth) + " plies a table can store");
    bytes_[p] = Aside;
    const std::lock_guard lock(mutex_);
    aside_[p] = depth;
  }

  // The positions of a word whose depth is `depth` (>= 0): bit k for position word * 64 + k.
  // Example: a word whose bytes 3 and 9 hold 7 gives bits 3 and 9 for depth 7.
  [[nodiscard]] Bitboard holding(uint64_t word, int depth) const {
    const uint8_t* bytes = word_bytes(word);
    const auto byte = static_cast<uint8_t>(std::min<int>(depth, Aside));
    Bitboard out = 0;
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi8(static_cast<char>(byte));
    for (int i = 0; i < 4; ++i) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + 16 * i));
      out |= Bitboard{static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, wanted)))} << (16 * i);
    }
#else
    for (int k = 0; k < 64; ++k) out |= Bitboard{bytes[k] == byte} << k;
#endif
    if (byte < Aside) return out;
    for (Bitboard b = out; b; b &= b - 1)
      if (get(word * 64 + static_cast<uint64_t>(to_index(lsb(b)))) != depth) out &= ~(b & -b);
    return out;
  }

  static constexpr uint8_t Aside = 254;
  static constexpr uint8_t Invalid = 255;

private:
  std::vector<uint8_t, HugePageAllocator<uint8_t>> bytes_;  // read at random
  mutable std::mutex mutex_;
  std::unordered_map<uint64_t, int> aside_;
};

}  // namespace egtb::retro
