// Runs of storage entries (IndexScheme::for_each_run), which the writer walks to fill a table's
// blocks from the solver's layout, and the layout's position steps (WordLayout::position_step)
// that place a run's entries without a word_of each: checked against men_at and position_of,
// entry by entry, in every candidate index order of tables of three to five men.
#include <optional>
#include <random>
#include <vector>

#include "indexing/word_layout.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::indexing;

namespace {

using Men = IndexScheme::Men;

bool same_men(const IndexScheme& scheme, const Men& a, const Men& b) {
  for (int j = 0; j < scheme.man_count(); ++j)
    if (a.squares[static_cast<size_t>(j)] != b.squares[static_cast<size_t>(j)]) return false;
  return true;
}

// Walks [begin, end) by runs and checks each entry against men_at: every entry men_at accepts
// once, none other, with the same men; within a run only the run man moves, its entries ascending
// run_stride() apart. Returns the entries visited.
uint64_t check_runs(const IndexScheme& scheme, Index begin, Index end) {
  const auto step = static_cast<size_t>(scheme.run_man());
  std::vector<uint8_t> seen(end - begin, 0);
  Men run_men;
  std::optional<Index> last;  // the run's last entry
  uint64_t visited = 0;
  scheme.for_each_run(
      begin, end,
      [&](const Men& run) {
        run_men = run;
        last.reset();
      },
      [&](Index i, Square s) {
        REQUIRE((i >= begin && i < end && seen[i - begin] == 0));
        if (last) REQUIRE((i > *last && (i - *last) % scheme.run_stride() == 0));
        if (step == 0) REQUIRE(!last);
        last = i;
        seen[i - begin] = 1;
        Men visited_men = run_men;
        visited_men.squares[step] = s;
        Men men;
        REQUIRE(scheme.men_at(i, men));
        REQUIRE(same_men(scheme, visited_men, men));
        ++visited;
      });
  Men men;
  for (Index i = begin; i < end; ++i) {
    INFO("entry " << i);
    REQUIRE(seen[i - begin] == (scheme.men_at(i, men) ? 1 : 0));
  }
  return visited;
}

}  // namespace

TEST_CASE("for_each_run visits the entries men_at accepts, only the run man moving in a run",
          "[indexing][runs]") {
  std::mt19937_64 random(7);
  for (const char* signature : {"KQk", "KBBk", "KPk", "KRPkr", "KQRkr", "KPPkp", "KBNkp", "KQkpp", "KPPPk"}) {
    const Material material = *Material::parse(signature);
    for (const IndexOrder& order : IndexOrder::candidates(material)) {
      INFO(signature << " in order " << order.str(material));
      const IndexScheme scheme(material, order);
      const Index size = scheme.normal_size();
      uint64_t visited = check_runs(scheme, 0, std::min<Index>(size, 5000));
      for (int k = 0; k < 4; ++k) {  // ranges starting and ending inside runs
        const Index begin = random() % size;
        visited += check_runs(scheme, begin, std::min<Index>(size, begin + 1 + random() % 3000));
      }
      CHECK(visited > 0);
    }
  }
}

TEST_CASE("a position step is the difference of the two positions", "[indexing][runs]") {
  std::mt19937_64 random(11);
  for (const char* signature : {"KQRkr", "KRPkr", "KBNkp"}) {
    const IndexScheme scheme(*Material::parse(signature));
    const WordLayout layout(scheme);
    INFO(signature);
    int checked = 0;
    while (checked < 2000) {
      Men men;
      if (!scheme.men_at(random() % scheme.normal_size(), men)) continue;
      const int j = 2 + static_cast<int>(random() % static_cast<uint64_t>(scheme.man_count() - 2));
      const bool pawn = type_of(scheme.man_piece(j)) == PieceType::Pawn;
      const Square from = men.squares[static_cast<size_t>(j)];
      const Square to = pawn ? square_at(file_of(from) + 8 * static_cast<int>(1 + random() % 6))
                             : square_at(static_cast<int>(random() % 64));
      Men moved = men;
      moved.squares[static_cast<size_t>(j)] = to;
      CHECK(static_cast<int64_t>(layout.position_of(moved) - layout.position_of(men)) ==
            layout.position_step(j, from, to));
      ++checked;
    }
  }
}

