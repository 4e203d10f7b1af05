// Table files of 6-man size: entry numbers above 2^32 and block offsets past 4 GiB.
//
// How these tests reach the large values without the memory or the disk: the header and block
// index of a table with KRPkrp's 16.1 G entries per side (983,000 blocks, a 24 MB index) are
// encoded and decoded in memory, with block sizes that put the later blocks past 4 GiB; and a
// sparse file of 5 GiB, whose first two blocks are holes never read, holds two real blocks past
// 4 GiB that the reader finds, checks and decodes (the file takes a few KB of disk on file
// systems with holes: ext4, xfs, btrfs, tmpfs).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "egtb/store/block_codec.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::TempDir;

namespace {

constexpr uint64_t Above32 = uint64_t{1} << 32;

TableHeader header_of(std::array<uint64_t, 2> entries, uint32_t block_entries) {
  TableHeader h;
  h.signature = "KRPkrp";
  h.metrics = MetricSet{Metric::Dtm, Metric::Dts};
  h.block_entries = block_entries;
  h.index_scheme = 7;
  h.index_version = 3;
  h.generator = "egtb test";
  h.entries = entries;
  h.block_count = h.blocks_of_side(0) + h.blocks_of_side(1);
  for (size_t side = 0; side < 2; ++side) h.stats[side].add(Score::invalid(), entries[side]);
  return h;
}

// Lays blocks of the given sizes out back to back after the preamble, as the writer does.
std::vector<BlockRef> lay_out(TableHeader& h, const std::vector<uint32_t>& sizes) {
  std::vector<BlockRef> refs(sizes.size());
  uint64_t offset = h.data_offset();
  for (size_t b = 0; b < sizes.size(); ++b) {
    refs[b] = {offset, sizes[b], BlockTransform::Planes, 0x0123456789abcdefULL ^ b};
    offset += sizes[b];
  }
  h.file_size = offset;
  return refs;
}

void write_at(int fd, uint64_t offset, std::span<const uint8_t> bytes) {
  REQUIRE(::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(offset)) ==
          static_cast<ssize_t>(bytes.size()));
}

// Flips the byte at `offset` in place (test::flip_byte reads the whole file).
void flip_byte_at(const std::filesystem::path& path, uint64_t offset) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  REQUIRE(fd >= 0);
  uint8_t byte = 0;
  REQUIRE(::pread(fd, &byte, 1, static_cast<off_t>(offset)) == 1);
  byte ^= 0xff;
  write_at(fd, offset, std::span(&byte, 1));
  ::close(fd);
}

}  // namespace

