// Paged subtables (retro/subtables.hpp): read block by block from the file, they give every entry
// the score the table held in memory gives, and the solver's exits through them are unchanged.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "egtb/store/writer.hpp"
#include "indexing/index_order.hpp"
#include "retro/scheduler.hpp"
#include "retro/solver.hpp"
#include "tests/retro/solved_tables.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/entries_in.hpp"

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
  retro::SolveConfig config;
  config.threads = 2;
  const auto from_whole = retro::solve(target, whole_subtables, config);
  const auto from_paged = retro::solve(target, paged_subtables, config);
  CHECK(same_scores(*from_whole, *from_paged));
}

TEST_CASE("a pawn table solved with its promoting slices joined is the table solved whole",
          "[retro][paged]") {
  // The slices of a pawn on its 7th, joined (indexing::Slicing::PromotionsJoined), read the
  // promotions' subtables through one small cache; the other slices are read back from the
  // scratch file as in any solve in slices.
  for (const char* sig : {"KRkp", "KPPk"}) {
    INFO(sig);
    const ScratchDir dir;
    const Material target = parse_material(sig);
    retro::Subtables paged_subtables;
    const auto cache = std::make_shared<BlockCache>(size_t{1} << 20);
    for (const Material& next : target.successors()) {
      if (next.is_bare_kings() || paged_subtables.contains(next)) continue;
      paged_subtables.add(Table::page(write_table(dir.path, solved(next.str())), {}, cache));
    }
    retro::SolveConfig config;
    config.threads = 2;
    config.scratch_directory = dir.path;
    config.slicing = indexing::Slicing::PromotionsJoined;
    const auto solution = retro::solve_table(target, paged_subtables, config);
    CHECK(solution->slices() == 21);
    CHECK(same_scores(*retro::to_table(*solution), solved(sig)));
  }
}

// Writes `table` at `path` with its index in `order` (indexing/index_order.hpp).
void write_in_order(const Table& table, const std::filesystem::path& path,
                    const indexing::IndexOrder& order) {
  const auto sides = entries_in(table, indexing::IndexScheme(table.material(), order));
  TableDescription d = TableDescription::of(table.material(), table.rules(), table.metrics(), order);
  d.generator = table.generator();
  write_table_file(path, d, {sides[0], sides[1]});
}

TEST_CASE("paged subtables led by a pawn group are named as slow to solve from", "[retro][paged]") {
  const ScratchDir dir;
  const Table& krp = solved("KRPk");
  const Material material = krp.material();
  const auto orders = indexing::IndexOrder::candidates(material);
  const auto pawn_led =
      std::find_if(orders.begin(), orders.end(), [](const auto& o) { return !o.kings_lead(); });
  REQUIRE(pawn_led != orders.end());
  CHECK(pawn_led->str(material) == "P Kk R");
  const auto path = dir.path / "KRPk.egtb";
  const auto cache = std::make_shared<BlockCache>(size_t{4} << 20);
  retro::Subtables subtables;

  // Held whole, or paged in an order led by the king pair: not slow.
  write_in_order(krp, path, orders.front());
  subtables.add(Table::load(path));
  subtables.add(Table::page(write_table(dir.path, solved("KRk")), {}, cache));
  CHECK(subtables.slowly_paged().empty());
  subtables.add(Table::page(path, {}, cache));
  CHECK(subtables.slowly_paged().empty());

  // Paged with the pawn leading: named; its entries are the table's all the same.
  write_in_order(krp, dir.path / "KRPk-pawn-led.egtb", *pawn_led);
  const auto paged = Table::page(dir.path / "KRPk-pawn-led.egtb", {}, cache);
  subtables.add(paged);
  CHECK(subtables.slowly_paged() == std::vector<Material>{material});
  for (Index i = 0; i < paged->scheme().size(); i += 997)
    CHECK(paged->at(Color::White, i) == krp.at(Color::White, paged->scheme().entry_in(krp.scheme(), i)));
}

}  // namespace
}  // namespace egtb::test
