// The solver's generation layout (indexing/word_layout.hpp): the header's worked example, sizes,
// words round-tripping through their men, and canonical positions standing for the same storage
// entry as the men they came from.
#include <algorithm>
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
  // Six men, counted by hand: the pawnless 462 * 64^4 of docs/design.md §6, and two pawns' digits.
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

// Random placements in any orientation: the canonical layout position decodes to a position with
// the same storage entry (symmetric images, identical men and twin entries folded out). layout_of
// gives the layout of the men (a whole table's, or their slice's). Returns the placements compared.
template <class LayoutOf>
int compare_canonical(const char* sig, const IndexScheme& scheme, LayoutOf&& layout_of) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<int> square(0, 63);
  int compared = 0;
  for (int n = 0; n < 20'000; ++n) {
    Men men;
    bool pawn_on_edge = false;
    for (int j = 0; j < scheme.man_count(); ++j) {
      const Square s = square_at(square(rng));
      men.squares[static_cast<size_t>(j)] = s;
      pawn_on_edge |= type_of(scheme.man_piece(j)) == PieceType::Pawn && (rank_of(s) == 0 || rank_of(s) == 7);
    }
    if (pawn_on_edge) continue;  // no position, and no placement slice
    const WordLayout& layout = layout_of(men);
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
  return compared;
}

TEST_CASE("canonical positions stand for the storage entry of their men", "[indexing][word-layout]") {
  for (const char* sig : {"KQRkr", "KRRk", "KRPkr", "KPPkp", "KNNk"}) {
    const IndexScheme scheme = scheme_of(sig);
    const WordLayout layout(scheme);
    CHECK(compare_canonical(sig, scheme, [&](const Men&) -> const WordLayout& { return layout; }) > 1000);
  }
}

TEST_CASE("file slices split a pawn table by the files of its digit pawns", "[indexing][word-layout]") {
  // KRPkr: the white pawn's files {f, 7 - f}, a slice each, the variants ascending.
  const PawnSlices krpkr(scheme_of("KRPkr"), Slicing::Files);
  REQUIRE(krpkr.size() == 4);
  for (uint32_t f = 0; f < 4; ++f) CHECK(krpkr[f].keys == std::vector<uint32_t>{f, 7 - f});
  // KPPkp: 64 file pairs of the two white pawns; the mirror and their exchange leave 20 slices.
  const PawnSlices kppkp(scheme_of("KPPkp"), Slicing::Files);
  CHECK(kppkp.size() == 20);
  size_t keys = 0;
  for (size_t s = 0; s < kppkp.size(); ++s) {
    keys += kppkp[s].keys.size();
    for (const uint32_t key : kppkp[s].keys) {
      const uint32_t a = key & 7, b = key >> 3;
      CHECK(std::count(kppkp[s].keys.begin(), kppkp[s].keys.end(), (7 - a) | (7 - b) << 3) == 1);
      CHECK(std::count(kppkp[s].keys.begin(), kppkp[s].keys.end(), b | a << 3) == 1);
    }
  }
  CHECK(keys == 64);
  // One slice, the whole table: no pawn, no digit pawn (the pawn is the innermost man).
  for (const char* sig : {"KQRkr", "KPk", "KRk"}) {
    const PawnSlices one(scheme_of(sig), Slicing::Files);
    REQUIRE(one.size() == 1);
    CHECK(one[0].keys.empty());
  }
  // KPPk: the innermost pawn is identical to the digit pawn, but no e.p. position is there.
  CHECK(PawnSlices(scheme_of("KPPk"), Slicing::Files).size() == 4);
  CHECK(PawnSlices(scheme_of("KRkp"), Slicing::Files).size() == 4);
}

TEST_CASE("the worked example of a file slice", "[indexing][word-layout]") {
  const IndexScheme scheme = scheme_of("KRPkr");
  const PawnSlices slices(scheme, Slicing::Files);
  Men men;
  men.squares = {Square::A1, Square::C1, Square::D4, Square::B3, Square::E8};
  REQUIRE(slices.slice_of(men) == 1);  // b/g
  // Whole, the rook's stride is the pawn's radix: 27 * 48 for d4, 9 for the pawn on b3.
  CHECK(WordLayout(scheme).word_of(men) == 27 * 48 + 9);
  const WordLayout layout(scheme, slices[1]);
  CHECK(layout.pair_words() == 64 * 6);
  CHECK(layout.pair_slots() == 2 * 1806);
  CHECK(layout.stride(2) == 6);
  CHECK(layout.word_of(men) == 163);
  CHECK(static_cast<int64_t>(layout.word_of(men)) + layout.step(3, Square::B3, Square::B5) == 165);
  // The g-file variant's words follow the b-file's.
  men.squares[3] = Square::G3;
  CHECK(layout.word_of(men) == 1806 * 384 + 163);
}

