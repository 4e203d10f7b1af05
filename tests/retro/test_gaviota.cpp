// Values 4 and 0 and their DTM against the Gaviota tables (a Gaviota draw is any of 1, 2, 3).
#include <algorithm>
#include <string>

#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

#ifdef EGTB_HAVE_GAVIOTA
#include "egtb/core/fen.hpp"
#include "egtb/store/error.hpp"
#include "retro/gaviota.hpp"
#endif

namespace egtb::test {

TEST_CASE("3-man tables agree with Gaviota", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  for (const char* name : {"KQk", "KRk", "KBk", "KNk", "KPk"}) {
    const Table& table = solved(name);
    const retro::GaviotaReport report = retro::compare_with_gaviota(table, *dir, 2);
    INFO(retro::format_report(report));
    CHECK(report.ok());
    CHECK(report.positions_checked ==
          count_values(table, Color::White).positions() + count_values(table, Color::Black).positions());
  }
#endif
}

TEST_CASE("Gaviota's KQk: White always mates, Black mostly mated", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  const retro::GaviotaReport report = retro::compare_with_gaviota(solved("KQk"), *dir, 1);
  // Every wtm position is a White mate, and so are the btm losses; btm draws 2,838 + 115.
  CHECK(report.gaviota_results == std::array<uint64_t, 3>{2'838 + 115, 18'492 + 25'691, 0});
#endif
}

TEST_CASE("GaviotaProber scores a position for its side to move", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  const retro::GaviotaProber gaviota(*dir);
  const auto probe = [&](const char* fen) { return gaviota.probe(*parse_fen(fen)); };
  CHECK(probe("k7/2Q5/1K6/8/8/8/8/8 w - - 0 1") == Score(Lasker::Mates, 1));
  CHECK(probe("k7/8/1K6/8/8/8/8/2Q5 b - - 0 1") == Score(Lasker::Mated, 4));
  CHECK(probe("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1") == Score::draw());  // stalemated: our 1
  CHECK(probe("8/8/8/8/8/2k5/8/K1N5 w - - 0 1") == Score::draw());
  CHECK(probe("8/8/3k4/8/3r4/8/8/KQR5 w - - 0 1") == std::nullopt);  // 5 men: no Gaviota table here
#endif
}

TEST_CASE("gaviota_disagreement: a Gaviota draw is any of 1, 2, 3", "[gaviota]") {
#ifdef EGTB_HAVE_GAVIOTA
  for (const Score ours : {Score(Lasker::Stalemates, 3), Score::draw(), Score(Lasker::Stalemated, 0)})
    CHECK(retro::gaviota_disagreement(ours, Score::draw()).empty());
  CHECK(retro::gaviota_disagreement(Score(Lasker::Mated, 2), Score(Lasker::Mated, 2)).empty());
  CHECK(retro::gaviota_disagreement(Score(Lasker::Mates, 3), Score::draw()) ==
        "stored mates in 2 (DTM 3), Gaviota: draw");
  CHECK(retro::gaviota_disagreement(Score(Lasker::Mated, 2), Score(Lasker::Mated, 4)) ==
        "stored is mated (DTM 2), Gaviota: is mated (DTM 4)");
  CHECK(retro::gaviota_disagreement(Score::draw(), std::nullopt) == "Gaviota has no value for the position");
#else
  WARN("SKIPPED: built without libgaviotatb-dev, no retro/gaviota.hpp");
#endif
}

#ifdef EGTB_HAVE_GAVIOTA
namespace {

// Keeps every mismatch, so that a corrupted entry is found among mismatches elsewhere.
retro::GaviotaReport compare_all(const Table& table, const std::filesystem::path& dir) {
  retro::VerifyOptions options;
  options.threads = 2;
  options.max_errors = 1'000'000;
  return retro::compare_with_gaviota(table, dir, options);
}

const retro::VerifyError* error_at(const retro::GaviotaReport& report, Color c, indexing::Index i) {
  const auto it = std::find_if(report.errors.begin(), report.errors.end(), [&](const retro::VerifyError& e) {
    return e.side_to_move == c && e.index == i;
  });
  return it == report.errors.end() ? nullptr : &*it;
}

// The first entry of side c holding `score` that agreed with Gaviota in `baseline`.
indexing::Index find_agreeing(const Table& table, const retro::GaviotaReport& baseline, Color c,
                              Score score) {
  Position pos;
  for (indexing::Index i = 0; i < table.scheme().size(); ++i)
    if (table.at(c, i) == score && table.scheme().decode(i, c, pos) && !error_at(baseline, c, i)) return i;
  FAIL("no entry holds " + describe(score));
  return 0;
}

}  // namespace
#endif

TEST_CASE("a corrupted DTM disagrees with Gaviota", "[gaviota][mutation]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  Table table = solved("KRk");
  const retro::GaviotaReport baseline = compare_all(table, *dir);
  const indexing::Index i = find_agreeing(table, baseline, Color::Black, Score(Lasker::Mated, 20));
  table.set(Color::Black, i, Score(Lasker::Mated, 22));
  const retro::GaviotaReport report = compare_all(table, *dir);
  CHECK(report.error_count == baseline.error_count + 1);
  const retro::VerifyError* e = error_at(report, Color::Black, i);
  REQUIRE(e != nullptr);
  CHECK(e->expected == Score(Lasker::Mated, 20));
  CHECK(e->stored == Score(Lasker::Mated, 22));
#endif
}

TEST_CASE("a stalemate value counts as a Gaviota draw, a mate value does not", "[gaviota][mutation]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  Table table = solved("KBk");
  const retro::GaviotaReport baseline = compare_all(table, *dir);
  const indexing::Index i = find_agreeing(table, baseline, Color::White, Score::draw());
  table.set(Color::White, i, Score(Lasker::Stalemates, 3));
  CHECK(compare_all(table, *dir).error_count == baseline.error_count);
  table.set(Color::White, i, Score(Lasker::Mates, 3));
  const retro::GaviotaReport report = compare_all(table, *dir);
  CHECK(report.error_count == baseline.error_count + 1);
  CHECK(error_at(report, Color::White, i) != nullptr);
#endif
}

TEST_CASE("Gaviota comparison gives the same report on 1 and 2 threads", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  const Table& table = solved("KRkn");
  const retro::GaviotaReport one = retro::compare_with_gaviota(table, *dir, 1);
  const retro::GaviotaReport two = retro::compare_with_gaviota(table, *dir, 2);
  CHECK(one.positions_checked == two.positions_checked);
  CHECK(one.gaviota_results == two.gaviota_results);
  CHECK(one.error_count == two.error_count);
  CHECK_THROWS_AS(retro::compare_with_gaviota(table, *dir / "missing", 1), IoError);
#endif
}

}  // namespace egtb::test
