// query::stalemate_class: the article's "vs-b-sb, p-bm" counts of a stalemate and its purity, on
// positions whose class follows from the board by hand.
#include "egtb/core/fen.hpp"
#include "query/mate.hpp"
#include "tests/support/catch.hpp"

using egtb::query::StalemateClass;

namespace {

std::string class_of(const char* fen) {
  const std::optional<StalemateClass> kind = egtb::query::stalemate_class(egtb::parse_fen(fen).value());
  return kind ? kind->words() : "none";
}

}  // namespace

TEST_CASE("stalemate class: vacant squares, blocks, self-blocks, pins and blocked men", "[mate]") {
  // Kc7 covers b7 and b8 once each, Bd4 a7: three vacant squares, the bishop takes part.
  CHECK(class_of("k7/2K5/8/8/3B4/8/8/8 b - - 0 1") == "stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), pure, model");
  // The pawn on a7 blocks a square and is guarded once (Kb6), b8 is covered by the pawn alone.
  CHECK(class_of("k7/P7/1K6/8/8/8/8/8 b - - 0 1") == "stalemate 2-1-0, 0-0 (vs-b-sb, p-bm), pure, model");
  // Black's own pawn self-blocks a7 and is itself blocked by Ka6, which attacks it: not pure.
  CHECK(class_of("k7/p1B5/K7/8/8/8/8/8 b - - 0 1") == "stalemate 2-0-1, 0-1 (vs-b-sb, p-bm), not pure");
  // The knight on b8 self-blocks and is pinned by Rh8, its only attacker: pure, the rook takes part.
  CHECK(class_of("kn5R/8/1K6/8/8/8/8/8 b - - 0 1") == "stalemate 2-0-1, 1-0 (vs-b-sb, p-bm), pure, model");
  CHECK(class_of("k7/8/1K6/8/8/8/8/2Q5 b - - 0 1") == "none");  // Black can move: no stalemate
  // The queen covers a7, b7 and b8, Kb6 a7 and b7 again: not pure.
  CHECK(class_of("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1") == "stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), not pure");
  // White stalemated in the corner: Qc2 covers a2, b1 and b2, Kc1 b1 and b2 again.
  CHECK(class_of("8/8/8/8/8/8/2q5/K1k5 w - - 0 1") == "stalemate 3-0-0, 0-0 (vs-b-sb, p-bm), not pure");
}
