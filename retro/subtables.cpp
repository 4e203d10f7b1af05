#include "retro/subtables.hpp"

#include <stdexcept>

#include "egtb/core/fen.hpp"

namespace egtb::retro {

void Subtables::add(std::shared_ptr<const SolvedTable> table) {
  const Material m = table->scheme.material();
  tables_[m] = std::move(table);
}

std::shared_ptr<const SolvedTable> Subtables::find(const Material& canonical) const {
  const auto it = tables_.find(canonical);
  return it == tables_.end() ? nullptr : it->second;
}

Score Subtables::probe(const Position& pos) const {
  const Material material = Material::from(pos);
  if (material.is_bare_kings()) return Score::draw();
  const bool flip = !material.is_canonical();
  const Position oriented = flip ? color_flipped(pos) : pos;
  const auto table = find(flip ? material.mirrored() : material);
  if (!table) throw std::logic_error("subtable " + material.normalized().str() + " is not loaded");
  const auto index = table->scheme.index_of(oriented);
  if (!index)
    throw std::logic_error("position " + to_fen(pos) + " has no index in " + material.normalized().str());
  return table->at(oriented.side_to_move(), *index);
}

ExitTables::ExitTables(const Material& material, const Subtables& subtables) {
  constexpr PieceType Promotions[] = {PieceType::None, PieceType::Queen, PieceType::Rook, PieceType::Bishop,
                                      PieceType::Knight};
  constexpr PieceType Victims[] = {PieceType::None,   PieceType::Pawn, PieceType::Knight,
                                   PieceType::Bishop, PieceType::Rook, PieceType::Queen};
  for (Color mover : {Color::White, Color::Black})
    for (PieceType victim : Victims)
      for (PieceType promotion : Promotions) {
        if (victim != PieceType::None && material.count(~mover, victim) == 0) continue;
        if (promotion != PieceType::None && material.count(mover, PieceType::Pawn) == 0) continue;
        if (victim == PieceType::None && promotion == PieceType::None) continue;
        Material after = material;
        if (victim != PieceType::None) after = after.with_added(~mover, victim, -1);
        if (promotion != PieceType::None)
          after = after.with_added(mover, PieceType::Pawn, -1).with_added(mover, promotion);
        const Piece captured = victim == PieceType::None ? Piece::None : make_piece(~mover, victim);
        Exit& e = exits_[slot(mover, captured, promotion)];
        e.material = after;
        e.flip = !after.is_canonical();
        if (!after.is_bare_kings()) e.table = subtables.find(e.flip ? after.mirrored() : after).get();
      }
}

Score ExitTables::probe(const Position& pos, Move m) const {
  const Color mover = pos.side_to_move();
  const Piece captured =
      m.kind() == MoveKind::EnPassant ? make_piece(~mover, PieceType::Pawn) : pos.piece_on(m.to());
  const PieceType promotion = m.kind() == MoveKind::Promotion ? m.promotion() : PieceType::None;
  const Exit& e = exits_[slot(mover, captured, promotion)];
  if (e.material.is_bare_kings()) return Score::draw();
  if (!e.table) throw std::logic_error("subtable " + e.material.normalized().str() + " is not loaded");
  const Position child = pos.after(m);
  const Position oriented = e.flip ? color_flipped(child) : child;
  const auto index = e.table->scheme.index_of(oriented);
  if (!index)
    throw std::logic_error("position " + to_fen(child) + " has no index in " +
                           e.table->scheme.material().str());
  return e.table->at(oriented.side_to_move(), *index);
}

}  // namespace egtb::retro
