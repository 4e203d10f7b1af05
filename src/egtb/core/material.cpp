#include "egtb/core/material.hpp"

#include <algorithm>
#include <cstring>
#include <set>

namespace egtb {

namespace {

constexpr Color Colors[] = {Color::White, Color::Black};
// The non-king piece types in the order of the text form.
constexpr PieceType Men[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight,
                             PieceType::Pawn};
constexpr PieceType Promotions[] = {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight};

constexpr int value_of(PieceType pt) {
  switch (pt) {
    case PieceType::Queen: return 9;
    case PieceType::Rook: return 5;
    case PieceType::Bishop: return 3;
    case PieceType::Knight: return 3;
    case PieceType::Pawn: return 1;
    default: return 0;
  }
}

std::string side_name(Color c) { return c == Color::White ? "White" : "Black"; }

// Letter counts read from a signature, before the rules are checked.
using RawCounts = std::array<std::array<int, PieceTypeCount>, 2>;

// Text for a message with its control bytes escaped ("K\x00" for K and a NUL byte): no message
// may hold a byte that ends a C string (exception texts are read as such) or moves the cursor.
std::string printable(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out += c;
      continue;
    }
    constexpr const char* Hex = "0123456789abcdef";
    out += {'\\', 'x', Hex[byte >> 4], Hex[byte & 15]};
  }
  return out;
}

std::string quoted(std::string_view text) { return "\"" + printable(text) + "\""; }

Expected<RawCounts, std::string> count_letters(std::string_view text) {
  RawCounts counts{};
  const size_t v = text.find('v');
  if (v != std::string_view::npos && text.find('v', v + 1) != std::string_view::npos)
    return unexpected("more than one 'v' in " + quoted(text));
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == v) continue;
    const auto pt = piece_type_from_char(text[i]);
    if (!pt)
      return unexpected("unknown piece letter '" + printable(text.substr(i, 1)) + "' in " + quoted(text) +
                        " (expected K Q R B N P, Black in lower case, or the form KQvK)");
    const bool black = v == std::string_view::npos ? (text[i] >= 'a' && text[i] <= 'z') : i > v;
    ++counts[black ? 1 : 0][static_cast<size_t>(to_index(*pt))];
  }
  return counts;
}

std::optional<std::string> check_counts(const RawCounts& counts, std::string_view text, int max_men) {
  int men = 0;
  for (Color c : Colors) {
    const auto& side = counts[static_cast<size_t>(to_index(c))];
    const int kings = side[static_cast<size_t>(to_index(PieceType::King))];
    if (kings == 0) return side_name(c) + " has no king in " + quoted(text);
    if (kings > 1) return side_name(c) + " has " + std::to_string(kings) + " kings in " + quoted(text);
    const int pawns = side[static_cast<size_t>(to_index(PieceType::Pawn))];
    if (pawns > 8)
      return side_name(c) + " has " + std::to_string(pawns) + " pawns in " + quoted(text) + " (at most 8)";
    for (int n : side) men += n;
  }
  if (men > max_men)
    return quoted(text) + " has " + std::to_string(men) + " men; this build supports at most " +
           std::to_string(max_men);
  return std::nullopt;
}

// The strength of one side: its material value, then its counts of Q, R, B, N, P.
std::array<int, 6> strength(const Material& m, Color c) {
  std::array<int, 6> key{};
  for (size_t i = 0; i < std::size(Men); ++i) {
    key[0] += value_of(Men[i]) * m.count(c, Men[i]);
    key[i + 1] = m.count(c, Men[i]);
  }
  return key;
}

int pawn_count(const Material& m) {
  return m.count(Color::White, PieceType::Pawn) + m.count(Color::Black, PieceType::Pawn);
}

}  // namespace

Material::Material() {
  add(Color::White, PieceType::King, 1);
  add(Color::Black, PieceType::King, 1);
}

Material Material::with_added(Color c, PieceType pt, int n) const {
  assert(pt != PieceType::King && pt != PieceType::None && count(c, pt) + n >= 0);
  Material m = *this;
  m.add(c, pt, n);
  return m;
}

Expected<Material, std::string> Material::parse(std::string_view text, int max_men) {
  if (text.empty()) return unexpected(std::string("empty material signature"));
  auto counts = count_letters(text);
  if (!counts) return unexpected(counts.error());
  if (auto error = check_counts(*counts, text, max_men)) return unexpected(*error);
  Material m;
  for (Color c : Colors)
    for (PieceType pt : Men)
      m.add(c, pt, (*counts)[static_cast<size_t>(to_index(c))][static_cast<size_t>(to_index(pt))]);
  return m;
}

Material Material::from(const Position& pos) {
  Material m;
  for (Color c : Colors) {
    m.add(c, PieceType::King, pos.count(c, PieceType::King) - 1);
    for (PieceType pt : Men) m.add(c, pt, pos.count(c, pt));
  }
  return m;
}

