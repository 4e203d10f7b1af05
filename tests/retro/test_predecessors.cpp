// The solver's two ways to list predecessors agree: the fast one (bare squares, bitboard
// legality, incremental indices) against the general one (un-move generation on positions and
// index_of), entry by entry, on tables of every kind the fast way serves: one and two identical
// pieces, pawns of one colour, pawns of both colours (outside ranks 4-5), and a 5-man table with
// three pieces against the king, where a king un-move may leave a triple check.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "retro/predecessors.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;
using retro::Predecessor;

struct Agreement {
  uint64_t fast = 0;   // entries the fast way served
  uint64_t valid = 0;  // valid entries looked at
};

std::vector<Predecessor> sorted(std::vector<Predecessor> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Compares both ways on entry i of side c; counts it when valid.
void compare_entry(const indexing::IndexScheme& scheme, const retro::Predecessors& preds, Index i, Color c,
                   retro::PredecessorWorkspace& ws, Agreement& a) {
  if (!scheme.decode(i, c, ws.pos) || scheme.index_of(ws.pos) != i) return;
  ++a.valid;
  if (scheme.is_ep_entry(i) || !scheme.men_at(i, ws.men) || !preds.fast_path(ws.men)) return;
  ++a.fast;
  preds.collect_fast(i, c, ws);
  const auto fast = sorted(ws.found);
  preds.collect_general(i, c, ws);
  const auto general = sorted(ws.found);
  if (fast != general) FAIL_CHECK(scheme.material().str() << " entry " << i << " " << to_fen(ws.pos));
}

// Every `step`-th entry of both sides.
Agreement compare_table(const std::string& signature, Index step) {
  const indexing::IndexScheme scheme(*Material::parse(signature));
  const retro::Predecessors preds(scheme);
  retro::PredecessorWorkspace ws;
  Agreement a;
  for (Color c : {Color::White, Color::Black})
    for (Index i = 0; i < scheme.size(); i += step) compare_entry(scheme, preds, i, c, ws, a);
  return a;
}

TEST_CASE("the fast and the general predecessors agree on every entry", "[retro][predecessors]") {
  for (const char* sig : {"KQk", "KRkr", "KRRk", "KBNk", "KPk", "KPPk", "KRkp", "KPkp"}) {
    const Agreement a = compare_table(sig, 1);
    INFO(sig << ": " << a.fast << " of " << a.valid << " valid entries served fast");
    CHECK(a.fast * 10 >= a.valid * 7);  // the fast way serves most entries
  }
}

TEST_CASE("the fast and the general predecessors agree on sampled 5-man entries", "[retro][predecessors]") {
  // KQRBk: three pieces can check a king that just stepped (a triple check makes it illegal).
  for (const char* sig : {"KQRBk", "KRPkr", "KPPkp"}) {
    const indexing::IndexScheme scheme(*Material::parse(sig));
    const retro::Predecessors preds(scheme);
    retro::PredecessorWorkspace ws;
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<Index> entry(0, scheme.size() - 1);
    Agreement a;
    for (int n = 0; n < 200'000; ++n)
      compare_entry(scheme, preds, entry(rng), n % 2 ? Color::Black : Color::White, ws, a);
    INFO(sig << ": " << a.fast << " of " << a.valid << " valid entries served fast");
    CHECK(a.fast * 10 >= a.valid * 6);
  }
}

TEST_CASE("predecessors of a KRkr position, as the header describes", "[retro][predecessors]") {
  const indexing::IndexScheme scheme(*Material::parse("KRkr"));
  const retro::Predecessors preds(scheme);
  retro::PredecessorWorkspace ws;
  const Position pos = *parse_fen("7k/2r5/8/8/3R4/8/8/1K6 b - - 0 1");
  const Index i = *scheme.index_of(pos);
  REQUIRE(scheme.men_at(i, ws.men));
  REQUIRE(preds.fast_path(ws.men));
  preds.collect(i, Color::Black, ws);
  CHECK(ws.found.size() == 17);
  CHECK(std::all_of(ws.found.begin(), ws.found.end(), [](const Predecessor& p) { return p.weight == 1; }));
}

TEST_CASE("a position that is its own mirror image weighs its predecessors", "[retro][predecessors]") {
  // Ka1 Qb2 kd3, White to move: Black's king came from c3, and Ka1 Qb2 kc3 (Black to move) is its
  // own mirror image in the a1-h8 diagonal, so the un-move stands for two of that entry's moves
  // (kc3-d3 and kc3-c4 reach the same entry).
  const indexing::IndexScheme scheme(*Material::parse("KQk"));
  const retro::Predecessors preds(scheme);
  retro::PredecessorWorkspace ws;
  const Position pos = *parse_fen("8/8/8/8/8/3k4/1Q6/K7 w - - 0 1");
  preds.collect(*scheme.index_of(pos), Color::White, ws);
  const Index symmetric = *scheme.index_of(*parse_fen("8/8/8/8/8/2k5/1Q6/K7 b - - 0 1"));
  const auto it = std::find_if(ws.found.begin(), ws.found.end(),
                               [&](const Predecessor& p) { return p.entry == symmetric; });
  REQUIRE(it != ws.found.end());
  CHECK(it->weight == 2);
}

}  // namespace
}  // namespace egtb::test
