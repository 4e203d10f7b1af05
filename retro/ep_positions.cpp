#include "retro/ep_positions.hpp"

namespace egtb::retro {

indexing::WordLayout::Men men_of(const indexing::WordLayout& layout, const Position& pos) {
  indexing::WordLayout::Men men;
  std::array<Bitboard, PieceIndexCount> left{};
  for (int j = 0; j < layout.man_count(); ++j) {
    const Piece p = layout.man_piece(j);
    Bitboard& b = left[static_cast<size_t>(to_index(p))];
    if (!b) b = pos.pieces(color_of(p), type_of(p));
    men.squares[static_cast<size_t>(j)] = pop_lsb(b);
  }
  return men;
}

EpPositions ep_positions(const indexing::WordLayout& layout, const Position& pos) {
  const Color c = pos.side_to_move();
  Position base = pos;
  base.set_ep_square(Square::None);
  const Square stepped = square_at(to_index(pos.ep_square()) + pawn_push(~c));
  Position before = base;
  before.remove_piece(stepped);
  before.put_piece(make_piece(~c, PieceType::Pawn), square_at(to_index(pos.ep_square()) - pawn_push(~c)));
  before.set_side_to_move(~c);
  return {layout.position_of(men_of(layout, base)), layout.position_of(men_of(layout, before))};
}

}  // namespace egtb::retro
