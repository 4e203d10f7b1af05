// The order of the digits of an index (index.hpp): which digit of an entry is the outermost, which
// the innermost. Table files choose it per table, because their blocks compress best when
// neighbouring entries hold similar scores, and which man to put inside depends on the endgame.
//
// The digits of a normal entry are the king pair (digit 0) and one digit per group of men (digit
// g + 1 for group g, the groups in the order White Q R B N P, then Black q r b n p). An order
// lists them outermost first. Example, KRPkr (groups R, P, r): the order 2 0 1 3 ("P Kk R r")
// leads with the white pawn, then the king pair, then the rooks, so that
//
//   entry = ((pawn * 1806 + kings) * 62 + white rook) * 62 + black rook.
//
// The orders a table may take keep the king pair before every piece group and the piece groups in
// the order above; a pawn group may stand anywhere. So a table without pawns has one order, the
// king pair leading (every table before index layout version 2, which is the order 0 1 2 ...), and
// a 5-man table with pawns at most twelve. The solver writes its results in storage order from
// data laid out by king pair (word_layout.hpp), slice by slice of the pawns: with the king pair
// before the pieces, each slice's data is read in runs, whatever the pawns' place. Measured on the
// 5-man set at zstd level 3 (docs/table-sizes.md): KBNkp takes 75% of its size with the black pawn
// leading ("p Kk B N") against the king pair leading, KQQPk 152% with the white pawn leading
// against the king pair ("Kk QQ P"); no one order suits every table. Chosen per table, the orders
// make the 3-5-man set 89.4% of its size with the king pair leading everywhere. A file may take
// any of these orders; egtb generate keeps the king pair leading in tables that other solves read
// block by block (egtb/store/order_choice.hpp), which leaves the set at 93.4%.
//
// In a table file the order is a 32-bit code (format.hpp): digit k of the order in bits 4k to 4k+3,
// plus one, zero above the last. Example: 2 0 1 3 is 0x4213.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"

namespace egtb::indexing {

class IndexOrder {
public:
  // The most digits: the king pair and a group for each of five more men.
  static constexpr int MaxDigits = 6;

  // The king pair, then every group in order: the only order of a table without pawns.
  [[nodiscard]] static IndexOrder kings_first(const Material& material);
  // The order a file's code names for `material`, or nothing when it names none of its orders.
  [[nodiscard]] static std::optional<IndexOrder> from_code(uint32_t code, const Material& material);
  // Every order `material` may take, kings_first first.
  [[nodiscard]] static std::vector<IndexOrder> candidates(const Material& material);

  [[nodiscard]] std::span<const uint8_t> digits() const {
    return std::span<const uint8_t>(digits_.data(), static_cast<size_t>(count_));
  }
  [[nodiscard]] uint32_t code() const;
  // Whether the king pair is the outermost digit, as in every order a solve reads quickly when it
  // pages the table as a subtable ("Kk R P", not "P Kk R").
  [[nodiscard]] bool kings_lead() const { return count_ > 0 && digits_[0] == 0; }
  // The digits by the men they place, outermost first: "P Kk R r" for KRPkr's 2 0 1 3.
  [[nodiscard]] std::string str(const Material& material) const;
  bool operator==(const IndexOrder&) const = default;

private:
  std::array<uint8_t, MaxDigits> digits_{};
  int count_ = 0;

  // True when the king pair stands before every piece group and those keep their order.
  [[nodiscard]] bool allowed(const Material& material) const;
};

// The groups of a material in index order (White Q R B N P, then Black q r b n p): their pieces
// and counts. Group g is digit g + 1 of an order.
struct IndexGroup {
  Piece piece = Piece::None;
  int count = 0;
};
[[nodiscard]] std::vector<IndexGroup> index_groups(const Material& material);

}  // namespace egtb::indexing
