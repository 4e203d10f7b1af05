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

}  // namespace egtb::retro
