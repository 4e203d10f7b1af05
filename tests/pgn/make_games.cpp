// make_games N [MEN] [SEED]: N games of random play from the initial position into the tables,
// as PGN on standard output, for measuring `egtb annotate`, `egtb query --pgn-in` and reading
// (scripts/pgn_bench.sh). A program, not a test.
//
// Each game plays random legal moves, a capture whenever one is drawn from the moves with
// probability 7/8, until at most MEN men (default 4) are left and neither side may castle; then
// it goes on at random for 10 to 40 more plies or until the game ends. A game that has not reached
// the tables after 400 plies is dropped. The result tag tells checkmate (1-0 or 0-1) and stalemate
// (1/2-1/2); other games end with "*". The same N, MEN and SEED give the same file.
#include <cstdlib>
#include <iostream>
#include <string>

#include "egtb/core/movegen.hpp"
#include "pgn/writer.hpp"
#include "tests/core/random_play.hpp"

using namespace egtb;

namespace {

constexpr int MaxPlies = 400;

// A random legal move of pos, a capture with probability 7/8 when it has one.
Move random_move(const Position& pos, const MoveList& moves, test::Rng& rng) {
  if (rng.below(8) != 0) {
    MoveList captures;
    for (Move m : moves)
      if (!pos.empty(m.to()) || m.kind() == MoveKind::EnPassant) captures.push_back(m);
    if (!captures.empty()) return captures[rng.below(captures.size())];
  }
  return moves[rng.below(moves.size())];
}

bool in_tables(const Position& pos, int men) {
  return popcount(pos.pieces()) <= men && pos.castling_rights() == 0;
}

std::string result_of(const Position& pos) {
  if (is_checkmate(pos)) return pos.side_to_move() == Color::White ? "0-1" : "1-0";
  return is_stalemate(pos) ? "1/2-1/2" : "*";
}

// One game into the tables, or nothing when it does not get there within MaxPlies.
std::optional<pgn::Game> random_game(test::Rng& rng, int men) {
  pgn::Game game;
  pgn::NodeId node = pgn::Game::Root;
  int tail = -1;  // plies still to play once in the tables
  for (int ply = 0; ply < MaxPlies && tail != 0; ++ply) {
    const Position& pos = game.position(node);
    const MoveList moves = legal_moves(pos);
    if (moves.empty()) break;
    node = game.add_move(node, random_move(pos, moves, rng));
    if (tail > 0) --tail;
    if (tail < 0 && in_tables(game.position(node), men)) tail = 10 + static_cast<int>(rng.below(31));
  }
  if (tail < 0) return std::nullopt;
  game.result = result_of(game.position(node));
  return game;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: make_games N [MEN] [SEED]\n";
    return 2;
  }
  const long count = std::atol(argv[1]);
  const int men = argc > 2 ? std::atoi(argv[2]) : 4;
  test::Rng rng(argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1);
  for (long made = 0; made < count;) {
    std::optional<pgn::Game> game = random_game(rng, men);
    if (!game) continue;
    ++made;
    game->set_tag("Event", "random play");
    game->set_tag("Round", std::to_string(made));
    game->set_tag("Result", game->result);
    pgn::write_game(std::cout, *game);
  }
}
