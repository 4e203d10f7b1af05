// The application layer's generate request (api/generate.hpp), its recompress runs
// (api/recompress.hpp), the tables a query scans (api::scan_tables) and the statistics it keeps
// (api::StatisticsCache), on copies of the real 3-4-man tables.
#include <filesystem>

#include "api/errors.hpp"
#include "api/generate.hpp"
#include "api/plan.hpp"
#include "api/recompress.hpp"
#include "api/signatures.hpp"
#include "api/statistics.hpp"
#include "tests/api/api_support.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using api::OptionSpelling;

namespace {

std::string check_message(const api::GenerateRequest& request, OptionSpelling spelling) {
  try {
    (void)api::check(request, spelling);
  } catch (const api::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("A generate request is checked once, its options named as each front end spells them",
          "[generate]") {
  api::GenerateRequest r;
  r.signatures = {"KQk"};
  CHECK(check_message(r, OptionSpelling::CommandLine).empty());
  r.compression_level = 23;
  CHECK(check_message(r, OptionSpelling::CommandLine) ==
        "--compression-level must be a whole number from 1 to 22, not '23'");
  CHECK(check_message(r, OptionSpelling::Keyword) ==
        "compression_level must be a whole number from 1 to 22, not '23'");
  r.compression_level = DefaultCompressionLevel;
  r.threads = api::MaxThreads + 1;
  CHECK(check_message(r, OptionSpelling::Keyword) ==
        "threads must be a whole number from 0 to 1024, not '1025'");
  r.threads = 0;
  r.rules = Rules::StalemateWins;
  r.metrics = MetricSet{Metric::Dtm};
  CHECK(check_message(r, OptionSpelling::CommandLine) == "--metrics applies to lasker tables only");
  r = {};
  CHECK(check_message(r, OptionSpelling::Keyword) == "generate: name at least one signature, or all=N");
  r.all = 3;
  CHECK(api::check(r, OptionSpelling::Keyword).size() == 5);
}

TEST_CASE("generate_arguments and a plan's jobs carry every option of the request", "[generate][plan]") {
  api::GenerateRequest r;
  r.signatures = {"KRk"};
  r.directory = "d";
  CHECK(api::generate_arguments(r) == std::vector<std::string>{"KRk", "--dir", "d", "--rules", "lasker"});
  r.closure = false;
  r.max_memory = 1024;
  r.metrics = MetricSet{Metric::Dtm};
  r.compression_level = 19;
  r.threads = 2;
  r.force = true;
  CHECK(api::generate_arguments(r) == std::vector<std::string>{"KRk", "--no-closure", "--dir", "d", "--rules",
                                                               "lasker", "--max-memory", "1024", "--metrics",
                                                               "dtm", "--compression-level", "19",
                                                               "--threads", "2", "--force"});
  api::PlanRequest plan;
  plan.jobs = r;
  plan.program = "egtb";
  const api::Plan p = api::make_plan({*Material::parse("KRk")}, plan);
  REQUIRE(p.tables.size() == 1);
  CHECK(p.tables[0].command == std::vector<std::string>{"egtb", "generate", "KRk", "--no-closure", "--dir",
                                                        "d", "--rules", "lasker", "--max-memory", "1024",
                                                        "--metrics", "dtm", "--compression-level", "19"});
  const std::string makefile = api::plan_makefile(p);
  CHECK(makefile.find("--max-memory $(MAX_MEMORY) --metrics dtm --compression-level 19") !=
        std::string::npos);
  plan.jobs.compression_level = 0;
  CHECK_THROWS_AS(api::make_plan({*Material::parse("KRk")}, plan), api::InputError);
}

TEST_CASE("api::recompress reports each table as it is written, then the table done", "[recompress]") {
  const std::filesystem::path dir = test::temp_tables({"KBk", "KQk"});
  api::RecompressRequest request;
  request.directory = dir;
  request.signatures = {"KQk", "KBk"};
  request.options.level = 5;
  std::vector<api::RecompressStatus> seen;
  std::vector<std::string> done;
  const auto tables = api::recompress(
      request, [&](const api::RecompressStatus& s) { seen.push_back(s); },
      [&](const api::RecompressedTable& t) { done.push_back(t.material.str()); });
  CHECK(done == std::vector<std::string>{"KQk", "KBk"});
  REQUIRE(tables.size() == 2);
  REQUIRE(!seen.empty());
  CHECK(seen.front().material.str() == "KQk");
  CHECK(seen.front().table == 1);
  CHECK(seen.back().material.str() == "KBk");
  CHECK(seen.back().tables == 2);
  CHECK(seen.back().share_done() == Approx(1.0));
  for (size_t i = 1; i < seen.size(); ++i) CHECK(seen[i].share_done() >= seen[i - 1].share_done());
  request.signatures = {"KRk"};
  CHECK_THROWS_AS(api::recompress(request), api::MissingTableError);
  request.signatures = {};
  CHECK_THROWS_AS(api::recompress(request), api::InputError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("A query scans the tables named, every table present for 'all', or those of 3 to N men",
          "[query]") {
  const std::filesystem::path dir = test::temp_tables({"KBk", "KQk", "KQkq"});
  const Tablebase tb(dir);
  const auto names = [](const std::vector<Material>& tables) {
    std::vector<std::string> out;
    for (const Material& m : tables) out.push_back(m.str());
    return out;
  };
  CHECK(names(api::scan_tables(tb, {"all"}, std::nullopt)) == std::vector<std::string>{"KBk", "KQk", "KQkq"});
  CHECK(names(api::scan_tables(tb, {}, 3)) == std::vector<std::string>{"KBk", "KQk"});
  CHECK(names(api::scan_tables(tb, {"Kkq"}, std::nullopt)) == std::vector<std::string>{"Kkq"});
  CHECK_THROWS_AS(api::scan_tables(Tablebase(dir / "none"), {"all"}, std::nullopt), api::MissingTableError);
  std::filesystem::remove_all(dir);
}

TEST_CASE("The statistics cache computes a table once per convention", "[stats]") {
  api::StatisticsCache cache;
  const Tablebase& tb = test::tables();
  const auto first = cache.get(tb, "KBk", {indexing::Convention::Index462, 1});
  CHECK(cache.get(tb, "KBvK", {indexing::Convention::Index462, 1}) == first);
  CHECK(cache.get(tb, "KBk", {indexing::Convention::Physical, 1}) != first);
  CHECK(first->material.str() == "KBk");
  CHECK_THROWS_AS(cache.get(tb, "KQRkr", {indexing::Convention::Index462, 1}), api::MissingTableError);
}

TEST_CASE("The statistics end when their cancellation says so, and nothing is kept", "[stats]") {
  api::StatisticsCache cache;
  const Tablebase& tb = test::tables();
  Cancellation client;  // a client that has left
  client.cancel();
  CHECK_THROWS_AS(cache.get(tb, "KBNk", {indexing::Convention::Index462, 1, &client}), Cancelled);
  const Cancellation server;  // a server whose time limit has passed
  const Cancellation budget(&server, Cancellation::Clock::now());
  CHECK_THROWS_AS(cache.get(tb, "KBNk", {indexing::Convention::Index462, 1, &budget}), Cancelled);
  CHECK_THROWS_AS(
      stats::compute_statistics(tb, *Material::parse("KBNk"), {indexing::Convention::Physical, 1, &budget}),
      Cancelled);
  const Cancellation later(&server, Cancellation::Clock::now() + std::chrono::minutes(10));
  CHECK(cache.get(tb, "KBNk", {indexing::Convention::Index462, 1, &later})->material.str() == "KBNk");
}
