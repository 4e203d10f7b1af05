// The bijection between entries and positions, tested exhaustively (STYLE.md rule 6).
#include <random>
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/symmetry.hpp"
#include "indexing/index.hpp"
#include "tests/indexing/support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::indexing;
using egtb::test::Failures;

namespace {

// True when index_of gives one entry for every symmetric image of pos.
bool same_index_for_all_images(const IndexScheme& scheme, const Position& pos, Index expected) {
  for (Symmetry g : AllSymmetries) {
    if (scheme.material().has_pawns() && g != Symmetry::Identity && g != Symmetry::FlipFiles) continue;
    if (scheme.index_of(apply(g, pos)) != expected) return false;
  }
  return true;
}

// index_of(position_at(i)) == i for every valid entry, except for the duplicate entries of a
// pawnless table (both kings on the a1-h8 diagonal), which map to their smaller mirror-image
// twin; index_of is the same for every symmetric image; each decoded position is legal.
// Returns the number of valid entries.
uint64_t check_entries(const IndexScheme& scheme, Color stm) {
  Failures failures;
  uint64_t valid = 0;
  Position pos;
  for (Index i = 0; i < scheme.size(); ++i) {
    if (!scheme.decode(i, stm, pos)) continue;
    ++valid;
    const auto back = scheme.index_of(pos);
    const bool twin = back && *back < i && test::is_image(pos, *scheme.position_at(*back, stm));
    if (!test::is_legal(pos) || !back || (*back != i && !twin) ||
        scheme.is_ep_entry(i) != pos.has_ep_capture() || !same_index_for_all_images(scheme, pos, *back))
      failures.add("entry " + std::to_string(i) + ": " + to_fen(pos));
  }
  INFO(scheme.material().str() << " " << color_char(stm) << ": " << failures.first);
  CHECK(failures.count == 0);
  return valid;
}

// Every legal physical position maps to a valid entry whose position is a symmetric image of it;
// the positions counted this way agree with the physical and classes weights of the entries.
void check_physical(const IndexScheme& scheme, Color stm) {
  Failures failures;
  Counts counted;
  test::for_each_physical(scheme.material(), stm, [&](const Position& p) {
    const auto i = scheme.index_of(p);
    const auto entry = i ? scheme.position_at(*i, stm) : std::nullopt;
    if (!entry || !test::is_image(p, *entry)) return failures.add(to_fen(p));
    counted.physical += 1;
    counted.classes += test::is_class_representative(p) && !p.has_ep_capture() ? 1u : 0u;
  });
  const Counts weights = count_positions(scheme, stm);
  INFO(scheme.material().str() << " " << color_char(stm) << ": " << failures.first);
  CHECK(failures.count == 0);
  CHECK(counted.physical == weights.physical);
  CHECK(counted.classes == weights.classes);
}

// Random legal positions, e.p. rights included, map to a valid entry whose position is a symmetric
// image of them; returns how many had an e.p. right.
uint64_t check_random_physical(const IndexScheme& scheme, Color stm, int samples) {
  std::mt19937_64 rng(stm == Color::White ? 1 : 2);
  Failures failures;
  uint64_t with_ep = 0;
  for (int n = 0; n < samples;) {
    const auto p = test::random_position(scheme.material(), stm, rng);
    if (!p) continue;
    ++n;
    with_ep += p->has_ep_capture() ? 1u : 0u;
    const auto i = scheme.index_of(*p);
    const auto entry = i ? scheme.position_at(*i, stm) : std::nullopt;
    if (!entry || !test::is_image(*p, *entry)) failures.add(to_fen(*p));
  }
  INFO(scheme.material().str() << " " << color_char(stm) << ": " << failures.first);
  CHECK(failures.count == 0);
  return with_ep;
}

void check_table(const char* signature, bool physical) {
  const IndexScheme scheme(test::material(signature));
  for (Color stm : {Color::White, Color::Black}) {
    check_entries(scheme, stm);
    if (physical) check_physical(scheme, stm);
  }
}

std::optional<Index> index_of_fen(const IndexScheme& scheme, const std::string& fen) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  return scheme.index_of(*pos);
}

}  // namespace

TEST_CASE("round trip over every entry and every physical position: KQk KRk KPk", "[roundtrip]") {
  check_table("KQk", true);
  check_table("KRk", true);
  check_table("KPk", true);
}

TEST_CASE("round trip over every entry: KBNk KPkp", "[roundtrip]") {
  check_table("KBNk", false);
  check_table("KPkp", false);
}

TEST_CASE("every physical position: KBNk KPkp", "[roundtrip][slow]") {
  check_table("KBNk", true);
  check_table("KPkp", true);
}

TEST_CASE("round trip over every entry of 5-man tables", "[roundtrip][slow]") {
  check_table("KBBkn", false);
  check_table("KPPkp", false);
}

