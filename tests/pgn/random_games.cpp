#include "tests/pgn/random_games.hpp"

#include <iterator>
#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"

namespace egtb::test {

namespace {

using pgn::Game;
using pgn::NodeId;

const char* const Comments[] = {
    "a plain comment",
    "with } a closing brace",
    "%starts with a percent sign",
    "quotes \" and \\ backslash",
    "UTF-8: Läufer ½ – ∞",
    "a; semicolon",
    "100 % sure %x %y %z %w %v %u %t %s %r %q %p %o %n %m %l %k %j %i %h",
    "two  spaces\nand a line break",
    ("a very long comment that goes on and on so that the writer must wrap it over more than one line of "
     "the movetext, word after word, until it ends here"),
    ""};

std::string random_comment(Rng& rng) { return Comments[rng.below(std::size(Comments))]; }

// Whitespace collapsed as the reader keeps comments ('}' written as ')').
std::string as_read(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\n') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c == '}' ? ')' : c;
  }
  return out;
}

void decorate(Game& game, NodeId n, Rng& rng) {
  if (rng.below(4) == 0) game.node(n).comments.push_back(as_read(random_comment(rng)));
  if (rng.below(5) == 0) game.node(n).nags.push_back(static_cast<uint8_t>(rng.below(256)));
}

// Plays up to `plies` random moves from `from`, adding variations below `depth` 3.
void random_line(Game& game, NodeId from, int plies, int depth, Rng& rng) {
  for (int i = 0; i < plies; ++i) {
    const MoveList moves = legal_moves(game.position(from));
    if (moves.empty()) return;
    const NodeId n = game.add_move(from, moves[rng.below(moves.size())]);
    decorate(game, n, rng);
    if (depth < 3 && moves.size() > 1 && rng.below(6) == 0) {
      const NodeId v = game.add_move(from, moves[rng.below(moves.size())]);
      if (rng.below(3) == 0) game.node(v).starting_comments.push_back(as_read(random_comment(rng)));
      decorate(game, v, rng);
      random_line(game, v, static_cast<int>(rng.below(6)), depth + 1, rng);
    }
    from = n;
  }
}

std::string random_result(const Game& game, Rng& rng) {
  NodeId last = Game::Root;
  for (NodeId n : game.mainline()) last = n;
  const Position& end = game.position(last);
  if (is_checkmate(end)) return end.side_to_move() == Color::White ? "0-1" : "1-0";
  if (is_stalemate(end)) return "1/2-1/2";
  const char* const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
  return results[rng.below(4)];
}

// A random legal move of pos, a capture with probability 7/8 when it has one.
Move random_move(const Position& pos, const MoveList& moves, Rng& rng) {
  if (rng.below(8) != 0) {
    MoveList captures;
    for (Move m : moves)
      if (!pos.empty(m.to()) || m.kind() == MoveKind::EnPassant) captures.push_back(m);
    if (!captures.empty()) return captures[rng.below(captures.size())];
  }
  return moves[rng.below(moves.size())];
}

std::string end_result(const Position& pos) {
  if (is_checkmate(pos)) return pos.side_to_move() == Color::White ? "0-1" : "1-0";
  return is_stalemate(pos) ? "1/2-1/2" : "*";
}

}  // namespace

Game random_annotated_game(Rng& rng) {
  Game game(*parse_fen(RandomPlayStarts[rng.below(RandomPlayStarts.size())]));
  game.set_tag("Event", "random \"annotated\" game");
  game.set_tag("Annotator", "back\\slash");
  if (rng.below(3) == 0) game.node(Game::Root).comments.push_back(as_read(random_comment(rng)));
  random_line(game, Game::Root, static_cast<int>(rng.below(60)), 0, rng);
  game.result = random_result(game, rng);
  return game;
}

std::optional<Game> random_game_into_tables(Rng& rng, int men) {
  constexpr int MaxPlies = 400;
  Game game;
  NodeId node = Game::Root;
  int tail = -1;  // plies still to play once in the tables
  for (int ply = 0; ply < MaxPlies && tail != 0; ++ply) {
    const Position& pos = game.position(node);
    const MoveList moves = legal_moves(pos);
    if (moves.empty()) break;
    node = game.add_move(node, random_move(pos, moves, rng));
    if (tail > 0) --tail;
    const Position& now = game.position(node);
    if (tail < 0 && popcount(now.pieces()) <= men && now.castling_rights() == 0)
      tail = 10 + static_cast<int>(rng.below(31));
  }
  if (tail < 0) return std::nullopt;
  game.result = end_result(game.position(node));
  game.set_tag("Result", game.result);
  return game;
}

}  // namespace egtb::test
