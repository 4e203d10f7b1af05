// The solver's two ways to count an entry's legal moves agree: the fast one (bare squares, checks
// and pins from bitboards) against the general one (the Position's legal moves), entry by entry:
// validity, duplicates of symmetric positions, the number of moves, check, and the moves that
// leave the table (captures and promotions), on tables of every kind; and that a move out of the
// table finds the same subtable score from bare men as from the position.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/notation.hpp"
#include "retro/successors.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;

std::vector<Move> sorted_exits(const MoveList& exits) {
  std::vector<Move> v(exits.begin(), exits.end());
  std::sort(v.begin(), v.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  return v;
}

// Compares both ways on normal-section entry i of side c; returns true when the entry is valid.
bool compare_entry(const indexing::IndexScheme& scheme, const retro::Successors& successors, Index i, Color c,
                   retro::SuccessorWorkspace& ws) {
  const auto fast = successors.moves_fast(i, c, ws);
  const auto fast_exits = sorted_exits(ws.exits);
  const auto general = successors.moves_general(i, c, ws);
  INFO(scheme.material().str() << " entry " << i << (c == Color::White ? " w" : " b"));
  REQUIRE(fast.has_value() == general.has_value());
  if (!general) return false;
  INFO(to_fen(ws.pos));
  CHECK(fast->count == general->count);
  CHECK(fast->in_check == general->in_check);
  CHECK(fast_exits == sorted_exits(ws.exits));
  return true;
}

TEST_CASE("the fast and the general move counts agree on every entry", "[retro][successors]") {
  for (const char* sig : {"KQk", "KRkr", "KRRk", "KBNk", "KPk", "KPPk", "KRkp", "KPkp", "KQkq"}) {
    const indexing::IndexScheme scheme(*Material::parse(sig));
    const retro::Successors successors(scheme);
    retro::SuccessorWorkspace ws;
    uint64_t valid = 0;
    for (Color c : {Color::White, Color::Black})
      for (Index i = 0; i < scheme.normal_size(); ++i) valid += compare_entry(scheme, successors, i, c, ws);
    CHECK(valid > scheme.normal_size() / 2);
  }
}

TEST_CASE("the fast and the general move counts agree on sampled 5-man entries", "[retro][successors]") {
  for (const char* sig : {"KQRBk", "KRPkr", "KPPkp", "KQQkq", "KNNkp"}) {
    const indexing::IndexScheme scheme(*Material::parse(sig));
    const retro::Successors successors(scheme);
    retro::SuccessorWorkspace ws;
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<Index> entry(0, scheme.normal_size() - 1);
    uint64_t valid = 0;
    for (int n = 0; n < 200'000; ++n)
      valid += compare_entry(scheme, successors, entry(rng), n % 2 ? Color::Black : Color::White, ws);
    CHECK(valid > 50'000);
  }
}

TEST_CASE("the moves of a KQkr position, as the header describes", "[retro][successors]") {
  const indexing::IndexScheme scheme(*Material::parse("KQkr"));
  const retro::Successors successors(scheme);
  retro::SuccessorWorkspace ws;
  const auto moves =
      successors.moves(*scheme.index_of(*parse_fen("3r4/7k/8/8/3Q4/8/8/K7 w - - 0 1")), Color::White, ws);
  REQUIRE(moves);
  CHECK(moves->count == 29);
  CHECK_FALSE(moves->in_check);
  REQUIRE(ws.exits.size() == 1);
  CHECK(ws.exits[0] == Move(Square::D4, Square::D8));
}

TEST_CASE("e.p. entries take the general way", "[retro][successors]") {
  const indexing::IndexScheme scheme(*Material::parse("KPkp"));
  const retro::Successors successors(scheme);
  retro::SuccessorWorkspace ws;
  // White's pawn just stepped to e4; Black's d4 pawn takes e.p. or steps on.
  const Position pos = *parse_fen("8/8/8/8/3pP3/8/8/K6k b - e3 0 1");
  const Index i = *scheme.index_of(pos);
  REQUIRE(scheme.is_ep_entry(i));
  const auto moves = successors.moves(i, Color::Black, ws);
  REQUIRE(moves);
  CHECK(moves->count == 5);  // kg1, kg2, kh2, d3, dxe3 e.p.
  CHECK(ws.exits.size() == 1);
}

TEST_CASE("exits probed from bare men score as from positions", "[retro][successors]") {
  // KRkp: Black's promotions lead into KRkq, stored colour-flipped; KPkp: captures both ways and
  // promotions with a capture; KQkq: captures into KQk from both sides.
  for (const char* sig : {"KRkp", "KPkp", "KQkq", "KBNk", "KNPk"}) {
    const Material material = parse_material(sig);
    for (const Material& sub : material.successors())
      if (!sub.is_bare_kings()) (void)solved(sub);
    const indexing::IndexScheme scheme(material);
    const retro::ExitTables exits(material, solved_tables());
    const retro::Successors successors(scheme);
    retro::SuccessorWorkspace ws;
    uint64_t probes = 0;
    for (Color c : {Color::White, Color::Black})
      for (Index i = 0; i < scheme.normal_size(); ++i) {
        if (!successors.moves_fast(i, c, ws) || ws.exits.empty()) continue;
        REQUIRE(scheme.decode(i, c, ws.pos));
        for (Move m : ws.exits) {
          ++probes;
          if (exits.probe(scheme, ws.men, c, m) != exits.probe(ws.pos, m))
            FAIL_CHECK(sig << " " << to_fen(ws.pos) << " " << to_uci(m));
        }
      }
    INFO(sig);
    CHECK(probes > 1000);
  }
}

}  // namespace
}  // namespace egtb::test
