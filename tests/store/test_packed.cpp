// Files of Packed blocks (format.hpp, `egtb recompress --packed`) on the real 3-4-man tables of the
// fixture tables_34: every reader gets the generated file's entries back, a probe reads them where
// they lie in the mapped file (decoding no block) and gets the generated file's score, and a block
// damaged, or changed in place after its first read, or cut short, fails the read naming the block
// without reading outside it.
#include <bit>
#include <filesystem>
#include <fstream>
#include <random>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/tablebase.hpp"
#include "indexing/index.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

// Blocks of 1,024 entries, packed: what `egtb recompress --packed --block-entries 1024` writes.
const WriteOptions Packed{
    .level = 3, .block_entries = 1024, .transform = TransformChoice::Packed, .orders = OrderSet::Any};

// A reader of `path` as Tablebase opens one: mapped, for positions only.
TableRequirements as_probed(const Material& m) { return {m, Rules::Lasker, {}, true, true, true}; }

// How many entries of the file at `path` that hold a position read in place as `original` (the
// generated file) has them, and how many do not; every entry of both sides is read.
std::pair<uint64_t, uint64_t> read_in_place(const std::filesystem::path& path, const Material& m,
                                            const TableReader& original) {
  const TableReader reader(path, as_probed(m));
  REQUIRE(reader.reads_in_place());
  uint64_t same = 0, differ = 0;
  Position pos;
  for (Color stm : {Color::White, Color::Black}) {
    const std::vector<uint16_t> expected = original.read_side(stm);
    for (indexing::Index i = 0; i < reader.entries(stm); ++i) {
      if (!reader.scheme().decode(i, stm, pos)) continue;
      const std::optional<Score> score =
          reader.entry_in_place(reader.block_of(stm, i), reader.offset_in_block(i));
      // None would be a block of more than 256 distinct scores, which these tables do not have.
      (score && score->raw() == expected[*original.scheme().index_of(pos)] ? same : differ) += 1;
    }
  }
  return {same, differ};
}

}  // namespace

