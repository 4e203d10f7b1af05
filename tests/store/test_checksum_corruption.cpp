// A damaged table file is reported as FormatError naming the file (and the block), on open or on
// read, and never yields a score.
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::TempDir;

namespace {

constexpr uint32_t SmallBlocks = 500;

// A table file of several blocks per side under `dir`, and its header.
std::filesystem::path write_sample(const TempDir& dir, std::vector<uint16_t>& white,
                                   std::vector<uint16_t>& black) {
  white = egtb::test::realistic_scores(2200, 90, 21);
  black = egtb::test::random_scores(1800, 22);
  WriteOptions options;
  options.block_entries = SmallBlocks;
  const auto path = dir / "KRk.egtb";
  write_table_file(path, {"KRk", Rules::Lasker, {Metric::Dtm, Metric::Dts}, 1, 1, "egtb test"},
                   {white, black}, options);
  return path;
}

// Opens the file and reads every entry; true when that succeeded and gave the original entries.
bool reads_back(const std::filesystem::path& path, const std::vector<uint16_t>& white,
                const std::vector<uint16_t>& black) {
  const TableReader reader(path, TableRequirements::file_only());
  return reader.read_side(Color::White) == white && reader.read_side(Color::Black) == black;
}

}  // namespace

TEST_CASE("a damaged block is reported on read and by verify_file", "[store]") {
  const TempDir dir;
  std::vector<uint16_t> white, black;
  const auto path = write_sample(dir, white, black);
  const TableHeader h = read_header(path, TableRequirements::file_only());
  REQUIRE(h.block_count == 9);  // 5 White blocks, 4 Black blocks
  CHECK_NOTHROW(TableReader(path, TableRequirements::file_only()).verify_checksums());
  const BlockRef damaged = TableReader(path, TableRequirements::file_only()).block_ref(6);
  egtb::test::flip_byte(path, damaged.offset + damaged.size / 2);

  const TableReader reader(path,
                           TableRequirements::file_only());  // header and index are intact: opening succeeds
  std::vector<uint16_t> block;
  CHECK_NOTHROW(reader.read_block(5, block));
  CHECK_THROWS_AS(reader.read_block(6, block), FormatError);
  CHECK_THROWS_WITH(reader.read_block(6, block),
                    Catch::Contains(path.string()) &&
                        Catch::Contains("block 6 (Black to move, entries 500-999)") &&
                        Catch::Contains("checksum mismatch"));
  CHECK_THROWS_AS(reader.read_entry(Color::Black, 700), FormatError);
  CHECK(reader.read_entry(Color::Black, 300).raw() == black[300]);
  CHECK_THROWS_WITH(verify_file(path, TableRequirements::file_only()), Catch::Contains("block 6"));
  CHECK_THROWS_WITH(reader.verify_checksums(1),
                    Catch::Contains("block 6") && Catch::Contains("checksum mismatch"));
  CHECK_THROWS_WITH(reader.verify_checksums(2), Catch::Contains("block 6"));
  CHECK_THROWS_AS(Table::load(path, TableRequirements::file_only()), FormatError);
}

TEST_CASE("a damaged header or block index is reported on open", "[store]") {
  const TempDir dir;
  std::vector<uint16_t> white, black;
  const auto path = write_sample(dir, white, black);
  const TableHeader h = read_header(path, TableRequirements::file_only());
  SECTION("magic") {
    egtb::test::flip_byte(path, 1);
    CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("bad magic"));
  }
  SECTION("format version") {
    egtb::test::flip_byte(path, 8);
    CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("format version"));
  }
  SECTION("a count in the header") {
    egtb::test::flip_byte(path, 70);
    CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()),
                      Catch::Contains(path.string()) && Catch::Contains("header checksum mismatch"));
  }
  SECTION("the signature") {
    egtb::test::flip_byte(path, FixedHeaderBytes + 2);
    CHECK_THROWS_WITH(read_header(path, TableRequirements::file_only()),
                      Catch::Contains("header checksum mismatch"));
  }
  SECTION("a block checksum in the index") {
    egtb::test::flip_byte(path, header_bytes(h) + 3 * BlockIndexEntryBytes + 20);
    CHECK_THROWS_WITH(verify_file(path, TableRequirements::file_only()),
                      Catch::Contains("header checksum mismatch"));
  }
  SECTION("the file checksum") {
    egtb::test::flip_byte(path, h.data_offset() - 1);
    CHECK_THROWS_AS(TableReader(path, TableRequirements::file_only()), FormatError);
  }
}

