#include "egtb/core/types.hpp"

namespace egtb {

namespace {
constexpr std::string_view PieceLetters = " PNBRQK";
}  // namespace

char piece_type_char(PieceType pt) { return PieceLetters[static_cast<size_t>(to_index(pt))]; }

std::optional<PieceType> piece_type_from_char(char c) {
  const char upper = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  const size_t at = PieceLetters.find(upper);
  if (upper == ' ' || at == std::string_view::npos) return std::nullopt;
  return static_cast<PieceType>(at);
}

char piece_char(Piece p) {
  const char upper = piece_type_char(type_of(p));
  return color_of(p) == Color::White ? upper : static_cast<char>(upper - 'A' + 'a');
}

std::optional<Piece> piece_from_char(char c) {
  const auto pt = piece_type_from_char(c);
  if (!pt) return std::nullopt;
  return make_piece(c >= 'a' ? Color::Black : Color::White, *pt);
}

std::string square_name(Square s) {
  if (!is_ok(s)) return "-";
  return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

std::optional<Square> parse_square(std::string_view text) {
  if (text.size() != 2) return std::nullopt;
  if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8') return std::nullopt;
  return make_square(text[0] - 'a', text[1] - '1');
}

}  // namespace egtb
