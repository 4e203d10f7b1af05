#include "egtb/core/fen.hpp"

#include <charconv>
#include <vector>

namespace egtb {

namespace {

constexpr const char* FieldNames[] = {"position",        "piece placement",   "side to move",
                                      "castling rights", "en passant square", "halfmove clock",
                                      "fullmove number"};

Unexpected<FenError> fail(int field, const std::string& message) {
  const std::string where =
      field == 0 ? "FEN position: " : "FEN field " + std::to_string(field) + " (" + FieldNames[field] + "): ";
  return unexpected(FenError{field, where + message});
}

std::vector<std::string_view> split_fields(std::string_view fen) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < fen.size()) {
    while (i < fen.size() && (fen[i] == ' ' || fen[i] == '\t')) ++i;
    const size_t start = i;
    while (i < fen.size() && fen[i] != ' ' && fen[i] != '\t') ++i;
    if (i > start) fields.push_back(fen.substr(start, i - start));
  }
  return fields;
}

// Fills the board from field 1; returns an error message or an empty string.
std::string parse_placement(std::string_view text, Position& pos) {
  int rank = 7, file = 0;
  for (char c : text) {
    if (c == '/') {
      if (file != 8) return "rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " files";
      if (--rank < 0) return "more than 8 ranks";
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) return "rank " + std::to_string(rank + 1) + " has more than 8 files";
    } else {
      const auto piece = piece_from_char(c);
      if (!piece) return std::string("unknown piece letter '") + c + "'";
      if (file >= 8) return "rank " + std::to_string(rank + 1) + " has more than 8 files";
      pos.put_piece(*piece, make_square(file++, rank));
    }
  }
  if (rank != 0) return "has " + std::to_string(8 - rank) + " ranks, expected 8";
  if (file != 8) return "rank 1 has " + std::to_string(file) + " files";
  return {};
}

std::string parse_castling(std::string_view text, Position& pos) {
  if (text == "-") return {};
  CastlingRights rights = 0;
  for (char c : text) {
    const size_t at = std::string_view("KQkq").find(c);
    if (at == std::string_view::npos) return std::string("unknown castling letter '") + c + "'";
    const auto bit = static_cast<CastlingRights>(1u << at);
    if (rights & bit) return std::string("castling letter '") + c + "' repeated";
    rights |= bit;
  }
  pos.set_castling_rights(rights);
  return {};
}

bool parse_counter(std::string_view text, int min, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && out >= min;
}

}  // namespace

Expected<Position, FenError> parse_fen(std::string_view fen, FenCheck check) {
  const auto fields = split_fields(fen);
  if (fields.size() != 4 && fields.size() != 6)
    return fail(0, "expected 6 fields (or 4 without counters), found " + std::to_string(fields.size()));
  Position pos;
  if (auto e = parse_placement(fields[0], pos); !e.empty()) return fail(1, e);
  if (fields[1] != "w" && fields[1] != "b")
    return fail(2, "expected 'w' or 'b', found '" + std::string(fields[1]) + "'");
  pos.set_side_to_move(fields[1] == "w" ? Color::White : Color::Black);
  if (auto e = parse_castling(fields[2], pos); !e.empty()) return fail(3, e);
  if (fields[3] != "-") {
    const auto ep = parse_square(fields[3]);
    if (!ep) return fail(4, "'" + std::string(fields[3]) + "' is not a square");
    pos.set_ep_square(*ep);
  }
  if (fields.size() == 6) {
    int halfmove = 0, fullmove = 1;
    if (!parse_counter(fields[4], 0, halfmove))
      return fail(5, "'" + std::string(fields[4]) + "' is not a number >= 0");
    if (!parse_counter(fields[5], 1, fullmove))
      return fail(6, "'" + std::string(fields[5]) + "' is not a number >= 1");
    pos.set_counters(halfmove, fullmove);
  }
  if (check == FenCheck::Board) return pos;
  if (auto e = validate(pos)) {
    const int field = e->rfind("e.p.", 0) == 0 ? 4 : e->rfind("castling", 0) == 0 ? 3 : 0;
    return fail(field, *e);
  }
  return pos;
}

std::string placement_fen(const Position& pos) {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int gap = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = pos.piece_on(make_square(file, rank));
      if (p == Piece::None) {
        ++gap;
        continue;
      }
      if (gap) out += static_cast<char>('0' + gap);
      gap = 0;
      out += piece_char(p);
    }
    if (gap) out += static_cast<char>('0' + gap);
    if (rank) out += '/';
  }
  out += ' ';
  out += color_char(pos.side_to_move());
  return out;
}

std::string to_fen(const Position& pos) {
  std::string out = placement_fen(pos) + ' ';
  const char letters[] = {'K', 'Q', 'k', 'q'};
  const size_t before = out.size();
  for (unsigned i = 0; i < 4; ++i)
    if (pos.castling_rights() & (1u << i)) out += letters[i];
  if (out.size() == before) out += '-';
  out += ' ' + square_name(pos.ep_square());
  out += ' ' + std::to_string(pos.halfmove_clock()) + ' ' + std::to_string(pos.fullmove_number());
  return out;
}

}  // namespace egtb
