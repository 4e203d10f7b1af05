// Probing real tables by FEN (every 3-4-man table, built once by the ctest fixture tables_34, see
// tests/tables): optimal lines (length = depth, ending in the promised mate or stalemate), move
// values and e.p. rights in any orientation; and the errors of optimal_line on tables that
// contradict each other. The comparison with the Gaviota tables is in
// tests/retro/test_gaviota_probes.cpp (it needs retro/gaviota.hpp).
#include <algorithm>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/core/symmetry.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using test::probe_fen;
using test::random_position;
using test::tables;

namespace {

// Checks the optimal line of pos: its length is the depth, each position on it has the depth one
// less with the value of the side to move alternating, and it ends in the promised mate or
// stalemate. Returns the last position of the line.
Position check_line(const Tablebase& tb, const Position& start) {
  const Score score = *tb.probe(start);
  const auto line = optimal_line(tb, start);
  INFO(to_fen(start) << ": " << describe(score) << (line ? "" : ": " + line.error().message));
  REQUIRE(line.has_value());
  CHECK(line->size() == static_cast<size_t>(score.value() == Lasker::Draw ? 0 : score.depth()));
  Position pos = start;
  for (size_t ply = 0; ply < line->size(); ++ply) {
    REQUIRE(is_legal_move(pos, (*line)[ply]));
    pos.do_move((*line)[ply]);
    const Score s = *tb.probe(pos);
    CHECK(s.depth() == score.depth() - static_cast<int>(ply) - 1);
    CHECK(s.value() == (ply % 2 == 0 ? negate(score.value()) : score.value()));
  }
  if (score.value() == Lasker::Draw) return pos;
  INFO("end of the line: " << to_fen(pos));
  CHECK((is_mate_value(score.value()) ? is_checkmate(pos) : is_stalemate(pos)));
  return pos;
}

// The move list of pos is sorted best first, no move beats the position's value, and the best
// one realises its value and depth.
void check_move_values(const Tablebase& tb, const Position& pos) {
  const Score score = *tb.probe(pos);
  const auto moves = move_values(tb, pos);
  INFO(to_fen(pos) << ": " << describe(score));
  REQUIRE(moves.has_value());
  CHECK(std::is_sorted(moves->begin(), moves->end(), better_move));
  if (moves->empty()) return;
  const MoveValue& best = moves->front();
  CHECK(best.value() == score.value());
  if (score.value() != Lasker::Draw) CHECK(best.score.depth() + 1 == score.depth());
}

}  // namespace

TEST_CASE("the article's maxDTS examples: value, depth and optimal line in any orientation", "[tables]") {
  // Müller & Haworth (2020), Table 1 (../shared/reference/README.md).
  for (const auto& [fen, dts] :
       {std::pair{"8/8/8/8/8/8/8/2K1B1k1 w - - 0 1", 17}, {"8/8/8/8/8/1N6/8/1k1K4 w - - 0 1", 27}}) {
    const Position pos = *parse_fen(fen);
    for (Symmetry sym : AllSymmetries)
      for (const Position& oriented : {apply(sym, pos), color_flipped(apply(sym, pos))}) {
        INFO(to_fen(oriented));
        CHECK(probe_fen(tables(), to_fen(oriented)) == Score(Lasker::Stalemates, dts));
      }
    check_line(tables(), pos);
    check_line(tables(), color_flipped(apply(Symmetry::RotateLeft, pos)));
    check_move_values(tables(), pos);
  }
}

TEST_CASE("optimal lines of every 3-4-man table end in the promised mate or stalemate", "[tables]") {
  constexpr int LinesPerTable = 12;
  std::mt19937_64 rng(11);
  int material_changes = 0;  // lines through a capture or a promotion into a subtable
  for (const Material& m : all_signatures(4)) {
    const indexing::IndexScheme scheme(m);
    int mates = 0, stalemates = 0;
    for (int tries = 0; tries < 20'000 && mates + stalemates < LinesPerTable; ++tries) {
      const Position pos = random_position(scheme, rng);
      const Lasker v = tables().probe(pos)->value();
      if (v == Lasker::Draw || (is_mate_value(v) ? mates : stalemates) >= LinesPerTable / 2) continue;
      ++(is_mate_value(v) ? mates : stalemates);
      const Position start = rng() % 2 ? color_flipped(pos) : pos;
      if (!(Material::from(check_line(tables(), start)) == Material::from(start))) ++material_changes;
      check_move_values(tables(), pos);
    }
    INFO(m.str() << ": " << mates << " mate lines, " << stalemates << " stalemate lines");
    CHECK(mates + stalemates > 0);
    if (m.str() == "KBk" || m.str() == "KNk" || m.str() == "KPk") CHECK(stalemates == LinesPerTable / 2);
  }
  CHECK(material_changes > 50);
}

