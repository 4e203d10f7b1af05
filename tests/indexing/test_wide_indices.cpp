// Indices of 6- and 7-man signatures, past 2^32: this build generates up to 5 men
// (Material::MaxMen), but the index scheme and the solver's word layout must be right for the
// tables users build on machines with the memory.
//
// How these tests reach values above 2^32 without the memory: an IndexScheme is arithmetic and a
// WordLayout keeps one table over a king pair's words (KRPkrp: 147,456 words, 1 MB; KRPPkrp:
// 7 M words, 50 MB), so both are built at their full 6- and 7-man sizes and single entries, words
// and positions above 2^32 are decoded and encoded one by one; nothing is allocated per position.
// The sizes are checked against products computed here with a binomial of the test's own.
#include <random>

#include "egtb/core/fen.hpp"
#include "indexing/word_layout.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/wide_material.hpp"

using namespace egtb;
using namespace egtb::indexing;
using egtb::test::wide_material;

namespace {

using Men = IndexScheme::Men;

constexpr uint64_t Above32 = uint64_t{1} << 32;

// n choose k by multiplication, exact for these sizes.
uint64_t choose(uint64_t n, uint64_t k) {
  uint64_t r = 1;
  for (uint64_t i = 1; i <= k; ++i) r = r * (n - k + i) / i;
  return r;
}

// The king pairs (docs/design.md §3): 462 without pawns, 1806 with pawns.
constexpr uint64_t Pawnless = 462, Pawns = 1806;
// Pieces stand on the 62 squares the kings leave, pawns on the 48 of ranks 2-7; the e.p. section
// has 14 (double-stepped pawn, capturer) file pairs per king pair.
constexpr uint64_t P62 = 62, P48 = 48, EpCaptures = 14;

}  // namespace

