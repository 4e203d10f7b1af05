#include "egtb/core/position.hpp"

namespace egtb {

namespace {

// The castling right lost when a man leaves or is captured on this square.
CastlingRights rights_touched(Square s) {
  switch (s) {
    case Square::E1: return 1 | 2;
    case Square::H1: return 1;
    case Square::A1: return 2;
    case Square::E8: return 4 | 8;
    case Square::H8: return 4;
    case Square::A8: return 8;
    default: return 0;
  }
}

}  // namespace

Bitboard Position::attackers_to(Square s, Color by, Bitboard occupied) const {
  const Bitboard diagonal = pieces(PieceType::Bishop) | pieces(PieceType::Queen);
  const Bitboard straight = pieces(PieceType::Rook) | pieces(PieceType::Queen);
  const Bitboard all = (pawn_attacks(~by, s) & pieces(PieceType::Pawn)) |
                       (knight_attacks(s) & pieces(PieceType::Knight)) |
                       (king_attacks(s) & pieces(PieceType::King)) |
                       (bishop_attacks(s, occupied) & diagonal) | (rook_attacks(s, occupied) & straight);
  return all & pieces(by) & occupied;
}

Bitboard Position::checkers() const {
  const Square k = king_square(side_to_move_);
  return k == Square::None ? 0 : attackers_to(k, ~side_to_move_);
}

bool Position::king_attacked(Color c) const {
  const Square k = king_square(c);
  return k != Square::None && attackers_to(k, ~c) != 0;
}

bool Position::has_ep_capture() const {
  const Color us = side_to_move_;
  if (ep_square_ == Square::None || relative_rank(us, ep_square_) != 5) return false;
  const Square victim = offset(ep_square_, -pawn_push(us));
  if (!empty(ep_square_) || piece_on(victim) != make_piece(~us, PieceType::Pawn)) return false;
  const Square king = king_square(us);
  Bitboard capturers = pawn_attacks(~us, ep_square_) & pieces(us, PieceType::Pawn);
  while (capturers) {
    const Square from = pop_lsb(capturers);
    const Bitboard occupied = (pieces() ^ square_bb(from) ^ square_bb(victim)) | square_bb(ep_square_);
    if (king == Square::None || attackers_to(king, ~us, occupied) == 0) return true;
  }
  return false;
}

void Position::put_piece(Piece p, Square s) {
  assert(empty(s) && p != Piece::None);
  board_[static_cast<size_t>(to_index(s))] = p;
  by_color_[static_cast<size_t>(to_index(color_of(p)))] |= square_bb(s);
  by_type_[static_cast<size_t>(to_index(type_of(p)))] |= square_bb(s);
}

void Position::remove_piece(Square s) {
  const Piece p = piece_on(s);
  assert(p != Piece::None);
  board_[static_cast<size_t>(to_index(s))] = Piece::None;
  by_color_[static_cast<size_t>(to_index(color_of(p)))] ^= square_bb(s);
  by_type_[static_cast<size_t>(to_index(type_of(p)))] ^= square_bb(s);
}

void Position::move_piece(Square from, Square to) {
  const Piece p = piece_on(from);
  remove_piece(from);
  put_piece(p, to);
}

void Position::update_castling_rights(Square from, Square to) {
  castling_ = static_cast<CastlingRights>(castling_ & ~(rights_touched(from) | rights_touched(to)));
}

void Position::pass() {
  ep_square_ = Square::None;
  ++halfmove_clock_;
  if (side_to_move_ == Color::Black) ++fullmove_number_;
  side_to_move_ = ~side_to_move_;
}

void Position::do_move(Move m) {
  if (m.is_null()) return pass();
  const Color us = side_to_move_;
  const Square from = m.from();
  const Square to = m.to();
  const bool pawn_move = type_of(piece_on(from)) == PieceType::Pawn;
  const bool capture = !empty(to) || m.kind() == MoveKind::EnPassant;
  ep_square_ = Square::None;
  switch (m.kind()) {
    case MoveKind::Castling: {
      const auto [rook_from, rook_to] = castling_rook(m);
      move_piece(from, to);
      move_piece(rook_from, rook_to);
      break;
    }
    case MoveKind::EnPassant:
      remove_piece(offset(to, -pawn_push(us)));
      move_piece(from, to);
      break;
    case MoveKind::Promotion:
      if (!empty(to)) remove_piece(to);
      remove_piece(from);
      put_piece(make_piece(us, m.promotion()), to);
      break;
    case MoveKind::Normal:
      if (!empty(to)) remove_piece(to);
      move_piece(from, to);
      if (pawn_move && relative_rank(us, from) == 1 && (to_index(to) ^ to_index(from)) == 16)
        ep_square_ = offset(from, pawn_push(us));
      break;
  }
  halfmove_clock_ = (pawn_move || capture) ? 0 : halfmove_clock_ + 1;
  if (us == Color::Black) ++fullmove_number_;
  update_castling_rights(from, to);
  side_to_move_ = ~us;
  normalize_ep_square();
}

void Position::normalize_ep_square() {
  if (!has_ep_capture()) ep_square_ = Square::None;
}

bool Position::same_position(const Position& other) const {
  const Square mine = has_ep_capture() ? ep_square_ : Square::None;
  const Square theirs = other.has_ep_capture() ? other.ep_square_ : Square::None;
  return board_ == other.board_ && side_to_move_ == other.side_to_move_ && castling_ == other.castling_ &&
         mine == theirs;
}

Position color_flipped(const Position& pos) {
  Position out;
  Bitboard men = pos.pieces();
  while (men) {
    const Square s = pop_lsb(men);
    const Piece p = pos.piece_on(s);
    out.put_piece(make_piece(~color_of(p), type_of(p)), flip_rank(s));
  }
  out.set_side_to_move(~pos.side_to_move());
  if (pos.ep_square() != Square::None) out.set_ep_square(flip_rank(pos.ep_square()));
  const CastlingRights r = pos.castling_rights();
  out.set_castling_rights(static_cast<CastlingRights>(((r & 3) << 2) | ((r >> 2) & 3)));
  out.set_counters(pos.halfmove_clock(), pos.fullmove_number());
  return out;
}

namespace {

std::optional<std::string> validate_material(const Position& pos) {
  for (Color c : {Color::White, Color::Black}) {
    const std::string side = c == Color::White ? "White" : "Black";
    const int kings = pos.count(c, PieceType::King);
    if (kings == 0) return side + " has no king";
    if (kings > 1) return side + " has " + std::to_string(kings) + " kings";
    if (pos.count(c, PieceType::Pawn) > 8) return side + " has more than 8 pawns";
    if (popcount(pos.pieces(c)) > 16) return side + " has more than 16 men";
  }
  const Bitboard back_rank_pawns = pos.pieces(PieceType::Pawn) & (Rank1BB | Rank8BB);
  if (back_rank_pawns) return "pawn on rank 1 or 8 (" + square_name(lsb(back_rank_pawns)) + ")";
  return std::nullopt;
}

std::optional<std::string> validate_castling(const Position& pos) {
  struct Rule {
    CastlingRight right;
    char letter;
    Piece king;
    Square king_home;
    Piece rook;
    Square rook_home;
  };
  const Piece wk = make_piece(Color::White, PieceType::King), bk = make_piece(Color::Black, PieceType::King);
  const Piece wr = make_piece(Color::White, PieceType::Rook), br = make_piece(Color::Black, PieceType::Rook);
  const Rule rules[] = {{CastlingRight::WhiteShort, 'K', wk, Square::E1, wr, Square::H1},
                        {CastlingRight::WhiteLong, 'Q', wk, Square::E1, wr, Square::A1},
                        {CastlingRight::BlackShort, 'k', bk, Square::E8, br, Square::H8},
                        {CastlingRight::BlackLong, 'q', bk, Square::E8, br, Square::A8}};
  for (const Rule& r : rules) {
    if (!pos.can_castle(r.right)) continue;
    if (pos.piece_on(r.king_home) != r.king || pos.piece_on(r.rook_home) != r.rook)
      return std::string("castling right '") + r.letter + "' needs the king on " + square_name(r.king_home) +
             " and the rook on " + square_name(r.rook_home);
  }
  return std::nullopt;
}

std::optional<std::string> validate_ep(const Position& pos) {
  const Square ep = pos.ep_square();
  if (ep == Square::None) return std::nullopt;
  const Color us = pos.side_to_move();
  const std::string name = "e.p. square " + square_name(ep);
  if (relative_rank(us, ep) != 5)
    return name + " is not on rank " + std::string(us == Color::White ? "6" : "3");
  const Square pushed = square_at(to_index(ep) - pawn_push(us));
  const Square origin = square_at(to_index(ep) + pawn_push(us));
  if (pos.piece_on(pushed) != make_piece(~us, PieceType::Pawn))
    return name + " without a pawn on " + square_name(pushed) + " that just made a double step";
  if (!pos.empty(ep) || !pos.empty(origin))
    return name + " is impossible: " + square_name(ep) + " and " + square_name(origin) + " must be empty";
  Bitboard checkers = pos.checkers();
  const Square king = pos.king_square(us);
  while (checkers) {
    const Square c = pop_lsb(checkers);
    if (c != pushed && !contains(between(king, c), origin))
      return name + " is impossible: the check from " + square_name(c) + " cannot follow a double step";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> validate_table_position(const Position& pos) {
  if (auto e = validate_material(pos)) return e;
  if (pos.king_attacked(~pos.side_to_move()))
    return std::string(pos.side_to_move() == Color::White ? "Black" : "White") + " (not to move) is in check";
  if (auto e = validate_castling(pos)) return e;
  return validate_ep(pos);
}

std::optional<std::string> validate(const Position& pos) {
  if (auto e = validate_table_position(pos)) return e;
  if (popcount(pos.checkers()) > 2) return "the side to move is in check by more than two men";
  return std::nullopt;
}

}  // namespace egtb
