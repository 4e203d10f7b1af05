// The solver's generation layout (indexing/word_layout.hpp): the header's worked example, sizes,
// words round-tripping through their men, and canonical positions standing for the same storage
// entry as the men they came from.
#include <random>

#include "egtb/core/fen.hpp"
#include "indexing/word_layout.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::indexing;

namespace {

using Men = IndexScheme::Men;

IndexScheme scheme_of(const char* signature) { return IndexScheme(*Material::parse(signature)); }

}  // namespace

TEST_CASE("the worked example of the word layout", "[indexing][word-layout]") {
  const IndexScheme scheme = scheme_of("KQRkr");
  const WordLayout layout(scheme);
  CHECK(layout.inner() == 4);  // the black rook
  CHECK(layout.pair_words() == 4096);
  CHECK(layout.stride(2) == 64);
  CHECK(layout.stride(3) == 1);
  Men men;
  men.squares = {Square::A1, Square::C1, Square::D4, Square::H1, Square::E8};
  CHECK(layout.word_of(men) == 1735);
  CHECK(layout.position_of(men) == 111'100);
  CHECK(static_cast<int64_t>(layout.word_of(men)) + layout.step(2, Square::D4, Square::D5) == 2247);
  const WordLayout pawns(scheme_of("KRPkr"));
  CHECK(pawns.inner() == 4);
  CHECK(pawns.pair_words() == 64 * 48);
  CHECK(pawns.stride(2) == 48);
}

TEST_CASE("word layout sizes", "[indexing][word-layout]") {
  CHECK(WordLayout(scheme_of("KQk")).words() == 462);
  CHECK(WordLayout(scheme_of("KPk")).words() == 1806);
  CHECK(WordLayout(scheme_of("KQkr")).words() == 462 * 64);
  CHECK(WordLayout(scheme_of("KPkp")).words() == 1806 * 48);
  CHECK(WordLayout(scheme_of("KQRkr")).words() == 462 * 64 * 64);
  CHECK(WordLayout(scheme_of("KRPkr")).words() == 1806 * 64 * 48);
  // Without a piece the innermost man is the last pawn.
  CHECK(WordLayout(scheme_of("KPPkp")).inner() == 4);
  CHECK(WordLayout(scheme_of("KRkp")).inner() == 2);
}

TEST_CASE("layout_positions is the laid-out size, without laying out", "[indexing][word-layout]") {
  for (const Material& m : all_signatures(5)) {
    INFO(m.str());
    CHECK(layout_positions(m) == WordLayout(IndexScheme(m)).words() * 64);
  }
  CHECK(layout_positions(*Material::parse("KRPkr")) == 355'074'048);
  // Six men, counted by hand: the pawnless 462 * 64^4 of DESIGN.md §6, and two pawns' digits.
  Material six = Material::parse("KQRkr")->with_added(Color::Black, PieceType::Queen);
  CHECK(layout_positions(six) == uint64_t{462} * 64 * 64 * 64 * 64);
  six = Material::parse("KRPkr")->with_added(Color::Black, PieceType::Pawn);
  CHECK(layout_positions(six) == uint64_t{1806} * 64 * 64 * 48 * 48);
}

TEST_CASE("every word round-trips through its men", "[indexing][word-layout]") {
  for (const char* sig : {"KQk", "KRkr", "KPkp", "KRkp", "KBNk", "KPPk"}) {
    const WordLayout layout(scheme_of(sig));
    Men men;
    uint64_t wrong = 0;
    for (uint64_t w = 0; w < layout.words(); ++w) {
      layout.decode(w, men);
      wrong += layout.word_of(men) != w;
    }
    INFO(sig);
    CHECK(wrong == 0);
  }
}

TEST_CASE("canonical positions stand for the storage entry of their men", "[indexing][word-layout]") {
  // Random placements in any orientation: the canonical layout position decodes to a position
  // with the same storage entry (symmetric images, identical men and twin entries folded out).
  for (const char* sig : {"KQRkr", "KRRk", "KRPkr", "KPPkp", "KNNk"}) {
    const IndexScheme scheme = scheme_of(sig);
    const WordLayout layout(scheme);
    std::mt19937_64 rng(5);
    std::uniform_int_distribution<int> square(0, 63);
    int compared = 0;
    for (int n = 0; n < 20'000; ++n) {
      Men men;
      for (int j = 0; j < layout.man_count(); ++j)
        men.squares[static_cast<size_t>(j)] = square_at(square(rng));
      const auto pos = layout.placement(men, n % 2 ? Color::Black : Color::White);
      if (!pos || square_distance(men.squares[0], men.squares[1]) <= 1) continue;
      const auto entry = scheme.index_of(*pos);
      if (!entry) continue;
      const auto back = layout.placement(layout.canonical_position(men), pos->side_to_move());
      REQUIRE(back);
      INFO(sig << " " << to_fen(*pos));
      CHECK(scheme.index_of(*back) == entry);
      ++compared;
    }
    CHECK(compared > 1000);
  }
}
