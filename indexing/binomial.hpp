// Binomial coefficients and the combinatorial number system, which gives k identical men on a
// domain of n squares the C(n, k) indices they need instead of n^k.
//
// A set of k distinct values v0 < v1 < ... < v(k-1) has the rank
//   C(v0, 1) + C(v1, 2) + ... + C(v(k-1), k)
// and the ranks of all k-sets of {0, ..., n-1} are exactly 0 ... C(n, k) - 1 (co-lexicographic
// order; the rank does not depend on n). Example: two rooks on domain values {3, 10} have the rank
// C(3, 1) + C(10, 2) = 3 + 45 = 48, and unrank(48) finds the largest v1 with C(v1, 2) <= 48, which
// is 10 (C(10, 2) = 45, C(11, 2) = 55), then v0 = 48 - 45 = 3.
//
// Unranking sets of 2 and 3 uses tables of packed values (6 bits each), larger sets a search.
#pragma once

#include <array>
#include <cstdint>

namespace egtb::indexing {

constexpr int BinomialMaxN = 64;
constexpr int BinomialMaxK = 8;

inline constexpr auto BinomialTable = [] {
  std::array<std::array<uint64_t, BinomialMaxK + 1>, BinomialMaxN + 1> c{};
  for (size_t n = 0; n <= BinomialMaxN; ++n) {
    c[n][0] = 1;
    for (size_t k = 1; k <= BinomialMaxK && k <= n; ++k) c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
  }
  return c;
}();

// C(n, k) for 0 <= n <= 64, 0 <= k <= 8 (0 when k > n).
constexpr uint64_t binomial(int n, int k) {
  return BinomialTable[static_cast<size_t>(n)][static_cast<size_t>(k)];
}

namespace detail {

constexpr uint32_t pack(uint32_t v0, uint32_t v1, uint32_t v2 = 0) { return v0 | (v1 << 6) | (v2 << 12); }

inline constexpr auto Pairs = [] {
  std::array<uint32_t, binomial(BinomialMaxN, 2)> t{};
  size_t r = 0;
  for (uint32_t v1 = 1; v1 < BinomialMaxN; ++v1)
    for (uint32_t v0 = 0; v0 < v1; ++v0) t[r++] = pack(v0, v1);
  return t;
}();

inline constexpr auto Triples = [] {
  std::array<uint32_t, binomial(BinomialMaxN, 3)> t{};
  size_t r = 0;
  for (uint32_t v2 = 2; v2 < BinomialMaxN; ++v2)
    for (uint32_t v1 = 1; v1 < v2; ++v1)
      for (uint32_t v0 = 0; v0 < v1; ++v0) t[r++] = pack(v0, v1, v2);
  return t;
}();

}  // namespace detail

// The rank of the ascending values v[0] < ... < v[k-1].
constexpr uint64_t combination_rank(const uint8_t* v, int k) {
  if (k == 1) return v[0];  // C(v, 1) = v: the common case, without a table lookup
  uint64_t r = 0;
  for (int j = 0; j < k; ++j) r += binomial(v[j], j + 1);
  return r;
}

// Writes the k ascending values of rank r (r < C(64, k)) to v.
constexpr void combination_unrank(uint64_t r, int k, uint8_t* v) {
  if (k == 1) {
    v[0] = static_cast<uint8_t>(r);
  } else if (k == 2) {
    const uint32_t p = detail::Pairs[r];
    v[0] = static_cast<uint8_t>(p & 63);
    v[1] = static_cast<uint8_t>(p >> 6);
  } else if (k == 3) {
    const uint32_t p = detail::Triples[r];
    v[0] = static_cast<uint8_t>(p & 63);
    v[1] = static_cast<uint8_t>((p >> 6) & 63);
    v[2] = static_cast<uint8_t>(p >> 12);
  } else {
    int top = BinomialMaxN;
    for (int j = k - 1; j >= 0; --j) {
      do --top;
      while (binomial(top, j + 1) > r);
      v[j] = static_cast<uint8_t>(top);
      r -= binomial(top, j + 1);
    }
  }
}

}  // namespace egtb::indexing
