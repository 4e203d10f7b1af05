#include "indexing/word_layout.hpp"

#include <cassert>

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

WordLayout::WordLayout(const IndexScheme& scheme)
    : men_(scheme.man_count()), kings_(scheme.material().has_pawns() ? &PawnKings : &PawnlessKings) {
  assert(men_ >= 3);
  for (int j = 0; j < men_; ++j) pieces_[static_cast<size_t>(j)] = scheme.man_piece(j);
  // The innermost man: the last piece, else the last pawn.
  inner_ = men_ - 1;
  for (int j = men_ - 1; j >= 2; --j)
    if (type_of(pieces_[static_cast<size_t>(j)]) != PieceType::Pawn) {
      inner_ = j;
      break;
    }
  for (int j = men_ - 1; j >= 2; --j) {
    if (j == inner_) continue;
    strides_[static_cast<size_t>(j)] = pair_words_;
    radices_[static_cast<size_t>(j)] = type_of(pieces_[static_cast<size_t>(j)]) == PieceType::Pawn ? 48 : 64;
    pair_words_ *= static_cast<uint64_t>(radices_[static_cast<size_t>(j)]);
  }
  words_ = pair_words_ * static_cast<uint64_t>(kings_->size);
  decode_32bit_ = words_ <= UINT32_MAX && pair_words_ >= 2;
  if (decode_32bit_) pair_divisor_ = FastDivisor(static_cast<uint32_t>(pair_words_));
  offset_squares_.resize(pair_words_);
  for (uint64_t offset = 0; offset < pair_words_; ++offset) {
    uint64_t rest = offset;
    for (int j = men_ - 1; j >= 2; --j) {
      if (j == inner_) continue;
      const auto radix = static_cast<uint64_t>(radices_[static_cast<size_t>(j)]);
      const int d = static_cast<int>(rest % radix);
      rest /= radix;
      offset_squares_[offset][static_cast<size_t>(j)] = square_at(radix == 48 ? d + 8 : d);
    }
  }
}

void WordLayout::decode(uint64_t word, Men& men) const {
  assert(word < words_);
  const uint64_t pair =
      decode_32bit_ ? pair_divisor_.quotient(static_cast<uint32_t>(word)) : word / pair_words_;
  const auto& squares = offset_squares_[word - pair * pair_words_];
  for (int j = 2; j < men_; ++j)
    if (j != inner_) men.squares[static_cast<size_t>(j)] = squares[static_cast<size_t>(j)];
  men.squares[0] = kings_->kings[static_cast<size_t>(pair)][0];
  men.squares[1] = kings_->kings[static_cast<size_t>(pair)][1];
}

uint64_t WordLayout::word_of(const Men& men) const {
  const uint16_t pair = kings_->pair[KkMap::at(men.squares[0], men.squares[1])];
  assert(pair != KkMap::None);
  uint64_t word = pair * pair_words_;
  for (int j = 2; j < men_; ++j) {
    if (j == inner_) continue;
    const Square s = men.squares[static_cast<size_t>(j)];
    word += strides_[static_cast<size_t>(j)] *
            static_cast<uint64_t>(digit(radices_[static_cast<size_t>(j)] == 48, s));
  }
  return word;
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
