#include <string>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

uint64_t perft_of(const std::string& fen, int depth) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  return perft(*pos, depth);
}

}  // namespace

// The perft table of chessprogramming.org, as quoted in shared/reference/README.md.
TEST_CASE("perft of the published positions", "[perft]") {
  CHECK(perft_of(std::string(StartFen), 4) == 197281);
  CHECK(perft_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3) == 97862);
  CHECK(perft_of("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5) == 674624);
  CHECK(perft_of("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4) == 422333);
  CHECK(perft_of("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3) == 62379);
  CHECK(perft_of("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3) == 89890);
}

TEST_CASE("perft of the published positions, full depth", "[perft][slow]") {
  CHECK(perft_of(std::string(StartFen), 5) == 4865609);
  CHECK(perft_of("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 4) == 4085603);
  CHECK(perft_of("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6) == 11030083);
  CHECK(perft_of("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4) == 2103487);
  CHECK(perft_of("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4) == 3894594);
}

TEST_CASE("mate and stalemate detection", "[movegen]") {
  const auto mate = parse_fen("k7/1Q6/2K5/8/8/8/8/8 b - - 0 1");
  REQUIRE(mate.has_value());
  CHECK(is_checkmate(*mate));
  CHECK_FALSE(is_stalemate(*mate));
  const auto stale = parse_fen("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
  REQUIRE(stale.has_value());
  CHECK(is_stalemate(*stale));
  CHECK_FALSE(is_checkmate(*stale));
}

// Insufficient material as chess (and the lichess tablebase API) counts it: neither side can mate.
TEST_CASE("insufficient material", "[movegen]") {
  const auto insufficient = [](const char* fen) {
    const auto pos = parse_fen(fen);
    REQUIRE(pos.has_value());
    return is_insufficient_material(*pos);
  };
  CHECK(insufficient("8/8/8/8/8/8/8/K1k5 w - - 0 1"));             // KK
  CHECK(insufficient("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1"));          // KNk
  CHECK(insufficient("8/8/8/8/8/8/8/2K1B1k1 w - - 0 1"));          // KBk
  CHECK(insufficient("8/8/8/8/8/8/B7/K1k2b2 w - - 0 1"));          // KBkb, both bishops light (a2, f1)
  CHECK_FALSE(insufficient("8/8/8/8/8/1N6/8/1k1K2q1 w - - 0 1"));  // KNkq: the queen can mate
  CHECK_FALSE(insufficient("8/8/8/B7/8/8/8/K1k2b2 w - - 0 1"));    // KBkb, a5 dark and f1 light
  CHECK_FALSE(insufficient("8/8/6NN/8/8/8/8/K1k5 w - - 0 1"));     // KNNk: a mate exists
  CHECK_FALSE(insufficient("8/8/8/8/8/1N6/8/1k1K2r1 w - - 0 1"));  // KNkr: the rook helps a knight mate
  CHECK_FALSE(insufficient("8/8/8/8/8/8/B7/K1k2n2 w - - 0 1"));    // KBkn: a bishop mate with help
  CHECK_FALSE(insufficient("8/8/8/8/8/8/P7/K1k5 w - - 0 1"));      // a pawn
  CHECK_FALSE(insufficient("8/8/8/8/8/8/8/K1k4Q b - - 0 1"));      // a queen
}
