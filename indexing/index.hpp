// Index schemes: a bijection between the positions of one material signature (per side to move)
// and dense indices 0 ... size() - 1, with the board symmetries folded out.
//
// Layout of an index (most significant digit first), with the king pair leading:
//
//   index = ((kings * R1 + g1) * R2 + g2) ... * Rn + gn
//
//   kings  the king pair (kk_map.hpp): 462 pairs without pawns, 1806 with pawns;
//   gi     the rank of group i, the men of one colour and type, in the order White Q R B N P, then
//          Black q r b n p; k identical men are one k-set (binomial.hpp), so they take C(d, k)
//          values, Ri, not d^k;
//   d      the domain of a group: pieces stand on the 62 squares the kings leave free (the i-th
//          free square in a1 ... h8 order), pawns on the 48 squares a2 ... h7.
//
// The digits may come in another order (index_order.hpp): a table with pawns may put a pawn group
// before the king pair or between pieces, index = Σ digit * stride with the strides of that
// order. A table file records its order; files of index layout version 1 have none and lead with
// the king pair, as every table without pawns does.
//
// Worked example, KRkr (pawnless, groups R then r, R1 = R2 = 62): Ka1 kc1 is pair 0. A white rook
// on b1 is free square 0 (a1 is taken), a black rook on e1 free square 2 (a1, c1 taken), so the
// index is (0 * 62 + 0) * 62 + 2 = 2, a valid entry with Black to move (with White to move, Black
// would stand in check from the rook on b1, and the entry is invalid). Overlapping men (a rook on
// the other rook's square) and positions whose side not to move is in check are invalid entries;
// the scheme cannot express adjacent kings or pawns on rank 1 or 8.
// Worked example with pawns, KRPkr (groups R, P, r): Ka1 kc1 is pair 0 again, a white rook on b1
// free square 0, a white pawn on e4 is 28 - 8 = 20, a black rook on h8 free square 61, so the
// index is ((0 * 62 + 0) * 48 + 20) * 62 + 61 = 1,301 with the king pair leading, and
// ((20 * 1806 + 0) * 62 + 0) * 62 + 61 = 138,845,341 in the order "P Kk R r".
//
// Sizes per side to move: KQk 462 * 62 = 28,644; KBNk 462 * 62 * 62 = 1,775,928; KPkp
// 1806 * 48 * 48 + 25,284 e.p. entries = 4,186,308; KRPkr and KQPkq 1806 * 62 * 48 * 62 =
// 333,228,672, the largest of the 5-man tables (two different pieces and a pawn).
//
// Tables with pawns of both colours append an e.p. section (pawn_index.cpp): entries from
// normal_size() on hold the positions whose side to move has an e.p. capture; entries before it
// never carry an e.p. right. pawnless_index.cpp and pawn_index.cpp explain which symmetric image
// of a position is stored, and how each entry counts in each statistics convention.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/core/symmetry.hpp"
#include "indexing/fast_divisor.hpp"
#include "indexing/index_order.hpp"
#include "indexing/kk_map.hpp"

namespace egtb::indexing {

using Index = uint64_t;

// Identifies the index layout a table file was written with (stored in its header): any change
// to the layouts below must bump the version so that old files are rebuilt or read the old way,
// never misread.
inline constexpr uint32_t IndexLayoutId = 1;  // 462 king pairs / mirrored pawns, ranked groups
// Version 2 files record the order of their digits (index_order.hpp), version 1 files lead with
// the king pair; this program reads both and writes version 2.
inline constexpr uint32_t IndexLayoutVersion = 2;
inline constexpr uint32_t OldestIndexLayoutVersion = 1;

// The most men a scheme can index (the arrays are sized for 7-man tables).
constexpr int MaxIndexMen = 7;

// How statistics count positions (docs/design.md §3):
//   Index462  the article's Nalimov-style count: one per valid entry of this scheme;
//   Physical  every legal position on the board, all symmetric images separately;
//   Classes   one per class of symmetric positions, as the Syzygy statistics count.
enum class Convention : uint8_t { Index462, Physical, Classes };
constexpr std::array<Convention, 3> AllConventions = {Convention::Index462, Convention::Physical,
                                                      Convention::Classes};
// "index462", "physical", "classes".
[[nodiscard]] std::string_view convention_name(Convention c);
// The convention of a name, or nothing for another word.
[[nodiscard]] std::optional<Convention> parse_convention(std::string_view name);

// How many positions one valid entry stands for in each convention.
struct EntryWeights {
  uint32_t index462 = 0;
  uint32_t physical = 0;
  uint32_t classes = 0;

