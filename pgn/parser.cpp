#include "pgn/parser.hpp"

#include <utility>
#include <vector>

namespace egtb::pgn {

namespace {

std::string where(Location l) { return std::to_string(l.line) + ":" + std::to_string(l.column); }

// How an error message names the token found: "']'", "the move 'e4'", "the end of the input".
std::string found(const Token& t) {
  switch (t.kind) {
    case TokenKind::Symbol: return "the move '" + t.text + "'";
    case TokenKind::MoveNumber: return "the move number '" + t.text + "'";
    case TokenKind::Result: return "the result '" + t.text + "'";
    case TokenKind::String: return "the tag value \"" + t.text + "\"";
    default: return std::string(token_kind_name(t.kind));
  }
}

}  // namespace

std::string format_error(const PgnError& e, std::string_view source_name) {
  return std::string(source_name) + ":" + where(e.location) + ": game " + std::to_string(e.game) + ": " +
         e.message;
}

// One line of moves being read: the mainline or a variation.
struct Parser::Line {
  NodeId start = Game::Root;  // the node its first move is played from
  NodeId last = Game::Root;   // its last move so far (start before the first)
  Location opened;            // of the '(' that opened a variation
  bool variation = false;
  std::vector<std::string> pending_comments;  // before a variation's first move
  std::vector<uint8_t> pending_nags;
};

Parser::Parser(std::istream& in) : lexer_(in) { advance(); }

std::optional<Expected<Game, PgnError>> Parser::next() {
  if (skip_ != Skip::None) recover(std::exchange(skip_, Skip::None) == Skip::Movetext);
  if (token_.kind == TokenKind::End) return std::nullopt;
  Game game;
  game.number = ++games_;
  game.location = token_.location;
  game_offset_ = lexer_.offset();
  game_line_ = token_.location.line;
  for (; token_.kind == TokenKind::Comment; advance()) {
    if (auto e = check_limits(game)) return unexpected(std::move(*e));  // endless comments
    game.node(Game::Root).comments.push_back(std::move(token_.text));
  }
  if (auto e = read_tags(game)) {
    skip_ = Skip::Tags;
    return unexpected(std::move(*e));
  }
  if (auto e = read_movetext(game)) {
    skip_ = Skip::Movetext;
    return unexpected(std::move(*e));
  }
  return game;
}

std::optional<PgnError> Parser::check_limits(const Game& game) const {
  const std::string from = "the game from line " + std::to_string(game_line_) + " has more than ";
  if (lexer_.offset() - game_offset_ > MaxGameBytes)
    return fail(from + std::to_string(MaxGameBytes) + " bytes");
  if (game.size() - 1 > MaxGameMoves) return fail(from + std::to_string(MaxGameMoves) + " moves");
  if (game.tags.size() > MaxGameTags) return fail(from + std::to_string(MaxGameTags) + " tags");
  return std::nullopt;
}

std::optional<PgnError> Parser::read_tags(Game& game) {
  while (token_.kind == TokenKind::TagOpen) {
    if (auto e = check_limits(game)) return e;
    if (auto e = read_tag(game)) return e;
  }
  return std::nullopt;
}

std::optional<PgnError> Parser::read_tag(Game& game) {
  advance();
  if (token_.kind != TokenKind::Symbol) return unexpected_token("a tag name after '['");
  std::string name = std::move(token_.text);
  advance();
  if (token_.kind != TokenKind::String) return unexpected_token("a tag value after '" + name + "'");
  Tag tag{std::move(name), std::move(token_.text), token_.location};
  advance();
  if (token_.kind != TokenKind::TagClose)
    return unexpected_token("']' after the value of '" + tag.name + "'");
  advance();
  game.tags.push_back(std::move(tag));
  return std::nullopt;
}

std::optional<PgnError> Parser::read_movetext(Game& game) {
  std::vector<Line> lines(1);
  for (;;) {
    switch (token_.kind) {
      case TokenKind::Result:
        if (lines.size() > 1)
          return fail("the result '" + token_.text + "' comes before the variation opened at " +
                      where(lines.back().opened) + " is closed");
        game.result = token_.text;
        advance();
        return std::nullopt;
      case TokenKind::End:
      case TokenKind::TagOpen:
        if (lines.size() > 1)
          return fail("the variation opened at " + where(lines.back().opened) + " is not closed");
        game.result = "*";
        return std::nullopt;
      default:
        if (auto e = check_limits(game)) return e;
        if (auto e = read_element(game, lines)) return e;
    }
  }
}

std::optional<PgnError> Parser::read_element(Game& game, std::vector<Line>& lines) {
  Line& line = lines.back();
  const bool first = line.last == line.start;
  switch (token_.kind) {
    case TokenKind::MoveNumber: break;
    case TokenKind::Symbol: {
      const NodeId n = game.add_text_move(line.last, std::move(token_.text), token_.location);
      game.node(n).starting_comments = std::move(line.pending_comments);
      game.node(n).nags = std::move(line.pending_nags);
      line.pending_comments.clear();
      line.pending_nags.clear();
      line.last = n;
      break;
    }
    case TokenKind::Nag:
      (first && line.variation ? line.pending_nags : game.node(line.last).nags).push_back(token_.nag);
      break;
    case TokenKind::Comment:
      (first && line.variation ? line.pending_comments : game.node(line.last).comments)
          .push_back(std::move(token_.text));
      break;
    case TokenKind::VariationOpen: return open_variation(game, lines);
    case TokenKind::VariationClose:
      if (lines.size() == 1) return fail("')' closes no variation");
      close_variation(game, lines);
      break;
    case TokenKind::Error: return fail(token_.text);
    default: return unexpected_token("a move, a comment, a variation or the result");
  }
  advance();
  return std::nullopt;
}

std::optional<PgnError> Parser::open_variation(Game& game, std::vector<Line>& lines) {
  const Line& line = lines.back();
  if (line.last == line.start) return fail("a variation must follow the move it replaces");
  if (lines.size() > static_cast<size_t>(MaxVariationDepth))
    return fail("variations nested more than " + std::to_string(MaxVariationDepth) + " deep");
  const NodeId from = game.node(line.last).parent;
  Line variation;
  variation.start = variation.last = from;
  variation.opened = token_.location;
  variation.variation = true;
  lines.push_back(std::move(variation));
  advance();
  return std::nullopt;
}

// Ends the innermost variation; one without moves gives its comments and NAGs to the move
// before it.
void Parser::close_variation(Game& game, std::vector<Line>& lines) {
  Line closed = std::move(lines.back());
  lines.pop_back();
  if (closed.last != closed.start) return;
  Node& before = game.node(lines.back().last);
  for (std::string& c : closed.pending_comments) before.comments.push_back(std::move(c));
  for (uint8_t nag : closed.pending_nags) before.nags.push_back(nag);
}

PgnError Parser::fail(std::string message) const { return {games_, token_.location, std::move(message)}; }

PgnError Parser::unexpected_token(std::string_view expected) const {
  if (token_.kind == TokenKind::Error) return fail(token_.text);
  return fail("expected " + std::string(expected) + ", found " + found(token_));
}

// Skips the rest of a bad game: past its result, or up to a '[' at the start of a line once
// movetext was seen (the next game's tags), or MaxGameBytes. A tag runs from its '[' to its ']' or
// the end of its line; a result inside one does not end the game.
void Parser::recover(bool in_movetext) {
  bool movetext = in_movetext;
  uint64_t tag_line = in_movetext ? 0 : token_.location.line;  // the line of an open tag
  const uint64_t start = lexer_.offset();
  for (; lexer_.offset() - start <= MaxGameBytes; advance()) {
    const bool in_tag = token_.location.line == tag_line;
    switch (token_.kind) {
      case TokenKind::End: return;
      case TokenKind::Result:
        if (in_tag) break;
        advance();
        return;
      case TokenKind::TagOpen:
        if (movetext && token_.location.column == 1) return;
        tag_line = token_.location.line;
        break;
      case TokenKind::TagClose: tag_line = 0; break;
      default:
        if (!in_tag) movetext = true;
    }
  }
}

}  // namespace egtb::pgn