TEST_CASE("6- and 7-man index sizes are the products of their men's placements", "[indexing][wide]") {
  struct Case {
    const char* signature;
    uint64_t normal;
    uint64_t ep;
  };
  const Case cases[] = {
      {"KQRBkr", Pawnless * P62 * P62 * P62 * P62, 0},  // 6.8 G
      {"KRRkrr", Pawnless * choose(62, 2) * choose(62, 2), 0},
      {"KRPkrp", Pawns * P62 * P48 * P62 * P48, Pawns * EpCaptures * P62 * P62},  // 16.0 G
      {"KPPPkp", Pawns * choose(48, 3) * P48, Pawns * EpCaptures * choose(48, 2)},
      {"KQRBkqr", Pawnless * P62 * P62 * P62 * P62 * P62, 0},  // 7 men: 423 G
      {"KRPPkrp", Pawns * P62 * choose(48, 2) * P62 * P48, Pawns * EpCaptures * P62 * P48 * P62},
      {"KPPPPkp", Pawns * choose(48, 4) * P48, Pawns * EpCaptures * choose(48, 3)},
  };
  for (const Case& c : cases) {
    INFO(c.signature);
    const IndexScheme scheme(wide_material(c.signature));
    CHECK(scheme.material().men() == static_cast<int>(std::string_view(c.signature).size()));
    CHECK(scheme.normal_size() == c.normal);
    CHECK(scheme.ep_size() == c.ep);
    CHECK(scheme.size() == c.normal + c.ep);
  }
  CHECK(IndexScheme(wide_material("KQRBkr")).size() > Above32);
  CHECK(IndexScheme(wide_material("KRPkrp")).size() > 3 * Above32);
  // The word layout: 64 squares per piece and 48 per pawn, for every man but the kings and the
  // innermost. docs/design.md §6: a pawnless 6-man table has 462 x 64^4 = 7.7 G layout positions.
  CHECK(WordLayout(IndexScheme(wide_material("KQRBkr"))).words() * 64 == Pawnless * 64 * 64 * 64 * 64);
  CHECK(WordLayout(IndexScheme(wide_material("KQRBkr"))).words() * 64 == 7'751'073'792);
  CHECK(WordLayout(IndexScheme(wide_material("KRPkrp"))).words() == Pawns * 64 * 48 * 48);
}

TEST_CASE("words and positions above 2^32 round-trip through their men", "[indexing][wide]") {
  // KRPPkrp (7 men): 1806 * 64 * 48^3 = 12.8 G words, so the word itself passes 2^32 and decode
  // must not divide it as a 32-bit number. Each word's king pair is its quotient by the words of
  // a pair, computed here.
  {
    const WordLayout layout(IndexScheme(wide_material("KRPPkrp")));
    REQUIRE(layout.words() > Above32);
    std::vector<uint64_t> words = {Above32 - 1, Above32, Above32 + 1, Above32 + 12'345, layout.words() - 1};
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<uint64_t> any(Above32, layout.words() - 1);
    for (int n = 0; n < 2000; ++n) words.push_back(any(rng));
    Men men;
    for (uint64_t w : words) {
      INFO("word " << w);
      layout.decode(w, men);
      const auto kings = layout.kings().kings[static_cast<size_t>(w / layout.pair_words())];
      REQUIRE(men.squares[0] == kings[0]);
      REQUIRE(men.squares[1] == kings[1]);
      REQUIRE(layout.word_of(men) == w);
    }
  }
  // KRPkrp (6 men): words below 2^32, positions up to 17 G. A position decodes to men whose
  // canonical position is itself, and whose storage entry (also above 2^32 from pair 455 on)
  // decodes to the same position; the same men under the kings of pair 0 lie lower by exactly the
  // pairs' distance (the "un-offset" case).
  const IndexScheme scheme(wide_material("KRPkrp"));
  const WordLayout layout(scheme);
  const uint64_t positions = layout.words() * 64;
  REQUIRE(positions > 3 * Above32);
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<uint64_t> any(Above32, positions - 1);
  int checked = 0;
  for (int n = 0; n < 20'000; ++n) {
    const uint64_t p = any(rng);
    const auto pos = layout.placement(p, n % 2 ? Color::Black : Color::White);
    if (!pos) continue;
    Men men;
    layout.decode(p / 64, men);
    men.squares[static_cast<size_t>(layout.inner())] = square_at(static_cast<int>(p % 64));
    INFO(to_fen(*pos));
    REQUIRE(layout.canonical_position(men) == p);
    const uint64_t pair = p / 64 / layout.pair_words();
    Men low = men;
    low.squares[0] = layout.kings().kings[0][0];
    low.squares[1] = layout.kings().kings[0][1];
    REQUIRE(layout.position_of(low) == p - pair * layout.pair_words() * 64);
    const auto entry = scheme.index_of(*pos);
    if (!entry) continue;  // kings touching, a man on a king's square, the side not to move in check
    const auto back = scheme.position_at(*entry, pos->side_to_move());
    REQUIRE(back);
    REQUIRE(back->same_position(*pos));
    checked += *entry >= Above32;
  }
  CHECK(checked > 1000);
}

TEST_CASE("storage entries above 2^32 round-trip, e.p. section included", "[indexing][wide]") {
  // Every entry checked decodes to a position whose index is the entry; men_at gives the men
  // index_of(Men) encodes back, through the 64-bit division (normal_size() > 2^32).
  const IndexScheme scheme(wide_material("KRPkrp"));
  REQUIRE(scheme.normal_size() > Above32);
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<uint64_t> normal(Above32, scheme.normal_size() - 1);
  std::uniform_int_distribution<uint64_t> ep(scheme.normal_size(), scheme.size() - 1);
  int normal_checked = 0, ep_checked = 0;
  Position pos;
  Men men;
  for (int n = 0; n < 40'000; ++n) {
    const Color stm = n % 2 ? Color::Black : Color::White;
    const uint64_t i = n % 4 < 2 ? normal(rng) : ep(rng);
    if (!scheme.decode(i, stm, pos)) continue;
    INFO(i << " " << to_fen(pos));
    REQUIRE(scheme.index_of(pos) == i);
    if (scheme.is_ep_entry(i)) {
      ++ep_checked;
      continue;
    }
    REQUIRE(scheme.men_at(i, men));
    REQUIRE(scheme.index_of(men) == i);
    ++normal_checked;
  }
  CHECK(normal_checked > 5000);
  CHECK(ep_checked > 500);
}