  [[nodiscard]] uint32_t get(Convention c) const;
  bool operator==(const EntryWeights&) const = default;
};

// Position counts of one side to move in each convention.
struct Counts {
  uint64_t index462 = 0;
  uint64_t physical = 0;
  uint64_t classes = 0;

  void add(const EntryWeights& w) {
    index462 += w.index462;
    physical += w.physical;
    classes += w.classes;
  }
  Counts& operator+=(const Counts& o);
  [[nodiscard]] uint64_t get(Convention c) const;
  bool operator==(const Counts&) const = default;
};

// A scheme is immutable once built: its const functions may be called from many threads.
class IndexScheme {
public:
  // Precondition: one king of each colour, at most MaxIndexMen men; an order of the material's
  // (the king pair leading by default).
  explicit IndexScheme(const Material& material);
  IndexScheme(const Material& material, const IndexOrder& order);

  [[nodiscard]] const Material& material() const { return material_; }
  [[nodiscard]] const IndexOrder& order() const { return order_; }
  // True when both schemes give every position the same entry: the same material and order.
  [[nodiscard]] bool same_layout(const IndexScheme& other) const;
  // The entry of `other`, a scheme of the same material in any order, that holds what entry i
  // holds here: the same digits, weighed by other's strides (the e.p. section is laid out alike in
  // every order). Example, KRPkr: entry 138,845,341 in the order "P Kk R r" is entry 1,301 with
  // the king pair leading (the worked example above).
  [[nodiscard]] Index entry_in(const IndexScheme& other, Index i) const;
  // Entries per side to move: the normal section and the e.p. section.
  [[nodiscard]] Index size() const { return normal_size_ + ep_size_; }
  [[nodiscard]] Index normal_size() const { return normal_size_; }
  [[nodiscard]] Index ep_size() const { return ep_size_; }
  [[nodiscard]] bool is_ep_entry(Index i) const { return i >= normal_size_; }
  [[nodiscard]] int king_pairs() const { return kings_->size; }

  // The entry of a position of exactly this material (no colour flip), after mapping it to its
  // canonical symmetric image (the same entry for every symmetric image of a position: when both
  // kings stand on the a1-h8 diagonal, the smaller of the two entries); nothing when the position has no
  // valid entry: other material, kings touching, a pawn on rank 1 or 8, the side not to move in check, or an
  // e.p. square whose double step left the square behind the pawn occupied. An e.p. square without a legal
  // e.p. capture is ignored, as Position::same_position does.
  [[nodiscard]] std::optional<Index> index_of(const Position& pos) const;
  // The position of a valid entry, or nothing for an invalid one.
  [[nodiscard]] std::optional<Position> position_at(Index i, Color stm) const;
  // The fast form of position_at for loops over many entries: fills `out` and returns true for a
  // valid entry; `out` is unspecified after false. No allocation, no virtual call.
  bool decode(Index i, Color stm, Position& out) const;

  // The weights of valid entry i, whose position is `pos` (as decode() gave it).
  [[nodiscard]] EntryWeights weights(Index i, const Position& pos) const;
  // The e.p. rights the article's index462 counts beside a normal entry's position that no e.p.
  // entry holds: the capture would be illegal, or a check on the side to move is not the double
  // step's work (pawn_index.cpp). Each counts with the entry's value and depth.
  [[nodiscard]] uint32_t unplayable_ep_rights(const Position& pos) const;
  // Every normal entry with `stm` to move whose position has unplayable e.p. rights, once per
  // right, in ascending order: found from the e.p. section's index space (about 1.5 million entries
  // for a 5-man table), not by decoding the normal section. Empty unless both colours have pawns.
  // Example, KPkrp: the entry of "8/8/8/KPp4r/8/8/8/6k1 w - -" is among those of White.
  [[nodiscard]] std::vector<Index> unplayable_ep_entries(Color stm) const;

