// The solved tables a table's captures and promotions lead into, held in memory for the solver.
#pragma once

#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/block_cache.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/score.hpp"
#include "indexing/index.hpp"

namespace egtb::retro {

// The scores of a table file read block by block when asked for, through a block cache shared
// with other paged tables: for subtables too large to hold whole. A 5-man table such as KQRkr
// (440 MB in memory) is reached from KRPkr only by promotions, a few probes per position with a
// pawn on the 7th rank, and those land in few blocks at a time.
class PagedScores {
public:
  // Opens the file (TableReader checks it).
  PagedScores(const std::filesystem::path& path, std::shared_ptr<BlockCache> cache);

  [[nodiscard]] Score at(Color stm, indexing::Index i) const;
  // out[k] = at(stm, entries[k]) for k < n, a block looked up once for a run of entries in it.
  void at(Color stm, const indexing::Index* entries, int n, Score* out) const;
  [[nodiscard]] const TableReader& reader() const { return reader_; }

private:
  TableReader reader_;
  std::shared_ptr<BlockCache> cache_;
  // The scores of one block, through this thread's recent blocks and the cache.
  [[nodiscard]] const std::vector<uint16_t>& block(uint64_t block) const;
  uint32_t id_;  // names the table in the cache, unique in the process
};

// One solved table: its index scheme and the raw Score of every entry, per side to move, held in
// `scores` or, for a paged subtable, read through `paged`.
struct SolvedTable {
  explicit SolvedTable(const Material& m) : scheme(m) {}

  indexing::IndexScheme scheme;
  std::array<std::vector<uint16_t>, 2> scores;
  std::shared_ptr<const PagedScores> paged;
  bool has_dts = true;

  [[nodiscard]] Score at(Color stm, indexing::Index i) const {
    if (paged) return paged->at(stm, i);
    return Score::from_raw(scores[static_cast<size_t>(to_index(stm))][i]);
  }
  void at(Color stm, const indexing::Index* entries, int n, Score* out) const {
    if (paged) return paged->at(stm, entries, n, out);
    for (int k = 0; k < n; ++k)
      out[k] = Score::from_raw(scores[static_cast<size_t>(to_index(stm))][entries[k]]);
  }
};

class Subtables {
public:
  // Makes a solved table available; its material must be canonical.
  void add(std::shared_ptr<const SolvedTable> table);
  [[nodiscard]] bool contains(const Material& canonical) const { return tables_.count(canonical) != 0; }
  [[nodiscard]] std::shared_ptr<const SolvedTable> find(const Material& canonical) const;

  // The score of a legal position of any material held here (either colour orientation), or
  // of bare kings (a draw). Throws std::logic_error when the table is missing: the scheduler
  // loads every successor before solving.
  [[nodiscard]] Score probe(const Position& pos) const;

private:
  std::map<Material, std::shared_ptr<const SolvedTable>> tables_;
};

// The subtables the moves of one table leave into, looked up once: the piece a move captures and
// the piece it promotes to decide the material it leads into. Example, KQRkr with White to move:
// Qxr leads into KQRk, Rxr into KQRk as well, and (with Black to move) rxR into KQkr and rxQ into
// KRkr, the latter two as stored (their canonical orientation keeps White stronger).
class ExitTables {
public:
  // Looks up the tables of `material`'s exits in `subtables`; probe() throws std::logic_error for
  // a move into a table that is not there.
  ExitTables(const Material& material, const Subtables& subtables);

  // The score of pos.after(m), for a capture, promotion or e.p. capture m of pos.
  [[nodiscard]] Score probe(const Position& pos, Move m) const;
  // The position after a move out of the table, ready to be scored again with one man moved:
  // the men in the subtable's order and orientation, and where each man of the parent went. No
  // Position is built. Example, KQRkr men {Ka1, kh8, Qd1, Rb2, rd8} and Qxd8: the KQRk men are
  // {Ka1, kh8, Qd8, Rb2}, and the rook (parent man 3) is child man 3.
  struct Child {
    const SolvedTable* table = nullptr;  // nullptr: bare kings, a draw unless they touch
    bool flip = false;                   // the subtable holds the colour-flipped position
    Color stm = Color::White;            // the side to move in the subtable
    indexing::IndexScheme::Men men;
    std::array<int8_t, indexing::MaxIndexMen> where{};  // parent man -> child man, -1 when captured

    // The child with parent man j (not captured) on square s instead.
    void place(int j, Square s) {
      men.squares[static_cast<size_t>(where[static_cast<size_t>(j)])] = flip ? flip_rank(s) : s;
    }
    // The scores of the children with parent man j on squares[k] instead, into out[k] (k < n).
    void score_squares(int j, const Square* squares, int n, Score* out) const;
    // Its score; Score::invalid() when the move was illegal (the mover's king left in check).
    [[nodiscard]] Score score() const {
      if (square_distance(men.squares[0], men.squares[1]) <= 1) return Score::invalid();  // a king took
      return table ? table->at(stm, table->scheme.index_of(men)) : Score::draw();
    }
  };
  // The child of move m (no e.p. capture) of the men `men` (in `scheme`'s order, `stm` to move).
  [[nodiscard]] Child child(const indexing::IndexScheme& scheme, const indexing::IndexScheme::Men& men,
                            Color stm, Move m) const;

private:
  struct Exit {
    Material material;                   // after the move
    const SolvedTable* table = nullptr;  // nullptr: bare kings (a draw), or not loaded
    bool flip = false;                   // the table holds the colour-flipped position
    // The subtable's first man of each piece (by Piece value, in the table's orientation).
    std::array<int8_t, PieceIndexCount> first_man{};
  };
  [[nodiscard]] const Exit& exit_for(Color mover, Piece captured, PieceType promotion) const;
  // [mover][captured piece][promotion type]; PieceType::None for none.
  static size_t slot(Color mover, Piece captured, PieceType promotion) {
    return (static_cast<size_t>(to_index(mover)) * PieceIndexCount +
            static_cast<size_t>(to_index(captured))) *
               8 +
           static_cast<size_t>(to_index(promotion));
  }
  std::array<Exit, 2 * PieceIndexCount * 8> exits_{};
};

}  // namespace egtb::retro
