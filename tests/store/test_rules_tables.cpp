// The rule sets of docs/design.md §4.3 on the real 3-4-man tables of the ctest fixtures tables_34,
// tables_34_stalemate_wins and tables_34_stalemate_passes (tests/tables: the three sets side by
// side in one directory), checked from their definitions:
//   * under stalemate-wins a position wins exactly when its Lasker value is 3 or 4, loses exactly
//     when it is 0 or 1, and its depth (DTE) never exceeds the DTM of a Lasker 4 or 0: the mater's
//     strategy ends the game at least as soon under these rules. (Not so for DTS: a Lasker loser
//     avoids positions where it would be mated, a loser under stalemate-wins need not, and there
//     the winner may need longer than the DTS to end the game.)
//   * under stalemate-passes a stalemated side to move passes: its value is the negation of the
//     position with the other side to move, one ply deeper, and its optimal line begins with the
//     pass ("--");
//   * hand-made positions of each rule: a stalemate that wins at once, a pass that turns a draw
//     (or a Lasker stalemate) into a loss, a mate replaced by a shorter stalemate.
// The forward verifier checks every position of these tables one ply forward (tables:verify-34-*).
#include <string>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/movegen.hpp"
#include "egtb/core/notation.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/tablebase.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

const Tablebase& tables_of(Rules rules) {
  static const Tablebase sw(test::tables_dir(), {size_t{1} << 28, Rules::StalemateWins});
  static const Tablebase sp(test::tables_dir(), {size_t{1} << 28, Rules::StalematePasses});
  REQUIRE(rules != Rules::Lasker);
  return rules == Rules::StalemateWins ? sw : sp;
}

// Every entry of one side of a table, under its rules, with the king pair leading (the tables of
// each rule set choose their own orders).
std::vector<uint16_t> entries(const Material& m, Rules rules, Color stm) {
  const TableReader reader(table_path(test::tables_dir(), m, rules), TableRequirements{m, rules, {}, true});
  return reader.read_side_kings_first(stm);
}

Score probe(Rules rules, const std::string& fen) {
  const Tablebase& tb = rules == Rules::Lasker ? test::tables() : tables_of(rules);
  return test::probe_fen(tb, fen);
}

std::string line_text(Rules rules, const std::string& fen) {
  const Position pos = *parse_fen(fen);
  const auto line = optimal_line(tables_of(rules), pos);
  REQUIRE(line.has_value());
  return san_line(pos, *line);
}

}  // namespace

TEST_CASE("Under stalemate-wins a position wins exactly when its Lasker value is 3 or 4, and ends no later",
          "[tables][rules]") {
  for (const Material& m : all_signatures(4)) {
    for (Color stm : {Color::White, Color::Black}) {
      const std::vector<uint16_t> lasker = entries(m, Rules::Lasker, stm);
      const std::vector<uint16_t> wins = entries(m, Rules::StalemateWins, stm);
      REQUIRE(lasker.size() == wins.size());
      uint64_t disagreements = 0, deeper = 0, shorter = 0;
      for (size_t i = 0; i < lasker.size(); ++i) {
        const Score l = Score::from_raw(lasker[i]);
        const Score w = Score::from_raw(wins[i]);
        if (l.is_valid() != w.is_valid()) {
          ++disagreements;
          continue;
        }
        if (!l.is_valid()) continue;
        const Lasker expected = is_win(l.value())    ? Lasker::Mates
                                : is_loss(l.value()) ? Lasker::Mated
                                                     : Lasker::Draw;
        if (w.value() != expected) ++disagreements;
        if (is_mate_value(l.value()) && w.depth() > l.depth()) ++deeper;
        if (l.value() == Lasker::Mates && w.depth() < l.depth()) ++shorter;
      }
      INFO(m.str() << (stm == Color::White ? " wtm" : " btm"));
      CHECK(disagreements == 0);
      CHECK(deeper == 0);
      if (m.str() == "KQk" && stm == Color::White) CHECK(shorter > 0);  // stalemates that come first
    }
  }
}

