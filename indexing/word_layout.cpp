#include "indexing/word_layout.hpp"

#include <algorithm>
#include <cassert>
#include <map>

namespace egtb::indexing {

uint64_t layout_positions(const Material& material) {
  int pieces = 0;
  int pawns = 0;
  for (Color c : {Color::White, Color::Black}) {
    pawns += material.count(c, PieceType::Pawn);
    pieces += material.count(c) - 1 - material.count(c, PieceType::Pawn);  // the king left out
  }
  // The innermost man is a piece when there is one (its bit stands for its square), else a pawn.
  uint64_t positions = static_cast<uint64_t>((pawns > 0 ? PawnKings : PawnlessKings).size) * 64;
  for (int j = 1; j < pieces; ++j) positions *= 64;
  for (int j = pieces > 0 ? 0 : 1; j < pawns; ++j) positions *= 48;
  return positions;
}

DigitPawns::DigitPawns(const IndexScheme& scheme, bool placement) : base_(placement ? 48 : 8) {
  const int inner = WordLayout::inner_man(scheme);
  for (int j = 2; j < scheme.man_count(); ++j)
    if (j != inner && type_of(scheme.man_piece(j)) == PieceType::Pawn)
      men_[static_cast<size_t>(count_++)] = j;
  keys_ = power(count_);
}

uint32_t DigitPawns::key(const IndexScheme::Men& men) const {
  uint32_t key = 0;
  for (int i = count_ - 1; i >= 0; --i) {
    const Square s = men.squares[static_cast<size_t>(men_[static_cast<size_t>(i)])];
    key = key * base_ + static_cast<uint32_t>(placement() ? to_index(s) - 8 : file_of(s));
  }
  return key;
}

namespace {

// How far a placement key's digit pawns have advanced: the ranks of the white ones plus 7 less
// those of the black ones. A step of a digit pawn raises it by 1 or 2.
int advance(const IndexScheme& scheme, const DigitPawns& pawns, uint32_t key) {
  int a = 0;
  for (int i = 0; i < pawns.count(); ++i) {
    const int rank = pawns.rank(key, i);
    a += color_of(scheme.man_piece(pawns.man(i))) == Color::White ? rank : 7 - rank;
  }
  return a;
}

}  // namespace

PawnSlices::PawnSlices(const IndexScheme& scheme, Slicing slicing)
    : pawns_(scheme, slicing == Slicing::Placements || slicing == Slicing::PromotionsJoined) {
  const int inner = WordLayout::inner_man(scheme);
  bool inner_twin = false;  // the innermost man is a pawn identical to a digit pawn
  for (int i = 0; i < pawns_.count(); ++i)
    inner_twin |= scheme.man_piece(pawns_.man(i)) == scheme.man_piece(inner);
  if (slicing == Slicing::Whole || pawns_.count() == 0 || (inner_twin && scheme.ep_size() > 0)) {
    slices_.emplace_back();
    return;
  }
  // The variants reached from a key by the mirror and by exchanging identical digit pawns.
  const auto neighbours = [&](uint32_t key) {
    std::vector<uint32_t> out;
    uint32_t mirrored = key;
    for (int i = 0; i < pawns_.count(); ++i)
      mirrored = pawns_.with_digit(mirrored, i, pawns_.mirrored(pawns_.digit(key, i)));
    out.push_back(mirrored);
    for (int a = 0; a < pawns_.count(); ++a)
      for (int b = a + 1; b < pawns_.count(); ++b) {
        if (scheme.man_piece(pawns_.man(a)) != scheme.man_piece(pawns_.man(b))) continue;
        const uint32_t swapped = pawns_.with_digit(key, a, pawns_.digit(key, b));
        out.push_back(pawns_.with_digit(swapped, b, pawns_.digit(key, a)));
      }
    return out;
  };
  constexpr uint16_t Unassigned = 0xFFFF;
  slice_of_key_.assign(pawns_.keys(), Unassigned);
  for (uint32_t first = 0; first < pawns_.keys(); ++first) {
    if (slice_of_key_[first] != Unassigned) continue;
    PawnSlice slice;
    slice.placement = pawns_.placement();
    slice_of_key_[first] = static_cast<uint16_t>(slices_.size());
    slice.keys.push_back(first);
    for (size_t k = 0; k < slice.keys.size(); ++k)
      for (const uint32_t next : neighbours(slice.keys[k]))
        if (slice_of_key_[next] == Unassigned) {
          slice_of_key_[next] = static_cast<uint16_t>(slices_.size());
          slice.keys.push_back(next);
        }
    std::sort(slice.keys.begin(), slice.keys.end());
    slices_.push_back(std::move(slice));
  }
  if (pawns_.placement()) {
    std::stable_sort(slices_.begin(), slices_.end(), [&](const PawnSlice& a, const PawnSlice& b) {
      return advance(scheme, pawns_, a.keys[0]) > advance(scheme, pawns_, b.keys[0]);
    });
    if (slicing == Slicing::PromotionsJoined) join_promoting(scheme);
  }
  variant_of_key_.assign(pawns_.keys(), 0);
  for (size_t s = 0; s < slices_.size(); ++s)
    for (size_t v = 0; v < slices_[s].keys.size(); ++v) {
      const uint32_t key = slices_[s].keys[v];
      slice_of_key_[key] = static_cast<uint16_t>(s);
      variant_of_key_[key] = static_cast<uint16_t>(v);
    }
}

void PawnSlices::join_promoting(const IndexScheme& scheme) {
  const auto promoting = [&](uint32_t key) {
    for (int i = 0; i < pawns_.count(); ++i) {
      const bool white = color_of(scheme.man_piece(pawns_.man(i))) == Color::White;
      if (pawns_.rank(key, i) == (white ? 6 : 1)) return true;
    }
    return false;
  };
  std::vector<PawnSlice> joined;
  std::map<int, size_t> promoting_at;  // by advance: the joined slice of the promoting ones
  for (PawnSlice& slice : slices_) {
    if (promoting(slice.keys[0])) {
      const auto [at, first] =
          promoting_at.try_emplace(advance(scheme, pawns_, slice.keys[0]), joined.size());
      if (!first) {
        std::vector<uint32_t>& keys = joined[at->second].keys;
        keys.insert(keys.end(), slice.keys.begin(), slice.keys.end());
        std::sort(keys.begin(), keys.end());
        continue;
      }
    }
    joined.push_back(std::move(slice));
  }
  slices_ = std::move(joined);
}

Slicing pawn_slicing(const IndexScheme& scheme) {
  const int pawns = DigitPawns(scheme).count();
  return pawns == 0 ? Slicing::Whole : pawns == 1 ? Slicing::Placements : Slicing::Files;
}

int WordLayout::inner_man(const IndexScheme& scheme) {
  // The last piece, else the last pawn.
  for (int j = scheme.man_count() - 1; j >= 2; --j)
    if (type_of(scheme.man_piece(j)) != PieceType::Pawn) return j;
  return scheme.man_count() - 1;
}

WordLayout::WordLayout(const IndexScheme& scheme, const PawnSlice& slice)
    : men_(scheme.man_count()),
      inner_(inner_man(scheme)),
      kings_(scheme.material().has_pawns() ? &PawnKings : &PawnlessKings),
      digit_pawns_(scheme, slice.placement) {
  assert(men_ >= 3);
  const bool sliced = !slice.keys.empty();
  for (int j = 0; j < men_; ++j) pieces_[static_cast<size_t>(j)] = scheme.man_piece(j);
  for (int j = men_ - 1; j >= 2; --j) {
    if (j == inner_) continue;
    const bool pawn = type_of(pieces_[static_cast<size_t>(j)]) == PieceType::Pawn;
    strides_[static_cast<size_t>(j)] = pair_words_;
    radices_[static_cast<size_t>(j)] = !pawn ? 64 : !sliced ? 48 : slice.placement ? 1 : 6;
    pair_words_ *= static_cast<uint64_t>(radices_[static_cast<size_t>(j)]);
  }
  const size_t variants = slice.variants();
  variants_ = variants;
  kings_divisor_ = FastDivisor(static_cast<uint32_t>(kings_->size));
  if (sliced) {
    variant_of_key_.assign(digit_pawns_.keys(), -1);
    for (size_t v = 0; v < variants; ++v) variant_of_key_[slice.keys[v]] = static_cast<int8_t>(v);
  }
  for (int j = 2; j < men_; ++j)
    for (int sq = 0; j != inner_ && sq < 64; ++sq) {
      const int d = digit(j, square_at(sq));
      if (d >= 0)
        square_words_[static_cast<size_t>(j)][static_cast<size_t>(sq)] =
            strides_[static_cast<size_t>(j)] * static_cast<uint64_t>(d);
    }
  words_ = pair_words_ * static_cast<uint64_t>(kings_->size) * variants;
  decode_32bit_ = words_ <= UINT32_MAX && pair_words_ >= 2;
  if (decode_32bit_) pair_divisor_ = FastDivisor(static_cast<uint32_t>(pair_words_));
  offset_squares_.resize(pair_words_ * variants);
  for (size_t v = 0; v < variants; ++v)
    for (uint64_t offset = 0; offset < pair_words_; ++offset) {
      auto& squares = offset_squares_[v * pair_words_ + offset];
      uint64_t rest = offset;
      for (int j = men_ - 1; j >= 2; --j) {
        if (j == inner_) continue;
        const auto radix = static_cast<uint64_t>(radices_[static_cast<size_t>(j)]);
        const int d = static_cast<int>(rest % radix);
        rest /= radix;
        squares[static_cast<size_t>(j)] = square_at(radix == 48 ? d + 8 : d);  // a slice's pawn: below
      }
      for (int i = 0; sliced && i < digit_pawns_.count(); ++i) {
        const auto j = static_cast<size_t>(digit_pawns_.man(i));
        const uint32_t key = slice.keys[v];
        // A file slice's digit, decoded above, is the rank less 1; a placement slice has none.
        const int rank = slice.placement ? digit_pawns_.rank(key, i) : to_index(squares[j]) + 1;
        squares[j] = make_square(digit_pawns_.file(key, i), rank);
      }
    }
}

uint64_t WordLayout::decode(uint64_t word, Men& men) const {
  assert(word < words_);
  const uint64_t slot = slot_of(word);
  const uint64_t variant = variants_ == 1  ? 0
                           : decode_32bit_ ? kings_divisor_.quotient(static_cast<uint32_t>(slot))
                                           : slot / static_cast<uint64_t>(kings_->size);
  const uint64_t pair = slot - variant * static_cast<uint64_t>(kings_->size);
  const uint64_t placement = variant * pair_words_ + word - slot * pair_words_;
  const auto& squares = offset_squares_[placement];
  for (int j = 2; j < men_; ++j)
    if (j != inner_) men.squares[static_cast<size_t>(j)] = squares[static_cast<size_t>(j)];
  men.squares[0] = kings_->kings[static_cast<size_t>(pair)][0];
  men.squares[1] = kings_->kings[static_cast<size_t>(pair)][1];
  return placement;
}

uint64_t WordLayout::variant_of(const Men& men) const {
  if (variant_of_key_.empty()) return 0;
  const int8_t v = variant_of_key_[digit_pawns_.key(men)];
  assert(v >= 0);
  return static_cast<uint64_t>(v);
}

std::optional<Position> WordLayout::placement(const Men& men, Color stm) const {
  Position pos;
  for (int j = 0; j < men_; ++j) {
    const Square s = men.squares[static_cast<size_t>(j)];
    if (!pos.empty(s)) return std::nullopt;
    pos.put_piece(pieces_[static_cast<size_t>(j)], s);
  }
  pos.set_side_to_move(stm);
  return pos;
}

std::optional<Position> WordLayout::placement(uint64_t p, Color stm) const {
  Men men;
  decode(p / 64, men);
  men.squares[static_cast<size_t>(inner_)] = square_at(static_cast<int>(p % 64));
  return placement(men, stm);
}

uint64_t WordLayout::canonical_position(const Men& men) const {
  const Symmetry s = canonical_symmetry(men.squares[0], men.squares[1]);
  Men image;
  for (int j = 0; j < men_; ++j)
    image.squares[static_cast<size_t>(j)] = apply(s, men.squares[static_cast<size_t>(j)]);
  return position_of(image);
}

}  // namespace egtb::indexing