TEST_CASE("a truncated or extended file is reported on open", "[store]") {
  const TempDir dir;
  std::vector<uint16_t> white, black;
  const auto path = write_sample(dir, white, black);
  const std::vector<uint8_t> bytes = egtb::test::read_file(path);
  const TableHeader h = read_header(path, TableRequirements::file_only());
  for (uint64_t size :
       {uint64_t{0}, uint64_t{10}, uint64_t{100}, header_bytes(h) + 30, h.data_offset(), h.file_size - 1}) {
    CAPTURE(size);
    egtb::test::write_file(
        path, std::vector<uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)));
    CHECK_THROWS_AS(TableReader(path, TableRequirements::file_only()), FormatError);
  }
  egtb::test::write_file(path, std::vector<uint8_t>(bytes.begin(), bytes.end() - 1));
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("truncated"));
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  egtb::test::write_file(path, longer);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("trailing bytes"));
}

// Read with pread, the file ends early; mapped, its pages past the new end are gone, and touching
// one raises SIGBUS, which the reader's guard turns into IoError.
TEST_CASE("a file cut short in place while open fails its reads, the process goes on", "[store]") {
  const TempDir dir;
  std::vector<uint16_t> white, black;
  const auto path = write_sample(dir, white, black);
  TableRequirements required = TableRequirements::file_only();
  required.mapped = GENERATE(false, true);
  CAPTURE(required.mapped);
  const TableReader reader(path, required);
  std::vector<uint16_t> block;
  REQUIRE_NOTHROW(reader.read_block(8, block));
  std::filesystem::resize_file(path, 0);  // in place: the same file, as `cp` over it leaves it at first
  CHECK_THROWS_AS(reader.read_block(8, block), IoError);
  CHECK_THROWS_WITH(reader.read_block(8, block), Catch::Contains(path.string()) &&
                                                     Catch::Contains("block 8") &&
                                                     Catch::Contains("cut short"));
  CHECK_THROWS_AS(reader.verify_checksums(), IoError);
  CHECK(reader.file_changed());  // which tells a Tablebase to open it again
  CHECK_THROWS_AS(TableReader(path, TableRequirements::file_only()), FormatError);  // empty now
}

TEST_CASE("no single damaged byte anywhere in a file goes unnoticed", "[store]") {
  const TempDir dir;
  const std::vector<uint16_t> white = egtb::test::realistic_scores(300, 70, 31);
  const std::vector<uint16_t> black = egtb::test::random_scores(200, 32);
  WriteOptions options;
  options.block_entries = 128;
  const auto path = dir / "KQk.egtb";
  write_table_file(path, {"KQk", Rules::Lasker, {Metric::Dtm, Metric::Dts}, 1, 1, "g"}, {white, black},
                   options);
  const std::vector<uint8_t> original = egtb::test::read_file(path);
  int reported = 0;
  for (size_t offset = 0; offset < original.size(); ++offset) {
    std::vector<uint8_t> damaged = original;
    damaged[offset] ^= 0x5a;
    egtb::test::write_file(path, damaged);
    try {
      const bool same = reads_back(path, white, black);
      CAPTURE(offset);
      CHECK(same);  // a change the reader accepts must not alter any entry (there is none)
    } catch (const FormatError&) {
      ++reported;
    }
  }
  CHECK(reported == static_cast<int>(original.size()));
}

TEST_CASE("a missing file is an IoError naming it", "[store]") {
  const TempDir dir;
  CHECK_THROWS_AS(TableReader(dir / "KQk.egtb", TableRequirements::file_only()), IoError);
  CHECK_THROWS_WITH(read_header(dir / "KQk.egtb"),
                    Catch::Contains("KQk.egtb") && Catch::Contains("cannot open"));
  CHECK_THROWS_AS(verify_file(dir / "KQk.egtb"), IoError);
}

TEST_CASE("a file that is not a table is a FormatError", "[store]") {
  const TempDir dir;
  egtb::test::write_file(dir / "KQk.egtb", std::vector<uint8_t>(1000, 'x'));
  CHECK_THROWS_WITH(TableReader(dir / "KQk.egtb", TableRequirements::file_only()),
                    Catch::Contains("not an egtb table file"));
}