  // A run of entries [i, end) whose valid entries all weigh the same in one convention, so that
  // counts need no position (statistics read validity from the table): the entries of one king
  // pair of a table without pawns, every normal entry of one with pawns, or the e.p. section. The weight
  // leaves out the unplayable e.p. rights index462 adds (unplayable_ep_entries); nothing when the weight
  // differs between entries: the classes weight of a pawnless pair with both kings on the a1-h8 diagonal (21
  // of the 462 pairs), which weights() gives per entry. Example, KQk: entries 0-61 (Ka1 kc1) weigh 1/8/1 in
  // index462/physical/classes; entries 744-805 (Ka1 kc3, pair 12) 1/4/nothing.
  struct WeightRun {
    Index end = 0;
    std::optional<uint32_t> weight;
  };
  [[nodiscard]] WeightRun weight_run(Index i, Convention c) const;

  // Counting positions from the index (position_counts.cpp), for count_positions: the positions
  // of the normal entries of one king pair with `stm` to move, without visiting the entries, and
  // those of the e.p. section with the unplayable e.p. rights index462 adds.
  [[nodiscard]] Counts count_pair(int pair, Color stm) const;
  [[nodiscard]] Counts count_ep_section(Color stm) const;
  // The king pair of normal entry i, and the end of the run of entries from i on that share its
  // king pair and every digit outside it: with the king pair leading, KRPkr's entries come in
  // runs of 62 * 48 * 62 that differ in the rooks and the pawn, and in the order "P Kk R r" in
  // runs of 62 * 62; KQk's in runs of 62.
  [[nodiscard]] int king_pair_of(Index i) const {
    return static_cast<int>(i / normal_.pair_stride % static_cast<Index>(kings_->size));
  }
  [[nodiscard]] Index pieces_run_end(Index i) const {
    return (i / normal_.pair_stride + 1) * normal_.pair_stride;
  }

