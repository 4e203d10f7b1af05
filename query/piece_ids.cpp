#include "query/piece_ids.hpp"

#include <algorithm>

#include "query/filter.hpp"

namespace egtb::query::detail {

std::optional<Square> start_piece_square(const Position& pos, int id) {
  if (id < 0) return std::nullopt;
  Bitboard men = pos.pieces();
  for (int i = 0; i < id && men; ++i) men &= men - 1;
  if (!men) return std::nullopt;
  return lsb(men);
}

PieceIds start_piece_ids(const Position& pos) {
  PieceIds ids;
  for (int s = 0; s < 64; ++s) ids[static_cast<size_t>(s)] = start_piece_id(pos, square_at(s));
  return ids;
}

PieceIds after_move(PieceIds ids, const Position& before, Move m) {
  if (m.is_null()) return ids;
  const auto at = [&ids](Square s) -> int8_t& { return ids[static_cast<size_t>(to_index(s))]; };
  const auto move_man = [&at](Square from, Square to) {
    at(to) = at(from);
    at(from) = NoPieceId;
  };
  if (const std::optional<Square> taken = capture_square(before, m)) at(*taken) = NoPieceId;
  if (m.kind() == MoveKind::Castling) {
    const auto [rook_from, rook_to] = castling_rook(m);
    move_man(rook_from, rook_to);
  }
  move_man(m.from(), m.to());
  return ids;
}

std::optional<Square> square_of(const PieceIds& ids, int id) {
  if (id < 0) return std::nullopt;
  const auto* at = std::find(ids.begin(), ids.end(), static_cast<int8_t>(id));
  if (at == ids.end()) return std::nullopt;
  return square_at(static_cast<int>(at - ids.begin()));
}

const GamePieceIds& GamePieceIds::of(const pgn::Game& g) {
  if (game == &g && number == g.number && size == g.size()) return *this;
  game = &g;
  number = g.number;
  size = g.size();
  // A node comes after its parent in the game's vector, so one pass numbers them all.
  by_node.resize(g.size());
  by_node[pgn::Game::Root] = start_piece_ids(g.start());
  for (pgn::NodeId n = 1; n < g.size(); ++n) {
    const pgn::Node& node = g.node(n);
    by_node[n] = after_move(by_node[node.parent], g.position(node.parent), node.move);
  }
  return *this;
}

}  // namespace egtb::query::detail
