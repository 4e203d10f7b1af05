#include "retro/subtables.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"

namespace egtb::retro {

namespace {

// The score of `pos` in `table`, which holds its colour-flipped image when `flipped`.
Score score_in(const Table& table, const Position& pos, bool flipped) {
  const Position oriented = TableOrientation{table.material(), flipped}.oriented(pos);
  const auto index = table.scheme().index_of(oriented);
  if (!index) throw std::logic_error("position " + to_fen(pos) + " has no index in " + table.signature());
  return table.at(oriented.side_to_move(), *index);
}

}  // namespace

Subtables Subtables::load(const Material& material, const std::filesystem::path& directory, Rules rules,
                          MetricSet metrics, size_t cache_bytes) {
  Subtables subtables;
  std::shared_ptr<BlockCache> cache;
  for (const Material& next : material.successors()) {
    if (next.is_bare_kings() || subtables.contains(next)) continue;
    const auto path = table_path(directory, next, rules);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec) && !ec)
      throw IoError(path, "missing: " + material.str() + " needs its subtable " + next.str() +
                              " (build it with: egtb generate " + next.str() + " --dir " +
                              directory.string() + ")");
    const TableRequirements required{next, rules, metrics};
    if (!paged_subtable(next)) {
      subtables.add(Table::load(path, required));
      continue;
    }
    if (!cache) cache = std::make_shared<BlockCache>(cache_bytes);
    subtables.add(Table::page(path, required, cache));
  }
  return subtables;
}

void Subtables::add(std::shared_ptr<const Table> table) {
  const Material m = table->material();
  tables_[m] = std::move(table);
}

std::vector<Material> Subtables::slowly_paged() const {
  std::vector<Material> slow;
  for (const auto& [material, table] : tables_)
    if (table->is_paged() && !table->scheme().order().kings_lead()) slow.push_back(material);
  return slow;
}

std::shared_ptr<const Table> Subtables::find(const Material& canonical) const {
  const auto it = tables_.find(canonical);
  return it == tables_.end() ? nullptr : it->second;
}

Score Subtables::probe(const Position& pos) const {
  const Material material = Material::from(pos);
  if (material.is_bare_kings()) return Score::draw();
  const TableOrientation orientation = orientation_of(material);
  const auto table = find(orientation.canonical);
  if (!table) throw std::logic_error("subtable " + orientation.canonical.str() + " is not loaded");
  return score_in(*table, pos, orientation.flipped);
}

bool ExitTables::pages_captures(Color mover) const {
  for (int captured = 0; captured < PieceIndexCount; ++captured) {
    const Exit& e = exits_[slot(mover, static_cast<Piece>(captured), PieceType::None)];
    if (e.table && e.table->is_paged()) return true;
  }
  return false;
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
        const TableOrientation orientation = orientation_of(after);
        e.material = after;
        e.flip = orientation.flipped;
        e.first_man[static_cast<size_t>(to_index(make_piece(Color::Black, PieceType::King)))] = 1;
        if (!after.is_bare_kings()) e.table = subtables.find(orientation.canonical).get();
        if (!e.table) continue;
        for (int j = e.table->scheme().man_count() - 1; j >= 0; --j)
          e.first_man[static_cast<size_t>(to_index(e.table->scheme().man_piece(j)))] = static_cast<int8_t>(j);
      }
}

const ExitTables::Exit& ExitTables::exit_for(Color mover, Piece captured, PieceType promotion) const {
  const Exit& e = exits_[slot(mover, captured, promotion)];
  if (!e.table && !e.material.is_bare_kings())
    throw std::logic_error("subtable " + e.material.normalized().str() + " is not loaded");
  return e;
}

Score ExitTables::probe(const Position& pos, Move m) const {
  const Color mover = pos.side_to_move();
  const Piece captured =
      m.kind() == MoveKind::EnPassant ? make_piece(~mover, PieceType::Pawn) : pos.piece_on(m.to());
  const PieceType promotion = m.kind() == MoveKind::Promotion ? m.promotion() : PieceType::None;
  const Exit& e = exit_for(mover, captured, promotion);
  if (!e.table) return Score::draw();  // bare kings
  return score_in(*e.table, pos.after(m), e.flip);
}

void ExitTables::Child::score_squares(int j, const Square* squares, int n, Score* out) const {
  const int man = where[static_cast<size_t>(j)];
  if (man >= 2 && square_distance(men.squares[0], men.squares[1]) <= 1) {  // a king took next to the other
    std::fill(out, out + n, Score::invalid());
    return;
  }
  if (!table || man < 2) {  // bare kings, or a king that moves: the kings change
    Child one = *this;
    for (int k = 0; k < n; ++k) {
      one.place(j, squares[k]);
      out[k] = one.score();
    }
    return;
  }
  std::array<Square, 64> placed;
  std::array<indexing::Index, 64> entries;
  for (int k = 0; k < n; ++k) placed[static_cast<size_t>(k)] = flip ? flip_rank(squares[k]) : squares[k];
  table->scheme().index_of_squares(men, man, placed.data(), n, entries.data());
  table->at(stm, entries.data(), n, out);
}

ExitTables::Child ExitTables::child(const indexing::IndexScheme& scheme,
                                    const indexing::IndexScheme::Men& men, Color stm, Move m) const {
  int captured_man = -1;
  for (int j = 0; j < scheme.man_count(); ++j)
    if (men.squares[static_cast<size_t>(j)] == m.to()) captured_man = j;
  const Piece captured = captured_man < 0 ? Piece::None : scheme.man_piece(captured_man);
  const PieceType promotion = m.kind() == MoveKind::Promotion ? m.promotion() : PieceType::None;
  const Exit& e = exit_for(stm, captured, promotion);
  Child out;
  out.table = e.table;
  out.flip = e.flip;
  out.stm = e.flip ? stm : ~stm;
  out.where.fill(-1);
  std::array<int8_t, PieceIndexCount> next = e.first_man;  // bare kings: 0 and 1, the kings' men
  for (int j = 0; j < scheme.man_count(); ++j) {
    if (j == captured_man) continue;
    Piece p = scheme.man_piece(j);
    Square s = men.squares[static_cast<size_t>(j)];
    if (s == m.from()) {
      s = m.to();
      if (promotion != PieceType::None) p = make_piece(stm, promotion);
    }
    if (e.flip) {
      p = make_piece(~color_of(p), type_of(p));
      s = flip_rank(s);
    }
    const int8_t k = next[static_cast<size_t>(to_index(p))]++;
    out.where[static_cast<size_t>(j)] = k;
    out.men.squares[static_cast<size_t>(k)] = s;
  }
  return out;
}

}  // namespace egtb::retro
