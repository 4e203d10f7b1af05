#include "egtb/core/notation.hpp"

#include "egtb/core/movegen.hpp"

namespace egtb {

namespace {

char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool is_capture(const Position& pos, Move m) {
  return m.kind() == MoveKind::EnPassant || (m.kind() != MoveKind::Castling && !pos.empty(m.to()));
}

// The file and/or rank of the origin that SAN needs to tell m apart from its twins.
std::string disambiguation(const Position& pos, Move m, const MoveList& moves) {
  const Piece mover = pos.piece_on(m.from());
  bool twin = false, same_file = false, same_rank = false;
  for (Move other : moves) {
    if (other.from() == m.from() || other.to() != m.to() || pos.piece_on(other.from()) != mover) continue;
    twin = true;
    same_file |= file_of(other.from()) == file_of(m.from());
    same_rank |= rank_of(other.from()) == rank_of(m.from());
  }
  if (!twin) return {};
  const std::string name = square_name(m.from());
  if (!same_file) return name.substr(0, 1);
  if (!same_rank) return name.substr(1, 1);
  return name;
}

std::string check_suffix(const Position& pos, Move m) {
  const Position next = pos.after(m);
  if (!next.in_check()) return {};
  return has_legal_move(next) ? "+" : "#";
}

// SAN without any suffix or annotation, the form parse_san compares against.
struct SanParts {
  PieceType piece = PieceType::Pawn;
  int from_file = -1;
  int from_rank = -1;
  Square to = Square::None;
  PieceType promotion = PieceType::None;
  bool castle_short = false;
  bool castle_long = false;
};

std::string_view strip_suffixes(std::string_view text) {
  while (!text.empty() && std::string_view("+#!?").find(text.back()) != std::string_view::npos)
    text.remove_suffix(1);
  return text;
}

Expected<SanParts, std::string> split_san(std::string_view text) {
  SanParts parts;
  if (text == "O-O" || text == "0-0") {
    parts.castle_short = true;
    return parts;
  }
  if (text == "O-O-O" || text == "0-0-0") {
    parts.castle_long = true;
    return parts;
  }
  if (!text.empty() && std::string_view("NBRQK").find(text.front()) != std::string_view::npos) {
    parts.piece = *piece_type_from_char(text.front());
    text.remove_prefix(1);
  }
  if (text.size() >= 2 && std::string_view("NBRQnbrq").find(text.back()) != std::string_view::npos) {
    parts.promotion = *piece_type_from_char(text.back());
    text.remove_suffix(1);
    if (!text.empty() && text.back() == '=') text.remove_suffix(1);
  }
  if (text.size() < 2) return unexpected(std::string("no destination square"));
  const auto to = parse_square(text.substr(text.size() - 2));
  if (!to) return unexpected("'" + std::string(text.substr(text.size() - 2)) + "' is not a square");
  parts.to = *to;
  text.remove_suffix(2);
  if (!text.empty() && (text.back() == 'x' || text.back() == ':')) text.remove_suffix(1);
  for (char c : text) {
    if (c >= 'a' && c <= 'h')
      parts.from_file = c - 'a';
    else if (c >= '1' && c <= '8')
      parts.from_rank = c - '1';
    else
      return unexpected(std::string("unexpected character '") + c + "'");
  }
  return parts;
}

bool matches(const Position& pos, Move m, const SanParts& p) {
  if (p.castle_short || p.castle_long)
    return m.kind() == MoveKind::Castling && (file_of(m.to()) == 6) == p.castle_short;
  if (m.kind() == MoveKind::Castling) return false;
  if (type_of(pos.piece_on(m.from())) != p.piece || m.to() != p.to) return false;
  if (p.from_file >= 0 && file_of(m.from()) != p.from_file) return false;
  if (p.from_rank >= 0 && rank_of(m.from()) != p.from_rank) return false;
  const PieceType promo = m.kind() == MoveKind::Promotion ? m.promotion() : PieceType::None;
  return promo == p.promotion;
}

}  // namespace

std::string to_uci(Move m) {
  if (m.is_null()) return "0000";
  std::string out = square_name(m.from()) + square_name(m.to());
  if (m.kind() == MoveKind::Promotion) out += lower(piece_type_char(m.promotion()));
  return out;
}

Expected<Move, std::string> parse_uci(const Position& pos, std::string_view text) {
  for (Move m : legal_moves(pos))
    if (to_uci(m) == text) return m;
  return unexpected("'" + std::string(text) + "' is not a legal move in UCI notation");
}

std::string to_san(const Position& pos, Move m) {
  if (m.is_null()) return "--";
  if (m.kind() == MoveKind::Castling) return (file_of(m.to()) == 6 ? "O-O" : "O-O-O") + check_suffix(pos, m);
  const PieceType pt = type_of(pos.piece_on(m.from()));
  const bool capture = is_capture(pos, m);
  std::string out;
  if (pt == PieceType::Pawn) {
    if (capture) out += square_name(m.from()).substr(0, 1);
  } else {
    out += piece_type_char(pt);
    out += disambiguation(pos, m, legal_moves(pos));
  }
  if (capture) out += 'x';
  out += square_name(m.to());
  if (m.kind() == MoveKind::Promotion) {
    out += '=';
    out += piece_type_char(m.promotion());
  }
  return out + check_suffix(pos, m);
}

Expected<Move, std::string> parse_san(const Position& pos, std::string_view text) {
  const auto parts = split_san(strip_suffixes(text));
  if (!parts) return unexpected("'" + std::string(text) + "' is not SAN: " + parts.error());
  Move found;
  int count = 0;
  for (Move m : legal_moves(pos)) {
    if (!matches(pos, m, *parts)) continue;
    found = m;
    ++count;
  }
  if (count == 0) return unexpected("'" + std::string(text) + "' is not a legal move here");
  if (count > 1) return unexpected("'" + std::string(text) + "' is ambiguous");
  return found;
}

std::string san_line(const Position& start, std::span<const Move> line) {
  Position pos = start;
  std::string text;
  for (size_t i = 0; i < line.size(); ++i) {
    const bool white = pos.side_to_move() == Color::White;
    if (i > 0) text += ' ';
    if (white || i == 0) text += std::to_string(pos.fullmove_number()) + (white ? ". " : "... ");
    text += to_san(pos, line[i]);
    pos.do_move(line[i]);
  }
  return text;
}

std::vector<std::string> uci_line(std::span<const Move> line) {
  std::vector<std::string> out;
  out.reserve(line.size());
  for (Move m : line) out.push_back(to_uci(m));
  return out;
}

}  // namespace egtb