uint64_t Material::hash() const {
  static_assert(sizeof counts_ > 8 && sizeof counts_ <= 16);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&counts_);
  uint64_t low = 0;
  uint64_t high = 0;
  std::memcpy(&low, bytes, sizeof low);
  std::memcpy(&high, bytes + sizeof low, sizeof counts_ - sizeof low);
  const uint64_t h = (low * 0x9E3779B97F4A7C15 ^ high) * 0xC2B2AE3D27D4EB4F;
  return h ^ h >> 29;
}

int Material::count(Color c) const {
  int n = 0;
  for (uint8_t k : counts_[static_cast<size_t>(to_index(c))]) n += k;
  return n;
}

void Material::add(Color c, PieceType pt, int delta) {
  uint8_t& n = counts_[static_cast<size_t>(to_index(c))][static_cast<size_t>(to_index(pt))];
  n = static_cast<uint8_t>(n + delta);
}

Material Material::mirrored() const {
  Material m = *this;
  std::swap(m.counts_[0], m.counts_[1]);
  return m;
}

bool Material::is_canonical() const { return strength(*this, Color::White) >= strength(*this, Color::Black); }

Material Material::normalized() const { return is_canonical() ? *this : mirrored(); }

std::string Material::str() const {
  std::string s;
  for (Color c : Colors) {
    s.append(static_cast<size_t>(count(c, PieceType::King)), piece_char(make_piece(c, PieceType::King)));
    for (PieceType pt : Men) s.append(static_cast<size_t>(count(c, pt)), piece_char(make_piece(c, pt)));
  }
  return s;
}

std::string Material::syzygy_name() const {
  std::string s;
  for (Color c : Colors) {
    if (c == Color::Black) s += 'v';
    s.append(static_cast<size_t>(count(c, PieceType::King)), 'K');
    for (PieceType pt : Men) s.append(static_cast<size_t>(count(c, pt)), piece_type_char(pt));
  }
  return s;
}

std::vector<Material> Material::successors() const {
  std::vector<Material> out;
  for (Color c : Colors) {
    for (PieceType pt : Men) {
      if (count(c, pt) == 0) continue;
      Material captured = *this;
      captured.add(c, pt, -1);
      out.push_back(captured.normalized());
    }
    if (count(c, PieceType::Pawn) == 0) continue;
    for (PieceType promo : Promotions) {
      Material promoted = *this;
      promoted.add(c, PieceType::Pawn, -1);
      promoted.add(c, promo, 1);
      out.push_back(promoted.normalized());
      for (PieceType victim : Promotions) {
        if (count(~c, victim) == 0) continue;
        Material both = promoted;
        both.add(~c, victim, -1);
        out.push_back(both.normalized());
      }
    }
  }
  std::sort(out.begin(), out.end(), build_order_less);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool build_order_less(const Material& a, const Material& b) {
  if (a.men() != b.men()) return a.men() < b.men();
  if (pawn_count(a) != pawn_count(b)) return pawn_count(a) < pawn_count(b);
  return a.str() < b.str();
}

std::vector<Material> direct_dependencies(const Material& material) {
  std::vector<Material> out = material.successors();
  std::erase_if(out, [](const Material& m) { return m.is_bare_kings(); });
  return out;
}

std::vector<Material> dependency_closure(std::span<const Material> targets) {
  std::set<Material> seen;
  std::vector<Material> todo;
  for (const Material& m : targets) todo.push_back(m.normalized());
  while (!todo.empty()) {
    const Material m = todo.back();
    todo.pop_back();
    if (m.is_bare_kings() || !seen.insert(m).second) continue;
    for (const Material& s : m.successors()) todo.push_back(s);
  }
  std::vector<Material> order(seen.begin(), seen.end());
  std::sort(order.begin(), order.end(), build_order_less);
  return order;
}

namespace {

// Adds every canonical signature that gives the (colour, type) slots from `slot` on at most
// `left` more men.
void enumerate(const Material& m, size_t slot, int left, std::vector<Material>& out) {
  if (slot == 2 * std::size(Men)) {
    if (!m.is_bare_kings() && m.is_canonical()) out.push_back(m);
    return;
  }
  const Color c = slot < std::size(Men) ? Color::White : Color::Black;
  const PieceType pt = Men[slot % std::size(Men)];
  const int most = pt == PieceType::Pawn ? std::min(left, 8) : left;
  for (int n = 0; n <= most; ++n) enumerate(m.with_added(c, pt, n), slot + 1, left - n, out);
}

}  // namespace

std::vector<Material> all_signatures(int max_men) {
  std::vector<Material> out;
  enumerate(Material(), 0, max_men - 2, out);
  std::sort(out.begin(), out.end(), build_order_less);
  return out;
}

TableOrientation orientation_of(const Material& m) {
  const Material canonical = m.normalized();
  return {canonical, !(canonical == m)};
}

}  // namespace egtb
