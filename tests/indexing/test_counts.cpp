// Position counts in the three conventions against published and independently produced figures
// (shared/reference/README.md).
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/movegen.hpp"
#include "indexing/index.hpp"
#include "tests/indexing/support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using namespace egtb::indexing;

namespace {

Counts counts_of(const char* signature, Color stm) {
  return count_positions(IndexScheme(test::material(signature)), stm);
}

struct MatesAndStalemates {
  uint64_t mates = 0;
  uint64_t stalemates = 0;
};

// Black-to-move checkmates and stalemates, counted with the physical weights.
MatesAndStalemates physical_terminals(const char* signature) {
  const IndexScheme scheme(test::material(signature));
  MatesAndStalemates out;
  Position pos;
  for (Index i = 0; i < scheme.size(); ++i) {
    if (!scheme.decode(i, Color::Black, pos) || has_legal_move(pos)) continue;
    (pos.in_check() ? out.mates : out.stalemates) += scheme.weights(i, pos).physical;
  }
  return out;
}

// Totals of shared/reference/cql/all_3_4_men_btm_mates_stalemates.psv.gz (CQL 6.2 over every
// physical black-to-move position without e.p. right), as endgame, mates, stalemates. The five
// endgames without rows in the file (KBkr, KBkq, KNkq, KPkr, KPkq) have none.
struct CqlTotal {
  const char* endgame;
  uint64_t mates;
  uint64_t stalemates;
};

constexpr CqlTotal CqlTotals[] = {
    {"KQk", 364, 872},      {"KRk", 216, 68},         {"KBk", 0, 136},          {"KNk", 0, 40},
    {"KPk", 0, 18},         {"KQQk", 251880, 141176}, {"KQRk", 227592, 141392}, {"KQBk", 65744, 114856},
    {"KQNk", 37964, 86848}, {"KQPk", 20464, 46180},   {"KRRk", 72392, 19580},   {"KRBk", 16336, 35504},
    {"KRNk", 14680, 23812}, {"KRPk", 10102, 6176},    {"KBBk", 1552, 10204},    {"KBNk", 464, 12888},
    {"KBPk", 234, 7490},    {"KNNk", 120, 3864},      {"KNPk", 52, 3182},       {"KPPk", 24, 840},
    {"KQkq", 6408, 0},      {"KQkr", 10972, 0},       {"KQkb", 13536, 96},      {"KQkn", 16748, 48},
    {"KQkp", 16312, 2988},  {"KRkq", 2448, 0},        {"KRkr", 4824, 0},        {"KRkb", 6528, 96},
    {"KRkn", 9328, 48},     {"KRkp", 9344, 1292},     {"KBkq", 0, 0},           {"KBkr", 0, 0},
    {"KBkb", 112, 0},       {"KBkn", 8, 0},           {"KBkp", 56, 492},        {"KNkq", 0, 0},
    {"KNkr", 8, 0},         {"KNkb", 8, 0},           {"KNkn", 8, 0},           {"KNkp", 8, 320},
    {"KPkq", 0, 0},         {"KPkr", 0, 0},           {"KPkb", 8, 0},           {"KPkn", 4, 0},
    {"KPkp", 4, 206}};

}  // namespace

TEST_CASE("KQk in all three conventions", "[counts]") {
  const Counts w = counts_of("KQk", Color::White);
  const Counts b = counts_of("KQk", Color::Black);
  CHECK(w.index462 == 18492);
  CHECK(b.index462 == 28644);
  CHECK(w.physical == 144508);
  CHECK(b.physical == 223944);
  CHECK(w.classes == 18081);         // every one a win
  CHECK(b.classes == 25160 + 2896);  // losses + draws
}

TEST_CASE("KBk KNk KPk counts", "[counts]") {
  CHECK(counts_of("KBk", Color::White).index462 == 24736);
  CHECK(counts_of("KBk", Color::Black).index462 == 28644);
  CHECK(counts_of("KNk", Color::White).index462 == 26282);
  CHECK(counts_of("KNk", Color::Black).index462 == 28644);
  const Counts w = counts_of("KPk", Color::White);
  const Counts b = counts_of("KPk", Color::Black);
  CHECK(w.classes == 62480 + 19184);
  CHECK(b.classes == 48802 + 35210);
  CHECK(w.index462 == w.classes);
  CHECK(w.physical == 2 * w.classes);
  CHECK(b.physical == 2 * b.classes);
}

