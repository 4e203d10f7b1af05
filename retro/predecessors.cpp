#include "retro/predecessors.hpp"

#include <stdexcept>

#include "egtb/core/attacks.hpp"
#include "egtb/core/symmetry.hpp"
#include "retro/side_men.hpp"

namespace egtb::retro {

using indexing::Index;
using Men = indexing::IndexScheme::Men;

namespace {

constexpr Bitboard Diagonal = 0x8040201008040201ULL;
constexpr Bitboard AntiDiagonal = 0x0102040810204080ULL;

// The men of each piece (by Piece value).
using PieceBoards = std::array<Bitboard, PieceIndexCount>;

// True when both kings stand on one long diagonal: only then can a reflection in that diagonal
// map a pawnless position onto itself (the other symmetries move every square).
bool kings_share_long_diagonal(Bitboard kings) {
  return (kings & ~Diagonal) == 0 || (kings & ~AntiDiagonal) == 0;
}

// True when a reflection in the a1-h8 or a8-h1 diagonal maps the men onto themselves.
bool is_self_symmetric(const PieceBoards& boards) {
  const Bitboard kings = boards[to_index(make_piece(Color::White, PieceType::King))] |
                         boards[to_index(make_piece(Color::Black, PieceType::King))];
  for (Symmetry g : {Symmetry::FlipDiag, Symmetry::FlipAntiDiag}) {
    bool fixed = apply(g, kings) == kings;
    for (size_t p = 0; fixed && p < boards.size(); ++p) fixed = apply(g, boards[p]) == boards[p];
    if (fixed) return true;
  }
  return false;
}

bool is_self_symmetric(const Position& pos) {
  if (pos.pieces(PieceType::Pawn) || !kings_share_long_diagonal(pos.pieces(PieceType::King))) return false;
  PieceBoards boards{};
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt :
         {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen, PieceType::King})
      boards[static_cast<size_t>(to_index(make_piece(c, pt)))] = pos.pieces(c, pt);
  return is_self_symmetric(boards);
}

// Of an un-move and its mirror image in the a1-h8 diagonal, true for just one.
bool first_of_mirrored_pair(Move m) {
  const int key = to_index(m.from()) * 64 + to_index(m.to());
  const int mirror =
      to_index(apply(Symmetry::FlipDiag, m.from())) * 64 + to_index(apply(Symmetry::FlipDiag, m.to()));
  return key <= mirror;
}

// How many moves of the predecessor's entry one raw un-move from a child entry stands for.
// An entry stands for a class of symmetric positions; moves between two classes number
// raw un-moves * |stabiliser(predecessor)| / |stabiliser(child)|, and a stabiliser has 1 or 2
// elements. Example: Ka1 Qb2 kc3 (Black to move) is its own mirror image; its moves kd3 and kc4
// reach one class, whose representative Ka1 Qb2 kd3 un-moves to kc3 only once: weight 2.
// A symmetric child's un-moves come in mirrored pairs reaching one predecessor entry: weight 1
// for one of each pair and 0 for the other, unless the predecessor is symmetric as well.
int move_weight(bool child_symmetric, bool predecessor_symmetric, Move m) {
  if (child_symmetric == predecessor_symmetric) return 1;
  if (predecessor_symmetric) return 2;
  return first_of_mirrored_pair(m) ? 1 : 0;
}

// The squares their pawn on `to` can have stepped from: one back when empty, two back from its
// 4th rank when both are empty. (Whether a double step would have left an e.p. right is the
// general way's business: the fast way is not used where one could.)
Bitboard pawn_origins(Color them, Square to, Bitboard occupied) {
  const int rank = relative_rank(them, to);
  if (rank < 2) return 0;
  const Square one = square_at(to_index(to) - pawn_push(them));
  if (contains(occupied, one)) return 0;
  const Square two = square_at(to_index(one) - pawn_push(them));
  return square_bb(one) | (rank == 3 && !contains(occupied, two) ? square_bb(two) : 0);
}

// The squares where a man of theirs must stand in a predecessor to shield our king from
// `checkers`, the checks their other men give: every square when there are none, else the
// squares between the king and every checker (none for a contact check). Example: a rook on h1
// checking our king on a1 leaves b1 ... g1; a knight's check leaves no square.
Bitboard shielding_squares(Square king, Bitboard checkers) {
  Bitboard squares = ~Bitboard{0};
  while (checkers) squares &= between(king, pop_lsb(checkers));
  return squares;
}

// The squares from which a man of type pt (of colour `them`) attacks our king, with `occupied`
// the men besides it.
Bitboard checking_squares(PieceType pt, Color stm, Square king, Bitboard occupied) {
  return pt == PieceType::Pawn ? pawn_attacks(stm, king) : piece_attacks(pt, king, occupied);
}

}  // namespace

