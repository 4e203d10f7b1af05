// Position counts of tables with identical men beside a bare king against the Syzygy statistics
// (data/syzygy/regular-stats-identical.txt: wins + draws + losses per side to move), up to the
// 6-man KNNNNk and KBBBBk, whose tables need more memory than a test has: their counts come from
// the index alone (count_positions), checked against Syzygy's, which no code of ours produced.
//
// Syzygy counts its men as labelled (two knights in both orders are two positions) and each class
// of symmetric labelled positions once. Of the 8 board symmetries only the reflections in the two
// long diagonals fix any position with both kings (a position fixed by the a1-h8 one has every man
// on that diagonal: a labelled man is fixed only on a fixed square), so Burnside's lemma gives
//
//   syzygy = k! (P + 2 D) / 8
//
// where k! counts the orders of the identical men (all of one kind here), P the physical positions
// (unlabelled, every image apart) and D those with every man on the a1-h8 diagonal, counted here by
// brute force. Example, KNNk with Black to move: P = 6,830,292, D = 630 (kings on two of the 8
// diagonal squares, not adjacent: 56 - 14 = 42 ordered pairs, times C(6, 2) = 15 for the knights),
// 2 (6,830,292 + 1,260) / 8 = 1,707,888, Syzygy's 1,707,858 draws and 30 losses. The same lemma
// over unlabelled men checks our `classes` against `physical`, with the positions the reflection
// fixes counted by brute force (mirror_fixed).
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "indexing/index.hpp"
#include "tests/indexing/support.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/shared_dir.hpp"

using namespace egtb;
using namespace egtb::indexing;

namespace {

struct SyzygyTotal {
  std::string table;  // Syzygy's name, "KNNNNvK"
  Color stm = Color::White;
  uint64_t positions = 0;  // wins + draws + losses
};

std::vector<SyzygyTotal> syzygy_totals() {
  std::ifstream in(test::data_dir() / "syzygy" / "regular-stats-identical.txt");
  std::vector<SyzygyTotal> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    SyzygyTotal t;
    std::string side;
    uint64_t wins = 0, draws = 0, losses = 0;
    fields >> t.table >> side >> wins >> draws >> losses;
    t.stm = side == "w" ? Color::White : Color::Black;
    t.positions = wins + draws + losses;
    out.push_back(t);
  }
  return out;
}

// "KNNNNvK" -> "KNNNNk".
std::string our_name(const std::string& syzygy) { return syzygy.substr(0, syzygy.find('v')) + "k"; }

// The legal positions of `men` (kings first, identical men next to each other) with every man on
// the a1-h8 diagonal, by brute force over its 8 squares.
uint64_t on_diagonal(std::vector<Piece>& men, Position& pos, size_t k, int first_free) {
  if (k == men.size()) return test::is_legal(pos) ? 1 : 0;
  const bool same = k > 0 && men[k] == men[k - 1];
  uint64_t n = 0;
  for (int d = same ? first_free : 0; d < 8; ++d) {
    const Square s = square_at(9 * d);  // a1, b2, ..., h8
    if (!pos.empty(s)) continue;
    pos.put_piece(men[k], s);
    n += on_diagonal(men, pos, k + 1, d + 1);
    pos.remove_piece(s);
  }
  return n;
}

// The legal positions of `men` (kings first, then identical men) that the reflection in the a1-h8
// diagonal maps onto themselves, men unlabelled: the kings on the diagonal, each other man on the
// diagonal or one of two on a square and its mirror image (b1 and a2). The men beyond the kings
// fill `orbits` from `first` on: the diagonal's squares (one man) and the 28 pairs of mirror
// squares (two). Example, KNNk: kings on two diagonal squares, the knights on two more or on one
// pair such as b1 and a2.
uint64_t mirror_fixed(std::vector<Piece>& men, Position& pos, size_t k, size_t first) {
  static const std::vector<std::vector<int>> orbits = [] {
    std::vector<std::vector<int>> out;
    for (int d = 0; d < 8; ++d) out.push_back({9 * d});
    for (int file = 0; file < 8; ++file)
      for (int rank = 0; rank < file; ++rank) out.push_back({8 * rank + file, 8 * file + rank});
    return out;
  }();
  if (k == men.size()) return test::is_legal(pos) ? 1 : 0;
  uint64_t n = 0;
  const bool king = k < 2;
  for (size_t o = king ? 0 : first; o < (king ? 8 : orbits.size()); ++o) {
    const std::vector<int>& squares = orbits[o];
    if (k + squares.size() > men.size()) continue;
    bool empty = true;
    for (int sq : squares) empty = empty && pos.empty(square_at(sq));
    if (!empty) continue;
    for (int sq : squares) pos.put_piece(men[k], square_at(sq));
    n += mirror_fixed(men, pos, k + squares.size(), king ? 0 : o + 1);
    for (int sq : squares) pos.remove_piece(square_at(sq));
  }
  return n;
}

// The signature's men, kings first: "KNNNNk" -> K k N N N N.
std::vector<Piece> men_of(const std::string& signature) {
  std::vector<Piece> men{make_piece(Color::White, PieceType::King),
                         make_piece(Color::Black, PieceType::King)};
  for (char c : signature.substr(1, signature.size() - 2))
    men.push_back(make_piece(Color::White, c == 'N' ? PieceType::Knight : PieceType::Bishop));
  return men;
}

uint64_t factorial(uint64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

}  // namespace

TEST_CASE("positions of KNNk ... KNNNNk and KBBBk, KBBBBk are Syzygy's, counted from the index",
          "[indexing][wide]") {
  const auto totals = syzygy_totals();
  REQUIRE(totals.size() == 10);
  for (const SyzygyTotal& t : totals) {
    const std::string signature = our_name(t.table);
    INFO(signature << (t.stm == Color::White ? " w" : " b"));
    std::vector<Piece> men = men_of(signature);
    Position pos;
    pos.set_side_to_move(t.stm);
    const uint64_t diagonal = on_diagonal(men, pos, 0, 0);
    const Counts counts = count_positions(IndexScheme(test::material(signature.c_str())), t.stm);
    const uint64_t labelled = factorial(men.size() - 2) * (counts.physical + 2 * diagonal);
    CHECK(labelled % 8 == 0);
    CHECK(labelled / 8 == t.positions);
    // Our classes count unlabelled men, each class once: (P + 2 F) / 8 by the same lemma, F the
    // positions the a1-h8 reflection fixes.
    CHECK(counts.classes * 8 == counts.physical + 2 * mirror_fixed(men, pos, 0, 0));
  }
}
