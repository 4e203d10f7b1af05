// Stalemate-only tables (egtb generate --metrics dts, rules.hpp StalemateOnly) against the full
// 3-4-man tables they are written from, which tables:verify-34 verifies one ply forward.
#include <filesystem>

#include "api/errors.hpp"
#include "api/generate.hpp"
#include "api/probe.hpp"
#include "api/tables.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "indexing/index.hpp"
#include "retro/verify.hpp"
#include "tests/api/api_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

api::GenerateRequest stalemate_only_request(const std::filesystem::path& full) {
  api::GenerateRequest r;
  r.signatures = {"KNNk"};
  r.directory = full.string() + "-lean";
  r.metrics = StalemateOnly;
  r.full_directory = full;
  r.threads = 2;
  return r;
}

// Every 7th entry of both sides of `material` that holds a position, probed in both tablebases:
// the stalemate-only one answers the full table's 3 and 1 with their DTS and 2 for all else.
void check_every_seventh_position(const Material& material, const Tablebase& lean, const Tablebase& full) {
  const indexing::IndexScheme scheme(material);
  uint64_t stalemates = 0, others = 0;
  Position pos;
  for (Color c : {Color::White, Color::Black})
    for (indexing::Index i = 0; i < scheme.size(); i += 7) {
      if (!scheme.decode(i, c, pos) || validate_table_position(pos)) continue;
      const Score whole = *full.probe(pos);
      const Score stored = *lean.probe_stalemate(pos);
      INFO(to_fen(pos) << " full " << describe(whole) << " stalemate-only " << describe(stored));
      if (whole.value() == Lasker::Stalemates || whole.value() == Lasker::Stalemated) {
        CHECK(stored == whole);
        ++stalemates;
      } else {
        CHECK(stored == Score::draw());
        ++others;
      }
      CHECK(*full.probe_stalemate(pos) == stored);
    }
  CHECK(stalemates > 0);
  CHECK(others > 0);
}

}  // namespace

TEST_CASE("generate --metrics dts writes stalemate-only tables that answer as the full ones do",
          "[generate][stalemate-only]") {
  const std::filesystem::path full = test::temp_tables({"KNk", "KNNk"});
  const api::GenerateRequest request = stalemate_only_request(full);
  const std::vector<retro::GenerateRecord> records =
      api::generate(request, {}, api::OptionSpelling::CommandLine);
  REQUIRE(records.size() == 2);
  for (const retro::GenerateRecord& r : records) {
    CHECK(r.built);
    CHECK(r.path.parent_path() == request.directory);
    CHECK(r.header.metrics == StalemateOnly);
    CHECK(r.header.filled);
    for (const SideStats& side : r.header.stats) {
      CHECK(side.values[static_cast<size_t>(to_index(Lasker::Mates))] == 0);
      CHECK(side.values[static_cast<size_t>(to_index(Lasker::Mated))] == 0);
    }
    CHECK(r.header.file_size < std::filesystem::file_size(full / r.path.filename()));
  }
  const Tablebase lean(request.directory);
  const Tablebase& whole = test::tables();
  check_every_seventh_position(*Material::parse("KNNk"), lean, whole);
  check_every_seventh_position(*Material::parse("KNk"), lean, whole);

  SECTION("a full probe of a stalemate-only table is refused, naming what it can answer") {
    const Position pos = *parse_fen("8/8/8/8/8/1N6/8/1k1K4 w - - 0 1");
    const auto refused = lean.probe(pos);
    REQUIRE_FALSE(refused);
    CHECK(refused.error().kind == ProbeError::Kind::MissingMetric);
    CHECK_THAT(refused.error().message,
               Catch::Contains("KNk holds stalemates only (built with --metrics dts)"));
    CHECK(*lean.probe_stalemate(pos) == Score(Lasker::Stalemates, 27));
    CHECK(api::stalemate_words(api::probe_stalemate_or_throw(lean, pos)) ==
          "White to move forces stalemate: DTS 27 plies, 14 moves");
  }
  SECTION("verify compares a stalemate-only table with its full table, and refuses it without one") {
    api::VerifyRequest v;
    v.directory = request.directory;
    v.threads = 2;
    CHECK_THROWS_WITH(api::verify(*Material::parse("KNk"), v), Catch::Contains("give --full-dir DIR"));
    v.full_directory = full;
    const api::VerifyOutcome outcome = api::verify(*Material::parse("KNk"), v);
    REQUIRE(outcome.against_full);
    CHECK(outcome.ok());
    CHECK(outcome.against_full->sides[0].values[to_index(Lasker::Stalemates)] > 0);
  }
  SECTION("compare_with_full finds an entry that differs from the full table's") {
    const auto knk = Table::load(request.directory / "KNk.egtb");
    const auto whole_knk = Table::load(full / "KNk.egtb");
    Table wrong(knk->material(), Rules::Lasker, StalemateOnly);
    indexing::Index changed = 0;
    for (Color c : {Color::White, Color::Black})
      for (indexing::Index i = 0; i < knk->size(); ++i) {
        const Score s = knk->at(c, knk->scheme().entry_in(wrong.scheme(), i));
        wrong.set(c, i, s);
        if (c == Color::White && s == Score(Lasker::Stalemates, 27)) changed = i;
      }
    wrong.set(Color::White, changed, Score(Lasker::Stalemates, 25));
    retro::VerifyOptions two_threads;
    two_threads.threads = 2;
    const retro::VerifyReport report = retro::compare_with_full(wrong, *whole_knk, two_threads);
    CHECK(report.error_count == 1);
    REQUIRE(report.errors.size() == 1);
    CHECK(report.errors[0].index == changed);
    CHECK(report.errors[0].problem ==
          "holds stalemates in 13 (DTS 25) where the full table's stalemates in 14 (DTS 27) makes stalemates "
          "in 14 (DTS 27) in a table with dts");
  }
  SECTION("a second run keeps them; --force rewrites the targets") {
    for (const retro::GenerateRecord& r : api::generate(request, {}, api::OptionSpelling::CommandLine))
      CHECK_FALSE(r.built);
    api::GenerateRequest forced = request;
    forced.force = true;
    const auto again = api::generate(forced, {}, api::OptionSpelling::CommandLine);
    CHECK_FALSE(again[0].built);  // KNk, not a target
    CHECK(again[1].built);
  }
  std::filesystem::remove_all(request.directory);
  std::filesystem::remove_all(full);
}

TEST_CASE("A stalemate-only request names the full tables it needs", "[generate][stalemate-only]") {
  api::GenerateRequest r;
  r.signatures = {"KNk"};
  r.metrics = StalemateOnly;
  CHECK_THROWS_WITH(api::check(r, api::OptionSpelling::CommandLine),
                    "--metrics dts needs --full-dir: the directory of the full tables its stalemates are "
                    "solved from");
  r.full_directory = r.directory;
  CHECK_THROWS_WITH(api::check(r, api::OptionSpelling::Keyword),
                    Catch::Contains("full_dir must differ from the directory"));
  r.metrics.reset();
  CHECK_THROWS_WITH(api::check(r, api::OptionSpelling::CommandLine),
                    "--full-dir applies to --metrics dts only");
}
