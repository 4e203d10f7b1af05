#include "egtb/core/movegen.hpp"

namespace egtb {

namespace {

// The state every generator step needs: who moves, occupancy, checks and pins.
struct GenContext {
  const Position& pos;
  Color us;
  Square king;  // Square::None when the side to move has no king or several: nothing to keep safe
  Bitboard occupied;
  Bitboard own;
  Bitboard enemy;
  Bitboard checkers;     // none when `king` is Square::None
  Bitboard target_mask;  // squares a non-king move must reach: all, or block/capture the checker
  Bitboard pinned;

  explicit GenContext(const Position& p)
      : pos(p),
        us(p.side_to_move()),
        king(p.king_square(us)),
        occupied(p.pieces()),
        own(p.pieces(us)),
        enemy(p.pieces(~us)),
        checkers(p.checkers()),
        target_mask(checkers ? between(king, lsb(checkers)) | checkers : ~Bitboard{0}),
        pinned(king == Square::None ? 0 : pinned_men()) {}

  [[nodiscard]] Bitboard pinned_men() const {
    return egtb::pinned_men(king, own, occupied,
                            pos.pieces(~us, PieceType::Rook) | pos.pieces(~us, PieceType::Queen),
                            pos.pieces(~us, PieceType::Bishop) | pos.pieces(~us, PieceType::Queen));
  }

