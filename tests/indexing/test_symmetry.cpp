#include <set>

#include "egtb/core/fen.hpp"
#include "egtb/core/symmetry.hpp"
#include "indexing/binomial.hpp"
#include "indexing/kk_map.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::indexing;

TEST_CASE("the eight symmetries on squares", "[symmetry]") {
  CHECK(apply(Symmetry::FlipFiles, Square::B3) == Square::G3);
  CHECK(apply(Symmetry::FlipRanks, Square::B3) == Square::B6);
  CHECK(apply(Symmetry::Rotate180, Square::B3) == Square::G6);
  CHECK(apply(Symmetry::FlipDiag, Square::B1) == Square::A2);
  CHECK(apply(Symmetry::RotateLeft, Square::A1) == Square::H1);
  CHECK(apply(Symmetry::RotateLeft, Square::C2) == Square::G3);
  CHECK(apply(Symmetry::RotateRight, Square::A1) == Square::A8);
  CHECK(apply(Symmetry::FlipAntiDiag, Square::H8) == Square::A1);
  CHECK(apply(Symmetry::FlipAntiDiag, Square::G6) == Square::C2);
}

TEST_CASE("symmetries form a group and agree on bitboards", "[symmetry]") {
  for (Symmetry a : AllSymmetries) {
    CHECK(compose(inverse(a), a) == Symmetry::Identity);
    std::set<int> images;
    for (int i = 0; i < SquareCount; ++i) images.insert(to_index(apply(a, square_at(i))));
    CHECK(images.size() == SquareCount);
    for (Symmetry b : AllSymmetries)
      for (int i = 0; i < SquareCount; i += 7)
        CHECK(apply(compose(a, b), square_at(i)) == apply(a, apply(b, square_at(i))));
    const Bitboard set = 0x0000'2010'0804'8601ULL;
    Bitboard expected = 0;
    for (Bitboard b = set; b;) expected |= square_bb(apply(a, pop_lsb(b)));
    CHECK(apply(a, set) == expected);
  }
}

TEST_CASE("symmetric image of a position", "[symmetry]") {
  const auto pos = parse_fen("8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
  REQUIRE(pos.has_value());
  const Position mirrored = apply(Symmetry::FlipFiles, *pos);
  CHECK(to_fen(mirrored) == "8/8/8/3Pp3/8/8/8/k6K w - e6 0 1");
  CHECK(apply(Symmetry::FlipFiles, mirrored).same_position(*pos));
}

TEST_CASE("king pair maps", "[kk]") {
  CHECK(PawnlessKings.size == 462);
  CHECK(PawnKings.size == 1806);
  CHECK(PawnlessKings.kings[0] == std::array<Square, 2>{Square::A1, Square::C1});
  CHECK(PawnlessKings.kings[1] == std::array<Square, 2>{Square::A1, Square::D1});
  CHECK(PawnKings.kings[5] == std::array<Square, 2>{Square::A1, Square::H1});
  const size_t h8h1 = KkMap::at(Square::H8, Square::H1);
  CHECK(PawnlessKings.symmetry[h8h1] == Symmetry::FlipAntiDiag);
  CHECK(PawnlessKings.kings[PawnlessKings.pair[h8h1]] == std::array<Square, 2>{Square::A1, Square::H1});
  CHECK(PawnlessKings.pair[KkMap::at(Square::C2, Square::A1)] == 237);
  CHECK(PawnlessKings.pair[KkMap::at(Square::A1, Square::B2)] == KkMap::None);
  // Every legal pair maps by its symmetry onto the canonical pair its number names.
  for (const KkMap* map : {&PawnlessKings, &PawnKings})
    for (int w = 0; w < SquareCount; ++w)
      for (int b = 0; b < SquareCount; ++b) {
        const Square wk = square_at(w), bk = square_at(b);
        const size_t at = KkMap::at(wk, bk);
        if (wk == bk || square_distance(wk, bk) <= 1) {
          CHECK(map->pair[at] == KkMap::None);
          continue;
        }
        const Symmetry s = map->symmetry[at];
        const std::array<Square, 2> image{apply(s, wk), apply(s, bk)};
        CHECK(map->kings[map->pair[at]] == image);
        if (map->pawns) CHECK((s == Symmetry::Identity || s == Symmetry::FlipFiles));
      }
}

TEST_CASE("binomial coefficients and combination ranks", "[binomial]") {
  CHECK(binomial(62, 2) == 1891);
  CHECK(binomial(48, 3) == 17296);
  CHECK(binomial(64, 8) == 4426165368ULL);
  CHECK(binomial(3, 5) == 0);
  const uint8_t rooks[] = {3, 10};
  CHECK(combination_rank(rooks, 2) == 48);
  for (int k = 1; k <= 5; ++k) {
    const uint64_t total = binomial(62, k);
    for (uint64_t r = 0; r < total; r += 1 + total / 5000) {
      uint8_t v[8] = {};
      combination_unrank(r, k, v);
      bool ascending = v[k - 1] < 62;
      for (int j = 1; j < k; ++j) ascending = ascending && v[j - 1] < v[j];
      CHECK(ascending);
      CHECK(combination_rank(v, k) == r);
    }
  }
}