Predecessors::Predecessors(const indexing::IndexScheme& scheme)
    : scheme_(scheme), pawnless_(!scheme.material().has_pawns()), ep_section_(scheme.ep_size() > 0) {}

bool Predecessors::fast_path(const Men& men) const {
  if (!ep_section_) return true;
  // E.p. rights come and go only where a white and a black pawn stand side by side on rank 4 or
  // 5, in this position or in a predecessor whose pawn stepped back one square onto that rank.
  std::array<Bitboard, 2> pawns{};
  for (int j = 2; j < scheme_.man_count(); ++j) {
    const Piece p = scheme_.man_piece(j);
    if (type_of(p) == PieceType::Pawn)
      pawns[static_cast<size_t>(to_index(color_of(p)))] |= square_bb(men.squares[static_cast<size_t>(j)]);
  }
  constexpr Bitboard Ranks45 = rank_bb(3) | rank_bb(4);
  const Bitboard white = (pawns[0] & Ranks45) | shift<Direction::South>(pawns[0] & rank_bb(5));
  const Bitboard black = (pawns[1] & Ranks45) | shift<Direction::North>(pawns[1] & rank_bb(2));
  return ((shift<Direction::East>(white) | shift<Direction::West>(white)) & black) == 0;
}

void Predecessors::collect(Index i, Color stm, PredecessorWorkspace& ws) const {
  if (!scheme_.is_ep_entry(i) && scheme_.men_at(i, ws.men) && fast_path(ws.men))
    collect_fast(i, stm, ws);
  else
    collect_general(i, stm, ws);
}

void Predecessors::collect_general(Index i, Color stm, PredecessorWorkspace& ws) const {
  ws.found.clear();
  if (!scheme_.decode(i, stm, ws.pos)) throw std::logic_error("predecessors of an invalid entry");
  ws.unmoves.clear();
  UnmoveOptions options;
  options.ep_rights = ep_section_;
  options.triple_checks = true;  // the table holds those positions (validate_table_position)
  generate_unmoves(ws.pos, options, ws.unmoves);
  const bool symmetric = is_self_symmetric(ws.pos);
  for (const Unmove& u : ws.unmoves) {
    const int weight = move_weight(symmetric, is_self_symmetric(u.before), u.move);
    if (weight == 0) continue;
    const auto j = scheme_.index_of(u.before);
    if (!j) throw std::logic_error("a legal predecessor has no index");
    ws.found.push_back({*j, weight});
  }
}

bool Predecessors::self_symmetric(const Men& men) const {
  if (!pawnless_) return false;
  return fixed_by(Symmetry::FlipDiag, men) || fixed_by(Symmetry::FlipAntiDiag, men);
}

