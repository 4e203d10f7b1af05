// The file format byte for byte: the worked example of egtb/store/format.hpp, written and compared
// with its hex dump. A change here is a format change: bump FormatVersion and update the essay.
#include <algorithm>
#include <span>
#include <stdexcept>

#include "egtb/store/block_codec.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

// clang-format off
const std::vector<uint8_t> WorkedExample = {
      0x89, 0x45, 0x47, 0x54, 0x42, 0x0d, 0x0a, 0x1a, 0x02, 0x00, 0x00, 0x00, 0xf0, 0x00, 0x00, 0x00,
      0x03, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,
      0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x55, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
      0x13, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
      0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x21, 0x00, 0x00, 0x00, 0x03, 0x00, 0x4b, 0x51, 0x6b, 0x0a, 0x00, 0x65,
      0x67, 0x74, 0x62, 0x20, 0x30, 0x2e, 0x31, 0x2e, 0x30, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x40, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x27, 0xd2, 0xa8, 0x77, 0x6c, 0xb7, 0xf1, 0x96, 0x42, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x82, 0xee, 0xad, 0x68, 0x7f, 0x0b, 0x24,
      0x44, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
      0xa2, 0x84, 0x16, 0x7c, 0x46, 0xa5, 0x51, 0xad, 0x97, 0x63, 0xca, 0x6a, 0xe6, 0x11, 0x53, 0x29,
      0x9c, 0x00, 0x05, 0x00, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x08, 0x41, 0x00, 0x00, 0x02, 0x02, 0x08,
      0x02, 0x00, 0x00, 0x00, 0x00};
// clang-format on

}  // namespace

TEST_CASE("the worked example of format.hpp is written byte for byte", "[store]") {
  const egtb::test::TempDir dir;
  const std::vector<uint16_t> white = {156, 156, 156, 156, 5};
  const std::vector<uint16_t> black = {2, 2, 16, 2};
  WriteOptions options;
  options.block_entries = 4;
  write_table_file(dir / "KQk.egtb",
                   {"KQk", Rules::Lasker, MetricSet{Metric::Dtm, Metric::Dts}, 1, 2, "egtb 0.1.0", 0x21},
                   {white, black}, options);
  CHECK(egtb::test::read_file(dir / "KQk.egtb") == WorkedExample);
  const TableReader reader(dir / "KQk.egtb", TableRequirements::file_only());
  CHECK(reader.block_ref(0).transform == BlockTransform::Constant);
  CHECK(reader.block_ref(2).transform == BlockTransform::Planes);
  CHECK(reader.block_ref(2).offset == 324);
  CHECK_THROWS_AS(reader.block_ref(reader.header().block_count), std::out_of_range);
  TableRequirements in_place = TableRequirements::file_only();
  in_place.mapped = true;
  const TableReader mapped(dir / "KQk.egtb", in_place);  // the entries from the mapping, not the opening
  for (uint64_t b = 0; b < reader.header().block_count; ++b) {
    CHECK(mapped.block_ref(b).offset == reader.block_ref(b).offset);
    CHECK(mapped.block_ref(b).checksum == reader.block_ref(b).checksum);
  }
  CHECK_THROWS_AS(mapped.block_ref(reader.header().block_count), std::out_of_range);
  CHECK(reader.read_side(Color::Black) == black);
  CHECK(index_order_name(reader.header()) == "Kk Q");
}

TEST_CASE("a filled file differs from the worked example in its version, flags and checksum only",
          "[store]") {
  const egtb::test::TempDir dir;
  const std::vector<uint16_t> white = {156, 156, 156, 156, 5};  // the last block has no position
  const std::vector<uint16_t> black = {2, 2, 16, 2};
  WriteOptions options;
  options.block_entries = 4;
  options.fill = true;
  write_table_file(dir / "KQk.egtb",
                   {"KQk", Rules::Lasker, MetricSet{Metric::Dtm, Metric::Dts}, 1, 2, "egtb 0.1.0", 0x21},
                   {white, black}, options);
  std::vector<uint8_t> bytes = egtb::test::read_file(dir / "KQk.egtb");
  REQUIRE(bytes.size() == WorkedExample.size());
  CHECK(bytes[8] == 3);     // FilledFormatVersion
  CHECK(bytes[0x84] == 1);  // FilledFlag at offset 132
  std::vector<uint8_t> expected = WorkedExample;
  expected[8] = 3;
  expected[0x84] = 1;
  std::copy(bytes.begin() + 0x138, bytes.begin() + 0x140, expected.begin() + 0x138);  // file checksum
  CHECK(bytes == expected);
  const TableReader reader(dir / "KQk.egtb", TableRequirements::file_only());
  CHECK(reader.header().filled);
  CHECK(reader.header().stats[0].invalid == 1);
  CHECK(reader.read_side(Color::White) == white);  // a block without a position keeps its code
}

TEST_CASE("a filled block stores each invalid entry as the score before it", "[store]") {
  std::vector<uint16_t> block = {5, 156, 5, 5, 16, 5};
  fill_invalid(block);
  CHECK(block == std::vector<uint16_t>{156, 156, 156, 156, 16, 16});
  std::vector<uint16_t> none = {5, 5, 5};
  fill_invalid(none);
  CHECK(none == std::vector<uint16_t>{5, 5, 5});
}

TEST_CASE("header flags must match the format version", "[store]") {
  const egtb::test::TempDir dir;
  const auto path = dir / "KQk.egtb";
  // Sets the version and flags of the worked example, with a file checksum that matches.
  const auto write = [&](uint8_t version, uint8_t flags) {
    std::vector<uint8_t> bytes = WorkedExample;
    bytes[8] = version;
    bytes[0x84] = flags;
    const uint64_t sum = checksum_of(std::span(bytes).first(0x138));
    for (size_t i = 0; i < 8; ++i) bytes[0x138 + i] = static_cast<uint8_t>(sum >> (8 * i));
    egtb::test::write_file(path, bytes);
  };
  write(2, 0);
  CHECK_NOTHROW(TableReader(path, TableRequirements::file_only()));
  write(3, 1);
  CHECK(TableReader(path, TableRequirements::file_only()).header().filled);
  write(2, 1);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()),
                    Catch::Contains("header flags 1 are not those of a version 2 file"));
  write(3, 0);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("version 3"));
  write(3, 3);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("header flags 3"));
  write(4, 2);
  CHECK(TableReader(path, TableRequirements::file_only()).header().packed);
  write(4, 3);
  CHECK(TableReader(path, TableRequirements::file_only()).header().packed);
  CHECK(TableReader(path, TableRequirements::file_only()).header().filled);
  for (const uint8_t flags : {uint8_t{0}, uint8_t{1}, uint8_t{6}}) {
    write(4, flags);
    CHECK_THROWS_WITH(
        TableReader(path, TableRequirements::file_only()),
        Catch::Contains("header flags " + std::to_string(flags) + " are not those of a version 4 file"));
  }
  write(3, 2);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()), Catch::Contains("header flags 2"));
  write(5, 2);
  CHECK_THROWS_WITH(TableReader(path, TableRequirements::file_only()),
                    Catch::Contains("table format version 5, this program reads versions 2 to 4"));
}
