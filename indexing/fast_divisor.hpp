// Division of 32-bit numbers by a divisor fixed at run time with one multiplication instead of a
// division instruction (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019):
// with M = floor((2^64 - 1) / d) + 1, the quotient n / d is the high 64 bits of M * n for every
// 32-bit n and every divisor d >= 2.
// Example: d = 62 gives M = 297,528,130,221,121,801 (about 2^64 / 62); for n = 1000,
// M * 1000 / 2^64 = 16.13..., so the quotient is 16 and the remainder 1000 - 16 * 62 = 8.
// The index decodes every entry with four to six such divisions (the king pair, then one digit per
// group of men).
#pragma once

#include <cstdint>

namespace egtb::indexing {

class FastDivisor {
public:
  FastDivisor() = default;
  // Precondition: divisor >= 2.
  explicit constexpr FastDivisor(uint32_t divisor)
      : divisor_(divisor), multiplier_(UINT64_MAX / divisor + 1) {}

  [[nodiscard]] constexpr uint32_t divisor() const { return divisor_; }
  [[nodiscard]] constexpr uint32_t quotient(uint32_t n) const {
    __extension__ using Wide = unsigned __int128;
    return static_cast<uint32_t>((static_cast<Wide>(multiplier_) * n) >> 64);
  }

private:
  uint32_t divisor_ = 2;
  uint64_t multiplier_ = UINT64_MAX / 2 + 1;
};

static_assert(FastDivisor(62).quotient(1000) == 16 && FastDivisor(62).quotient(61) == 0 &&
              FastDivisor(62).quotient(62) == 1 && FastDivisor(7).quotient(UINT32_MAX) == UINT32_MAX / 7);

}  // namespace egtb::indexing