TEST_CASE("KPkp: positions with an e.p. right count as positions of their own in index462", "[counts]") {
  const IndexScheme kpkp(test::material("KPkp"));
  for (Color stm : {Color::White, Color::Black}) {
    INFO(color_char(stm));
    const Counts normal = count_positions(kpkp, stm, 0, kpkp.normal_size());
    const Counts ep = count_positions(kpkp, stm, kpkp.normal_size(), kpkp.size());
    CHECK(normal.index462 == 3718044);
    CHECK(normal.classes == 3718044);
    CHECK(normal.physical == 2 * 3718044);
    CHECK(ep.index462 == 21893);
    CHECK(ep.physical == 43786);
    CHECK(ep.classes == 0);
    CHECK(count_positions(kpkp, stm).index462 == 3718044 + 21893);
  }
}

TEST_CASE("KQk black-to-move mates and stalemates, physical", "[counts]") {
  const MatesAndStalemates kqk = physical_terminals("KQk");
  CHECK(kqk.mates == 364);
  CHECK(kqk.stalemates == 872);
}

TEST_CASE("physical mates and stalemates of all 45 3-4-man endgames agree with CQL 6.2", "[counts][slow]") {
  for (const CqlTotal& t : CqlTotals) {
    INFO(t.endgame);
    const MatesAndStalemates got = physical_terminals(t.endgame);
    CHECK(got.mates == t.mates);
    CHECK(got.stalemates == t.stalemates);
  }
}

TEST_CASE("per-entry weights of KQk, White to move", "[counts]") {
  // 857 entries have both kings on the a1-h8 diagonal: 35 with the queen on it as well (their own
  // mirror image) and 411 pairs E, D(E), each pair one class.
  const IndexScheme kqk(test::material("KQk"));
  Position pos;
  uint64_t diagonal = 0, symmetric = 0, pair_classes = 0;
  for (Index i = 0; i < kqk.size(); ++i) {
    if (!kqk.decode(i, Color::White, pos)) continue;
    const EntryWeights w = kqk.weights(i, pos);
    CHECK(w.index462 == 1);
    const bool kings_on_diagonal =
        on_diagonal(pos.king_square(Color::White)) && on_diagonal(pos.king_square(Color::Black));
    CHECK(w.physical == (kings_on_diagonal ? 4u : 8u));
    if (!kings_on_diagonal) {
      CHECK(w.classes == 1);
      continue;
    }
    ++diagonal;
    if (on_diagonal(lsb(pos.pieces(PieceType::Queen)))) {
      ++symmetric;
      CHECK(w.classes == 1);
    } else {
      pair_classes += w.classes;
    }
  }
  CHECK(diagonal == 857);
  CHECK(symmetric == 35);
  CHECK(pair_classes == 411);
}

namespace {

// The e.p. rights the article counts beside a position without one, found independently of
// IndexScheme::unplayable_ep_rights: every enemy pawn on the side to move's fifth rank with a pawn
// of the side to move beside it and the two squares behind it empty is a right; those whose
// position index_of files at a valid entry of the e.p. section are playable, the rest are not.
uint32_t unplayable_by_index(const IndexScheme& scheme, const Position& pos) {
  const Color stm = pos.side_to_move();
  const int rank = stm == Color::White ? 4 : 3;
  const int ahead = stm == Color::White ? 1 : -1;
  uint32_t count = 0;
  for (int file = 0; file < 8; ++file) {
    if (pos.piece_on(make_square(file, rank)) != make_piece(~stm, PieceType::Pawn)) continue;
    bool beside = false;
    for (int f : {file - 1, file + 1})
      beside |= f >= 0 && f < 8 && pos.piece_on(make_square(f, rank)) == make_piece(stm, PieceType::Pawn);
    if (!beside || !pos.empty(make_square(file, rank + ahead)) ||
        !pos.empty(make_square(file, rank + 2 * ahead)))
      continue;
    Position with_right = pos;
    with_right.set_ep_square(make_square(file, rank + ahead));
    const auto entry = scheme.index_of(with_right);
    Position decoded;
    if (!entry || !scheme.is_ep_entry(*entry) || !scheme.decode(*entry, stm, decoded)) ++count;
  }
  return count;
}

}  // namespace