TEST_CASE("Under stalemate-passes a stalemated side passes: the other side's value, one ply deeper",
          "[tables][rules]") {
  const Tablebase& tb = tables_of(Rules::StalematePasses);
  uint64_t stalemates = 0, dead = 0;
  for (const Material& m : all_signatures(4)) {
    const TableReader reader(table_path(test::tables_dir(), m, Rules::StalematePasses));
    for (Color stm : {Color::White, Color::Black}) {
      const std::vector<uint16_t> scores = reader.read_side(stm);
      Position pos;
      for (uint64_t i = 0; i < scores.size(); ++i) {
        if (!reader.scheme().decode(i, stm, pos) || !is_stalemate(pos)) continue;
        ++stalemates;
        const Score s = Score::from_raw(scores[i]);
        Position passed = pos;
        passed.pass();
        INFO(m.str() << ' ' << to_fen(pos) << " stores " << describe(s));
        if (legal_moves(passed).empty()) {  // neither side can move: a dead draw
          ++dead;
          CHECK(s == Score::draw());
          continue;
        }
        const Score after = *tb.probe(passed);
        CHECK(s.value() == negate(after.value()));
        if (after.value() != Lasker::Draw) CHECK(s.depth() == after.depth() + 1);
      }
    }
  }
  CHECK(stalemates > 1000);
  // Neither side able to move needs more men (the article's Fig. 3c has more): none of 3-4 men.
  CHECK(dead == 0);
}

TEST_CASE("Hand-made positions under each rule set", "[tables][rules]") {
  // Black stalemates White at once with Kc7: under Lasker a lesser win, under stalemate-wins a win
  // in one ply; under stalemate-passes White passes and Black, with a bare king, cannot win.
  const std::string stalemating = "K7/P7/1k6/8/8/8/8/8 b - - 0 1";
  CHECK(probe(Rules::Lasker, stalemating) == Score(Lasker::Stalemates, 1));
  CHECK(probe(Rules::StalemateWins, stalemating) == Score(Lasker::Mates, 1));
  CHECK(probe(Rules::StalematePasses, stalemating) == Score::draw());
  CHECK(line_text(Rules::StalemateWins, stalemating) == "1... Kc7");

  // Black is stalemated: under Lasker that ends the game (value 1, DTS 0); under stalemate-passes
  // Black passes and White mates at once.
  const std::string stalemated = "k7/2P5/K7/8/8/8/8/8 b - - 0 1";
  CHECK(probe(Rules::Lasker, stalemated) == Score(Lasker::Stalemated, 0));
  CHECK(probe(Rules::StalemateWins, stalemated) == Score(Lasker::Mated, 0));
  CHECK(probe(Rules::StalematePasses, stalemated) == Score(Lasker::Mated, 2));
  CHECK(line_text(Rules::StalematePasses, stalemated) == "1... -- 2. c8=Q#");

  // White stalemates Black for ever under Lasker (Black's king and pawn are frozen, value 3), but
  // under stalemate-passes Black passes until White must let the pawn through: White is mated in
  // 26 plies. With Black to move, Black is stalemated under Lasker (value 1) and mates under
  // stalemate-passes.
  const std::string frozen = "8/8/8/8/8/8/1p6/kBK5 w - - 0 1";
  CHECK(probe(Rules::Lasker, frozen).value() == Lasker::Stalemates);
  CHECK(probe(Rules::StalemateWins, frozen).value() == Lasker::Mates);
  CHECK(probe(Rules::StalematePasses, frozen) == Score(Lasker::Mated, 26));
  const std::string frozen_btm = "8/8/8/8/8/1p6/8/kBK5 b - - 0 1";
  CHECK(probe(Rules::Lasker, frozen_btm).value() == Lasker::Stalemated);
  CHECK(probe(Rules::StalematePasses, frozen_btm) == Score(Lasker::Mates, 27));
}
