// Move generation on boards no game reaches, as CQL evaluates them (query --fens, imagine): the
// expected moves are listed by hand from CQLi's manual ("Filter Semantics in Illegal Positions",
// shared/spec/cqli-imaginary-positions.txt): a move is legal when it leaves no king of the mover
// attacked, a side with no king or several is never in check and has no castling, an attacked
// king of the other side may be captured, pawns on their first rank step one or two squares
// (without e.p. right), pawns on their last rank stay.
#include <algorithm>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

Position board(const char* fen) {
  const auto pos = parse_fen(fen, FenCheck::Board);
  REQUIRE(pos.has_value());
  return *pos;
}

// The legal moves in UCI, sorted.
std::vector<std::string> moves_of(const Position& pos) {
  std::vector<std::string> out;
  for (Move m : legal_moves(pos)) out.push_back(to_uci(m));
  std::ranges::sort(out);
  return out;
}

using Moves = std::vector<std::string>;

}  // namespace

TEST_CASE("a king checked by three men has its safe king steps", "[movegen][board]") {
  // Knights b4, c3 and e3 all check d5; they also guard c4, c6 and e4.
  const Position pos = board("8/8/8/3k4/1N6/2N1N3/8/7K b - - 0 1");
  REQUIRE(validate(pos).has_value());
  CHECK(pos.in_check());
  CHECK(moves_of(pos) == Moves{"d5c5", "d5d4", "d5d6", "d5e5", "d5e6"});
  CHECK_FALSE(is_checkmate(pos));
  // Rook h8, bishop e4 and knight b6 check a8; the knight b5 guards a7: mate.
  const Position mated = board("k6R/8/1N6/1N6/4B3/8/8/7K b - - 0 1");
  CHECK(popcount(mated.checkers()) == 3);
  CHECK(moves_of(mated).empty());
  CHECK(is_checkmate(mated));
}

TEST_CASE("the side not to move in check can have its king captured", "[movegen][board]") {
  const Position pos = board("k7/1Q6/8/8/8/8/8/7K w - - 0 1");
  const Moves moves = moves_of(pos);
  CHECK(moves.size() == 25);  // the queen's 22 (a8 included), the king's 3
  CHECK(std::ranges::count(moves, "b7a8") == 1);
  const Position after = pos.after(*parse_uci(pos, "b7a8"));
  CHECK(after.count(Color::Black, PieceType::King) == 0);
  CHECK_FALSE(after.in_check());
  CHECK_FALSE(is_checkmate(after));
  CHECK(is_stalemate(after));  // no man left to move and not in check: stalemate by its definition
}

TEST_CASE("with both kings in check the side to move must answer its own", "[movegen][board]") {
  // The queen g2 checks h1, the queen b7 checks a8: taking the king a8 leaves h1 attacked.
  CHECK(moves_of(board("k7/1Q6/8/8/8/8/6q1/7K w - - 0 1")) == Moves{"b7g2", "h1g2"});
}

TEST_CASE("a side without a king moves every man and is never in check", "[movegen][board]") {
  const Position rook = board("4k3/8/8/8/8/8/8/R7 w - - 0 1");
  CHECK(moves_of(rook).size() == 14);
  CHECK_FALSE(rook.in_check());
  // A white king mated by two queens, the black king missing: the mate stands.
  const Position mated = board("8/8/8/8/8/8/1q6/q6K w - - 0 1");
  CHECK(is_checkmate(mated));
  // Black to move without king: the queen's 18 moves, e1 (the white king) taken included.
  const Position black = board("8/8/8/8/8/8/8/q3K3 b - - 0 1");
  CHECK(moves_of(black).size() == 18);
  CHECK(std::ranges::count(moves_of(black), "a1e1") == 1);
  CHECK_FALSE(is_checkmate(black));
}

TEST_CASE("a side with several kings is never in check, may step into attack, and has no castling",
          "[movegen][board]") {
  // The king b8 stands next to a8 and may take it; h1 has its three steps.
  const Position pos = board("kK6/8/8/8/8/8/8/7K w - - 0 1");
  CHECK(moves_of(pos) == Moves{"b8a7", "b8a8", "b8b7", "b8c7", "b8c8", "h1g1", "h1g2", "h1h2"});
  // Two white kings, the rook a1 attacking d1: neither counts as in check.
  const Position checked = board("4k3/8/8/8/8/8/8/r2K3K w - - 0 1");
  CHECK_FALSE(checked.in_check());
  CHECK(std::ranges::count(moves_of(checked), "d1c1") == 1);  // along the rook's rank
  CHECK(moves_of(board("4k3/8/8/8/8/8/8/R3K2K w Q - 0 1")) ==
        Moves{"a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1c1", "a1d1", "e1d1", "e1d2",
              "e1e2", "e1f1", "e1f2", "h1g1", "h1g2", "h1h2"});
}

TEST_CASE("pawns on their first rank step one or two squares, on their last rank none", "[movegen][board]") {
  CHECK(moves_of(board("4k3/8/8/8/8/8/8/P3K3 w - - 0 1")) ==
        Moves{"a1a2", "a1a3", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"});
  CHECK(moves_of(board("p3k3/8/8/8/8/8/8/4K3 b - - 0 1")) ==
        Moves{"a8a6", "a8a7", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"});
  // From the first rank a pawn also captures; its double step gives no e.p. right (b3 cannot
  // take on a2).
  const Position pos = board("4k3/8/8/8/8/1p6/1n6/P3K3 w - - 0 1");
  CHECK(std::ranges::count(moves_of(pos), "a1b2") == 1);
  const Position stepped = pos.after(*parse_uci(pos, "a1a3"));
  CHECK(stepped.ep_square() == Square::None);
  CHECK(std::ranges::none_of(legal_moves(stepped), [](Move m) { return m.kind() == MoveKind::EnPassant; }));
  // A pawn on its last rank neither moves nor attacks, and may be taken (e8d8).
  CHECK(moves_of(board("4k3/8/8/8/8/8/8/4K2p b - - 0 1")) == Moves{"e8d7", "e8d8", "e8e7", "e8f7", "e8f8"});
  const Position last = board("3Pk3/8/8/8/8/8/8/4K3 b - - 0 1");
  CHECK_FALSE(last.in_check());
  CHECK(moves_of(last) == Moves{"e8d7", "e8d8", "e8e7", "e8f7", "e8f8"});
}

TEST_CASE("castling rights and e.p. squares that do not fit the board give no move", "[movegen][board]") {
  // The right K without a rook on h1.
  CHECK(moves_of(board("4k3/8/8/8/8/8/8/4K3 w K - 0 1")) == Moves{"e1d1", "e1d2", "e1e2", "e1f1", "e1f2"});
  // The right K with the king on d1 and a rook on h1.
  CHECK(std::ranges::count(moves_of(board("4k3/8/8/8/8/8/8/3K3R w K - 0 1")), "d1g1") == 0);
  // An e.p. square on the fourth rank behind a black pawn e3: d3 takes nothing on e4.
  CHECK(moves_of(board("4k3/8/8/8/8/3Pp3/8/4K3 w - e4 0 1")) == Moves{"d3d4", "e1d1", "e1e2", "e1f1"});
}
