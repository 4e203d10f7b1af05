#include "retro/ep_positions.hpp"

namespace egtb::retro {

EpPositions ep_positions(const indexing::WordLayout& layout, const Position& pos) {
  const Color c = pos.side_to_move();
  Position base = pos;
  base.set_ep_square(Square::None);
  const Square stepped = square_at(to_index(pos.ep_square()) + pawn_push(~c));
  Position before = base;
  before.remove_piece(stepped);
  before.put_piece(make_piece(~c, PieceType::Pawn), square_at(to_index(pos.ep_square()) - pawn_push(~c)));
  before.set_side_to_move(~c);
  const uint64_t at = layout.position_of(men_of(layout, base));
  const auto before_men = men_of(layout, before);
  if (!layout.holds(before_men)) return {at, 0, false};
  return {at, layout.position_of(before_men), true};
}

}  // namespace egtb::retro