TEST_CASE("a packed file reads as the generated one, and probes read its entries in place", "[tables]") {
  const test::TempDir dir;
  std::mt19937_64 random(29);
  for (const char* signature : {"KQk", "KBNk", "KRkp", "KPkp", "KPPk", "KQkq", "KRkr"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    const std::filesystem::path generated = table_path(test::tables_dir(), m);
    const std::filesystem::path packed = test::recompressed_copy(m, dir / "packed", Packed);
    const TableReader original(generated);
    const TableReader whole(packed);  // read with pread, block by block decoded
    CHECK(whole.header().packed);
    CHECK(whole.header().format_version == PackedFormatVersion);
    CHECK(whole.header().stats == original.header().stats);
    CHECK(test::kings_first(whole) == test::kings_first(original));
    CHECK_NOTHROW(whole.verify(1));
    CHECK_FALSE(whole.reads_in_place());
    std::array<uint64_t, 4> transforms{};
    for (uint64_t b = 0; b < whole.header().block_count; ++b)
      ++transforms[static_cast<size_t>(whole.block_ref(b).transform)];
    CHECK(transforms[static_cast<size_t>(BlockTransform::Packed)] > 0);
    CHECK(transforms[static_cast<size_t>(BlockTransform::Packed)] +
              transforms[static_cast<size_t>(BlockTransform::Constant)] ==
          whole.header().block_count);

    const auto [same, differ] = read_in_place(packed, m, original);
    CHECK(same > 0);
    CHECK(differ == 0);

    const Tablebase probes(dir / "packed");
    const indexing::IndexScheme scheme(m);
    for (int k = 0; k < 2000; ++k) {
      const Position pos = test::random_position(scheme, random);
      REQUIRE(probes.probe(pos).value() == test::tables().probe(pos).value());
    }
  }
}

TEST_CASE("a packed file filled too restores its invalid entries for readers, probes read it in place",
          "[tables]") {
  const test::TempDir dir;
  const Material m = *Material::parse("KRkp");
  WriteOptions options = Packed;
  options.fill = true;
  const std::filesystem::path path = test::recompressed_copy(m, dir.path(), options);
  const TableReader original(table_path(test::tables_dir(), m));
  const TableReader restored(path, {m, Rules::Lasker, {}, true, false, true});
  CHECK(restored.header().packed);
  CHECK(restored.header().filled);
  CHECK_FALSE(restored.reads_in_place());  // it restores invalid entries as it decodes
  CHECK(test::kings_first(restored) == test::kings_first(original));
  const auto [same, differ] = read_in_place(path, m, original);
  CHECK(same > 0);
  CHECK(differ == 0);
}

TEST_CASE("a packed block damaged, changed in place after its first read, or cut short fails its read",
          "[tables]") {
  const test::TempDir dir;
  const Material m = *Material::parse("KRkp");
  const std::filesystem::path path = test::recompressed_copy(m, dir.path(), Packed);
  const std::vector<uint8_t> good = test::read_file(path);
  const TableReader reader(path, as_probed(m));
  const TableReader decoded(path, as_probed(m));
  // Two packed blocks whose list is not a power of two long, so that a code can lie past it, and
  // shorter than a list of 256 scores.
  std::vector<uint64_t> blocks;
  for (uint64_t b = 0; b < reader.header().block_count && blocks.size() < 2; ++b) {
    const BlockRef ref = reader.block_ref(b);
    if (ref.transform == BlockTransform::Packed && !std::has_single_bit(good[ref.offset] + 1u) &&
        ref.size < 1 + 2 * 256)
      blocks.push_back(b);
  }
  REQUIRE(blocks.size() == 2);
  const auto write_in_place = [&](uint64_t offset, const std::vector<uint8_t>& bytes) {
    std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(static_cast<std::streamoff>(offset));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  };
  const auto stored = [&](uint64_t b, size_t j) {
    std::vector<uint16_t> scores;
    decoded.read_block(b, scores);
    return Score::from_raw(scores[j]);
  };
  const auto refused = [&](uint64_t b, size_t j, const std::string& why) {
    INFO("block " << b << ", entry " << j << ": " << why);
    CHECK_THROWS_WITH(reader.entry_in_place(b, j), Catch::Contains(path.string()) &&
                                                       Catch::Contains("block " + std::to_string(b) + " (") &&
                                                       Catch::Contains(why));
  };

  // Damaged before its first read: the block's checksum; whole again, it reads.
  const BlockRef first = reader.block_ref(blocks[0]);
  const uint64_t last_byte = first.offset + first.size - 1;
  write_in_place(last_byte, {static_cast<uint8_t>(good[last_byte] ^ 1)});
  refused(blocks[0], 0, "checksum mismatch");
  write_in_place(last_byte, {good[last_byte]});
  CHECK(reader.entry_in_place(blocks[0], 0) == stored(blocks[0], 0));

  // Read once (checked), then its codes rewritten in place to all ones, each past the list; then
  // its first byte to a list of 256 scores, longer than the block.
  const BlockRef second = reader.block_ref(blocks[1]);
  CHECK(reader.entry_in_place(blocks[1], 5) == stored(blocks[1], 5));
  const uint64_t codes = 1 + 2 * (good[second.offset] + uint64_t{1});
  write_in_place(second.offset + codes, std::vector<uint8_t>(second.size - codes, 0xff));
  refused(blocks[1], 5, "entry 5 lies outside its codes or its list of scores");
  write_in_place(second.offset + codes,
                 {good.begin() + static_cast<std::ptrdiff_t>(second.offset + codes),
                  good.begin() + static_cast<std::ptrdiff_t>(second.offset + second.size)});
  write_in_place(second.offset, {0xff});
  refused(blocks[1], 0, "lies outside its codes or its list of scores");
  write_in_place(second.offset, {good[second.offset]});
  CHECK(reader.entry_in_place(blocks[1], 5) == stored(blocks[1], 5));

  // Cut short in place below the block's page: the read fails, the process goes on.
  REQUIRE(second.offset >= 2 * 4096);
  std::filesystem::resize_file(path, second.offset / 4096 * 4096);
  CHECK_THROWS_AS(reader.entry_in_place(blocks[1], 5), IoError);
  CHECK_THROWS_WITH(reader.entry_in_place(blocks[1], 5), Catch::Contains("cut short"));
}
