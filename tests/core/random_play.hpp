// A deterministic sample of legal positions for property tests: random legal play from a few
// start positions (the initial position, the published perft positions and some endgames).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"

namespace egtb::test {

inline constexpr std::array<std::string_view, 10> RandomPlayStarts = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "4k3/pp3ppp/8/8/8/8/PPP2PPP/4K3 w - - 0 1",
    "4k3/1p3p2/8/2P1P3/8/8/1P3P2/4K3 w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/3k4/8/8/8/8/3K4/1Q5q w - - 0 1",
    "2n5/1P1k4/8/8/8/8/4Kp2/6N1 w - - 0 1",
    "8/p7/1p6/2p5/3P4/4P3/5P2/k5K1 w - - 0 1",
};

// xorshift64*: small, fast and the same on every platform.
class Rng {
public:
  explicit Rng(uint64_t seed) : state_(seed | 1) {}
  uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 2685821657736338717ULL;
  }
  // A number in [0, n).
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }

private:
  uint64_t state_;
};

// `count` positions, each after 0..max_plies random legal moves from one of RandomPlayStarts
// (play stops early at mate or stalemate).
inline std::vector<Position> random_positions(uint64_t seed, size_t count, int max_plies) {
  Rng rng(seed);
  std::vector<Position> out;
  while (out.size() < count) {
    Position pos = *parse_fen(RandomPlayStarts[rng.below(RandomPlayStarts.size())]);
    const size_t plies = rng.below(static_cast<size_t>(max_plies) + 1);
    for (size_t i = 0; i < plies; ++i) {
      const MoveList moves = legal_moves(pos);
      if (moves.empty()) break;
      pos.do_move(moves[rng.below(moves.size())]);
    }
    out.push_back(pos);
  }
  return out;
}

}  // namespace egtb::test
