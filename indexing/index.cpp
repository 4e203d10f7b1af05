#include "indexing/index.hpp"

#include <cassert>
#include <utility>

#include "egtb/core/attacks.hpp"
#include "indexing/binomial.hpp"

namespace egtb::indexing {

namespace {

constexpr int PieceDomain = 62;
constexpr int PawnDomain = 48;

// The square of free-square number v when the kings stand on lo < hi.
inline Square free_square(int v, int lo, int hi) {
  v += v >= lo;
  v += v >= hi;
  return square_at(v);
}

// The free-square number of a square that no king stands on.
inline int free_number(Square s, int lo, int hi) {
  const int i = to_index(s);
  return i - (i > lo) - (i > hi);
}

// The value of a man's square in its group's domain: a pawn's square less 8 (a2 = 0), a piece's
// free-square number.
inline uint8_t domain_value(bool pawns, Square s, int lo, int hi) {
  return static_cast<uint8_t>(pawns ? to_index(s) - 8 : free_number(s, lo, hi));
}

// Sorts the first n (at most a handful) values ascending.
void sort_values(uint8_t* v, int n) {
  for (int a = 1; a < n; ++a)
    for (int b = a; b > 0 && v[b - 1] > v[b]; --b) std::swap(v[b - 1], v[b]);
}

}  // namespace

std::string_view convention_name(Convention c) {
  switch (c) {
    case Convention::Index462: return "index462";
    case Convention::Physical: return "physical";
    case Convention::Classes: return "classes";
  }
  return "";
}

std::optional<Convention> parse_convention(std::string_view name) {
  for (Convention c : AllConventions)
    if (convention_name(c) == name) return c;
  return std::nullopt;
}

uint32_t EntryWeights::get(Convention c) const {
  return c == Convention::Index462 ? index462 : c == Convention::Physical ? physical : classes;
}

uint64_t Counts::get(Convention c) const {
  return c == Convention::Index462 ? index462 : c == Convention::Physical ? physical : classes;
}

Counts& Counts::operator+=(const Counts& o) {
  index462 += o.index462;
  physical += o.physical;
  classes += o.classes;
  return *this;
}

IndexScheme::IndexScheme(const Material& material)
    : IndexScheme(material, IndexOrder::kings_first(material)) {}

IndexScheme::IndexScheme(const Material& material, const IndexOrder& order)
    : material_(material), order_(order), kings_(material.has_pawns() ? &PawnKings : &PawnlessKings) {
  assert(material.count(Color::White, PieceType::King) == 1 &&
         material.count(Color::Black, PieceType::King) == 1);
  assert(material.men() <= MaxIndexMen);
  assert(IndexOrder::from_code(order.code(), material) == order);
  normal_ = make_layout(material, order);
  describe_men();
  normal_size_ = static_cast<Index>(kings_->size) * normal_.size;
  men_at_32bit_ = normal_size_ <= UINT32_MAX;
  if (material.has_pawns(Color::White) && material.has_pawns(Color::Black)) {
    const Material ep_men =
        material.with_added(Color::White, PieceType::Pawn, -1).with_added(Color::Black, PieceType::Pawn, -1);
    ep_ = make_layout(ep_men, IndexOrder::kings_first(ep_men));
    ep_size_ = static_cast<Index>(kings_->size) * EpCaptureCount * ep_.size;
  }
}

bool IndexScheme::same_layout(const IndexScheme& other) const {
  return material_ == other.material_ && order_ == other.order_;
}

Index IndexScheme::entry_in(const IndexScheme& other, Index i) const {
  assert(other.material_ == material_ && i < size());
  if (is_ep_entry(i) || same_layout(other)) return i;
  Index entry = 0;
  for (int d = 0; d < digit_count_; ++d) {
    const Digit& digit = digits_[static_cast<size_t>(d)];
    const Index stride = digit.group < 0 ? other.normal_.pair_stride
                                         : other.normal_.groups[static_cast<size_t>(digit.group)].stride;
    entry += i % digit.radix * stride;
    i /= digit.radix;
  }
  return entry;
}

void IndexScheme::describe_men() {
  men_ = material_.men();
  single_men_ = true;
  man_pieces_[0] = make_piece(Color::White, PieceType::King);
  man_pieces_[1] = make_piece(Color::Black, PieceType::King);
  // The digits innermost first: the king pair's weight sorts it among the groups.
  std::array<std::pair<Index, Digit>, MaxGroups + 1> by_stride{};
  by_stride[0] = {normal_.pair_stride, Digit{-1, -1, static_cast<Index>(kings_->size), {}}};
  digit_count_ = 1;
  for (int g = 0, j = 2; g < normal_.group_count; ++g) {
    const Group& group = normal_.groups[static_cast<size_t>(g)];
    const ManGroup slot{j, group.count, group.domain == PawnDomain, group.radix, group.stride};
    by_stride[static_cast<size_t>(digit_count_++)] = {group.stride, Digit{g, j, group.radix, {}}};
    single_men_ = single_men_ && group.count == 1;
    for (int k = 0; k < group.count; ++k) {
      man_pieces_[static_cast<size_t>(j)] = group.piece;
      man_groups_[static_cast<size_t>(j++)] = slot;
    }
  }
  std::sort(by_stride.begin(), by_stride.begin() + digit_count_,
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (int d = 0; d < digit_count_; ++d) {
    digits_[static_cast<size_t>(d)] = by_stride[static_cast<size_t>(d)].second;
    digits_[static_cast<size_t>(d)].divisor =
        FastDivisor(static_cast<uint32_t>(digits_[static_cast<size_t>(d)].radix));
  }
  describe_runs();
}

void IndexScheme::describe_runs() {
  const auto single = [&](int d) {
    const int man = d < digit_count_ ? digits_[static_cast<size_t>(d)].first_man : -1;
    return man >= 0 && man_groups_[static_cast<size_t>(man)].count == 1 ? man : 0;
  };
  run_man_ = single(0);
  run_stride_ = 1;
  if (run_man_ == 0 && digits_[0].first_man >= 0 && (run_man_ = single(1)) != 0)
    run_stride_ = digits_[0].radix;
}

IndexScheme::Layout IndexScheme::make_layout(const Material& m, const IndexOrder& order) {
  Layout layout;
  for (const IndexGroup& ig : index_groups(m)) {
    Group& g = layout.groups[static_cast<size_t>(layout.group_count++)];
    g.piece = ig.piece;
    g.count = ig.count;
    g.domain = type_of(ig.piece) == PieceType::Pawn ? PawnDomain : PieceDomain;
    g.radix = binomial(g.domain, g.count);
    layout.size *= g.radix;
  }
  // Strides from the innermost digit out.
  Index stride = 1;
  for (auto d = order.digits().rbegin(); d != order.digits().rend(); ++d) {
    if (*d == 0) {
      layout.pair_stride = stride;
      stride *= static_cast<Index>(m.has_pawns() ? PawnKings.size : PawnlessKings.size);
      continue;
    }
    Group& group = layout.groups[static_cast<size_t>(*d - 1)];
    group.stride = stride;
    stride *= group.radix;
  }
  return layout;
}

bool IndexScheme::has_material(const Position& pos) const {
  if (popcount(pos.pieces()) != material_.men()) return false;
  if (pos.count(Color::White, PieceType::King) != 1 || pos.count(Color::Black, PieceType::King) != 1)
    return false;
  for (int g = 0; g < normal_.group_count; ++g) {
    const Group& group = normal_.groups[static_cast<size_t>(g)];
    if (pos.count(color_of(group.piece), type_of(group.piece)) != group.count) return false;
  }
  return (pos.pieces(PieceType::Pawn) & (Rank1BB | Rank8BB)) == 0;
}

IndexScheme::PieceBoards IndexScheme::piece_boards(const Position& pos, Symmetry s) const {
  PieceBoards boards{};
  for (int g = 0; g < normal_.group_count; ++g) {
    const Piece p = normal_.groups[static_cast<size_t>(g)].piece;
    boards[static_cast<size_t>(to_index(p))] = apply(s, pos.pieces(color_of(p), type_of(p)));
  }
  return boards;
}

Index IndexScheme::encode_men(const Layout& layout, const PieceBoards& boards, Square wk, Square bk) {
  const int lo = std::min(to_index(wk), to_index(bk));
  const int hi = std::max(to_index(wk), to_index(bk));
  Index rank = 0;
  for (int g = 0; g < layout.group_count; ++g) {
    const Group& group = layout.groups[static_cast<size_t>(g)];
    Bitboard men = boards[static_cast<size_t>(to_index(group.piece))];
    std::array<uint8_t, MaxIndexMen> v{};
    for (size_t j = 0; men; ++j) {
      const Square s = pop_lsb(men);
      v[j] = domain_value(group.domain == PawnDomain, s, lo, hi);
    }
    rank += group.stride * combination_rank(v.data(), group.count);
  }
  return rank;
}

void IndexScheme::decode_men(const Layout& layout, Index rank, Square wk, Square bk, Placement& out) {
  const int lo = std::min(to_index(wk), to_index(bk));
  const int hi = std::max(to_index(wk), to_index(bk));
  for (int g = 0; g < layout.group_count; ++g) {
    const Group& group = layout.groups[static_cast<size_t>(g)];
    std::array<uint8_t, MaxIndexMen> values{};
    combination_unrank(rank / group.stride % group.radix, group.count, values.data());
    for (int j = 0; j < group.count; ++j) {
      const int value = values[static_cast<size_t>(j)];
      out.add(group.piece, group.domain == PawnDomain ? square_at(value + 8) : free_square(value, lo, hi));
    }
  }
}

void IndexScheme::place(const Placement& men, Color stm, Position& out) {
  // Emptying the previous position is cheaper than assigning a new one (no 150-byte clear).
  for (Bitboard old = out.pieces(); old;) out.remove_piece(pop_lsb(old));
  out.set_ep_square(Square::None);
  out.set_castling_rights(0);
  out.set_counters(0, 1);
  for (int j = 0; j < men.count; ++j)
    out.put_piece(men.pieces[static_cast<size_t>(j)], men.squares[static_cast<size_t>(j)]);
  out.set_side_to_move(stm);
}

Index IndexScheme::encode_boards(const PieceBoards& boards, Square wk, Square bk) const {
  const Index pair = kings_->pair[KkMap::at(wk, bk)];
  return pair * normal_.pair_stride + encode_men(normal_, boards, wk, bk);
}

Index IndexScheme::encode(const Position& pos, Symmetry s) const {
  const Square wk = apply(s, pos.king_square(Color::White));
  const Square bk = apply(s, pos.king_square(Color::Black));
  return encode_boards(piece_boards(pos, s), wk, bk);
}

Index IndexScheme::encode_men(const Men& men, Symmetry s) const {
  const Square wk = apply(s, men.squares[0]);
  const Square bk = apply(s, men.squares[1]);
  const int lo = std::min(to_index(wk), to_index(bk));
  const int hi = std::max(to_index(wk), to_index(bk));
  Index entry = kings_->pair[KkMap::at(wk, bk)] * normal_.pair_stride;
  if (single_men_) {
    // Every group one man: its digit is its square's value (KQRkr, KRPkr, ...).
    for (int j = 2; j < men_; ++j) {
      const ManGroup& g = man_groups_[static_cast<size_t>(j)];
      const Square sq = apply(s, men.squares[static_cast<size_t>(j)]);
      entry += g.stride * domain_value(g.pawns, sq, lo, hi);
    }
    return entry;
  }
  for (int j = 2; j < men_;) {
    const ManGroup& g = man_groups_[static_cast<size_t>(j)];
    std::array<uint8_t, MaxIndexMen> v{};
    for (int k = 0; k < g.count; ++k) {
      const Square sq = apply(s, men.squares[static_cast<size_t>(j + k)]);
      v[static_cast<size_t>(k)] = domain_value(g.pawns, sq, lo, hi);
    }
    sort_values(v.data(), g.count);
    entry += g.stride * combination_rank(v.data(), g.count);
    j += g.count;
  }
  return entry;
}

Index IndexScheme::index_of(const Men& men) const {
  const Symmetry s = kings_->symmetry[KkMap::at(men.squares[0], men.squares[1])];
  const Index entry = encode_men(men, s);
  if (kings_->pawns || !on_diagonal(apply(s, men.squares[0])) || !on_diagonal(apply(s, men.squares[1])))
    return entry;
  // Both kings on the a1-h8 diagonal: the smaller twin, as index_of(Position) chooses.
  return std::min(entry, encode_men(men, compose(Symmetry::FlipDiag, s)));
}

void IndexScheme::index_of_squares(Men men, int j, const Square* squares, int n, Index* out) const {
  if (j < 2 || n == 0) {
    for (int k = 0; k < n; ++k) {
      men.squares[static_cast<size_t>(j)] = squares[k];
      out[k] = index_of(men);
    }
    return;
  }
  const ManGroup& g = man_groups_[static_cast<size_t>(j)];
  const Symmetry s = kings_->symmetry[KkMap::at(men.squares[0], men.squares[1])];
  const Square wk = apply(s, men.squares[0]);
  const Square bk = apply(s, men.squares[1]);
  const int lo = std::min(to_index(wk), to_index(bk));
  const int hi = std::max(to_index(wk), to_index(bk));
  const auto value = [&](Square sq) { return domain_value(g.pawns, apply(s, sq), lo, hi); };
  // Man j's place among the sorted values of its group: the others below it. Its digit's part is
  // C(value, place + 1) (combination_rank), so squares of one place differ by that alone.
  const auto place = [&](int v) {
    int below = 0;
    for (int m = g.first; m < g.first + g.count; ++m)
      if (m != j && value(men.squares[static_cast<size_t>(m)]) < v) ++below;
    return below;
  };
  const int v0 = value(squares[0]);
  const int p = place(v0);
  men.squares[static_cast<size_t>(j)] = squares[0];
  const Index base = encode_men(men, s) - g.stride * binomial(v0, p + 1);
  for (int k = 0; k < n; ++k) {
    const int v = value(squares[k]);
    if (g.count == 1 || place(v) == p) {
      out[k] = base + g.stride * binomial(v, p + 1);
    } else {
      men.squares[static_cast<size_t>(j)] = squares[k];
      out[k] = index_of(men);
    }
  }
}

bool IndexScheme::men_at(Index i, Men& out) const {
  assert(i < normal_size_);
  if (men_at_32bit_) return men_at_as(static_cast<uint32_t>(i), out);
  return men_at_as(i, out);
}

template <class Int>
int IndexScheme::digit_values(Int i, DigitValues& values) const {
  // A wide index divides with the instruction only until its rest fits 32 bits: a 6-man entry
  // below 7.75 G needs one such division (by the innermost radix, 62 or less), the other digits
  // multiply.
  int pair_digit = 0;
  int d = 0;
  for (; d < digit_count_ && i > UINT32_MAX; ++d) {
    const Digit& digit = digits_[static_cast<size_t>(d)];
    const Int rest = quotient(i, digit.divisor, digit.radix);
    values[static_cast<size_t>(d)] = static_cast<uint32_t>(i - rest * static_cast<Int>(digit.radix));
    i = rest;
    if (digit.first_man < 0) pair_digit = d;
  }
  for (auto narrow = static_cast<uint32_t>(i); d < digit_count_; ++d) {
    const Digit& digit = digits_[static_cast<size_t>(d)];
    const uint32_t rest = digit.divisor.quotient(narrow);
    values[static_cast<size_t>(d)] = narrow - rest * digit.divisor.divisor();
    narrow = rest;
    if (digit.first_man < 0) pair_digit = d;
  }
  return pair_digit;
}

template <class Int>
bool IndexScheme::men_at_as(Int i, Men& out) const {
  // The digits innermost first, then the kings, then the men of each group.
  DigitValues values{};
  const int pair_digit = digit_values(i, values);
  const auto [wk, bk] = kings_->kings[static_cast<size_t>(values[static_cast<size_t>(pair_digit)])];
  out.squares[0] = wk;
  out.squares[1] = bk;
  const int lo = std::min(to_index(wk), to_index(bk));
  const int hi = std::max(to_index(wk), to_index(bk));
  Bitboard occupied = square_bb(wk) | square_bb(bk);
  bool overlaps = false;
  for (int d = 0; d < digit_count_; ++d) {
    if (d == pair_digit) continue;
    const ManGroup& g = man_groups_[static_cast<size_t>(digits_[static_cast<size_t>(d)].first_man)];
    std::array<uint8_t, MaxIndexMen> squares{};
    combination_unrank(values[static_cast<size_t>(d)], g.count, squares.data());
    for (int k = 0; k < g.count; ++k) {
      const int v = squares[static_cast<size_t>(k)];
      const Square s = g.pawns ? square_at(v + 8) : free_square(v, lo, hi);
      overlaps |= contains(occupied, s);
      occupied |= square_bb(s);
      out.squares[static_cast<size_t>(g.first + k)] = s;
    }
  }
  return !overlaps;
}

std::optional<Index> IndexScheme::index_of(const Position& pos) const {
  if (!has_material(pos)) return std::nullopt;
  const size_t at = KkMap::at(pos.king_square(Color::White), pos.king_square(Color::Black));
  if (kings_->pair[at] == KkMap::None || pos.king_attacked(~pos.side_to_move())) return std::nullopt;
  const Symmetry s = kings_->symmetry[at];
  if (ep_size_ > 0 && pos.ep_square() != Square::None && pos.has_ep_capture()) {
    if (!double_step_possible(pos)) return std::nullopt;
    return encode_ep(pos, s);
  }
  if (!kings_on_diagonal(pos, s)) return encode(pos, s);
  // Both orientations of the kings are canonical: the smaller entry stands for both, so that a
  // position and its mirror image always share one index (the other entry is a duplicate).
  return std::min(encode(pos, s), encode(pos, compose(Symmetry::FlipDiag, s)));
}

bool IndexScheme::kings_on_diagonal(const Position& pos, Symmetry s) const {
  if (material_.has_pawns()) return false;
  const Square wk = apply(s, pos.king_square(Color::White));
  const Square bk = apply(s, pos.king_square(Color::Black));
  return file_of(wk) == rank_of(wk) && file_of(bk) == rank_of(bk);
}

bool IndexScheme::decode_normal(Index i, Color stm, Position& out) const {
  Men men;
  if (!men_at(i, men)) return false;
  Placement placement;
  for (int j = 0; j < men_; ++j)
    placement.add(man_pieces_[static_cast<size_t>(j)], men.squares[static_cast<size_t>(j)]);
  place(placement, stm, out);
  return !out.king_attacked(~stm);
}

bool IndexScheme::decode(Index i, Color stm, Position& out) const {
  assert(i < size());
  return i < normal_size_ ? decode_normal(i, stm, out) : decode_ep(i - normal_size_, stm, out);
}

std::optional<Position> IndexScheme::position_at(Index i, Color stm) const {
  if (i >= size()) return std::nullopt;
  Position pos;
  if (!decode(i, stm, pos)) return std::nullopt;
  return pos;
}

EntryWeights IndexScheme::weights(Index i, const Position& pos) const {
  if (!kings_->pawns) return pawnless_weights(i, pos);
  if (is_ep_entry(i)) return PawnEpWeights;
  EntryWeights w = PawnNormalWeights;
  if (ep_size_ > 0) w.index462 += unplayable_ep_rights(pos);
  return w;
}

IndexScheme::WeightRun IndexScheme::weight_run(Index i, Convention c) const {
  if (is_ep_entry(i)) return {size(), PawnEpWeights.get(c)};
  if (kings_->pawns) return {normal_size_, PawnNormalWeights.get(c)};
  const Index pair = i / normal_.pair_stride;  // the kings lead a table without pawns
  const Index end = (pair + 1) * normal_.pair_stride;
  const auto [wk, bk] = kings_->kings[static_cast<size_t>(pair)];
  if (!on_diagonal(wk) || !on_diagonal(bk)) return {end, PawnlessWeights.get(c)};
  if (c == Convention::Classes) return {end, std::nullopt};
  return {end, c == Convention::Index462 ? PawnlessWeights.index462 : PawnlessWeights.physical / 2};
}

bool IndexScheme::gives_check(const Men& men, Color attacker) const {
  Bitboard occupied = 0;
  for (int j = 0; j < men_; ++j) occupied |= square_bb(men.squares[static_cast<size_t>(j)]);
  const Bitboard king = square_bb(men.squares[static_cast<size_t>(to_index(~attacker))]);
  for (int j = 2; j < men_; ++j) {
    const Piece p = man_piece(j);
    if (color_of(p) != attacker) continue;
    const Square s = men.squares[static_cast<size_t>(j)];
    const Bitboard attacks =
        type_of(p) == PieceType::Pawn ? pawn_attacks(attacker, s) : piece_attacks(type_of(p), s, occupied);
    if (attacks & king) return true;
  }
  return false;
}

Bitboard IndexScheme::run_legal_squares(const Men& run, Color stm) const {
  const auto step = static_cast<size_t>(run_man());
  if (step == 0) return gives_check(run, stm) ? Bitboard{0} : ~Bitboard{0};
  const Square king = run.squares[static_cast<size_t>(to_index(~stm))];
  Bitboard others = 0;
  for (size_t j = 0; j < static_cast<size_t>(men_); ++j)
    if (j != step) others |= square_bb(run.squares[j]);
  Bitboard legal = ~Bitboard{0};
  for (size_t j = 2; j < static_cast<size_t>(men_); ++j) {
    const Piece p = man_pieces_[j];
    if (j == step || color_of(p) != stm) continue;
    const Square s = run.squares[j];
    const Bitboard attacks =
        type_of(p) == PieceType::Pawn ? pawn_attacks(stm, s) : piece_attacks(type_of(p), s, others);
    if (attacks & square_bb(king)) legal &= between(s, king);  // only a block helps (none for a knight)
  }
  const Piece mover = man_pieces_[step];
  if (color_of(mover) == stm)  // the squares from which the run man would check
    legal &= ~(type_of(mover) == PieceType::Pawn ? pawn_attacks(~stm, king)
                                                 : piece_attacks(type_of(mover), king, others));
  return legal;
}

std::optional<EntryWeights> IndexScheme::plain_weights(Index i, Color stm, Men& men) const {
  if (is_ep_entry(i) || !men_at(i, men)) return std::nullopt;
  if (twin_possible(men) || (ep_size_ > 0 && pawns_side_by_side(men, stm))) return std::nullopt;
  if (gives_check(men, stm)) return EntryWeights{};
  return kings_->pawns ? PawnNormalWeights : PawnlessWeights;
}

Counts count_positions(const IndexScheme& scheme, Color stm, Index begin, Index end) {
  Counts counts;
  Position pos;
  IndexScheme::Men men;
  for (Index i = begin; i < end; ++i) {
    if (const auto plain = scheme.plain_weights(i, stm, men))
      counts.add(*plain);
    else if (scheme.decode(i, stm, pos))
      counts.add(scheme.weights(i, pos));
  }
  return counts;
}

}  // namespace egtb::indexing
