#include "indexing/index_order.hpp"

#include <algorithm>

namespace egtb::indexing {

namespace {

constexpr PieceType GroupTypes[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight,
                                    PieceType::Pawn};

}  // namespace

std::vector<IndexGroup> index_groups(const Material& material) {
  std::vector<IndexGroup> groups;
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt : GroupTypes)
      if (const int n = material.count(c, pt); n > 0) groups.push_back({make_piece(c, pt), n});
  return groups;
}

IndexOrder IndexOrder::kings_first(const Material& material) {
  IndexOrder order;
  // At most MaxDigits: a material of at most MaxIndexMen men has at most MaxDigits - 1 groups.
  order.count_ = static_cast<int>(std::min<size_t>(index_groups(material).size() + 1, MaxDigits));
  for (int k = 0; k < order.count_; ++k) order.digits_[static_cast<size_t>(k)] = static_cast<uint8_t>(k);
  return order;
}

std::optional<IndexOrder> IndexOrder::from_code(uint32_t code, const Material& material) {
  IndexOrder order;
  const int count = kings_first(material).count_;
  for (; code != 0 && order.count_ < MaxDigits; code >>= 4) {
    const uint32_t nibble = code & 0xf;
    if (nibble == 0 || nibble > static_cast<uint32_t>(count)) return std::nullopt;
    order.digits_[static_cast<size_t>(order.count_++)] = static_cast<uint8_t>(nibble - 1);
  }
  if (code != 0 || order.count_ != count) return std::nullopt;
  std::array<uint8_t, MaxDigits> sorted = order.digits_;
  std::sort(sorted.begin(), sorted.begin() + count);
  if (!std::equal(sorted.begin(), sorted.begin() + count, kings_first(material).digits_.begin()) ||
      !order.allowed(material))
    return std::nullopt;
  return order;
}

// Every permutation of the digits, numbered 0 .. n!-1 by its Lehmer code: permutation p picks
// digit p % n first from the digits left, then (p / n) % (n-1) from the rest, and so on. With
// digits {0,1,2}: p = 0 gives 0 1 2, p = 1 gives 1 0 2, p = 3 gives 0 2 1... (all six, each once).
std::vector<IndexOrder> IndexOrder::candidates(const Material& material) {
  const IndexOrder first = kings_first(material);
  const int n = first.count_;
  int permutations = 1;
  for (int k = 2; k <= n; ++k) permutations *= k;
  std::vector<IndexOrder> out;
  for (int p = 0; p < permutations; ++p) {
    std::array<uint8_t, MaxDigits> left = first.digits_;
    IndexOrder order = first;
    int rest = p;
    for (int k = 0; k < n; ++k) {
      const int remaining = n - k;
      const int pick = rest % remaining;
      rest /= remaining;
      order.digits_[static_cast<size_t>(k)] = left[static_cast<size_t>(pick)];
      for (int j = pick; j + 1 < remaining; ++j)
        left[static_cast<size_t>(j)] = left[static_cast<size_t>(j + 1)];
    }
    if (order.allowed(material)) out.push_back(order);
  }
  std::sort(out.begin(), out.end(), [](const IndexOrder& a, const IndexOrder& b) {
    return std::lexicographical_compare(a.digits_.begin(), a.digits_.end(), b.digits_.begin(),
                                        b.digits_.end());
  });
  return out;
}

uint32_t IndexOrder::code() const {
  uint32_t code = 0;
  for (int k = count_; k-- > 0;) code = code << 4 | (digits_[static_cast<size_t>(k)] + 1u);
  return code;
}

std::string IndexOrder::str(const Material& material) const {
  const std::vector<IndexGroup> groups = index_groups(material);
  std::string out;
  for (uint8_t d : digits()) {
    if (!out.empty()) out += ' ';
    if (d == 0) {
      out += "Kk";
      continue;
    }
    const IndexGroup& g = groups[static_cast<size_t>(d - 1)];
    out.append(static_cast<size_t>(g.count), piece_char(g.piece));
  }
  return out;
}

bool IndexOrder::allowed(const Material& material) const {
  const std::vector<IndexGroup> groups = index_groups(material);
  int last_piece = 0;  // the last piece group's digit seen, or the king pair's
  bool kings_seen = false;
  for (uint8_t d : digits()) {
    if (d == 0) {
      kings_seen = true;
      continue;
    }
    if (type_of(groups[static_cast<size_t>(d - 1)].piece) == PieceType::Pawn) continue;
    if (!kings_seen || d < last_piece) return false;
    last_piece = d;
  }
  return true;
}

}  // namespace egtb::indexing