TEST_CASE("random physical positions of 5-man tables", "[roundtrip][slow]") {
  for (const char* signature : {"KBBkn", "KPPkp", "KRPkr", "KQPkq"}) {
    const IndexScheme scheme(test::material(signature));
    for (Color stm : {Color::White, Color::Black}) {
      const uint64_t with_ep = check_random_physical(scheme, stm, 1'000'000);
      if (std::string(signature) == "KPPkp") CHECK(with_ep > 1000);
    }
  }
}

TEST_CASE("round trip over every entry in every order of the index digits", "[roundtrip][order]") {
  // A pawn leading, between, innermost; two pawn groups and e.p. entries; two identical pawns.
  for (const char* signature : {"KPk", "KPkp", "KRkp", "KPPk"}) {
    const Material m = test::material(signature);
    const IndexScheme kings_first(m);
    for (const IndexOrder& order : IndexOrder::candidates(m)) {
      const IndexScheme scheme(m, order);
      INFO(signature << " " << order.str(m));
      check_entries(scheme, Color::Black);  // the order does not depend on the side to move
      // The same positions, moved: entry_in agrees with index_of, both ways.
      Position pos;
      Failures failures;
      for (Index i = 0; i < scheme.size(); ++i) {
        if (!scheme.decode(i, Color::White, pos)) continue;
        const Index there = scheme.entry_in(kings_first, i);
        if (kings_first.index_of(pos) != there || kings_first.entry_in(scheme, there) != i)
          failures.add("entry " + std::to_string(i) + ": " + to_fen(pos));
      }
      INFO(failures.first);
      CHECK(failures.count == 0);
    }
  }
}

// index_of_squares against index_of, men by men: for random entries of `signature` in every order
// of its digits, each man but the kings moved over every square no other man stands on (a pawn's
// ranks 2-7). A pawnless entry whose kings share the a1-h8 diagonal may come out as its twin, which
// holds the mirror image (index_of of its men is the same). Returns the entries checked.
int check_index_of_squares(const char* signature) {
  const Material m = test::material(signature);
  std::mt19937_64 random(5);
  int checked = 0;
  for (const IndexOrder& order : IndexOrder::candidates(m)) {
    const IndexScheme scheme(m, order);
    INFO(signature << " " << order.str(m));
    Failures failures;
    for (int trial = 0; trial < 300; ++trial) {
      IndexScheme::Men men;
      if (!scheme.men_at(random() % scheme.normal_size(), men)) continue;
      ++checked;
      for (int j = 2; j < scheme.man_count(); ++j) {
        Bitboard free = type_of(scheme.man_piece(j)) == PieceType::Pawn ? ~(Rank1BB | Rank8BB) : ~Bitboard{0};
        for (int k = 0; k < scheme.man_count(); ++k)
          if (k != j) free &= ~square_bb(men.squares[static_cast<size_t>(k)]);
        std::vector<Square> squares;
        for (Bitboard b = free; b; b &= b - 1) squares.push_back(lsb(b));
        std::vector<Index> out(squares.size());
        scheme.index_of_squares(men, j, squares.data(), static_cast<int>(squares.size()), out.data());
        for (size_t k = 0; k < squares.size(); ++k) {
          IndexScheme::Men moved = men;
          moved.squares[static_cast<size_t>(j)] = squares[k];
          const Index expected = scheme.index_of(moved);
          IndexScheme::Men twin;
          if (out[k] == expected ||
              (!m.has_pawns() && scheme.men_at(out[k], twin) && scheme.index_of(twin) == expected))
            continue;
          failures.add("man " + std::to_string(j) + " on square " + std::to_string(to_index(squares[k])) +
                       ": entry " + std::to_string(out[k]) + ", index_of " + std::to_string(expected));
        }
      }
    }
    INFO(failures.first);
    CHECK(failures.count == 0);
  }
  return checked;
}

TEST_CASE("index_of_squares gives index_of's entries, groups of identical men too", "[roundtrip]") {
  // One man a group; identical pieces (kings on the diagonal among them); identical pawns, two
  // and three, in every order; identical pieces beside a pawn.
  for (const char* signature : {"KRkp", "KRRk", "KRRkr", "KPPk", "KPPPk", "KPPkp", "KNNkp"})
    CHECK(check_index_of_squares(signature) > 100);
}

TEST_CASE("the orders a table may take, and their codes", "[order]") {
  const auto strs = [](const char* signature) {
    const Material m = test::material(signature);
    std::vector<std::string> out;
    for (const IndexOrder& o : IndexOrder::candidates(m)) {
      CHECK(IndexOrder::from_code(o.code(), m) == o);
      out.push_back(o.str(m));
    }
    return out;
  };
  CHECK(strs("KQRkr") == std::vector<std::string>{"Kk Q R r"});  // no pawns: the king pair leads
  CHECK(strs("KPk") == std::vector<std::string>{"Kk P", "P Kk"});
  CHECK(strs("KRPkr") == std::vector<std::string>{"Kk R P r", "Kk R r P", "Kk P R r", "P Kk R r"});
  CHECK(strs("KPPkp").size() == 6);  // PP and p in any order, the king pair anywhere
  CHECK(strs("KRPkp").size() == 12);
  const Material krpkr = test::material("KRPkr");
  CHECK(IndexOrder::kings_first(krpkr).code() == 0x4321);
  CHECK(IndexOrder::from_code(0x4213, krpkr)->str(krpkr) == "P Kk R r");
  CHECK_FALSE(IndexOrder::from_code(0x4312, krpkr));   // the rook before the king pair
  CHECK_FALSE(IndexOrder::from_code(0x2413, krpkr));   // the black rook before the white one
  CHECK_FALSE(IndexOrder::from_code(0x421, krpkr));    // a digit missing
  CHECK_FALSE(IndexOrder::from_code(0x54213, krpkr));  // a digit too many
  CHECK_FALSE(IndexOrder::from_code(0x4223, krpkr));   // a digit twice
}