  // The men of a position as bare squares, for the solver's inner loops, which move men without
  // building positions. Man 0 is the white king, man 1 the black king, then the men of each group
  // in layout order (any order within a group); man_piece(j) names the piece of man j. Example,
  // KRkr: men Ka1 kc1 Rb1 re1 are {a1, c1, b1, e1}, and man_piece(2) is the white rook.
  struct Men {
    std::array<Square, MaxIndexMen> squares{};
  };
  [[nodiscard]] int man_count() const { return men_; }
  [[nodiscard]] Piece man_piece(int j) const { return man_pieces_[static_cast<size_t>(j)]; }
  // The men of normal-section entry i (i < normal_size()); false when two of them share a square.
  // Whether the side not to move stands in check is not asked.
  bool men_at(Index i, Men& out) const;
  // men_at for a run of entries, by runs in which one man moves (run_man()): calls
  // on_run(men) at the start of each run, then on_entry(i, square) for every normal-section entry
  // i of the run in [begin, end) whose men do not overlap, with the run man's square (the others
  // as on_run saw them; on_run's square for the run man is its first value's, which may overlap).
  // A run's entries are its man's values, run_stride() entries apart, and come in ascending order;
  // runs come by their first entries, so with a stride above 1 the entries of consecutive runs
  // interleave. Without a run man every entry is a run of its own, visited in ascending order.
  // Examples: KRPkr in order "Kk R r P": a run is the 48 values of the pawn, with kings and rooks
  // fixed, 48 entries in a row. KQkpp in order "Kk Q pp": a run is the queen's 62 values with the
  // pawns fixed, 1,128 entries apart (the pawns' placements), and the next run moves the pawns.
  template <class Run, class Entry>
  void for_each_run(Index begin, Index end, Run&& on_run, Entry&& on_entry) const;
  // Calls on_invalid(i) for every entry i in [begin, end) with `stm` to move that holds no position
  // (decode() false), in ascending order: normal entries by their men (for_each_run, whose valid
  // entries a bitmap of the range collects: two men on one square, or the side not to move in
  // check), without building positions, e.p. entries by decode.
  // Example, KQk with White to move: entries 0-61 hold Ka1 kc1 and the queen on each of the other
  // 62 squares; the 20 with the queen on b1, d1-h1, c2-c8, b2, a3 or d2-h6 give check and are
  // invalid, and none overlap (the queen's values skip the kings' squares).
  template <class Invalid>
  void for_each_invalid(Index begin, Index end, Color stm, Invalid&& on_invalid) const;
  // The squares of the run man (run_man()) on which the men of `run` leave the side not to move
  // out of check, with `stm` to move: no man of stm checks its king, the run man standing between
  // where it blocks a check. Every square, or none, when each entry is a run of its own (run_man()
  // 0: then as gives_check(run, stm) says). Example, KRk with White to move, Ka1 kh8 (the rook is
  // the run man): every square but h1-h7 and a8-g8, from which the rook would check (for_each_run
  // leaves out a1 and h8 themselves).
  [[nodiscard]] Bitboard run_legal_squares(const Men& run, Color stm) const;
  // The man whose square the entries of a run of for_each_run differ in, and the entry step
  // between them: the innermost digit's man when its group holds one man (step 1); when the
  // innermost digit is a group of identical men instead, the next digit's man when its group holds
  // one (step the innermost digit's radix, its placements); else none (a king, 0: every entry a
  // run of its own, step 1). Examples: KRPkr in order "Kk R r P", the pawn, step 1; KQkpp in
  // order "Kk Q pp", the queen, step C(48, 2) = 1,128; KQkpp in order "Kk pp Q", the queen, step 1.
  [[nodiscard]] int run_man() const { return run_man_; }
  [[nodiscard]] Index run_stride() const { return run_stride_; }
  // The entry of the position the men form, for men that index_of(Position) accepts without an
  // e.p. right: the same entry as index_of of that position (symmetries folded out the same way).
  [[nodiscard]] Index index_of(const Men& men) const;
  // index_of(men) for men that differ only in the square of man j: out[k] is the entry with man
  // j on squares[k] (k < n). When j is not a king, the squares that keep its place among the men
  // of its group (above the same ones) get their entries from one encoding and a step each; a
  // position whose kings share the a1-h8 diagonal may then get the twin entry that index_of does
  // not choose, which holds the same position. Example, KPPPk with pawns on a3 and c5: the third
  // pawn on d5 ... h7, above both, has the entries C(value, 3) apart, its value its square less 8.
  void index_of_squares(Men men, int j, const Square* squares, int n, Index* out) const;
  // True when a man of `attacker` (not the king) attacks the other king.
  [[nodiscard]] bool gives_check(const Men& men, Color attacker) const;
  // The weights of entry i with `stm` to move from its bare men (zero for an invalid entry), when
  // they follow from the men alone: not for e.p. entries, entries whose men share a square (the
  // caller decodes those), pawnless entries with both kings on the a1-h8 diagonal, or entries
  // where a pawn of `stm` stands beside an enemy pawn on its fifth rank. Fills men.
  [[nodiscard]] std::optional<EntryWeights> plain_weights(Index i, Color stm, Men& men) const;
  // True when the men of a normal-section entry may form the duplicate of a twin entry: pawnless,
  // both kings on the a1-h8 diagonal (then index_of(men) tells which twin counts).
  [[nodiscard]] bool twin_possible(const Men& men) const {
    return !kings_->pawns && on_diagonal(men.squares[0]) && on_diagonal(men.squares[1]);
  }
  // True when a pawn of `stm` stands beside an enemy pawn on stm's fifth rank (an e.p. right may
  // exist for the position).
  [[nodiscard]] bool pawns_side_by_side(const Men& men, Color stm) const;

private:
  static constexpr int MaxGroups = MaxIndexMen - 2;
  // The weights of valid entries (pawn_index.cpp and pawnless_index.cpp explain them).
  static constexpr EntryWeights PawnlessWeights{1, 8, 1};    // kings not both on the a1-h8 diagonal
  static constexpr EntryWeights PawnNormalWeights{1, 2, 1};  // plus the unplayable e.p. rights
  static constexpr EntryWeights PawnEpWeights{1, 2, 0};
  // The (double-stepped pawn file, capturing pawn file) pairs of the e.p. section.
  static constexpr int EpCaptureCount = 14;

  // The men of one colour and type.
  struct Group {
    Piece piece = Piece::None;
    int count = 0;
    int domain = 0;    // 62 for pieces, 48 for pawns
    Index radix = 1;   // C(domain, count)
    Index stride = 1;  // the weight of its digit
  };
  // The groups besides the kings (in the order White Q R B N P, then Black q r b n p), the number
  // of their placements, and the weight of the king pair's digit: an entry is
  // pair * pair_stride + the sum of each group's rank times its stride.
  struct Layout {
    std::array<Group, MaxGroups> groups{};
    int group_count = 0;
    Index size = 1;
    Index pair_stride = 1;
  };
  // One digit of a normal entry, innermost first (men_at): a group, named by its index in the
  // layout and its first man, or the king pair (group and first_man -1).
  struct Digit {
    int group = -1;
    int first_man = -1;
    Index radix = 1;
    FastDivisor divisor;
  };
  // The men of an entry being decoded.
  struct Placement {
    std::array<Square, MaxIndexMen> squares{};
    std::array<Piece, MaxIndexMen> pieces{};
    int count = 0;
    Bitboard occupied = 0;
    bool overlaps = false;  // two men on one square

