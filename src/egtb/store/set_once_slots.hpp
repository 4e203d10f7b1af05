// An index of objects that live as long as it, read without a lock: open addressing over 2^bits
// slots, each set once. A search for a hash starts at the slot of its top bits and goes on to the
// next slot (the last wrapping to the first) until the caller's object or an empty slot; adding
// takes the first empty slot of the hash's search. Readers may search while one writer adds (the
// slot's pointer is published with release, read with acquire); writers serialize among
// themselves (Tablebase adds under its mutex). It takes objects until three quarters of its slots
// are set, so that a search stays short; past that, add() refuses and the caller keeps the object
// elsewhere as well.
// Example, 2 bits (4 slots) and hashes whose top bits are 3, 3 and 0: the first object takes slot
// 3, the second slot 0 (after 3 comes 0), the third slot 1; a search for the third reads slots 0
// and 1, and a fourth add is refused.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace egtb {

template <class T>
class SetOnceSlots {
public:
  explicit SetOnceSlots(int bits)
      : bits_(bits), slots_(std::make_unique<std::atomic<const T*>[]>(size_t{1} << bits)) {}

  // The first object of hash's search that `is_it` accepts, or nullptr when the search reaches an
  // empty slot first (or has read every slot).
  template <class Match>
  [[nodiscard]] const T* find(uint64_t hash, Match&& is_it) const {
    for (size_t k = 0; k < slot_count(); ++k) {
      const T* object = slot(hash, k).load(std::memory_order_acquire);
      if (!object) return nullptr;
      if (is_it(*object)) return object;
    }
    return nullptr;
  }

  // Puts `object` (non-null) in the first empty slot of hash's search; false, leaving the slots as
  // they are, when three quarters of them are set. One writer at a time.
  bool add(uint64_t hash, const T* object) {
    if (4 * (used_ + 1) > 3 * slot_count()) return false;
    for (size_t k = 0;; ++k) {
      std::atomic<const T*>& empty = slot(hash, k);
      if (!empty.load(std::memory_order_relaxed)) {
        empty.store(object, std::memory_order_release);
        ++used_;
        return true;
      }
    }
  }

private:
  [[nodiscard]] size_t slot_count() const { return size_t{1} << bits_; }
  // Slot k of hash's search: k after the slot of the hash's top bits, wrapping.
  [[nodiscard]] std::atomic<const T*>& slot(uint64_t hash, size_t k) const {
    return slots_[(static_cast<size_t>(hash >> (64 - bits_)) + k) % slot_count()];
  }

  int bits_;
  std::unique_ptr<std::atomic<const T*>[]> slots_;
  size_t used_ = 0;
};

}  // namespace egtb
