// Score: the Lasker value of a position and its depth, packed into 16 bits.
//
// Values are from the side to move's point of view (docs/design.md §2):
//   4 forces mate (DTM, odd plies)        3 forces stalemate of the opponent (DTS, odd plies)
//   2 draw (no depth)                     1 is stalemated (DTS, even plies)
//   0 is mated (DTM, even plies; 0 = already checkmated)
// Two more codes mark entries that are not positions: Invalid (no legal position has this
// index: men overlap, kings touch, the side not to move is in check) and Unknown (not yet solved;
// never written to a finished table).
//
//   bits 0-2   value code: 0..4 Lasker value, 5 Invalid, 6 Unknown
//   bits 3-15  depth in plies, 0..8191 (0 for draws, Invalid and Unknown)
//
// Example: White mates in 10 moves = value 4, DTM 19 plies: 4 | 19 << 3 = 156 (0x009c).
// Black to move is stalemated in 8 plies = value 1, DTS 8: 1 | 8 << 3 = 65 (0x0041).
#pragma once

#include <cstdint>
#include <string>

namespace egtb {

enum class Lasker : uint8_t { Mated = 0, Stalemated = 1, Draw = 2, Stalemates = 3, Mates = 4 };

constexpr int to_index(Lasker v) { return static_cast<int>(v); }
// The value of the parent position when its move leads to a child of value v: 4 - v.
constexpr Lasker negate(Lasker v) { return static_cast<Lasker>(4 - to_index(v)); }
// True for 4 and 0, whose depth is a DTM; 3 and 1 carry a DTS; 2 carries no depth.
constexpr bool is_mate_value(Lasker v) { return v == Lasker::Mates || v == Lasker::Mated; }

class Score {
public:
  static constexpr int MaxDepth = 8191;

  constexpr Score() : raw_(UnknownCode) {}
  constexpr Score(Lasker value, int depth) : raw_(static_cast<uint16_t>(to_index(value) | (depth << 3))) {}

  static constexpr Score invalid() { return from_raw(InvalidCode); }
  static constexpr Score unknown() { return from_raw(UnknownCode); }
  static constexpr Score draw() { return Score(Lasker::Draw, 0); }
  static constexpr Score from_raw(uint16_t raw) {
    Score s;
    s.raw_ = raw;
    return s;
  }

  [[nodiscard]] constexpr bool is_valid() const { return (raw_ & 7) <= 4; }
  [[nodiscard]] constexpr bool is_invalid() const { return (raw_ & 7) == InvalidCode; }
  [[nodiscard]] constexpr bool is_unknown() const { return (raw_ & 7) == UnknownCode; }
  // Precondition: is_valid().
  [[nodiscard]] constexpr Lasker value() const { return static_cast<Lasker>(raw_ & 7); }
  [[nodiscard]] constexpr int depth() const { return raw_ >> 3; }
  [[nodiscard]] constexpr uint16_t raw() const { return raw_; }
  constexpr bool operator==(const Score&) const = default;

private:
  static constexpr uint16_t InvalidCode = 5;
  static constexpr uint16_t UnknownCode = 6;
  uint16_t raw_;
};

// "mates in 10 (DTM 19)", "is stalemated (DTS 8)", "draw", "invalid", "unknown".
std::string describe(Score s);

}  // namespace egtb
