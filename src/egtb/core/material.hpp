// Material signatures: which men stand on the board, e.g. "KRPkr" (White: king, rook, pawn; Black:
// king, rook).
//
// Text forms. The canonical text writes White first, pieces in the order K Q R B N P, then Black in
// lower case: "KRPkr". parse() also reads the Syzygy form "KRPvKR" (White before the 'v', Black
// after it, letter case ignored) and letters in any order ("KPRkr").
//
// Colour flip and the canonical side. A signature and its colour flip are one table: "Kkq" is "KQk"
// with the colours swapped. The canonical one of the two has the stronger side as White, where
// "stronger" compares, in this order:
//   1. material value, Q = 9, R = 5, B = 3, N = 3, P = 1 (more is stronger);
//   2. the counts of queens, rooks, bishops, knights, pawns, lexicographically (more is stronger).
// Example: KRkbn has values 5 v 6, so its canonical form is KBNkr; KBkn has values 3 v 3 and counts
// (0,0,1,0,0) v (0,0,0,1,0), so KBkn is canonical and KNkb is not. When both sides are equal in both
// keys they hold the same men (KQkq, KPkp): the signature is its own flip and canonical.
//
// Successors. One move changes the material by a capture (one man of either colour, never a king,
// disappears), a promotion (a pawn becomes a queen, rook, bishop or knight) or both at once (a
// promotion that captures a piece; pawns never stand on the promotion rank). KK, the bare kings, is
// a terminal material: every KK position is a draw and has no table.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/position.hpp"
#include "egtb/core/types.hpp"

namespace egtb {

class Material {
public:
  // The most men a table may have in this build. Indices are 64-bit (a pawnless 6-man table has
  // 462 x 64^4 = 7.75 G layout positions per side, indexing/word_layout.hpp), so 7 men need no
  // redesign of the index types either (indexing::MaxIndexMen).
  static constexpr int MaxMen = 6;

  // The bare kings, KK.
  Material();

  // Parses "KQPkq" or "KQPvKQ"; the error names the offending letter or rule. Signatures of more
  // than MaxMen men, up to max_men, are for estimates and tests of sizes (api/plan.hpp).
  [[nodiscard]] static Expected<Material, std::string> parse(std::string_view text, int max_men = MaxMen);
  // The men of a position (no limit on their number).
  [[nodiscard]] static Material from(const Position& pos);

  [[nodiscard]] int count(Color c, PieceType pt) const {
    return counts_[static_cast<size_t>(to_index(c))][static_cast<size_t>(to_index(pt))];
  }
  [[nodiscard]] int count(Color c) const;  // men of one colour, king included
  [[nodiscard]] int men() const { return count(Color::White) + count(Color::Black); }
  [[nodiscard]] bool has_pawns() const {
    return count(Color::White, PieceType::Pawn) + count(Color::Black, PieceType::Pawn) > 0;
  }
  [[nodiscard]] bool has_pawns(Color c) const { return count(c, PieceType::Pawn) > 0; }
  [[nodiscard]] bool is_bare_kings() const { return men() == 2; }

  // The signature with n more (or, for negative n, fewer) men of one colour and non-king type.
  // Precondition: the resulting count is not negative.
  [[nodiscard]] Material with_added(Color c, PieceType pt, int n = 1) const;

  // The same men with the colours swapped: KQk <-> Kkq.
  [[nodiscard]] Material mirrored() const;
  // This signature or its colour flip, whichever has the stronger side as White.
  [[nodiscard]] Material normalized() const;
  [[nodiscard]] bool is_canonical() const;

  // The canonical text form, "KRPkr".
  [[nodiscard]] std::string str() const;
  // The Syzygy form, "KRPvKR".
  [[nodiscard]] std::string syzygy_name() const;

  // Every canonical signature one capture, promotion or capturing promotion away, KK included,
  // sorted in build order (see dependency_closure), without repeats.
  [[nodiscard]] std::vector<Material> successors() const;

  // A hash of the men, for looking a signature up without comparing it with others: the counts'
  // bytes multiplied by odd constants and folded (Tablebase's value tables take its top bits).
  [[nodiscard]] uint64_t hash() const;

  friend auto operator<=>(const Material&, const Material&) = default;

private:
  std::array<std::array<uint8_t, PieceTypeCount>, 2> counts_{};

  void add(Color c, PieceType pt, int delta);
};

// How a signature's table holds its positions: the canonical signature, and whether positions
// are colour-flipped to reach it. Example: Kkq has canonical KQk and flipped true, so a Kkq
// position is read in KQk's table as its colour flip (colours swapped, board mirrored top to
// bottom, the other side to move); the score, being from the side to move, is the same. The one
// place every reader of tables (Tablebase, the solver's subtables, query scans) orients by.
struct TableOrientation {
  Material canonical;
  bool flipped = false;

  // The position as the canonical table holds it.
  [[nodiscard]] Position oriented(const Position& pos) const { return flipped ? color_flipped(pos) : pos; }
};
[[nodiscard]] TableOrientation orientation_of(const Material& m);

// Build order: fewer men first, then fewer pawns, then the canonical text. Every successor of a
// signature comes before it, because a capture removes a man and a promotion removes a pawn.
[[nodiscard]] bool build_order_less(const Material& a, const Material& b);

// The canonical tables a table of `material` is built from, one capture or promotion away: its
// successors without bare kings (no table). KQRk: KRk and KQk (captures of the queen and the rook);
// KPk: KQk, KRk, KBk and KNk (promotions; the capture of the pawn leaves bare kings).
[[nodiscard]] std::vector<Material> direct_dependencies(const Material& material);

// The canonical tables needed to build the given signatures: the signatures themselves and
// everything their successors lead to, transitively, in build order. KK is left out (no table).
[[nodiscard]] std::vector<Material> dependency_closure(std::span<const Material> targets);

// Every canonical signature with 3 to max_men men, in build order (35 up to 4 men, 145 up to 5).
[[nodiscard]] std::vector<Material> all_signatures(int max_men);

}  // namespace egtb