TEST_CASE("a draw has an empty line, a finished game too", "[tables]") {
  CHECK(optimal_line(tables(), *parse_fen("8/8/8/8/8/2k5/8/K1N5 w - - 0 1"))->empty());
  CHECK(optimal_line(tables(), *parse_fen("8/8/8/8/8/8/8/K1k5 w - - 0 1"))->empty());    // bare kings
  CHECK(optimal_line(tables(), *parse_fen("k1Q5/8/1K6/8/8/8/8/8 b - - 0 1"))->empty());  // checkmate
  CHECK(optimal_line(tables(), *parse_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"))->empty());  // stalemate
  CHECK(*tables().probe(*parse_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")) == Score(Lasker::Stalemated, 0));
}

TEST_CASE("an e.p. right counts in the value exactly when the e.p. capture is legal", "[tables][ep]") {
  const indexing::IndexScheme scheme(*Material::parse("KPkp"));
  int changed = 0;
  Position pos;
  for (indexing::Index i = scheme.normal_size(); i < scheme.size() && changed < 50; ++i) {
    const Color stm = i % 2 ? Color::White : Color::Black;
    if (!scheme.decode(i, stm, pos)) continue;
    REQUIRE(pos.has_ep_capture());
    Position without = pos;
    without.set_ep_square(Square::None);
    const Score with_ep = probe_fen(tables(), to_fen(pos));
    const Score plain = probe_fen(tables(), to_fen(without));
    CHECK(probe_fen(tables(), to_fen(color_flipped(pos))) == with_ep);
    if (with_ep == plain) continue;
    ++changed;
    // The e.p. capture is the only move that reaches the value with the right.
    INFO(to_fen(pos) << ": " << describe(with_ep) << ", without the e.p. right " << describe(plain));
    CHECK(to_index(with_ep.value()) >= to_index(plain.value()));
    const auto moves = move_values(tables(), pos);
    REQUIRE(moves.has_value());
    CHECK(moves->front().move.kind() == MoveKind::EnPassant);
    check_line(tables(), pos);
  }
  CHECK(changed == 50);
}

TEST_CASE("a FEN e.p. square without a legal capture is ignored, and a double step gives the right",
          "[tables][ep]") {
  // After b2-b4 Black's pawn on a4 may take e.p. (the FEN square b3); on c5 it could not.
  const Score with_right = probe_fen(tables(), "8/8/8/8/pP6/8/8/K1k5 b - b3 0 1");
  CHECK(probe_fen(tables(), "8/8/8/8/pP6/8/8/K1k5 b - - 0 1") != with_right);
  CHECK(probe_fen(tables(), "8/8/8/2p5/1P6/8/8/K1k5 b - b3 0 1") ==
        probe_fen(tables(), "8/8/8/2p5/1P6/8/8/K1k5 b - - 0 1"));
  const Position before = *parse_fen("8/8/8/8/p7/8/1P6/K1k5 w - - 0 1");
  const auto moves = move_values(tables(), before);
  REQUIRE(moves.has_value());
  const auto push =
      std::find_if(moves->begin(), moves->end(), [](const MoveValue& m) { return to_uci(m.move) == "b2b4"; });
  REQUIRE(push != moves->end());
  CHECK(push->score == with_right);
}

TEST_CASE("optimal_line reports tables that contradict each other", "[line]") {
  test::TempDir dir;
  const indexing::IndexScheme scheme(*Material::parse("KQk"));
  const auto write = [&](Score white, Score black) {
    Table table(scheme.material());
    for (indexing::Index i = 0; i < table.size(); ++i) {
      table.set(Color::White, i, white);
      table.set(Color::Black, i, black);
    }
    write_table(dir.path(), table, WriteOptions{});
  };
  const Position pos = *parse_fen("8/8/8/3k4/8/8/8/KQ6 w - - 0 1");
  SECTION("a depth that does not fall by one") {
    write(Score(Lasker::Mates, 3), Score(Lasker::Mated, 4));
    const Tablebase tb(dir.path());
    const auto line = optimal_line(tb, pos);
    REQUIRE(!line.has_value());
    CHECK(line.error().kind == ProbeError::Kind::Inconsistent);
    CHECK(line.error().table == "KQk");
    CHECK(line.error().message ==
          "inconsistent tables at 8/8/8/3k4/8/8/8/KQ6 w - - 0 1: scored 'mates in 2 (DTM 3)', but its best "
          "move "
          "a1a2 leaves the opponent 'is mated (DTM 4)', not at depth 2");
  }
  SECTION("a line that ends in no mate") {
    write(Score(Lasker::Mates, 1), Score(Lasker::Mated, 0));
    const Tablebase tb(dir.path());
    const auto line = optimal_line(tb, pos);
    REQUIRE(!line.has_value());
    CHECK(line.error().kind == ProbeError::Kind::Inconsistent);
    CHECK(line.error().message.find("scored 'is mated (DTM 0)' but the game is not over") !=
          std::string::npos);
  }
}

TEST_CASE("optimal_line names the subtable built without DTS that contradicts a complete table", "[line]") {
  // The real KBkp beside a KBk rewritten as --metrics dtm stores it (stalemate wins and losses
  // as draws): White stalemates at once by Kxc2 in KBkp, but KBk reads that stalemate as a draw.
  test::TempDir dir;
  std::filesystem::copy_file(test::tables_dir() / "KBkp.egtb", dir / "KBkp.egtb");
  const std::shared_ptr<const Table> full = tables().table(*Material::parse("KBk"));
  REQUIRE(full);
  const MetricSet dtm_only{Metric::Dtm};
  Table partial(full->material(), Rules::Lasker, dtm_only);
  for (Color stm : {Color::White, Color::Black})
    for (indexing::Index i = 0; i < full->size(); ++i)
      partial.set(stm, i, as_stored(Rules::Lasker, dtm_only, full->at(stm, i)));
  write_table(dir.path(), partial, WriteOptions{});

  const Tablebase tb(dir.path());
  const Position pos = *parse_fen("8/8/8/8/8/8/2p5/kBK5 w - - 0 1");
  REQUIRE(tb.probe(pos)->value() == Lasker::Stalemates);
  const auto line = optimal_line(tb, pos);
  REQUIRE(!line.has_value());
  CHECK(line.error().kind == ProbeError::Kind::Inconsistent);
  CHECK(line.error().table == "KBk");
  CHECK(
      line.error().message ==
      "inconsistent tables at 8/8/8/8/8/8/2p5/kBK5 w - - 0 1: scored 'stalemates in 1 (DTS 1)', but its best "
      "move b1a2 leaves the opponent 'draw', not at depth 0; KBk was built without DTS (--metrics dtm), so "
      "its "
      "stalemate wins and losses read as draws (rebuild it with: egtb generate KBk --dir " +
          dir.path().string() + ")");
  // With the complete KBk the same line is the stalemate.
  const auto complete = optimal_line(tables(), pos);
  REQUIRE(complete.has_value());
  CHECK(complete->size() == 1);
}

TEST_CASE("move_values and optimal_line pass on the probe errors", "[line]") {
  test::TempDir dir;
  const Tablebase tb(dir.path());
  const auto missing = move_values(tb, *parse_fen("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"));
  REQUIRE(!missing.has_value());
  CHECK(missing.error().kind == ProbeError::Kind::MissingTable);
  CHECK(missing.error().table == "KQk");
  const auto castling = optimal_line(tb, *parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
  REQUIRE(!castling.has_value());
  CHECK(castling.error().kind == ProbeError::Kind::Castling);
  const auto too_many = optimal_line(tb, *parse_fen("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"));
  REQUIRE(!too_many.has_value());
  CHECK(too_many.error().kind == ProbeError::Kind::TooManyMen);
}

TEST_CASE("better_move: value first, then depth in the winner's or loser's favour, then UCI", "[line]") {
  const Move a(Square::A1, Square::A2), b(Square::B1, Square::B2);
  // Children scored from the opponent's side: a mated child (4 for the mover) beats a stalemated one.
  CHECK(better_move({b, Score(Lasker::Mated, 10)}, {a, Score(Lasker::Stalemated, 0)}));
  CHECK(better_move({b, Score(Lasker::Mated, 2)}, {a, Score(Lasker::Mated, 4)}));  // faster mate
  CHECK(
      better_move({b, Score(Lasker::Stalemated, 2)}, {a, Score(Lasker::Stalemated, 4)}));  // faster stalemate
  CHECK(better_move({b, Score(Lasker::Mates, 7)}, {a, Score(Lasker::Mates, 5)}));          // slower loss
  CHECK(better_move({b, Score(Lasker::Stalemates, 9)}, {a, Score(Lasker::Stalemates, 3)}));  // slower loss
  CHECK(better_move({a, Score::draw()}, {b, Score::draw()}));                                // UCI order
  CHECK(!better_move({b, Score::draw()}, {a, Score::draw()}));
  const Move promote_n(Square::A7, Square::A8, MoveKind::Promotion, PieceType::Knight);
  const Move promote_b(Square::A7, Square::A8, MoveKind::Promotion, PieceType::Bishop);
  CHECK(better_move({promote_b, Score::draw()}, {promote_n, Score::draw()}));  // a7a8b before a7a8n
}
