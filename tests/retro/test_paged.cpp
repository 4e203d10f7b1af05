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
#include "retro/verify.hpp"
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

// The entries of either side where `read` gives another score than `whole`.
uint64_t differences(const Table& read, const Table& whole) {
  uint64_t n = 0;
  for (Color c : {Color::White, Color::Black})
    for (Index i = 0; i < whole.scheme().size(); ++i) n += read.at(c, i) != whole.at(c, i) ? 1u : 0u;
  return n;
}

TEST_CASE("a paged table reads every entry as the table in memory holds it", "[retro][paged]") {
  const ScratchDir dir;
  const Table& whole = solved("KRkp");
  const auto path = write_table(dir.path, whole);
  // A cache smaller than the table: blocks are evicted and read again.
  const auto paged = Table::page(path, {}, std::make_shared<BlockCache>(size_t{1} << 20));
  REQUIRE(paged->is_paged());
  CHECK(paged->metrics() == whole.metrics());
  CHECK(differences(*paged, whole) == 0);
}

TEST_CASE("a table holding one side in memory reads both sides as the whole table", "[retro][paged]") {
  const ScratchDir dir;
  const Table& whole = solved("KRkp");
  const auto path = write_table(dir.path, whole);
  for (Color held : {Color::White, Color::Black}) {
    const auto half = Table::load_side(path, {}, held, std::make_shared<BlockCache>(size_t{1} << 20));
    CHECK(half->raw(held).size() == whole.scheme().size());
    CHECK(half->raw(~held).empty());
    CHECK(differences(*half, whole) == 0);
  }
}

// verify_table_by_side, as `egtb verify` runs it on a table too large to hold whole: each side
// checked on a table holding the other side in memory gives verify_table's report, and finds a
// corrupted entry on either side.
TEST_CASE("a table verified one side at a time gives the whole table's report", "[retro][paged][verify]") {
  const ScratchDir dir;
  // KPk: both sides with deep mates, 86,688 entries a side, read through a cache of one 64 KiB
  // block, so the side checked is evicted and read again as it is walked.
  Table table = solved("KPk");
  retro::VerifyOptions options;
  options.threads = TestThreads;
  options.max_errors = 1000;
  const auto by_side = [&](const std::filesystem::path& path) {
    std::shared_ptr<const Table> held;
    const auto cache = std::make_shared<BlockCache>(size_t{1} << 16);
    return retro::verify_table_by_side(
        table.scheme().size(),
        [&](Color c) -> const Table& {
          held.reset();
          held = Table::load_side(path, {}, ~c, cache);
          return *held;
        },
        solved_tables(), options);
  };
  const retro::VerifyReport whole = retro::verify_table(table, solved_tables(), options);
  const retro::VerifyReport sides = by_side(write_table(dir.path, table));
  CHECK(whole.ok());
  CHECK(sides.ok());
  CHECK(sides.entries_checked == whole.entries_checked);
  for (size_t s = 0; s < 2; ++s) {
    CHECK(sides.sides[s].positions == whole.sides[s].positions);
    CHECK(sides.sides[s].values == whole.sides[s].values);
  }
  // A mate (or a loss) one move longer than it is, on each side: found by both, at the same entries.
  for (Color c : {Color::White, Color::Black}) {
    const auto decisive = [](Score s) {
      return s.is_valid() && (s.value() == Lasker::Mates || s.value() == Lasker::Mated) && s.depth() > 0;
    };
    Index i = 0;
    while (!decisive(table.at(c, i))) ++i;
    table.set(c, i, Score(table.at(c, i).value(), table.at(c, i).depth() + 2));
  }
  std::filesystem::remove_all(dir.path);
  std::filesystem::create_directories(dir.path);
  const retro::VerifyReport broken_whole = retro::verify_table(table, solved_tables(), options);
  const retro::VerifyReport broken_sides = by_side(write_table(dir.path, table));
  CHECK(broken_sides.sides[0].errors > 0);
  CHECK(broken_sides.sides[1].errors > 0);
  CHECK(broken_sides.error_count == broken_whole.error_count);
  REQUIRE(broken_sides.errors.size() == broken_whole.errors.size());
  for (size_t k = 0; k < broken_whole.errors.size(); ++k)
    CHECK(broken_sides.errors[k].index == broken_whole.errors[k].index);
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

// The successors of `target`, written to `dir` and read back: paged through one small cache where
// `paged(next)` says so, else loaded whole.
template <class Paged>
retro::Subtables written_subtables(const Material& target, const std::filesystem::path& dir, Paged&& paged) {
  retro::Subtables subtables;
  const auto cache = std::make_shared<BlockCache>(size_t{1} << 20);
  for (const Material& next : target.successors()) {
    if (next.is_bare_kings() || subtables.contains(next)) continue;
    const auto path = write_table(dir, solved(next.str()));
    subtables.add(paged(next) ? Table::page(path, {}, cache) : Table::load(path));
  }
  return subtables;
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
    const retro::Subtables paged_subtables =
        written_subtables(target, dir.path, [](const Material&) { return true; });
    const auto solution = retro::solve_table(target, paged_subtables,
                                             sliced_config(dir.path, indexing::Slicing::PromotionsJoined));
    CHECK(solution->slices() == 21);
    CHECK(same_scores(*retro::to_table(*solution), solved(sig)));
  }
}

TEST_CASE("a pawn table solved in file slices from paged subtables is the table solved whole",
          "[retro][paged]") {
  // The moves into paged subtables are scored for every slice in one pass before the first slice
  // (retro/paged_exits.hpp), the others slice by slice. Every subtable paged, as captures lead
  // into paged tables from 6 men on; or only those of promotions, as in a 5-man table, where the
  // pass skips the words without a pawn on its 7th. KPkp has e.p. positions and promotions on both
  // sides (both ways), KPPk two pawns of one side, whose words the pass tells apart (promotions
  // paged), KRkp a capture of the pawn by the rook (into a paged KRk: every subtable paged).
  const std::pair<const char*, bool> cases[] = {
      {"KPkp", true}, {"KPkp", false}, {"KPPk", false}, {"KRkp", true}};
  for (const auto& c : cases) {
    const char* sig = c.first;
    const bool every_paged = c.second;
    INFO(sig << (every_paged ? ", every subtable paged" : ", the promotions' subtables paged"));
    const ScratchDir dir;
    const Material target = parse_material(sig);
    const retro::Subtables subtables = written_subtables(target, dir.path, [&](const Material& next) {
      return every_paged || next.men() == target.men();  // a promotion keeps the men
    });
    const auto solution =
        retro::solve_table(target, subtables, sliced_config(dir.path, indexing::Slicing::Files));
    CHECK(solution->slices() > 1);
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