TEST_CASE("the worked example of a place among file slices", "[indexing][word-layout]") {
  const IndexScheme scheme = scheme_of("KPPkp");
  const PawnSlices slices(scheme, Slicing::Files);
  const DigitPawns pawns(scheme);
  REQUIRE(pawns.count() == 2);
  Men men;
  men.squares = {Square::A1, Square::C8, Square::H5, Square::H6, Square::H7};
  men.squares[static_cast<size_t>(pawns.man(0))] = Square::B2;
  men.squares[static_cast<size_t>(pawns.man(1))] = Square::A4;
  CHECK(pawns.key(men) == 1);
  const PawnSlices::Place place = slices.place_of(men);
  CHECK(place.slice == slices.slice_of(men));
  CHECK(slices[place.slice].keys == std::vector<uint32_t>{1, 8, 55, 62});
  CHECK(place.variant == 0);
  // The pawns exchanged: key 8, the slice's variant 1.
  std::swap(men.squares[static_cast<size_t>(pawns.man(0))], men.squares[static_cast<size_t>(pawns.man(1))]);
  CHECK(slices.place_of(men).slice == place.slice);
  CHECK(slices.place_of(men).variant == 1);
}

TEST_CASE("the words of a table's slices round-trip and add up to its words", "[indexing][word-layout]") {
  for (const char* sig : {"KPkp", "KRkp", "KPPk", "KRPk", "KPPkp"})
    for (const Slicing slicing : {Slicing::Files, Slicing::Placements, Slicing::PromotionsJoined}) {
      const IndexScheme scheme = scheme_of(sig);
      const PawnSlices slices(scheme, slicing);
      uint64_t words = 0, wrong = 0, outside = 0;
      for (size_t s = 0; s < slices.size(); ++s) {
        const WordLayout layout(scheme, slices[s]);
        words += layout.words();
        Men men;
        for (uint64_t w = 0; w < layout.words(); ++w) {
          layout.decode(w, men);
          const PawnSlices::Place place = slices.place_of(men);
          wrong += layout.word_of(men) != w || layout.word_of(men, place.variant) != w;
          outside += slices.slice_of(men) != s || place.slice != s;
        }
      }
      INFO(sig);
      CHECK(slices.size() > 1);
      CHECK(words == WordLayout(scheme).words());
      CHECK(wrong == 0);
      CHECK(outside == 0);
    }
}

TEST_CASE("canonical positions of a slice stand for the storage entry of their men",
          "[indexing][word-layout]") {
  // The kings' mirror keeps men in their slice: the canonical image lies in the slice of the men.
  for (const char* sig : {"KRPkr", "KPPkp", "KPkp"})
    for (const Slicing slicing : {Slicing::Files, Slicing::Placements, Slicing::PromotionsJoined}) {
      const IndexScheme scheme = scheme_of(sig);
      const PawnSlices slices(scheme, slicing);
      std::vector<WordLayout> layouts;
      for (size_t s = 0; s < slices.size(); ++s) layouts.emplace_back(scheme, slices[s]);
      CHECK(compare_canonical(sig, scheme, [&](const Men& men) -> const WordLayout& {
              return layouts[slices.slice_of(men)];
            }) > 1000);
    }
}