    void add(Piece p, Square s) {
      squares[static_cast<size_t>(count)] = s;
      pieces[static_cast<size_t>(count++)] = p;
      overlaps |= (occupied & square_bb(s)) != 0;
      occupied |= square_bb(s);
    }
  };
  // Bitboards of the men by Piece value, already mapped by a symmetry.
  using PieceBoards = std::array<Bitboard, PieceIndexCount>;

  // Where man j's group lies in the normal layout: its men, and the weight of its digit.
  struct ManGroup {
    int first = 0;  // the group's first man
    int count = 0;
    bool pawns = false;
    Index radix = 1;   // its placements
    Index stride = 1;  // the weight of its digit
  };

  Material material_;
  IndexOrder order_;
  int men_ = 0;
  bool single_men_ = true;  // every group holds one man (no two men alike besides the kings)
  int run_man_ = 0;         // run_man()
  Index run_stride_ = 1;    // run_stride()
  std::array<Piece, MaxIndexMen> man_pieces_{};
  std::array<ManGroup, MaxIndexMen> man_groups_{};
  const KkMap* kings_;
  Layout normal_;
  Layout ep_;  // the men of an e.p. entry besides the kings and the two pawns of the capture
  std::array<Digit, MaxGroups + 1> digits_{};  // of the normal layout, innermost first
  int digit_count_ = 0;
  Index normal_size_ = 0;
  Index ep_size_ = 0;
  bool men_at_32bit_ = false;  // every normal entry fits 32 bits: men_at divides by multiplying

  // The groups of `m` with the strides of the digits in `order`.
  static Layout make_layout(const Material& m, const IndexOrder& order);
  // Fills men_, man_pieces_, man_groups_ and digits_ from the normal layout.
  void describe_men();
  // Fills run_man_ and run_stride_ from the digits.
  void describe_runs();
  // men_at in the unsigned type Int, wide enough for size(): 32-bit indices divide by
  // multiplication (FastDivisor), wider ones with the division instruction.
  template <class Int>
  bool men_at_as(Int i, Men& out) const;
  // The digits of normal entry i, innermost first (digits_' order); returns the king pair's.
  using DigitValues = std::array<uint32_t, MaxGroups + 1>;
  template <class Int>
  int digit_values(Int i, DigitValues& values) const;
  [[nodiscard]] static uint32_t quotient(uint32_t n, const FastDivisor& d, Index) { return d.quotient(n); }
  [[nodiscard]] static uint64_t quotient(uint64_t n, const FastDivisor&, Index divisor) {
    return n / divisor;
  }
  [[nodiscard]] bool has_material(const Position& pos) const;
  [[nodiscard]] PieceBoards piece_boards(const Position& pos, Symmetry s) const;
  // The entry of the men after s (no twin chosen).
  [[nodiscard]] Index encode_men(const Men& men, Symmetry s) const;
  // The entry of men whose boards, after s, are `boards`; wk and bk are the kings after s.
  [[nodiscard]] Index encode_boards(const PieceBoards& boards, Square wk, Square bk) const;
  [[nodiscard]] static Index encode_men(const Layout& layout, const PieceBoards& boards, Square wk,
                                        Square bk);
  static void decode_men(const Layout& layout, Index rank, Square wk, Square bk, Placement& out);
  static void place(const Placement& men, Color stm, Position& out);
  [[nodiscard]] Index encode(const Position& pos, Symmetry s) const;
  // True when the table is pawnless and both kings stand on the a1-h8 diagonal after s.
  [[nodiscard]] bool kings_on_diagonal(const Position& pos, Symmetry s) const;
  bool decode_normal(Index i, Color stm, Position& out) const;