TEST_CASE("index462 counts e.p. rights whose capture is illegal, as the article does", "[counts][ep]") {
  struct Case {
    const char* fen;  // a position without e.p. right
    uint32_t index462;
  };
  const Case cases[] = {
      {"8/8/8/KPp4r/8/8/8/6k1 w - - 0 1", 2},    // bxc6 would expose the king to the rook: not playable
      {"8/8/8/5k2/2pPP3/8/8/4K3 b - - 0 1", 2},  // Black in check from e4, which did not move
      {"8/8/8/K1pP3r/8/8/8/6k1 w - - 0 1", 2},   // dxc6 would open the rank to the rook: not playable
      {"8/8/8/2pP3r/8/8/8/K5k1 w - - 0 1", 1},   // dxc6 is legal: the e.p. entry holds that right
      {"8/8/8/8/5Pp1/1k5R/8/K7 b - - 0 1", 2},   // gxf3 is legal, but the rook's check is no double step's
      {"8/8/8/KP5r/8/8/8/6k1 w - - 0 1", 1},     // no pawn beside b5 to capture
  };
  for (const Case& c : cases) {
    INFO(c.fen);
    const Position pos = *parse_fen(c.fen);
    const IndexScheme scheme(Material::from(pos).normalized());
    const Position stored = Material::from(pos).is_canonical() ? pos : color_flipped(pos);
    const Index i = *scheme.index_of(stored);
    REQUIRE_FALSE(scheme.is_ep_entry(i));
    const EntryWeights w = scheme.weights(i, *scheme.position_at(i, stored.side_to_move()));
    CHECK(w.index462 == c.index462);
    CHECK(w.physical == 2);
    CHECK(w.classes == 1);
  }
}