  // Squares a man on `from` may move to without exposing its king to a pin.
  [[nodiscard]] Bitboard pin_mask(Square from) const {
    return contains(pinned, from) ? line(king, from) : ~Bitboard{0};
  }
};

void add_targets(MoveList& list, Square from, Bitboard targets) {
  while (targets) list.push_back(Move(from, pop_lsb(targets)));
}

void add_pawn_move(MoveList& list, Color us, Square from, Square to) {
  if (relative_rank(us, to) != 7) {
    list.push_back(Move(from, to));
    return;
  }
  for (PieceType pt : {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight})
    list.push_back(Move(from, to, MoveKind::Promotion, pt));
}

void generate_king_moves(const GenContext& g, MoveList& list) {
  if (g.king == Square::None) {  // no king or several: no check, so every step is a move
    Bitboard kings = g.pos.pieces(g.us, PieceType::King);
    while (kings) {
      const Square from = pop_lsb(kings);
      add_targets(list, from, king_attacks(from) & ~g.own);
    }
    return;
  }
  const Bitboard without_king = g.occupied ^ square_bb(g.king);
  Bitboard targets = king_attacks(g.king) & ~g.own;
  while (targets) {
    const Square to = pop_lsb(targets);
    if (!g.pos.attackers_to(to, ~g.us, without_king)) list.push_back(Move(g.king, to));
  }
}

void generate_piece_moves(const GenContext& g, MoveList& list) {
  for (PieceType pt : {PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen}) {
    Bitboard men = g.pos.pieces(g.us, pt);
    while (men) {
      const Square from = pop_lsb(men);
      add_targets(list, from,
                  piece_attacks(pt, from, g.occupied) & ~g.own & g.target_mask & g.pin_mask(from));
    }
  }
}

void generate_pawn_moves(const GenContext& g, MoveList& list) {
  const int push = pawn_push(g.us);
  Bitboard pawns = g.pos.pieces(g.us, PieceType::Pawn);
  while (pawns) {
    const Square from = pop_lsb(pawns);
    if (relative_rank(g.us, from) == 7) continue;  // a pawn left on its last rank does not move
    const Bitboard allowed = g.target_mask & g.pin_mask(from);
    Bitboard targets = pawn_attacks(g.us, from) & g.enemy;
    const Square one = square_at(to_index(from) + push);
    if (!contains(g.occupied, one)) {
      targets |= square_bb(one);
      if (relative_rank(g.us, from) <= 1) {  // from the second rank, or from the first
        const Square two = square_at(to_index(one) + push);
        if (!contains(g.occupied, two)) targets |= square_bb(two);
      }
    }
    targets &= allowed;
    while (targets) add_pawn_move(list, g.us, from, pop_lsb(targets));
  }
}

void generate_ep_captures(const GenContext& g, MoveList& list) {
  const Square ep = g.pos.ep_square();
  if (ep == Square::None || relative_rank(g.us, ep) != 5 || !g.pos.empty(ep)) return;
  const Square victim = square_at(to_index(ep) - pawn_push(g.us));
  if (g.pos.piece_on(victim) != make_piece(~g.us, PieceType::Pawn)) return;
  Bitboard capturers = pawn_attacks(~g.us, ep) & g.pos.pieces(g.us, PieceType::Pawn);
  while (capturers) {
    const Square from = pop_lsb(capturers);
    const Bitboard occupied = (g.occupied ^ square_bb(from) ^ square_bb(victim)) | square_bb(ep);
    if (g.king == Square::None || !g.pos.attackers_to(g.king, ~g.us, occupied))
      list.push_back(Move(from, ep, MoveKind::EnPassant));
  }
}

void generate_castling(const GenContext& g, MoveList& list) {
  const bool white = g.us == Color::White;
  const int rank = white ? 0 : 7;
  if (g.checkers || g.king != make_square(4, rank)) return;
  struct Side {
    CastlingRight right;
    int rook_file;
    int king_to_file;
  };
  const Side sides[] = {{white ? CastlingRight::WhiteShort : CastlingRight::BlackShort, 7, 6},
                        {white ? CastlingRight::WhiteLong : CastlingRight::BlackLong, 0, 2}};
  for (const Side& s : sides) {
    if (!g.pos.can_castle(s.right)) continue;
    const Square rook = make_square(s.rook_file, rank);
    const Square to = make_square(s.king_to_file, rank);
    if (g.pos.piece_on(rook) != make_piece(g.us, PieceType::Rook) || (between(g.king, rook) & g.occupied))
      continue;
    Bitboard path = between(g.king, to) | square_bb(to);
    bool safe = true;
    while (path && safe) safe = !g.pos.attackers_to(pop_lsb(path), ~g.us);
    if (safe) list.push_back(Move(g.king, to, MoveKind::Castling));
  }
}

}  // namespace

void generate_legal_moves(const Position& pos, MoveList& list) {
  const GenContext g(pos);
  generate_king_moves(g, list);
  if (more_than_one(g.checkers)) return;
  generate_piece_moves(g, list);
  generate_pawn_moves(g, list);
  generate_ep_captures(g, list);
  generate_castling(g, list);
}

bool has_legal_move(const Position& pos) { return !legal_moves(pos).empty(); }

bool is_legal_move(const Position& pos, Move m) { return legal_moves(pos).contains(m); }

bool is_checkmate(const Position& pos) { return pos.in_check() && !has_legal_move(pos); }

bool is_stalemate(const Position& pos) { return !pos.in_check() && !has_legal_move(pos); }

namespace {

// True when `side` alone cannot checkmate, whatever the opponent plays (is_insufficient_material).
bool cannot_mate(const Position& pos, Color side) {
  constexpr Bitboard LightSquares = 0x55AA55AA55AA55AAULL;  // b1, d1, ..., a2, c2, ...: h1 is light
  const Bitboard ours = pos.pieces(side);
  const Bitboard heavy =
      pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
  if (ours & heavy) return false;
  const Bitboard theirs = pos.pieces(~side);
  if (ours & pos.pieces(PieceType::Knight))
    return popcount(ours) <= 2 &&
           (theirs & ~pos.pieces(PieceType::King) & ~pos.pieces(PieceType::Queen)) == 0;
  const Bitboard bishops = pos.pieces(PieceType::Bishop);
  if (ours & bishops)
    return ((bishops & LightSquares) == 0 || (bishops & ~LightSquares) == 0) &&
           (pos.pieces(PieceType::Pawn) | pos.pieces(PieceType::Knight)) == 0;
  return true;
}

}  // namespace

bool is_insufficient_material(const Position& pos) {
  return cannot_mate(pos, Color::White) && cannot_mate(pos, Color::Black);
}

uint64_t perft(const Position& pos, int depth) {
  if (depth <= 0) return 1;
  const MoveList moves = legal_moves(pos);
  if (depth == 1) return moves.size();
  uint64_t nodes = 0;
  for (Move m : moves) nodes += perft(pos.after(m), depth - 1);
  return nodes;
}

std::vector<PerftEntry> perft_divide(const Position& pos, int depth) {
  std::vector<PerftEntry> entries;
  if (depth < 1) return entries;
  for (Move m : legal_moves(pos)) entries.push_back({m, perft(pos.after(m), depth - 1)});
  return entries;
}

}  // namespace egtb