TEST_CASE("a 6-man header and block index past 4 GiB round-trip", "[store][wide]") {
  // KRPkrp: 1806 * 62 * 48 * 62 * 48 normal entries and 1806 * 14 * 62 * 62 e.p. entries a side.
  const uint64_t entries = uint64_t{1806} * 62 * 48 * 62 * 48 + uint64_t{1806} * 14 * 62 * 62;
  TableHeader h = header_of({entries, entries}, DefaultBlockEntries);
  REQUIRE(h.block_count == 2 * ((entries + DefaultBlockEntries - 1) / DefaultBlockEntries));
  std::vector<uint32_t> sizes(h.block_count);
  for (size_t b = 0; b < sizes.size(); ++b) sizes[b] = 2 + static_cast<uint32_t>(b * 7919 % 12'000);
  const std::vector<BlockRef> refs = lay_out(h, sizes);
  REQUIRE(h.file_size > Above32);
  const std::vector<uint8_t> preamble = encode_preamble(h, refs);

  const std::filesystem::path path = "KRPkrp.egtb";
  const uint64_t header_size = decode_header_size(std::span(preamble).first(16), path);
  const TableHeader back = decode_header(std::span(preamble).first(header_size), path);
  CHECK_NOTHROW(check_header(back, path));
  CHECK(back.entries == h.entries);
  CHECK(back.block_count == h.block_count);
  CHECK(back.file_size == h.file_size);
  CHECK(back.stats == h.stats);
  const std::vector<BlockRef> decoded = decode_block_index(
      back, std::span(preamble).subspan(header_size, BlockIndexEntryBytes * back.block_count), path);
  REQUIRE(decoded.size() == refs.size());
  size_t past = 0;
  for (size_t b = 0; b < refs.size(); ++b) {
    REQUIRE(decoded[b].offset == refs[b].offset);
    REQUIRE(decoded[b].size == refs[b].size);
    REQUIRE(decoded[b].checksum == refs[b].checksum);
    past += decoded[b].offset > Above32;
  }
  CHECK(past > 100'000);
  // Entries above 2^32 of both sides: the block that holds each covers it.
  for (int side = 0; side < 2; ++side)
    for (uint64_t i : {Above32 - 1, Above32, Above32 + 32'769, 3 * Above32 + 5, entries - 1}) {
      const BlockSpan s = block_span(back, block_of(back, side, i));
      CHECK(s.side == side);
      CHECK(s.first <= i);
      CHECK(i < s.first + s.count);
      CHECK(s.first % DefaultBlockEntries == 0);
    }
  CHECK(block_of(back, 1, entries - 1) == back.block_count - 1);
}

TEST_CASE("blocks past 4 GiB of a sparse 5 GiB table file are read and checked", "[store][wide]") {
  constexpr uint32_t B = 1024;
  const std::vector<uint16_t> white = test::realistic_scores(B, 60, 3);
  const std::vector<uint16_t> black = test::realistic_scores(B, 90, 4);
  BlockEncoder encoder(3);
  const EncodedBlock white_block = encoder.encode(white);
  const EncodedBlock black_block = encoder.encode(black);
  // White: two holes of 2.5 GiB (entries 0 ... 2B - 1, never read), then a real block; Black: one.
  TableHeader h = header_of({3 * B, B}, B);
  h.stats[0] = SideStats{};
  h.stats[0].add(Score::invalid(), 2 * B);
  h.stats[0].merge(compute_stats(white));
  h.stats[1] = compute_stats(black);
  constexpr uint32_t Hole = 0xA000'0000;
  std::vector<BlockRef> refs = lay_out(h, {Hole, Hole, static_cast<uint32_t>(white_block.bytes.size()),
                                           static_cast<uint32_t>(black_block.bytes.size())});
  refs[2] = {refs[2].offset, refs[2].size, white_block.transform, checksum_of(white_block.bytes)};
  refs[3] = {refs[3].offset, refs[3].size, black_block.transform, checksum_of(black_block.bytes)};
  REQUIRE(refs[2].offset > Above32);

  const TempDir dir;
  const auto path = dir / "KRPkrp.egtb";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  write_at(fd, 0, encode_preamble(h, refs));
  write_at(fd, refs[2].offset, white_block.bytes);
  write_at(fd, refs[3].offset, black_block.bytes);
  ::close(fd);
  REQUIRE(std::filesystem::file_size(path) == h.file_size);
  REQUIRE(h.file_size > 5 * (uint64_t{1} << 30));

  const TableReader reader(path, TableRequirements::file_only());
  CHECK(reader.header().file_size == h.file_size);
  CHECK(reader.block_ref(3).offset == refs[3].offset);
  std::vector<uint16_t> got;
  reader.read_block(2, got);
  CHECK(got == white);
  reader.read_block(3, got);
  CHECK(got == black);
  for (uint64_t k : {uint64_t{0}, uint64_t{B / 2}, uint64_t{B - 1}}) {
    CHECK(reader.read_entry(Color::White, 2 * B + k).raw() == white[k]);
    CHECK(reader.read_entry(Color::Black, k).raw() == black[k]);
  }
  // A block past 4 GiB is checked like any other: one flipped byte there is reported.
  flip_byte_at(path, refs[3].offset + refs[3].size / 2);
  const TableReader damaged(path, TableRequirements::file_only());
  CHECK_THROWS_WITH(damaged.read_block(3, got), Catch::Contains("block 3") && Catch::Contains("checksum"));
}

TEST_CASE("blocks too large for the block index's 32-bit sizes are refused before writing", "[store][wide]") {
  const TempDir dir;
  const std::vector<uint16_t> entries(10, Score::draw().raw());
  WriteOptions options;
  options.block_entries = MaxBlockEntries + 1;
  const TableDescription description{"KQk", Rules::Lasker, MetricSet{Metric::Dtm}, 7, 3, "egtb test"};
  CHECK_THROWS_WITH(write_table_file(dir / "KQk.egtb", description, {entries, entries}, options),
                    Catch::Contains("1073741825 entries per block"));
  CHECK(std::filesystem::is_empty(dir.path()));
}
