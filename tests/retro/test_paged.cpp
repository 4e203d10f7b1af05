// Paged subtables (retro/subtables.hpp): read block by block from the file, they give every entry
// the score the table held in memory gives, and the solver's exits through them are unchanged.
#include <unistd.h>
#include <filesystem>
#include <string>

#include "retro/generator.hpp"
#include "retro/scheduler.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {
namespace {

using indexing::Index;

// A fresh directory under the system's temporary directory, removed at the end of the test.
struct ScratchDir {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("egtb-paged-" + std::to_string(::getpid()));
  ScratchDir() { std::filesystem::create_directories(path); }
  ~ScratchDir() { std::filesystem::remove_all(path); }
};

TEST_CASE("a paged table reads every entry as the table in memory holds it", "[retro][paged]") {
  const ScratchDir dir;
  const Table& whole = solved("KRkp");
  const auto path = write_table(dir.path, whole);
  // A cache smaller than the table: blocks are evicted and read again.
  const auto paged = Table::page(path, {}, std::make_shared<BlockCache>(size_t{1} << 20));
  REQUIRE(paged->is_paged());
  CHECK(paged->metrics() == whole.metrics());
  uint64_t differences = 0;
  for (Color c : {Color::White, Color::Black})
    for (Index i = 0; i < whole.scheme().size(); ++i)
      differences += paged->at(c, i) != whole.at(c, i) ? 1u : 0u;
  CHECK(differences == 0);
}

TEST_CASE("a table solved with paged subtables is the table solved with whole ones", "[retro][paged]") {
  const ScratchDir dir;
  const Material target = parse_material("KQkr");
  retro::Subtables whole_subtables;
  retro::Subtables paged_subtables;
  const auto cache = std::make_shared<BlockCache>(size_t{4} << 20);
  for (const Material& next : target.successors()) {
    if (next.is_bare_kings() || whole_subtables.contains(next)) continue;
    const Table& table = solved(next.str());
    const auto path = write_table(dir.path, table);
    whole_subtables.add(Table::load(path));
    paged_subtables.add(Table::page(path, {}, cache));
  }
  retro::GeneratorConfig config;
  config.threads = 2;
  const auto from_whole = retro::solve(target, whole_subtables, config);
  const auto from_paged = retro::solve(target, paged_subtables, config);
  CHECK(same_scores(*from_whole, *from_paged));
}

}  // namespace
}  // namespace egtb::test
