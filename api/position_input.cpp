#include "api/position_input.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "api/errors.hpp"
#include "egtb/core/fen.hpp"

namespace egtb::api {

namespace {

// The first square of a non-empty set, named for a message.
std::string first_square(Bitboard b) { return square_name(lsb(b)); }

}  // namespace

Position parse_position(std::string_view fen) {
  if (fen.size() > MaxFenBytes)
    throw InputError("a FEN has at most " + std::to_string(MaxFenBytes) + " characters, this one " +
                     std::to_string(fen.size()));
  std::string text(fen == "startpos" ? StartFen : fen);
  std::replace(text.begin(), text.end(), '_', ' ');
  const Expected<Position, FenError> pos = parse_fen(text);
  if (!pos) throw InputError(pos.error().message, InputLocation{.fen_field = pos.error().field});
  return *pos;
}

Expected<Position, std::string> position_from_sets(const BoardSets& sets) {
  const std::array<std::pair<Bitboard, PieceType>, 6> types = {{{sets.kings, PieceType::King},
                                                                {sets.queens, PieceType::Queen},
                                                                {sets.rooks, PieceType::Rook},
                                                                {sets.bishops, PieceType::Bishop},
                                                                {sets.knights, PieceType::Knight},
                                                                {sets.pawns, PieceType::Pawn}}};
  if (const Bitboard both = sets.white & sets.black)
    return unexpected("square " + first_square(both) + " is in both the white and the black set");
  const Bitboard men = sets.white | sets.black;
  Bitboard typed = 0;
  Position pos;
  for (const auto& [set, type] : types) {
    if (const Bitboard twice = set & typed)
      return unexpected("square " + first_square(twice) + " has two piece types");
    if (const Bitboard colourless = set & ~men)
      return unexpected("square " + first_square(colourless) + " has a piece type but no colour");
    typed |= set;
    for (Bitboard b = set; b;) {
      const Square s = pop_lsb(b);
      pos.put_piece(make_piece(contains(sets.white, s) ? Color::White : Color::Black, type), s);
    }
  }
  if (const Bitboard untyped = men & ~typed)
    return unexpected("square " + first_square(untyped) + " has a colour but no piece type");
  pos.set_side_to_move(sets.side_to_move);
  pos.set_ep_square(sets.ep_square);
  return pos;
}

}  // namespace egtb::api
