// Tables with pawns: the left-right mirror, and the e.p. section.
//
// Symmetry. Pawns fix the direction of the board, so only the file mirror (a <-> h) remains; the
// white king chooses it: a position whose white king stands on files e-h is stored mirrored. No
// position is its own mirror image (the white king cannot be on both halves), so every legal
// position and its mirror image share exactly one entry.
//
// The e.p. section. Tables with pawns of both colours append, after the normal_size() entries,
// one entry per position in which the side to move can capture e.p.:
//
//   i = normal_size() + (pair * 14 + capture) * ep_.size + rest
//
//   pair     the king pair, as in the normal section;
//   capture  0 ... 13, the (file of the pawn that just made a double step, file of the capturing
//            pawn) in the order (a,b) (b,a) (b,c) (c,b) (c,d) ... (g,h) (h,g);
//   rest     the other men, ranked like the normal section with one pawn fewer of each colour.
// With White to move the double-stepped black pawn and the white capturer stand on rank 5 and the
// e.p. square is on rank 6; with Black to move they stand on rank 4 and the e.p. square on rank 3.
// When pawns on both neighbouring files can capture, the entry names the one on the lower file;
// entries naming the higher file while the lower neighbour also holds a capturing pawn are invalid.
//
// Worked example, KPkp: "8/8/8/3pP3/8/8/8/K6k w - d6". Ka1 kh1 is pair 5 (c1 d1 e1 f1 g1 h1 are
// the black king squares allowed beside Ka1), the capture is (d,e) = 6, and no other men remain
// (ep_.size = 1), so i = 1806 * 48 * 48 + (5 * 14 + 6) = 4,161,024 + 76 = 4,161,100.
//
// Validity of an e.p. entry: no two men on a square, the e.p. square and the square the pawn came
// from empty, the side not to move not in check, every check on the side to move the work of the
// double step (validate_table_position), and at least one legal e.p. capture
// (Position::has_ep_capture). Whether the position before the double step was legal is not asked:
// with that test KPkp would have 42,366 White-to-move e.p. positions (the pawn on d7 would have
// given check to a white king on c6 or e6), without it 43,786 = 2 * 21,893, the count that
// reproduces the article's KPkp percentages (shared/reference/README.md).
//
// Counting conventions. A position is its placement, side to move and e.p. right (a position with
// an e.p. capture differs from the same placement without one: it has other moves).
//   index462  normal and e.p. entries count 1 each: the article's Nalimov-style index counts
//             positions with an e.p. right as positions of their own (KPkp: 3,718,044 + 21,893
//             per side to move). The article counts a position with an e.p. right whenever a pawn
//             of the side to move stands beside the enemy pawn on its fifth rank and the two
//             squares that pawn crossed are empty, also when the e.p. capture is illegal (a pin;
//             the capturing side's king in check from another man, which no game reaches: with
//             two white pawns, the one that did not move can give that check). Such a position has
//             no e.p. entry: its moves are those of the same placement without the right, so it
//             counts with that normal entry's value and depth, as 1 more for the entry
//             (unplayable_ep_rights). Example, KPkrp: "8/8/8/KPp4r/8/8/8/6k1 w - c6", where bxc6
//             would expose the king on a5 to the rook on h5, adds 1 to the entry of
//             "8/8/8/KPp4r/8/8/8/6k1 w - -". KPkp has none (no man can pin or give such a check);
//   physical  every entry stands for 2 positions, itself and its mirror image, e.p. entries
//             included, so percentages equal those of index462, as docs/design.md §3 says;
//   classes   normal entries count 1 and e.p. entries 0: the Syzygy statistics count placements
//             with a side to move and ignore e.p. rights (their tables store no e.p. positions).
#include "indexing/index.hpp"

#include <algorithm>