TEST_CASE("placement slices fix the digit pawns' squares, in pawn-move order", "[indexing][word-layout]") {
  const IndexScheme krpkr = scheme_of("KRPkr");
  const PawnSlices slices(krpkr, Slicing::Placements);
  REQUIRE(slices.size() == 24);
  // The worked example of word_layout.hpp: Ka1 kc1 Rd4 Pb3 re8, slice {b3, g3}, variant b3.
  Men men;
  men.squares = {Square::A1, Square::C1, Square::D4, Square::B3, Square::E8};
  const PawnSlice& slice = slices[slices.slice_of(men)];
  CHECK(slice.keys == std::vector<uint32_t>{9, 14});  // b3 - 8 and g3 - 8
  const WordLayout layout(krpkr, slice);
  CHECK(layout.pair_words() == 64);
  CHECK(layout.pair_slots() == 2 * 1806);
  CHECK(layout.fixed_in_slice(3));
  CHECK_FALSE(layout.fixed_in_slice(2));
  CHECK(layout.word_of(men) == 27);
  men.squares[3] = Square::B4;
  CHECK_FALSE(layout.holds(men));
  // Every step of a digit pawn leads to a slice solved before: white pawns up, black pawns down.
  for (const char* sig : {"KRPkr", "KRkp", "KPPkp", "KPPk", "KBPkp"})
    for (const Slicing slicing : {Slicing::Placements, Slicing::PromotionsJoined}) {
      INFO(sig << (slicing == Slicing::Placements ? "" : " joined"));
      const IndexScheme scheme = scheme_of(sig);
      const PawnSlices placed(scheme, slicing);
      const DigitPawns pawns(scheme, true);
      size_t steps = 0;
      for (size_t s = 0; s < placed.size(); ++s)
        for (const uint32_t key : placed[s].keys)
          for (int i = 0; i < pawns.count(); ++i) {
            const int up = color_of(scheme.man_piece(pawns.man(i))) == Color::White ? 8 : -8;
            const int d = pawns.digit(key, i) + up;
            if (d < 0 || d >= 48) continue;  // a promotion or a pawn on its first rank
            const uint32_t next = pawns.with_digit(key, i, d);
            Men m;
            for (int k = 0; k < pawns.count(); ++k)
              m.squares[static_cast<size_t>(pawns.man(k))] = square_at(pawns.digit(next, k) + 8);
            CHECK(placed.slice_of(m) < s);
            ++steps;
          }
      CHECK(steps > 0);
    }
  CHECK(pawn_slicing(krpkr) == Slicing::Placements);
  CHECK(pawn_slicing(scheme_of("KPPkp")) == Slicing::Files);
  CHECK(pawn_slicing(scheme_of("KQRkr")) == Slicing::Whole);
  CHECK(pawn_slicing(scheme_of("KPk")) == Slicing::Whole);
}

TEST_CASE("promoting placement slices of equal advance are joined, the others kept",
          "[indexing][word-layout]") {
  // KRPkr: the four slices of a pawn on the 7th (a7/h7 ... d7/e7, keys 40 ... 47) become the first
  // slice; the other 20 are the placement slices as they were, in the same order.
  const IndexScheme krpkr = scheme_of("KRPkr");
  const PawnSlices placed(krpkr, Slicing::Placements);
  const PawnSlices joined(krpkr, Slicing::PromotionsJoined);
  REQUIRE(joined.size() == 21);
  CHECK(joined[0].keys == std::vector<uint32_t>{40, 41, 42, 43, 44, 45, 46, 47});
  CHECK(joined[0].placement);
  for (size_t s = 1; s < joined.size(); ++s) CHECK(joined[s].keys == placed[s + 3].keys);
  // A black digit pawn promotes from its 2nd rank (keys 0 ... 7). With two digit pawns, the
  // placements with one of them on its 7th join by advance: KPPkp's white pawns P P, one on the 7th
  // and the other on the 2nd to the 7th, give 6 advances.
  CHECK(PawnSlices(scheme_of("KRkp"), Slicing::PromotionsJoined)[0].keys ==
        std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
  const IndexScheme kppkp = scheme_of("KPPkp");
  const PawnSlices kppkp_placed(kppkp, Slicing::Placements);
  const PawnSlices kppkp_joined(kppkp, Slicing::PromotionsJoined);
  const DigitPawns pawns(kppkp, true);
  size_t promoting = 0, keys = 0;
  for (size_t s = 0; s < kppkp_joined.size(); ++s) {
    const auto& k = kppkp_joined[s].keys;
    keys += k.size();
    const bool on_7th = pawns.rank(k[0], 0) == 6 || pawns.rank(k[0], 1) == 6;
    promoting += on_7th;
    for (const uint32_t key : k) {
      CHECK((pawns.rank(key, 0) == 6 || pawns.rank(key, 1) == 6) == on_7th);
      CHECK(pawns.rank(key, 0) + pawns.rank(key, 1) == pawns.rank(k[0], 0) + pawns.rank(k[0], 1));
    }
  }
  CHECK(promoting == 6);
  CHECK(keys == 48 * 48);
  CHECK(kppkp_joined.size() < kppkp_placed.size());
}
