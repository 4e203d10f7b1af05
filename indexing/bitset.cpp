#include "indexing/bitset.hpp"

#include <algorithm>
#include <cassert>

namespace egtb::indexing {

BitSet::BitSet(Index size) : words_(static_cast<size_t>((size + 63) / 64), 0), size_(size) {}

bool BitSet::test_atomic(Index i) const {
  // atomic_ref needs a non-const object; the word is only loaded.
  auto& word = const_cast<uint64_t&>(words_[word_of(i)]);
  return (std::atomic_ref<uint64_t>(word).load(std::memory_order_relaxed) >> (i & 63)) & 1;
}

bool BitSet::set_atomic(Index i) {
  const uint64_t before =
      std::atomic_ref<uint64_t>(words_[word_of(i)]).fetch_or(bit_of(i), std::memory_order_relaxed);
  return (before & bit_of(i)) == 0;
}

void BitSet::reset_atomic(Index i) {
  std::atomic_ref<uint64_t>(words_[word_of(i)]).fetch_and(~bit_of(i), std::memory_order_relaxed);
}

void BitSet::set_all() {
  std::fill(words_.begin(), words_.end(), ~uint64_t{0});
  clear_padding();
}

void BitSet::clear() { std::fill(words_.begin(), words_.end(), 0); }

void BitSet::clear_padding() {
  if ((size_ & 63) != 0) words_.back() &= ~uint64_t{0} >> (64 - (size_ & 63));
}

uint64_t BitSet::count() const {
  uint64_t n = 0;
  for (uint64_t w : words_) n += static_cast<uint64_t>(std::popcount(w));
  return n;
}

uint64_t BitSet::count(Index begin, Index end) const {
  uint64_t n = 0;
  if (begin >= end) return 0;
  const size_t first = word_of(begin), last = word_of(end - 1);
  for (size_t w = first; w <= last; ++w) {
    uint64_t bits = words_[w];
    if (w == first) bits &= ~uint64_t{0} << (begin & 63);
    if (w == last && (end & 63) != 0) bits &= ~uint64_t{0} >> (64 - (end & 63));
    n += static_cast<uint64_t>(std::popcount(bits));
  }
  return n;
}

bool BitSet::none() const {
  return std::all_of(words_.begin(), words_.end(), [](uint64_t w) { return w == 0; });
}

BitSet& BitSet::operator&=(const BitSet& other) {
  assert(size_ == other.size_);
  for (size_t w = 0; w < words_.size(); ++w) words_[w] &= other.words_[w];
  return *this;
}

BitSet& BitSet::operator|=(const BitSet& other) {
  assert(size_ == other.size_);
  for (size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  return *this;
}

BitSet& BitSet::operator^=(const BitSet& other) {
  assert(size_ == other.size_);
  for (size_t w = 0; w < words_.size(); ++w) words_[w] ^= other.words_[w];
  return *this;
}

BitSet& BitSet::and_not(const BitSet& other) {
  assert(size_ == other.size_);
  for (size_t w = 0; w < words_.size(); ++w) words_[w] &= ~other.words_[w];
  return *this;
}

Index BitSet::find_next(Index from) const {
  if (from >= size_) return size_;
  size_t w = word_of(from);
  uint64_t bits = words_[w] & (~uint64_t{0} << (from & 63));
  while (bits == 0) {
    if (++w == words_.size()) return size_;
    bits = words_[w];
  }
  return static_cast<Index>(w) * 64 + static_cast<Index>(std::countr_zero(bits));
}

std::vector<uint8_t> BitSet::to_bytes() const {
  std::vector<uint8_t> bytes(static_cast<size_t>((size_ + 7) / 8));
  for (size_t b = 0; b < bytes.size(); ++b) bytes[b] = static_cast<uint8_t>(words_[b / 8] >> (8 * (b % 8)));
  return bytes;
}

Expected<BitSet, std::string> BitSet::from_bytes(std::span<const uint8_t> bytes, Index size) {
  BitSet set(size);
  const size_t expected = static_cast<size_t>((size + 7) / 8);
  if (bytes.size() != expected)
    return unexpected("a bit set of " + std::to_string(size) + " indices takes " + std::to_string(expected) +
                      " bytes, not " + std::to_string(bytes.size()));
  for (size_t b = 0; b < bytes.size(); ++b) set.words_[b / 8] |= uint64_t{bytes[b]} << (8 * (b % 8));
  if ((size & 7) != 0 && (bytes.back() >> (size & 7)) != 0)
    return unexpected("bit set bytes have bits set past index " + std::to_string(size - 1));
  return set;
}

}  // namespace egtb::indexing
