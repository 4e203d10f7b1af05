// recompress_table_file: the same entries and header fields in another block layout or zstd
// level, the file replaced only when the new one is complete; a damaged file or a held lock is
// refused, the file left as it was.
#include <algorithm>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/table_lock.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::KQkDescription;
using egtb::test::TempDir;

TEST_CASE("recompress keeps every entry and the header's fields", "[store]") {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  // KQk's entries, none invalid: a file of an indexable table stores invalid only entries that hold
  // no position (TableReader checks it, and verify below would refuse others).
  auto white = egtb::test::realistic_scores(28'644, 60, 7);
  auto black = egtb::test::realistic_scores(28'644, 60, 8);
  for (auto* side : {&white, &black})
    std::replace(side->begin(), side->end(), Score::invalid().raw(), Score::draw().raw());
  write_table_file(path, KQkDescription, {white, black}, {.level = 1, .block_entries = 4096});
  const TableHeader before = read_header(path, TableRequirements::file_only());
  const uint32_t block_entries = GENERATE(4096u, 1000u, 32768u);
  const RecompressResult r = recompress_table_file(path, {.level = 19, .block_entries = block_entries});
  const TableReader after(path, TableRequirements::file_only());
  CHECK(r.bytes_before == before.file_size);
  CHECK(r.bytes_after == after.header().file_size);
  CHECK(after.header().block_entries == block_entries);
  CHECK(after.read_side(Color::White) == white);
  CHECK(after.read_side(Color::Black) == black);
  CHECK(after.header().signature == before.signature);
  CHECK(after.header().generator == before.generator);
  CHECK(after.header().metrics.bits() == before.metrics.bits());
  CHECK(after.header().index_scheme == before.index_scheme);
  CHECK(after.header().stats == before.stats);
  CHECK_NOTHROW(after.verify(1));
  if (block_entries == 4096) CHECK(r.bytes_after < r.bytes_before);  // level 19 against level 1
}

TEST_CASE("recompress refuses a damaged file and leaves it as it was", "[store]") {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  const auto entries = egtb::test::realistic_scores(28'644, 40, 9);
  write_table_file(path, KQkDescription, {entries, entries}, {.level = 1, .block_entries = 4096});
  const TableHeader h = read_header(path, TableRequirements::file_only());
  egtb::test::flip_byte(path, h.file_size - 10);  // inside the last block
  const auto damaged = egtb::test::read_file(path);
  CHECK_THROWS_AS(recompress_table_file(path, {.level = 19}), FormatError);
  CHECK(egtb::test::read_file(path) == damaged);
}

TEST_CASE("recompress refuses a table whose lock another writer holds", "[store]") {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  const auto entries = egtb::test::realistic_scores(28'644, 40, 10);
  write_table_file(path, KQkDescription, {entries, entries});
  const auto held = TableLock::try_acquire(path);
  REQUIRE(held);
  const auto bytes = egtb::test::read_file(path);
  CHECK_THROWS_WITH(recompress_table_file(path, {.level = 19}), Catch::Contains("lock"));
  CHECK(egtb::test::read_file(path) == bytes);
}

TEST_CASE("recompress refuses a file this program cannot index and leaves it as it was", "[store]") {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  const auto entries = egtb::test::realistic_scores(5000, 40, 11);  // not KQk's 28,644 entries
  write_table_file(path, KQkDescription, {entries, entries});
  const auto bytes = egtb::test::read_file(path);
  CHECK_THROWS_WITH(recompress_table_file(path, {.level = 19}),
                    Catch::Contains(path.string()) && Catch::Contains("index scheme has 28644"));
  CHECK(egtb::test::read_file(path) == bytes);
}