namespace {

// Checks for_each_invalid on [begin, end) against decode, entry by entry; returns the invalid ones.
uint64_t check_invalid(const IndexScheme& scheme, Color stm, Index begin, Index end) {
  std::vector<uint8_t> invalid(end - begin, 0);
  Index next = begin;  // every call ascending, each entry once, inside the range
  bool in_order = true;
  scheme.for_each_invalid(begin, end, stm, [&](Index i) {
    in_order = in_order && i >= next && i < end;
    next = i + 1;
    if (in_order) invalid[i - begin] = 1;
  });
  REQUIRE(in_order);
  Position pos;
  uint64_t count = 0;
  std::optional<Index> wrong;
  for (Index i = begin; i < end; ++i) {
    if (invalid[i - begin] != (scheme.decode(i, stm, pos) ? 0 : 1) && !wrong) wrong = i;
    count += invalid[i - begin];
  }
  INFO("entry " << wrong.value_or(0));
  CHECK(!wrong);
  return count;
}

}  // namespace

TEST_CASE("for_each_invalid names exactly the entries that decode to no position", "[indexing][runs]") {
  std::mt19937_64 random(13);
  for (const char* signature : {"KQk", "KPk", "KBNk", "KPkp", "KRkp", "KPPk", "KQkq"}) {
    INFO(signature);
    const IndexScheme scheme(*Material::parse(signature));
    uint64_t invalid = 0;
    for (Color stm : {Color::White, Color::Black}) invalid += check_invalid(scheme, stm, 0, scheme.size());
    CHECK(invalid > 0);
  }
  for (const char* signature : {"KRPkr", "KQRkr", "KPPkp", "KBNkp", "KBBBk"}) {
    const Material material = *Material::parse(signature);
    for (const IndexOrder& order : IndexOrder::candidates(material)) {
      INFO(signature << " in order " << order.str(material));
      const IndexScheme scheme(material, order);
      uint64_t invalid = 0;
      for (int k = 0; k < 6; ++k) {  // blocks, and ranges starting and ending inside runs
        const Index begin = k < 2 ? random() % scheme.size() / 32768 * 32768 : random() % scheme.size();
        const Index end = std::min<Index>(scheme.size(), begin + (k < 2 ? 32768 : 1 + random() % 5000));
        invalid += check_invalid(scheme, k % 2 ? Color::Black : Color::White, begin, end);
      }
      if (scheme.ep_size() > 0)  // the e.p. section and the end of the normal one
        invalid +=
            check_invalid(scheme, Color::White, scheme.normal_size() - 3000, scheme.normal_size() + 3000);
      CHECK(invalid > 0);
    }
  }
  // The worked example of index.hpp: KQk, White to move, Ka1 kc1.
  const IndexScheme kqk(*Material::parse("KQk"));
  CHECK(check_invalid(kqk, Color::White, 0, 62) == 20);
  Men men;
  REQUIRE(kqk.men_at(0, men));
  CHECK((men.squares[0] == Square::A1 && men.squares[1] == Square::C1 && men.squares[2] == Square::B1));
}

TEST_CASE("run_legal_squares: the worked example of index.hpp", "[indexing][runs]") {
  const IndexScheme krk(*Material::parse("KRk"));
  REQUIRE(krk.run_man() == 2);
  Men men;
  men.squares = {Square::A1, Square::H8, Square::B2};
  Bitboard checks = 0;
  for (int k = 0; k < 7; ++k) checks |= square_bb(square_at(7 + 8 * k)) | square_bb(square_at(56 + k));
  CHECK(krk.run_legal_squares(men, Color::White) == ~checks);
  CHECK(krk.run_legal_squares(men, Color::Black) == ~Bitboard{0});
}

TEST_CASE("run_man and run_stride: the worked examples of index.hpp", "[indexing][runs]") {
  const auto scheme_in = [](const char* signature, std::string_view order) {
    const Material material = *Material::parse(signature);
    for (const IndexOrder& candidate : IndexOrder::candidates(material))
      if (candidate.str(material) == order) return IndexScheme(material, candidate);
    FAIL("no order " << order << " of " << signature);
    return IndexScheme(material);
  };
  const IndexScheme queen_outer = scheme_in("KQkpp", "Kk Q pp");
  CHECK(queen_outer.run_man() == 2);
  CHECK(queen_outer.run_stride() == 1128);
  const IndexScheme queen_inner = scheme_in("KQkpp", "Kk pp Q");
  CHECK(queen_inner.run_man() == 2);
  CHECK(queen_inner.run_stride() == 1);
  const IndexScheme krpkr = scheme_in("KRPkr", "Kk R r P");
  CHECK(type_of(krpkr.man_piece(krpkr.run_man())) == PieceType::Pawn);
  CHECK(krpkr.run_stride() == 1);
}