bool Predecessors::fixed_by(Symmetry g, const Men& men) const {
  // Each king must stay on its square: mostly this decides.
  for (size_t king : {0u, 1u})
    if (apply(g, men.squares[king]) != men.squares[king]) return false;
  const int count = scheme_.man_count();
  for (int j = 2; j < count; ++j) {
    // The image of man j must hold a man of the same piece.
    const Square image = apply(g, men.squares[static_cast<size_t>(j)]);
    bool held = false;
    for (int k = 0; k < count && !held; ++k)
      held = men.squares[static_cast<size_t>(k)] == image && scheme_.man_piece(k) == scheme_.man_piece(j);
    if (!held) return false;
  }
  return true;
}

void Predecessors::add_moved(Index i, int j, Square from, bool twins, bool child_symmetric,
                             PredecessorWorkspace& ws) const {
  Men& q = ws.men;
  if (!twins) {
    ws.found.push_back({scheme_.index_after_move(i, q, j, from), 1});
    return;
  }
  const Square to = q.squares[static_cast<size_t>(j)];
  q.squares[static_cast<size_t>(j)] = from;
  const int weight = move_weight(child_symmetric, self_symmetric(q), Move(from, to));
  if (weight > 0) ws.found.push_back({scheme_.index_of(q), weight});
  q.squares[static_cast<size_t>(j)] = to;
}

void Predecessors::collect_fast(Index i, Color stm, PredecessorWorkspace& ws) const {
  ws.found.clear();
  const Color them = ~stm;
  const int men = scheme_.man_count();
  Men& q = ws.men;
  Bitboard occupied = 0;
  SideMen theirs;
  for (int j = 2; j < men; ++j) {
    const Piece p = scheme_.man_piece(j);
    if (color_of(p) == them) theirs.toggle(type_of(p), square_bb(q.squares[static_cast<size_t>(j)]));
  }
  for (int j = 0; j < men; ++j) occupied |= square_bb(q.squares[static_cast<size_t>(j)]);
  const Square our_king = q.squares[static_cast<size_t>(to_index(stm))];
  // Pawnless men with both kings on one long diagonal: a piece's un-move may reach the twin of
  // an entry (index_after_move does not apply), and mirror images weigh their moves.
  const bool twins =
      pawnless_ && kings_share_long_diagonal(square_bb(q.squares[0]) | square_bb(q.squares[1]));
  const bool child_symmetric = twins && self_symmetric(q);
  // Their men besides the king: back to every square they can have come from, where our king
  // (not to move in the predecessor) stands in no check. Leaving `to` may uncover checks by
  // their other men, standing on `from` can only block them, so the legal origins are those that
  // shield our king from the other men's checks without giving check themselves.
  for (int j = 2; j < men; ++j) {
    const Piece p = scheme_.man_piece(j);
    if (color_of(p) != them) continue;
    const PieceType pt = type_of(p);
    const Square to = q.squares[static_cast<size_t>(j)];
    const Bitboard without = occupied ^ square_bb(to);
    SideMen others = theirs;
    others.toggle(pt, square_bb(to));
    Bitboard origins = pt == PieceType::Pawn ? pawn_origins(them, to, occupied)
                                             : piece_attacks(pt, to, occupied) & ~occupied;
    origins &= shielding_squares(our_king, others.attackers(stm, our_king, without)) &
               ~checking_squares(pt, stm, our_king, without);
    while (origins) add_moved(i, j, pop_lsb(origins), twins, child_symmetric, ws);
  }
  // Their king, from the empty squares around it that do not touch ours (and possibly out of a
  // triple check: the table holds such positions, see validate_table_position).
  const size_t k = static_cast<size_t>(to_index(them));
  const Square to = q.squares[k];
  Bitboard origins = king_attacks(to) & ~occupied & ~king_attacks(our_king) &
                     shielding_squares(our_king, theirs.attackers(stm, our_king, occupied ^ square_bb(to)));
  while (origins) {
    const Square from = pop_lsb(origins);
    q.squares[k] = from;
    const int weight = move_weight(child_symmetric, self_symmetric(q), Move(from, to));
    if (weight > 0) ws.found.push_back({scheme_.index_of(q), weight});
    q.squares[k] = to;
  }
}

}  // namespace egtb::retro
