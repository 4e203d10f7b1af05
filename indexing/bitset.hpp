// Bit sets over an index range: the solver's frontiers and result sets ("compressed indexed
// bitsets": the store module compresses their bytes with zstd; this module knows no zstd).
//
// Index i is bit i % 64 of word i / 64. Bits from size() up to the end of the last word are always
// zero, so word operations and population counts need no masking. Example: in a set of 100
// indices, {3, 64, 99} is word 0 = 1 << 3 and word 1 = (1 << 0) | (1 << 35).
//
// The byte form (to_bytes / from_bytes) is ceil(size / 8) bytes, index i in bit i % 8 of byte
// i / 8, independent of the machine's byte order: the same set as bytes 08 00 00 00 00 00 00 00
// 01 00 00 00 08.
//
// Threads: set_atomic / reset_atomic / test_atomic may race with each other on any indices (they
// use std::atomic_ref on the word, relaxed order); everything else needs exclusive access.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/huge_pages.hpp"
#include "indexing/index.hpp"

namespace egtb::indexing {

class BitSet {
public:
  BitSet() = default;
  // An empty set over the indices [0, size).
  explicit BitSet(Index size);

  [[nodiscard]] Index size() const { return size_; }
  [[nodiscard]] size_t word_count() const { return words_.size(); }

  [[nodiscard]] bool test(Index i) const { return (words_[word_of(i)] >> (i & 63)) & 1; }
  void set(Index i) { words_[word_of(i)] |= bit_of(i); }
  void reset(Index i) { words_[word_of(i)] &= ~bit_of(i); }

  [[nodiscard]] bool test_atomic(Index i) const;
  // Asks for the cache line that holds index i, ahead of a test.
  void prefetch(Index i) const { __builtin_prefetch(&words_[word_of(i)]); }
  // Sets index i; true when this call changed it (it was not set before).
  bool set_atomic(Index i);
  void reset_atomic(Index i);

  void set_all();
  void clear();

  // The number of indices in the set, overall or in [begin, end).
  [[nodiscard]] uint64_t count() const;
  [[nodiscard]] uint64_t count(Index begin, Index end) const;
  [[nodiscard]] bool none() const;

  // Word-level algebra; both sets must have the same size.
  BitSet& operator&=(const BitSet& other);
  BitSet& operator|=(const BitSet& other);
  BitSet& operator^=(const BitSet& other);
  // Removes every index of `other`.
  BitSet& and_not(const BitSet& other);
  bool operator==(const BitSet&) const = default;

  // The first index >= from in the set, or size() when there is none.
  [[nodiscard]] Index find_next(Index from) const;

  // Calls f(Index) for every index of the set in [begin, end), ascending, a word at a time.
  template <class F>
  void for_each(Index begin, Index end, F&& f) const {
    if (begin >= end) return;
    const size_t last = word_of(end - 1);
    for (size_t w = word_of(begin); w <= last; ++w) {
      uint64_t bits = words_[w];
      if (w == word_of(begin)) bits &= ~uint64_t{0} << (begin & 63);
      if (w == last && (end & 63) != 0) bits &= ~uint64_t{0} >> (64 - (end & 63));
      for (; bits; bits &= bits - 1)
        f(static_cast<Index>(w) * 64 + static_cast<Index>(std::countr_zero(bits)));
    }
  }
  template <class F>
  void for_each(F&& f) const {
    for_each(0, size_, f);
  }

  // Raw words, for storage and for kernels that work a word at a time. Writers must keep the bits
  // past size() zero.
  [[nodiscard]] std::span<const uint64_t> words() const { return words_; }
  [[nodiscard]] std::span<uint64_t> words() { return words_; }

  [[nodiscard]] std::vector<uint8_t> to_bytes() const;
  // The set of `size` indices whose byte form is `bytes`; an error for a wrong length or for bits
  // set past the last index.
  [[nodiscard]] static Expected<BitSet, std::string> from_bytes(std::span<const uint8_t> bytes, Index size);

private:
  std::vector<uint64_t, HugePageAllocator<uint64_t>> words_;  // a large set is read at random
  Index size_ = 0;

  static size_t word_of(Index i) { return static_cast<size_t>(i >> 6); }
  static uint64_t bit_of(Index i) { return uint64_t{1} << (i & 63); }
  void clear_padding();
};

}  // namespace egtb::indexing
