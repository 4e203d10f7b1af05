#include "retro/subtables.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>

#include "egtb/core/fen.hpp"

namespace egtb::retro {

namespace {

// The score of `pos` in `table`, which holds its colour-flipped image when `flip`.
Score score_in(const SolvedTable& table, const Position& pos, bool flip) {
  const Position oriented = flip ? color_flipped(pos) : pos;
  const auto index = table.scheme.index_of(oriented);
  if (!index)
    throw std::logic_error("position " + to_fen(pos) + " has no index in " + table.scheme.material().str());
  return table.at(oriented.side_to_move(), *index);
}

}  // namespace

PagedScores::PagedScores(const std::filesystem::path& path, std::shared_ptr<BlockCache> cache)
    : reader_(path), cache_(std::move(cache)) {
  static std::atomic<uint32_t> next_id{0};
  id_ = next_id++;
}

const std::vector<uint16_t>& PagedScores::block(uint64_t block) const {
  // Each thread keeps the last blocks it used in a small direct-mapped array, so that most probes
  // touch neither the shared cache's locks nor the file. Example: KRPkr's promotions alternate
  // between KQRkr, KRRkr, KRBkr and KRNkr, whose current blocks then sit in four slots.
  struct Slot {
    uint32_t owner = UINT32_MAX;
    uint64_t block = 0;
    BlockCache::Block scores;
  };
  constexpr size_t Slots = 32;
  thread_local std::array<Slot, Slots> recent;
  Slot& slot = recent[(block * 0x9E3779B97F4A7C15ULL + id_ * 0x632BE59BD9B4E019ULL) >> 59];
  if (slot.owner != id_ || slot.block != block || !slot.scores)
    slot = Slot{id_, block, cache_->find_or_load({id_, block}, [&](std::vector<uint16_t>& out) {
                  reader_.read_block(block, out);
                })};
  return *slot.scores;
}

Score PagedScores::at(Color stm, indexing::Index i) const {
  return Score::from_raw(block(reader_.block_of(stm, i))[reader_.offset_in_block(i)]);
}

void PagedScores::at(Color stm, const indexing::Index* entries, int n, Score* out) const {
  const uint64_t size = reader_.header().block_entries;
  uint64_t first = 0, end = 0;  // the entries of the block at hand
  const std::vector<uint16_t>* scores = nullptr;
  for (int k = 0; k < n; ++k) {
    const indexing::Index i = entries[k];
    if (!scores || i < first || i >= end) {
      scores = &block(reader_.block_of(stm, i));
      first = i - reader_.offset_in_block(i);
      end = first + size;
    }
    out[k] = Score::from_raw((*scores)[i - first]);
  }
}

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
  const auto table = find(flip ? material.mirrored() : material);
  if (!table) throw std::logic_error("subtable " + material.normalized().str() + " is not loaded");
  return score_in(*table, pos, flip);
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
        e.first_man[static_cast<size_t>(to_index(make_piece(Color::Black, PieceType::King)))] = 1;
        if (!after.is_bare_kings()) e.table = subtables.find(e.flip ? after.mirrored() : after).get();
        if (!e.table) continue;
        for (int j = e.table->scheme.man_count() - 1; j >= 0; --j)
          e.first_man[static_cast<size_t>(to_index(e.table->scheme.man_piece(j)))] = static_cast<int8_t>(j);
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
  table->scheme.index_of_squares(men, man, placed.data(), n, entries.data());
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