TEST_CASE("the worked examples of the index comments", "[roundtrip]") {
  const IndexScheme krkr(test::material("KRkr"));
  CHECK(index_of_fen(krkr, "8/8/8/8/8/8/8/KRk1r3 b - - 0 1") == Index{2});
  Position white_to_move = *parse_fen("8/8/8/8/8/8/8/KRk1r3 b - - 0 1");
  white_to_move.set_side_to_move(Color::White);  // Black, not to move, is in check
  CHECK_FALSE(krkr.index_of(white_to_move).has_value());
  const IndexScheme kqk(test::material("KQk"));
  CHECK(index_of_fen(kqk, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1") == Index{14709});
  CHECK(to_fen(*kqk.position_at(14709, Color::Black)) == "8/8/8/8/8/1Q6/2K5/k7 b - - 0 1");
  const IndexScheme kpkp(test::material("KPkp"));
  CHECK(kpkp.normal_size() == 1806 * 48 * 48);
  CHECK(index_of_fen(kpkp, "8/8/8/3pP3/8/8/8/K6k w - d6 0 1") == Index{4161100});
  // index.hpp's KRPkr: Ka1 kc1 Rb1 Pe4 rh8, with the king pair leading and in the order P Kk R r.
  const Material m = test::material("KRPkr");
  const IndexScheme kings_first(m);
  const IndexScheme pawn_first(m, *IndexOrder::from_code(0x4213, m));
  CHECK(index_of_fen(kings_first, "7r/8/8/8/4P3/8/8/KRk5 b - - 0 1") == Index{1301});
  CHECK(index_of_fen(pawn_first, "7r/8/8/8/4P3/8/8/KRk5 b - - 0 1") == Index{138'845'341});
  CHECK(pawn_first.entry_in(kings_first, 138'845'341) == 1301);
}

TEST_CASE("index_of rejects what has no entry", "[roundtrip]") {
  const IndexScheme kqk(test::material("KQk"));
  Position touching;
  touching.put_piece(make_piece(Color::White, PieceType::King), Square::A1);
  touching.put_piece(make_piece(Color::Black, PieceType::King), Square::B2);
  touching.put_piece(make_piece(Color::White, PieceType::Queen), Square::H8);
  CHECK_FALSE(kqk.index_of(touching).has_value());
  CHECK_FALSE(index_of_fen(kqk, "8/8/8/8/8/8/8/K1k4q w - - 0 1").has_value());    // Kkq: other colours
  CHECK_FALSE(index_of_fen(kqk, "8/8/8/8/8/8/8/K1k2RQ1 b - - 0 1").has_value());  // other material
  CHECK_FALSE(kqk.position_at(kqk.size(), Color::White).has_value());
  const IndexScheme kkq(test::material("Kkq"));
  CHECK(index_of_fen(kkq, "8/8/8/8/8/8/8/K1k4q w - - 0 1").has_value());
}

TEST_CASE("e.p. rights: only a legal e.p. capture makes an e.p. entry", "[roundtrip]") {
  const IndexScheme kpkp(test::material("KPkp"));
  const auto with = index_of_fen(kpkp, "8/8/8/3pP3/8/8/8/K6k w - d6 0 1");
  const auto without = index_of_fen(kpkp, "8/8/8/3pP3/8/8/8/K6k w - - 0 1");
  REQUIRE(with.has_value());
  REQUIRE(without.has_value());
  CHECK(kpkp.is_ep_entry(*with));
  CHECK_FALSE(kpkp.is_ep_entry(*without));
  // The mirror image shares the entry.
  CHECK(index_of_fen(kpkp, "8/8/8/3Pp3/8/8/8/k6K w - e6 0 1") == with);
  // Black to move after a white double step.
  const auto black = index_of_fen(kpkp, "k6K/8/8/8/3pP3/8/8/8 b - e3 0 1");
  REQUIRE(black.has_value());
  CHECK(kpkp.is_ep_entry(*black));
  // Two capturers: one entry, the one naming the lower file.
  const IndexScheme kppkp(test::material("KPPkp"));
  const auto two = index_of_fen(kppkp, "8/8/8/2PpP3/8/8/8/K6k w - d6 0 1");
  REQUIRE(two.has_value());
  CHECK(to_fen(*kppkp.position_at(*two, Color::White)) == "8/8/8/2PpP3/8/8/8/K6k w - d6 0 1");
}