TEST_CASE("unplayable e.p. rights agree with the e.p. section of the index", "[counts][ep]") {
  for (const char* signature : {"KPPkp", "KRPkp", "KPkrp", "KPkbp"}) {
    const IndexScheme scheme(test::material(signature));
    Position pos;
    uint64_t compared = 0, unplayable = 0;
    for (Index i = 0; i < scheme.normal_size(); i += 193)
      for (Color stm : {Color::White, Color::Black}) {
        if (!scheme.decode(i, stm, pos)) continue;
        const uint32_t expected = unplayable_by_index(scheme, pos);
        INFO(signature << " " << to_fen(pos));
        REQUIRE(scheme.unplayable_ep_rights(pos) == expected);
        REQUIRE(scheme.weights(i, pos).index462 == 1 + expected);
        ++compared;
        unplayable += expected;
      }
    INFO(signature);
    CHECK(compared > 500'000);
    CHECK(unplayable > 0);
  }
}

TEST_CASE("KPkp has no unplayable e.p. right: no man can pin or give such a check", "[counts][ep]") {
  const IndexScheme scheme(test::material("KPkp"));
  Position pos;
  for (Index i = 0; i < scheme.normal_size(); ++i)
    for (Color stm : {Color::White, Color::Black})
      if (scheme.decode(i, stm, pos)) REQUIRE(scheme.unplayable_ep_rights(pos) == 0);
}

namespace {

// The fast count (from the index, king pair by king pair) against the entry-by-entry count, in
// every convention and for both sides to move: the totals, and each king pair's physical and
// classes counts (its index462 count may hold unplayable e.p. rights the e.p. section finds).
// Per pair, so that errors cannot cancel out between pairs (a pawn's check taken the wrong way
// up gives the right totals over the whole board, which the vertical mirror maps onto itself).
void check_fast_count(const Material& material) {
  const IndexScheme scheme(material);
  for (Color stm : {Color::White, Color::Black}) {
    INFO(material.str() << " " << color_char(stm));
    Counts total = count_positions(scheme, stm, scheme.normal_size(), scheme.size());
    // The entry-by-entry counts of each pair, summed over the runs of its entries.
    std::vector<Counts> slow(static_cast<size_t>(scheme.king_pairs()));
    for (Index i = 0; i < scheme.normal_size();) {
      const Index end = scheme.pieces_run_end(i);
      slow[static_cast<size_t>(scheme.king_pair_of(i))] += count_positions(scheme, stm, i, end);
      i = end;
    }
    uint64_t failed_pairs = 0;
    for (int pair = 0; pair < scheme.king_pairs(); ++pair) {
      const Counts fast = scheme.count_pair(pair, stm);
      const Counts& counted = slow[static_cast<size_t>(pair)];
      failed_pairs += fast.physical != counted.physical || fast.classes != counted.classes ? 1U : 0U;
      total += counted;
    }
    CHECK(failed_pairs == 0);
    CHECK(count_positions(scheme, stm) == total);
  }
}

// The unplayable e.p. entries found from the e.p. section against a scan of every normal entry
// (each entry once per unplayable right of its position). Only the side whose opponent has a piece
// to pin or check with has any (KRPkp: Black to move, the rook pins or checks White's king).
void check_unplayable_entries(const char* signature) {
  const IndexScheme scheme(test::material(signature));
  size_t found = 0;
  for (Color stm : {Color::White, Color::Black}) {
    std::vector<Index> scanned;
    Position pos;
    IndexScheme::Men men;
    for (Index i = 0; i < scheme.normal_size(); ++i) {
      if (!scheme.men_at(i, men) || !scheme.pawns_side_by_side(men, stm) || !scheme.decode(i, stm, pos))
        continue;
      scanned.insert(scanned.end(), scheme.unplayable_ep_rights(pos), i);
    }
    INFO(signature << " " << color_char(stm));
    CHECK(scheme.unplayable_ep_entries(stm) == scanned);
    found += scanned.size();
  }
  INFO(signature);
  CHECK(found > 0);
}

}  // namespace

TEST_CASE("counts from the index equal the entry-by-entry counts of every 3-4-man signature", "[counts]") {
  // Each signature and its colour flip (the last group then a white one: Kkq, Kkrp).
  for (const Material& m : all_signatures(4)) {
    check_fast_count(m);
    check_fast_count(m.mirrored());
  }
}

TEST_CASE("counts from the index equal the entry-by-entry counts of 5-man signatures", "[counts][slow]") {
  // Three identical knights (symmetric placements of a 3-set), a pair and a piece, pawns of both
  // colours with unplayable e.p. rights, and two identical pawns against one.
  for (const char* signature : {"KNNNk", "KRRkb", "KRPkp", "KPPkp"})
    check_fast_count(test::material(signature));
}

TEST_CASE("the unplayable e.p. entries of the index are those of a scan of every entry",
          "[counts][ep][slow]") {
  for (const char* signature : {"KRPkp", "KPkrp"}) check_unplayable_entries(signature);
}

TEST_CASE("weight runs give each entry the weight weights() gives it", "[counts]") {
  for (const char* signature : {"KQk", "KRRk", "KPkp", "KBNk"}) {
    const IndexScheme scheme(test::material(signature));
    for (Convention c : AllConventions)
      for (Color stm : {Color::White, Color::Black}) {
        INFO(signature << " " << convention_name(c) << " " << color_char(stm));
        Position pos;
        uint64_t decoded = 0, failures = 0;
        for (Index i = 0; i < scheme.size();) {
          const IndexScheme::WeightRun run = scheme.weight_run(i, c);
          REQUIRE(run.end > i);
          for (; i < run.end; ++i) {
            if (!scheme.decode(i, stm, pos)) continue;
            if (!run.weight) {
              ++decoded;
              continue;
            }
            const uint32_t extra = c == Convention::Index462 && !scheme.is_ep_entry(i) && scheme.ep_size() > 0
                                       ? scheme.unplayable_ep_rights(pos)
                                       : 0;
            failures += *run.weight + extra != scheme.weights(i, pos).get(c) ? 1U : 0U;
          }
        }
        CHECK(failures == 0);
        // Only the classes of pawnless pairs with both kings on the diagonal are decoded.
        CHECK((decoded > 0) == (c == Convention::Classes && !scheme.material().has_pawns()));
      }
  }
}
