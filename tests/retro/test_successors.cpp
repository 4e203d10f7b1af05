// The solver's move count on bare squares (checks and pins from bitboards) agrees with the general
// move generator entry by entry: the number of moves, check, and the moves that leave the table
// (captures and promotions), on tables of every kind; and a move out of the table finds the same
// subtable score from bare men as from the position.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
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

// The moves of a position that leave the table, from the general move generator.
MoveList general_exits(const Position& pos, const MoveList& moves) {
  MoveList exits;
  for (Move m : moves)
    if (m.kind() == MoveKind::Promotion || !pos.empty(m.to())) exits.push_back(m);
  return exits;
}

// Compares the solver's count with the general one on normal-section entry i of side c; returns
// true when the entry holds a legal position.
bool compare_entry(const indexing::IndexScheme& scheme, const retro::Successors& successors, Index i, Color c,
                   retro::SuccessorWorkspace& ws) {
  Position pos;
  if (!scheme.decode(i, c, pos)) return false;
  REQUIRE(scheme.men_at(i, ws.men));
  const retro::EntryMoves fast = successors.moves(c, ws);
  const MoveList general = legal_moves(pos);
  INFO(scheme.material().str() << " " << to_fen(pos));
  CHECK(fast.count == static_cast<int>(general.size()));
  CHECK(fast.in_check == pos.in_check());
  CHECK(sorted_exits(ws.exits) == sorted_exits(general_exits(pos, general)));
  return true;
}

TEST_CASE("the solver's and the general move counts agree on every entry", "[retro][successors]") {
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

TEST_CASE("the solver's and the general move counts agree on sampled 5-man entries", "[retro][successors]") {
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
  REQUIRE(scheme.men_at(*scheme.index_of(*parse_fen("3r4/7k/8/8/3Q4/8/8/K7 w - - 0 1")), ws.men));
  const retro::EntryMoves moves = successors.moves(Color::White, ws);
  CHECK(moves.count == 29);
  CHECK_FALSE(moves.in_check);
  REQUIRE(ws.exits.size() == 1);
  CHECK(ws.exits[0] == Move(Square::D4, Square::D8));
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
        Position pos;
        if (!scheme.decode(i, c, pos) || !scheme.men_at(i, ws.men)) continue;
        successors.moves(c, ws);
        for (Move m : ws.exits) {
          ++probes;
          if (exits.probe(scheme, ws.men, c, m) != exits.probe(pos, m))
            FAIL_CHECK(sig << " " << to_fen(pos) << " " << to_uci(m));
        }
      }
    INFO(sig);
    CHECK(probes > 1000);
  }
}

}  // namespace
}  // namespace egtb::test
