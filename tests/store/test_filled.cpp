// Filled files (egtb/store/format.hpp) on the real 3-4-man tables of the fixture tables_34: a table
// recompressed with its invalid entries filled is smaller than at the same level unfilled, a probe
// of any legal position gets the generated file's score, every other reader gets the invalid
// entries back exactly, the header's counts are checked in both readings, and recompressing it
// without filling gives back the very bytes egtb generate wrote.
#include <filesystem>
#include <random>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/tablebase.hpp"
#include "indexing/index.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

TEST_CASE("a filled file probes as the generated one, restores its invalid entries and recompresses back",
          "[tables]") {
  const test::TempDir dir;
  std::mt19937_64 random(23);
  for (const char* signature : {"KQk", "KBNk", "KRkp", "KPkp", "KPPk", "KQkq"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    const std::filesystem::path generated = table_path(test::tables_dir(), m);
    const std::filesystem::path filled =
        test::recompressed_copy(m, dir / "filled", {.level = 9, .orders = OrderSet::Any, .fill = true});
    const std::filesystem::path plain =
        test::recompressed_copy(m, dir / "plain", {.level = 9, .orders = OrderSet::Any});
    CHECK(std::filesystem::file_size(filled) < std::filesystem::file_size(plain));

    const TableReader original(generated);
    const TableReader restored(filled);
    const TableReader stored(filled, {m, Rules::Lasker, {}, true, true});
    CHECK(restored.header().filled);
    CHECK(restored.header().format_version == FilledFormatVersion);
    CHECK(restored.header().stats == original.header().stats);
    CHECK(test::kings_first(restored) == test::kings_first(original));
    CHECK_NOTHROW(restored.verify(1));
    CHECK_NOTHROW(stored.verify(1));
    CHECK_NOTHROW(TableReader(filled, TableRequirements::file_only()).verify(1));

    // As stored, the entries of positions are the generated ones and most invalid entries hold a
    // score (only blocks without a position keep theirs).
    const auto as_stored = test::kings_first(stored);
    const auto expected = test::kings_first(original);
    uint64_t changed = 0;
    uint64_t wrong = 0;
    for (size_t side = 0; side < 2; ++side)
      for (size_t i = 0; i < expected[side].size(); ++i) {
        const bool valid = !Score::from_raw(expected[side][i]).is_invalid();
        wrong += valid && as_stored[side][i] != expected[side][i];
        changed += !valid && !Score::from_raw(as_stored[side][i]).is_invalid();
      }
    CHECK(wrong == 0);
    CHECK(changed > 0);

    // Probes through a Tablebase of the filled file, at random legal positions in any symmetry;
    // its table reads the blocks as stored (no restoring for probes).
    const Tablebase probes(dir / "filled");
    const auto probed = probes.table(m);
    uint64_t invalid_as_probed = 0;
    for (Color c : {Color::White, Color::Black})
      for (indexing::Index i = 0; i < probed->size(); ++i) invalid_as_probed += probed->at(c, i).is_invalid();
    CHECK(invalid_as_probed + changed ==
          original.header().stats[0].invalid + original.header().stats[1].invalid);
    const indexing::IndexScheme scheme(m);
    for (int k = 0; k < 2000; ++k) {
      const Position pos = test::random_position(scheme, random);
      REQUIRE(probes.probe(pos).value() == test::tables().probe(pos).value());
    }

    (void)recompress_table_file(filled, {.level = DefaultCompressionLevel});
    CHECK(test::read_file(filled) == test::read_file(generated));
  }
}
