// Positions that come due at a later depth, filed by depth: the solver's losses that a move out
// of the table makes slower, and what the first phase files for the next one (its wins and loss
// bounds through moves out of the table). Internal to the solver (TBB inside). (The first phase's
// own wins through a move out of the table are kept in the solver's depth bytes instead: KRPkr's
// 137 M of them took about 150 MB here.)
//
// Many threads add at once, each to streams of its own, one per depth and section (a range of
// positions, a multiple of 64 long): sections are read in parallel, each by one task, so a
// caller may change the 64-position word of a position it is handed without atomics. A stream stores each
// position as its difference from the one before, doubled, or as the position itself, doubled
// plus one, when it is smaller (a new run), in LEB128 bytes (7 bits each, the high bit set on
// all but the last). The solver adds positions in ascending order within a king pair's words,
// so most take one byte, about a quarter of what 4-byte entries take. Example:
// positions 1000, 1003, 7 are the numbers 2000 (1000 after the implicit 0, doubled), 6 ((1003 - 1000) * 2)
// and 15 (7 * 2 + 1: smaller), the bytes d0 0f, 06, 0f.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace egtb::retro {

class DueLists {
public:
  // Lists of positions below `positions`, filed in Sections sections of 2^k positions (k >= 6).
  explicit DueLists(uint64_t positions) : positions_(positions) {
    while ((positions - 1) >> section_shift_ >= Sections) ++section_shift_;
  }

  class Adder;
  // The calling thread's streams, for a run of adds: finding them costs a lookup by thread id,
  // which per position took 4% of KRPkr's solve. Valid while the lists are, on this thread.
  // Example: `DueLists::Adder pending = lists.adder(); pending.add(3, p);`.
  [[nodiscard]] Adder adder();

  // Calls f(position) for every position filed at `depth`, sections in parallel: positions in
  // different 64-position words never reach f from two threads at once, so f may write the words
  // of its position without atomics. Returns the number of positions.
  template <class F>
  uint64_t for_each(int depth, F&& f) {
    const size_t first = slot(depth, 0);
    tbb::enumerable_thread_specific<uint64_t> counts(0);
    tbb::parallel_for(tbb::blocked_range<size_t>(0, Sections, 1), [&](const tbb::blocked_range<size_t>& r) {
      for (size_t section = r.begin(); section != r.end(); ++section)
        for (const auto& streams : local_)
          if (first + section < streams.size()) counts.local() += streams[first + section].for_each(f);
    });
    return counts.combine(std::plus<>());
  }

  // Forgets the positions of `depth`.
  void drop(int depth) {
    for (auto& streams : local_)
      for (size_t k = slot(depth, 0); k < std::min(streams.size(), slot(depth + 1, 0)); ++k)
        streams[k] = Stream();
  }
  // True when a position is filed at `depth` or later.
  [[nodiscard]] bool any_from(int depth) const {
    for (const auto& streams : local_)
      for (size_t k = slot(std::max(depth, 0), 0); k < streams.size(); ++k)
        if (!streams[k].bytes.empty()) return true;
    return false;
  }
  void clear() {
    for (auto& streams : local_) std::vector<Stream>().swap(streams);
  }

private:
  struct Stream {
    std::vector<uint8_t> bytes;
    uint64_t last = 0;

    void add(uint64_t position) {
      uint64_t v = position >= last ? (position - last) << 1 : position << 1 | 1;
      last = position;
      for (; v >= 0x80; v >>= 7) bytes.push_back(static_cast<uint8_t>(v | 0x80));
      bytes.push_back(static_cast<uint8_t>(v));
    }
    template <class F>
    uint64_t for_each(F&& f) const {
      uint64_t position = 0, count = 0;
      for (size_t i = 0; i < bytes.size();) {
        uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
          const uint8_t b = bytes[i++];
          v |= static_cast<uint64_t>(b & 0x7f) << shift;
          if (b < 0x80) break;
        }
        position = (v & 1) ? v >> 1 : position + (v >> 1);
        f(position);
        ++count;
      }
      return count;
    }
  };
  static constexpr size_t Sections = 256;

  // The stream of a depth and section among a thread's streams (depth-major).
  [[nodiscard]] size_t slot(int depth, uint64_t position) const {
    return static_cast<size_t>(depth) * Sections + static_cast<size_t>(position >> section_shift_);
  }

  [[maybe_unused]] uint64_t positions_;  // the bound Adder::add asserts (debug builds only)
  int section_shift_ = 6;
  tbb::enumerable_thread_specific<std::vector<Stream>> local_;
};

class DueLists::Adder {
public:
  void add(int depth, uint64_t position) {
    assert(position < lists_->positions_);
    const size_t k = lists_->slot(depth, position);
    if (k >= streams_->size()) streams_->resize(k + 1);
    (*streams_)[k].add(position);
  }

private:
  friend class DueLists;
  Adder(const DueLists& lists, std::vector<Stream>& streams) : lists_(&lists), streams_(&streams) {}
  const DueLists* lists_;
  std::vector<Stream>* streams_;
};

inline DueLists::Adder DueLists::adder() { return {*this, local_.local()}; }

}  // namespace egtb::retro
