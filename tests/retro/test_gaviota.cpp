// Values 4 and 0 and their DTM against the Gaviota tables (a Gaviota draw is any of 1, 2, 3).
#include <algorithm>
#include <string>

#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

#ifdef EGTB_HAVE_GAVIOTA
#include "egtb/store/error.hpp"
#include "retro/gaviota.hpp"
#endif

namespace egtb::test {

TEST_CASE("3-man tables agree with Gaviota", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  for (const char* name : {"KQk", "KRk", "KBk", "KNk", "KPk"}) {
    const retro::SolvedTable& table = solved(name);
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

#ifdef EGTB_HAVE_GAVIOTA
namespace {

// Keeps every mismatch, so that a corrupted entry is found among mismatches elsewhere.
retro::GaviotaReport compare_all(const retro::SolvedTable& table, const std::filesystem::path& dir) {
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
indexing::Index find_agreeing(const retro::SolvedTable& table, const retro::GaviotaReport& baseline, Color c,
                              Score score) {
  Position pos;
  for (indexing::Index i = 0; i < table.scheme.size(); ++i)
    if (table.at(c, i) == score && table.scheme.decode(i, c, pos) && !error_at(baseline, c, i)) return i;
  FAIL("no entry holds " + describe(score));
  return 0;
}

}  // namespace
#endif

TEST_CASE("a corrupted DTM disagrees with Gaviota", "[gaviota][mutation]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  retro::SolvedTable table = solved("KRk");
  const retro::GaviotaReport baseline = compare_all(table, *dir);
  const indexing::Index i = find_agreeing(table, baseline, Color::Black, Score(Lasker::Mated, 20));
  table.scores[1][i] = Score(Lasker::Mated, 22).raw();
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
  retro::SolvedTable table = solved("KBk");
  const retro::GaviotaReport baseline = compare_all(table, *dir);
  const indexing::Index i = find_agreeing(table, baseline, Color::White, Score::draw());
  table.scores[0][i] = Score(Lasker::Stalemates, 3).raw();
  CHECK(compare_all(table, *dir).error_count == baseline.error_count);
  table.scores[0][i] = Score(Lasker::Mates, 3).raw();
  const retro::GaviotaReport report = compare_all(table, *dir);
  CHECK(report.error_count == baseline.error_count + 1);
  CHECK(error_at(report, Color::White, i) != nullptr);
#endif
}

TEST_CASE("Gaviota comparison gives the same report on 1 and 2 threads", "[gaviota]") {
  const auto dir = gaviota_dir_or_skip();
  if (!dir) return;
#ifdef EGTB_HAVE_GAVIOTA
  const retro::SolvedTable& table = solved("KRkn");
  const retro::GaviotaReport one = retro::compare_with_gaviota(table, *dir, 1);
  const retro::GaviotaReport two = retro::compare_with_gaviota(table, *dir, 2);
  CHECK(one.positions_checked == two.positions_checked);
  CHECK(one.gaviota_results == two.gaviota_results);
  CHECK(one.error_count == two.error_count);
  CHECK_THROWS_AS(retro::compare_with_gaviota(table, *dir / "missing", 1), IoError);
#endif
}

}  // namespace egtb::test
