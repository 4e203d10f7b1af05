#include "pgn/replay.hpp"

#include <algorithm>
#include <cctype>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"

namespace egtb::pgn {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// True for the names a [Variant] tag gives standard chess.
bool is_standard(std::string_view variant) {
  const std::string name = lower(variant);
  return name.empty() || name == "standard" || name == "chess" || name == "normal" || name == "from position";
}

constexpr int EnPassantField = 4;

// The FEN with "-" for its fourth field, the e.p. square. A FEN tag whose e.p. square no double
// step explains ("... w - g6 0 1" with a pawn on g7) is read as CQL reads it, without the square:
// CQL 6.2 ignores it, and the published study collections have such tags.
std::string without_en_passant(const std::string& fen) {
  size_t at = 0;
  for (int field = 1; field < EnPassantField; ++field) {
    at = fen.find(' ', at);
    if (at == std::string::npos) return fen;
    at = fen.find_first_not_of(' ', at);
    if (at == std::string::npos) return fen;
  }
  const size_t end = std::min(fen.find(' ', at), fen.size());
  return fen.substr(0, at) + "-" + fen.substr(end);
}

// The start position from the FEN and SetUp tags, or why there is none.
std::optional<PgnError> set_start(Game& game) {
  const Tag* fen = game.find_tag("FEN");
  const Tag* setup = game.find_tag("SetUp");
  if (const Tag* variant = game.find_tag("Variant"); variant && !is_standard(variant->value))
    return PgnError{game.number, variant->location,
                    "the variant '" + variant->value + "' is not supported (only standard chess)"};
  if (!fen) {
    if (setup && setup->value == "1")
      return PgnError{game.number, setup->location, "[SetUp \"1\"] needs a FEN tag with the start position"};
    return std::nullopt;
  }
  Expected<Position, FenError> start = parse_fen(fen->value);
  // Only a square that no double step explains is dropped; a field that is no square stays an error.
  if (!start && start.error().field == EnPassantField && parse_fen(fen->value, FenCheck::Board))
    start = parse_fen(without_en_passant(fen->value));
  if (!start) return PgnError{game.number, fen->location, "[FEN]: " + start.error().message};
  game.node(Game::Root).position = *start;
  return std::nullopt;
}

// The legal move written as `text`: SAN, long algebraic, or "--" (or "Z0") for a null move, as
// studies write a pass in their analysis.
Expected<Move, std::string> read_move(const Position& pos, const std::string& text) {
  if (text == NullMoveText || text == "Z0") return Move();  // a null move: the side to move passes
  Expected<Move, std::string> move = parse_san(pos, text);
  if (move || text.find('-') == std::string::npos || text.starts_with("O-O") || text.starts_with("0-0"))
    return move;
  std::string plain = text;
  std::erase(plain, '-');
  Expected<Move, std::string> long_algebraic = parse_san(pos, plain);
  return long_algebraic ? long_algebraic : move;
}

}  // namespace

std::optional<PgnError> replay(Game& game) {
  if (auto e = set_start(game)) return e;
  for (NodeId id = 1; id < game.size(); ++id) {
    Node& node = game.node(id);
    const Position& before = game.position(node.parent);
    const Expected<Move, std::string> move = read_move(before, node.san);
    if (!move)
      return PgnError{
          game.number, node.location,
          move_number(before) + " " + node.san + ": " + move.error() + " (position " + to_fen(before) + ")"};
    node.move = *move;
    node.position = before.after(*move);
  }
  return std::nullopt;
}

}  // namespace egtb::pgn