  // Pawnless tables (pawnless_index.cpp).
  [[nodiscard]] EntryWeights pawnless_weights(Index i, const Position& pos) const;
  // The valid entries of a pair with both kings on the a1-h8 diagonal that are their own mirror
  // image (position_counts.cpp).
  [[nodiscard]] uint64_t count_symmetric(int pair, Color stm) const;
  // The e.p. section (pawn_index.cpp).
  // For a position with an e.p. capture: the e.p. square on the right rank, the square the pawn
  // came from empty.
  [[nodiscard]] static bool double_step_possible(const Position& pos);
  [[nodiscard]] Index encode_ep(const Position& pos, Symmetry s) const;
  bool decode_ep(Index j, Color stm, Position& out) const;
  // What entry j of the e.p. section holds: no placement (men overlap, a square the pawn crossed
  // taken, or the entry names the second of two capturers), a position with its e.p. capture, or
  // a placement whose e.p. right is unplayable (out then holds it, with the right).
  enum class EpPlacement : uint8_t { None, Playable, Unplayable };
  EpPlacement place_ep(Index j, Color stm, Position& out) const;
};

template <class Run, class Entry>
void IndexScheme::for_each_run(Index begin, Index end, Run&& on_run, Entry&& on_entry) const {
  Men men;
  const auto step = static_cast<size_t>(run_man_);
  if (step == 0) {
    for (Index i = begin; i < end; ++i)
      if (men_at(i, men)) {
        on_run(std::as_const(men));
        on_entry(i, men.squares[0]);
      }
    return;
  }
  const ManGroup& group = man_groups_[step];
  const Index span = run_stride_ * group.radix;  // the runs of one value of the outer digits
  for (Index base = begin - begin % span; base < end; base += span)
    for (Index first = base; first < base + run_stride_ && first < end; ++first) {
      // The run of entries first + value * stride; its values inside [begin, end).
      const Index from = first >= begin ? 0 : (begin - first + run_stride_ - 1) / run_stride_;
      const Index to = std::min(group.radix, (end - first + run_stride_ - 1) / run_stride_);
      if (from >= to) continue;
      men_at(first + from * run_stride_, men);
      Bitboard others = 0;
      bool overlap = false;
      for (size_t j = 0; j < static_cast<size_t>(men_); ++j) {
        if (j == step) continue;
        overlap |= contains(others, men.squares[j]);
        others |= square_bb(men.squares[j]);
      }
      if (overlap) continue;
      const int lo = std::min(to_index(men.squares[0]), to_index(men.squares[1]));
      const int hi = std::max(to_index(men.squares[0]), to_index(men.squares[1]));
      // The value's square: a pawn's square less 8, or the value-th square the kings leave free.
      const auto square = [&](Index value) {
        const auto v = static_cast<int>(value);
        return square_at(group.pawns ? v + 8 : v + (v >= lo) + (v + (v >= lo) >= hi));
      };
      men.squares[step] = square(0);
      on_run(std::as_const(men));
      for (Index value = from; value < to; ++value) {
        const Square s = square(value);
        if (!contains(others, s)) on_entry(first + value * run_stride_, s);
      }
    }
}

template <class Invalid>
void IndexScheme::for_each_invalid(Index begin, Index end, Color stm, Invalid&& on_invalid) const {
  const Index normal_end = std::min(end, normal_size_);
  if (begin < normal_end) {
    std::vector<uint64_t> valid((normal_end - begin + 63) / 64, 0);
    Bitboard legal = 0;
    for_each_run(
        begin, normal_end, [&](const Men& run) { legal = run_legal_squares(run, stm); },
        [&](Index i, Square square) {
          if (contains(legal, square)) valid[(i - begin) / 64] |= uint64_t{1} << ((i - begin) % 64);
        });
    for (size_t w = 0; w < valid.size(); ++w)
      for (uint64_t b = ~valid[w]; b; b &= b - 1) {
        const Index i = begin + w * 64 + static_cast<Index>(std::countr_zero(b));
        if (i >= normal_end) break;
        on_invalid(i);
      }
  }
  Position pos;
  for (Index i = std::max(begin, normal_size_); i < end; ++i)
    if (!decode(i, stm, pos)) on_invalid(i);
}

// The positions of one side to move, counted from the index per king pair (position_counts.cpp):
// a 5-man signature in a fraction of a second.
[[nodiscard]] Counts count_positions(const IndexScheme& scheme, Color stm);
// The same totals over the entries [begin, end) only, entry by entry (a position decoded where
// the men alone do not give the weights): the straightforward count the fast one is tested against.
[[nodiscard]] Counts count_positions(const IndexScheme& scheme, Color stm, Index begin, Index end);

}  // namespace egtb::indexing