namespace egtb::indexing {

namespace {

struct EpCapture {
  int pawn_file;     // the file of the pawn that just made a double step
  int capture_file;  // the file of the capturing pawn
};

constexpr auto EpCaptures = [] {
  std::array<EpCapture, 14> t{};
  size_t n = 0;
  for (int f = 0; f < 8; ++f) {
    if (f > 0) t[n++] = {f, f - 1};
    if (f < 7) t[n++] = {f, f + 1};
  }
  return t;
}();

// The number of the capture (pawn file, capture file): 2 * pawn file, minus one when the capturer
// stands on the lower file.
constexpr int capture_number(int pawn_file, int capture_file) {
  return pawn_file == 0 ? 0 : 2 * pawn_file - (capture_file < pawn_file ? 1 : 0);
}

static_assert(capture_number(3, 4) == 6 && EpCaptures[6].pawn_file == 3 && EpCaptures[6].capture_file == 4);

// The rank (0-7) of the two pawns of an e.p. capture by `stm`.
constexpr int capture_rank(Color stm) { return stm == Color::White ? 4 : 3; }

// True when the capture names the pawn on the higher file while the lower neighbour holds a pawn of
// the side to move as well: the entry of the lower pawn holds that position.
bool names_second_capturer(const Position& pos, EpCapture c, int rank) {
  if (c.capture_file < c.pawn_file || c.pawn_file == 0) return false;
  return pos.piece_on(make_square(c.pawn_file - 1, rank)) == make_piece(pos.side_to_move(), PieceType::Pawn);
}

}  // namespace

bool IndexScheme::pawns_side_by_side(const Men& men, Color stm) const {
  Bitboard ours = 0, theirs = 0;
  for (int j = 2; j < men_; ++j) {
    const Piece p = man_piece(j);
    if (type_of(p) != PieceType::Pawn) continue;
    (color_of(p) == stm ? ours : theirs) |= square_bb(men.squares[static_cast<size_t>(j)]);
  }
  const Bitboard rank = rank_bb(capture_rank(stm));
  return (shift<Direction::East>(ours & rank) | shift<Direction::West>(ours & rank)) & theirs;
}

uint32_t IndexScheme::unplayable_ep_rights(const Position& pos) const {
  const Color stm = pos.side_to_move();
  const int rank = capture_rank(stm);
  const Bitboard ours = pos.pieces(stm, PieceType::Pawn) & rank_bb(rank);
  uint32_t count = 0;
  for (Bitboard theirs = pos.pieces(~stm, PieceType::Pawn) & rank_bb(rank); theirs;) {
    const Square pawn = pop_lsb(theirs);
    const Square ep = square_at(to_index(pawn) + pawn_push(stm));
    const Square origin = square_at(to_index(ep) + pawn_push(stm));
    const Bitboard beside = shift<Direction::East>(square_bb(pawn)) | shift<Direction::West>(square_bb(pawn));
    if (!(beside & ours) || !pos.empty(ep) || !pos.empty(origin)) continue;
    Position with_right = pos;
    with_right.set_ep_square(ep);
    if (!with_right.has_ep_capture() || validate_table_position(with_right)) ++count;
  }
  return count;
}

bool IndexScheme::double_step_possible(const Position& pos) {
  const Color stm = pos.side_to_move();
  if (relative_rank(stm, pos.ep_square()) != 5) return false;
  return pos.empty(square_at(to_index(pos.ep_square()) + pawn_push(stm)));
}

Index IndexScheme::encode_ep(const Position& pos, Symmetry s) const {
  const Color stm = pos.side_to_move();
  const Square wk = apply(s, pos.king_square(Color::White));
  const Square bk = apply(s, pos.king_square(Color::Black));
  const int file = file_of(apply(s, pos.ep_square()));
  const int rank = capture_rank(stm);
  PieceBoards boards = piece_boards(pos, s);
  Bitboard& ours = boards[static_cast<size_t>(to_index(make_piece(stm, PieceType::Pawn)))];
  Bitboard& theirs = boards[static_cast<size_t>(to_index(make_piece(~stm, PieceType::Pawn)))];
  const bool lower = file > 0 && contains(ours, make_square(file - 1, rank));
  const int capture_file = lower ? file - 1 : file + 1;
  ours ^= square_bb(make_square(capture_file, rank));
  theirs ^= square_bb(make_square(file, rank));
  const Index pair = kings_->pair[KkMap::at(wk, bk)];
  const Index prefix = pair * EpCaptureCount + static_cast<Index>(capture_number(file, capture_file));
  return normal_size_ + prefix * ep_.size + encode_men(ep_, boards, wk, bk);
}

bool IndexScheme::decode_ep(Index j, Color stm, Position& out) const {
  return place_ep(j, stm, out) == EpPlacement::Playable;
}

std::vector<Index> IndexScheme::unplayable_ep_entries(Color stm) const {
  std::vector<Index> entries;
  Position pos;
  for (Index j = 0; j < ep_size_; ++j) {
    if (place_ep(j, stm, pos) != EpPlacement::Unplayable) continue;
    pos.set_ep_square(Square::None);
    if (const auto i = index_of(pos)) entries.push_back(*i);
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

IndexScheme::EpPlacement IndexScheme::place_ep(Index j, Color stm, Position& out) const {
  const Index prefix = j / ep_.size;
  const auto [wk, bk] = kings_->kings[static_cast<size_t>(prefix / EpCaptureCount)];
  const EpCapture capture = EpCaptures[static_cast<size_t>(prefix % EpCaptureCount)];
  const int rank = capture_rank(stm);
  const int forward = stm == Color::White ? 1 : -1;
  Placement men;
  men.add(make_piece(Color::White, PieceType::King), wk);
  men.add(make_piece(Color::Black, PieceType::King), bk);
  men.add(make_piece(~stm, PieceType::Pawn), make_square(capture.pawn_file, rank));
  men.add(make_piece(stm, PieceType::Pawn), make_square(capture.capture_file, rank));
  decode_men(ep_, j % ep_.size, wk, bk, men);
  const Square ep = make_square(capture.pawn_file, rank + forward);
  const Bitboard behind = square_bb(ep) | square_bb(make_square(capture.pawn_file, rank + 2 * forward));
  if (men.overlaps || (men.occupied & behind)) return EpPlacement::None;
  place(men, stm, out);
  if (names_second_capturer(out, capture, rank)) return EpPlacement::None;
  out.set_ep_square(ep);
  // validate_table_position: the side not to move not in check, and every check on the side to
  // move the work of the double step (the pawn itself, or a discovery through its origin square).
  return out.has_ep_capture() && !validate_table_position(out) ? EpPlacement::Playable
                                                               : EpPlacement::Unplayable;
}

}  // namespace egtb::indexing
