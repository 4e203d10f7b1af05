// The solved tables a table's captures and promotions lead into (egtb::Table, whole in memory or
// paged from their files), for the solver and the verifier.
#pragma once

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <memory>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/table.hpp"
#include "indexing/index.hpp"

namespace egtb::retro {

// Subtables with more than PagedTableEntries entries per side (egtb/store/table.hpp,
// paged_subtable) are read block by block through a cache, not loaded whole: by default of
// PagedCacheBytes, enough for a solve, which visits a subtable king pair by king pair.
inline constexpr size_t PagedCacheBytes = size_t{64} << 20;

class Subtables {
public:
  // The solved successor tables of `material` (its captures and promotions), from their files in
  // `directory`, each built under `rules` with at least `metrics`, the paged ones sharing a cache of
  // `cache_bytes`. Throws IoError when one is missing, FormatError when one is damaged or holds
  // other rules or fewer metrics.
  [[nodiscard]] static Subtables load(const Material& material, const std::filesystem::path& directory,
                                      Rules rules, MetricSet metrics, size_t cache_bytes = PagedCacheBytes);

  // Makes a solved table available; its material must be canonical.
  void add(std::shared_ptr<const Table> table);
  [[nodiscard]] bool contains(const Material& canonical) const { return tables_.count(canonical) != 0; }
  [[nodiscard]] std::shared_ptr<const Table> find(const Material& canonical) const;

  // The score of a legal position of any material held here (either colour orientation), or
  // of bare kings (a draw). Throws std::logic_error when the table is missing: the scheduler
  // loads every successor before solving.
  [[nodiscard]] Score probe(const Position& pos) const;

  // The subtables read block by block whose file leads its index with a pawn group, not the king
  // pair (written by egtb recompress --orders any, for probes). A solve reads a subtable king pair
  // by king pair, which such a file scatters over a block per pawn placement: the solve still
  // gives the same table, many times more slowly (KPPPk reading KBPPk in "PP Kk B": minutes
  // instead of 16 s). Example: {KBPPk, KNPPk}.
  [[nodiscard]] std::vector<Material> slowly_paged() const;

private:
  std::map<Material, std::shared_ptr<const Table>> tables_;
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
  // Whether a move leads into a paged subtable.
  [[nodiscard]] bool pages() const {
    return std::any_of(exits_.begin(), exits_.end(),
                       [](const Exit& e) { return e.table && e.table->is_paged(); });
  }
  // Whether a capture of `mover` that promotes no pawn leads into a paged subtable: yes from 6 men
  // on (KRPkrp takes into KRPkr), no for 5 men, whose captures lead into 4-man tables held whole.
  [[nodiscard]] bool pages_captures(Color mover) const;
  // The position after a move out of the table, ready to be scored again with one man moved:
  // the men in the subtable's order and orientation, and where each man of the parent went. No
  // Position is built. Example, KQRkr men {Ka1, kh8, Qd1, Rb2, rd8} and Qxd8: the KQRk men are
  // {Ka1, kh8, Qd8, Rb2}, and the rook (parent man 3) is child man 3.
  struct Child {
    const Table* table = nullptr;  // nullptr: bare kings, a draw unless they touch
    bool flip = false;             // the subtable holds the colour-flipped position
    Color stm = Color::White;      // the side to move in the subtable
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
      return table ? table->at(stm, table->scheme().index_of(men)) : Score::draw();
    }
  };
  // The child of move m (no e.p. capture) of the men `men` (in `scheme`'s order, `stm` to move).
  [[nodiscard]] Child child(const indexing::IndexScheme& scheme, const indexing::IndexScheme::Men& men,
                            Color stm, Move m) const;

private:
  struct Exit {
    Material material;             // after the move
    const Table* table = nullptr;  // nullptr: bare kings (a draw), or not loaded
    bool flip = false;             // the table holds the colour-flipped position
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
