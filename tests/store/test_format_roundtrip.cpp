// Writing a table file and reading it back gives the same entries and header, for several sizes,
// shapes of data and block transforms.
#include <array>
#include <bit>
#include <random>

#include "egtb/store/block_codec.hpp"
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

// Rewrites the metric bits of a table file's header (offset 16) and its file checksum to match,
// as a newer or a hostile writer would leave them.
void set_metric_bits(const std::filesystem::path& path, uint32_t bits) {
  std::vector<uint8_t> bytes = egtb::test::read_file(path);
  const auto field = [&](size_t offset, size_t size) {
    uint64_t value = 0;
    for (size_t i = 0; i < size; ++i) value |= uint64_t{bytes[offset + i]} << (8 * i);
    return value;
  };
  for (size_t i = 0; i < 4; ++i) bytes[16 + i] = static_cast<uint8_t>(bits >> (8 * i));
  const size_t covered = field(12, 4) + BlockIndexEntryBytes * field(48, 8);  // H, block count
  const uint64_t sum = checksum_of(std::span(bytes).first(covered));
  for (size_t i = 0; i < 8; ++i) bytes[covered + i] = static_cast<uint8_t>(sum >> (8 * i));
  egtb::test::write_file(path, bytes);
}

TableDescription description(const std::string& signature) {
  return {signature, Rules::Lasker, MetricSet{Metric::Dtm, Metric::Dts}, 7, 3, "egtb test"};
}

// Writes two sides, reads them back whole and entry by entry, and checks the header.
void check_round_trip(const std::vector<uint16_t>& white, const std::vector<uint16_t>& black,
                      WriteOptions options) {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  write_table_file(path, description("KQk"), {white, black}, options);
  const TableReader reader(path, TableRequirements::file_only());
  CHECK(reader.read_side(Color::White) == white);
  CHECK(reader.read_side(Color::Black) == black);
  std::mt19937 rng(1);
  for (int k = 0; k < 50 && !white.empty(); ++k) {
    const size_t i = rng() % white.size();
    CHECK(reader.read_entry(Color::White, i).raw() == white[i]);
  }
  const TableHeader& h = reader.header();
  CHECK(h.entries == std::array<uint64_t, 2>{white.size(), black.size()});
  CHECK(h.block_entries == options.block_entries);
  CHECK(h.block_count == (white.size() + options.block_entries - 1) / options.block_entries +
                             (black.size() + options.block_entries - 1) / options.block_entries);
  CHECK(h.stats[0] == compute_stats(white));
  CHECK(h.stats[1] == compute_stats(black));
  CHECK(h.file_size == std::filesystem::file_size(path));
  CHECK_NOTHROW(verify_file(path, TableRequirements::file_only()));
}

}  // namespace

TEST_CASE("the plane code is a bijection on 16-bit values", "[store]") {
  std::vector<bool> seen(1u << 16);
  for (uint32_t raw = 0; raw < (1u << 16); ++raw) {
    const uint16_t code = plane_code(static_cast<uint16_t>(raw));
    CHECK(plane_decode(code) == raw);
    seen[code] = true;
  }
  CHECK(std::count(seen.begin(), seen.end(), true) == (1 << 16));
  // Depths under 64 plies with the parity their value implies leave the high byte zero.
  CHECK(plane_code(Score(Lasker::Mates, 63).raw()) >> 8 == 0);
  CHECK(plane_code(Score(Lasker::Mated, 62).raw()) >> 8 == 0);
  CHECK(plane_code(Score(Lasker::Mates, 65).raw()) >> 8 == 1);
  CHECK(plane_code(Score(Lasker::Mates, 2).raw()) >> 8 == 0x80);
}

TEST_CASE("every block transform decodes to its input", "[store]") {
  const auto data = egtb::test::realistic_scores(5000, 120, 3);
  for (TransformChoice choice :
       {TransformChoice::Planes, TransformChoice::Dictionary, TransformChoice::Smallest}) {
    BlockEncoder encoder(3, choice);
    const EncodedBlock block = encoder.encode(data);
    std::vector<uint16_t> out(data.size());
    CHECK(decode_block(block.transform, block.bytes, out).empty());
    CHECK(out == data);
  }
  BlockEncoder encoder(3, TransformChoice::Dictionary);
  CHECK(encoder.encode(data).transform == BlockTransform::Dictionary);
  CHECK(encoder.encode(egtb::test::random_scores(5000, 4)).transform == BlockTransform::Planes);
  const std::vector<uint16_t> constant(777, Score(Lasker::Mated, 4).raw());
  const EncodedBlock block = encoder.encode(constant);
  CHECK(block.transform == BlockTransform::Constant);
  CHECK(block.bytes == std::vector<uint8_t>{0x20, 0x00});
}

TEST_CASE("a Packed block is format.hpp's example byte by byte, and read in place", "[store]") {
  BlockEncoder encoder(3, TransformChoice::Packed);
  const std::vector<uint16_t> scores = {156, 2, 2, 16, 156, 2};
  const EncodedBlock block = encoder.encode(scores);
  CHECK(block.transform == BlockTransform::Packed);
  CHECK(block.bytes == std::vector<uint8_t>{0x02, 0x02, 0x00, 0x10, 0x00, 0x9c, 0x00, 0x42, 0x02});
  CHECK(check_packed_block(block.bytes, scores.size()).empty());
  for (size_t j = 0; j < scores.size(); ++j) CHECK(packed_entry(block.bytes, j) == scores[j]);
  std::vector<uint16_t> out(scores.size());
  CHECK(decode_block(BlockTransform::Packed, block.bytes, out).empty());
  CHECK(out == scores);
}

TEST_CASE("Packed blocks of every code width decode to their input, entry by entry in place", "[store]") {
  std::mt19937 rng(5);
  BlockEncoder encoder(3, TransformChoice::Packed);
  for (size_t k : {2u, 3u, 4u, 5u, 16u, 17u, 100u, 255u, 256u, 257u}) {
    for (size_t m : {1000u, 1024u, 1031u}) {
      INFO(k << " distinct scores, " << m << " entries");
      std::vector<uint16_t> palette(k);
      // Distinct scores: mates in 0, 1, ... plies.
      for (size_t c = 0; c < k; ++c) palette[c] = static_cast<uint16_t>(8 * c + 4);
      std::vector<uint16_t> scores(m);
      for (size_t j = 0; j < m; ++j) scores[j] = palette[j < k ? j : rng() % k];
      const EncodedBlock block = encoder.encode(scores);
      if (k > 256) {  // more than a list can hold: Planes
        CHECK(block.transform == BlockTransform::Planes);
        continue;
      }
      REQUIRE(block.transform == BlockTransform::Packed);
      const auto w = static_cast<size_t>(std::bit_width(k - 1));
      CHECK(block.bytes.size() == 1 + 2 * k + (m * w + 7) / 8);
      CHECK(check_packed_block(block.bytes, m).empty());
      std::vector<uint16_t> out(m);
      CHECK(decode_block(block.transform, block.bytes, out).empty());
      CHECK(out == scores);
      bool every_entry = true;
      for (size_t j = 0; j < m; ++j) every_entry = every_entry && packed_entry(block.bytes, j) == scores[j];
      CHECK(every_entry);
    }
  }
}

TEST_CASE("a malformed Packed block is refused, and no read of one leaves its bytes", "[store]") {
  const std::vector<uint8_t> good = {0x02, 0x02, 0x00, 0x10, 0x00, 0x9c, 0x00, 0x42, 0x02};
  const auto with = [&](size_t at, uint8_t byte) {
    std::vector<uint8_t> bytes = good;
    bytes[at] = byte;
    return bytes;
  };
  std::vector<uint16_t> six(6);
  CHECK(check_packed_block({}, 6) == "packed block of 0 bytes");
  CHECK(check_packed_block(good, 9) ==
        "packed block of 9 bytes, expected 10 for 9 codes of 2 bits into 3 scores");
  CHECK(check_packed_block(std::span(good).first(8), 6).find("packed block of 8 bytes") == 0);
  CHECK(check_packed_block(with(3, 0x02), 6) == "packed block's scores not ascending at score 1");
  CHECK(check_packed_block(with(8, 0x12), 6) == "packed block's bits after its last code not zero");
  // Code 3 for entry 5 (bits 2-3 of the last byte): past a list of 3, refused as read.
  const std::vector<uint8_t> past = with(8, 0x0e);
  CHECK(check_packed_block(past, 6).empty());
  CHECK(packed_entry(past, 5) == std::nullopt);
  CHECK(packed_entry(past, 4) == 156);
  CHECK(decode_block(BlockTransform::Packed, past, six) == "code 3 of entry 5 outside a list of 3 scores");
  // Whatever the bytes, a read stays inside them: entries past the codes, a list longer than the
  // block (k - 1 = 255 in its first byte), an empty block.
  CHECK(packed_entry(good, 8) == std::nullopt);
  CHECK(packed_entry(with(0, 0xff), 0) == std::nullopt);
  CHECK(packed_entry(std::span(good).first(7), 0) == std::nullopt);
  CHECK(packed_entry({}, 0) == std::nullopt);
  // A code that straddles two bytes, the second past the block: 3 scores of 2 bits do not straddle,
  // so take 5 scores (3 bits): entry 2 lies in bits 6-8.
  BlockEncoder encoder(3, TransformChoice::Packed);
  const EncodedBlock five = encoder.encode(std::vector<uint16_t>{2, 10, 18, 26, 34, 2});
  REQUIRE(five.bytes.size() == 1 + 10 + 3);
  CHECK(packed_entry(five.bytes, 2) == 18);
  CHECK(packed_entry(std::span(five.bytes).first(12), 2) == std::nullopt);
}

TEST_CASE("Constant and Packed blocks are read in place, the others decoded", "[store]") {
  const std::vector<uint8_t> constant = {0x9c, 0x00};
  const std::vector<uint8_t> packed = {0x02, 0x02, 0x00, 0x10, 0x00, 0x9c, 0x00, 0x42, 0x02};
  CHECK(in_place_transform(BlockTransform::Constant));
  CHECK(in_place_transform(BlockTransform::Packed));
  CHECK_FALSE(in_place_transform(BlockTransform::Planes));
  CHECK_FALSE(in_place_transform(BlockTransform::Dictionary));
  CHECK(check_in_place_block(BlockTransform::Constant, constant, 1024).empty());
  CHECK(in_place_entry(BlockTransform::Constant, constant, 1023) == 156);
  // A Constant block of 3 bytes: refused with decode_block's words, and read as nothing.
  const std::vector<uint8_t> three = {0x9c, 0x00, 0x00};
  std::vector<uint16_t> entries(4);
  CHECK(check_in_place_block(BlockTransform::Constant, three, 4) == "constant block of 3 bytes, expected 2");
  CHECK(decode_block(BlockTransform::Constant, three, entries) == "constant block of 3 bytes, expected 2");
  CHECK(in_place_entry(BlockTransform::Constant, three, 0) == std::nullopt);
  CHECK(check_in_place_block(BlockTransform::Packed, packed, 6).empty());
  CHECK(check_in_place_block(BlockTransform::Packed, packed, 9) == check_packed_block(packed, 9));
  CHECK(in_place_entry(BlockTransform::Packed, packed, 3) == 16);
}

TEST_CASE("a block index entry of transform 3 is refused in a file without Packed blocks", "[store]") {
  TableHeader h;
  h.entries = {4, 4};
  h.block_entries = 4;
  h.block_count = 2;
  h.file_size = h.data_offset();
  std::array<uint8_t, BlockIndexEntryBytes> entry{};
  for (size_t i = 0; i < 8; ++i) entry[i] = static_cast<uint8_t>(h.data_offset() >> (8 * i));
  entry[12] = 3;
  CHECK_THROWS_WITH(decode_block_ref(h, 1, entry, "KQk.egtb"),
                    Catch::Contains("KQk.egtb") &&
                        Catch::Contains("block 1: unknown transform 3 in a file of format version 2"));
  h.packed = true;
  h.format_version = PackedFormatVersion;
  CHECK(decode_block_ref(h, 1, entry, "KQk.egtb").transform == BlockTransform::Packed);
  entry[12] = 4;
  CHECK_THROWS_WITH(decode_block_ref(h, 1, entry, "KQk.egtb"),
                    Catch::Contains("block 1: unknown transform 4"));
}

TEST_CASE("tables of several sizes round-trip", "[store]") {
  WriteOptions options;
  options.block_entries = 1000;
  SECTION("one block, partly filled") {
    check_round_trip(egtb::test::realistic_scores(999, 60, 1), egtb::test::realistic_scores(999, 60, 2),
                     options);
  }
  SECTION("exactly two blocks per side") {
    check_round_trip(egtb::test::realistic_scores(2000, 60, 3), egtb::test::realistic_scores(2000, 60, 4),
                     options);
  }
  SECTION("a size that is not a multiple of the block size") {
    check_round_trip(egtb::test::realistic_scores(12345, 250, 5), egtb::test::random_scores(12345, 6),
                     options);
  }
  SECTION("an empty side") {
    check_round_trip(egtb::test::realistic_scores(4321, 30, 7), {}, options);
    check_round_trip({}, egtb::test::realistic_scores(4321, 30, 8), options);
  }
  SECTION("an empty table") { check_round_trip({}, {}, options); }
  SECTION("single entries") {
    check_round_trip({Score::draw().raw()}, {Score(Lasker::Mated, 0).raw()}, options);
  }
  SECTION("every transform choice and one compression thread") {
    options.threads = 1;
    for (TransformChoice choice :
         {TransformChoice::Planes, TransformChoice::Dictionary, TransformChoice::Smallest}) {
      options.transform = choice;
      check_round_trip(egtb::test::realistic_scores(7777, 200, 9), egtb::test::random_scores(3333, 10),
                       options);
    }
  }
  SECTION("the default block size") {
    check_round_trip(egtb::test::realistic_scores(100000, 80, 11),
                     egtb::test::realistic_scores(70000, 80, 12), WriteOptions{});
  }
}

TEST_CASE("the header records what the table says about itself", "[store]") {
  const TempDir dir;
  const auto path = dir / "KRk.egtb";
  std::vector<uint16_t> white = {Score(Lasker::Mates, 31).raw(), Score::invalid().raw(), Score::draw().raw(),
                                 Score(Lasker::Mates, 5).raw(), Score(Lasker::Stalemates, 9).raw()};
  std::vector<uint16_t> black = {Score(Lasker::Mated, 30).raw(), Score(Lasker::Stalemated, 0).raw(),
                                 Score::draw().raw(), Score::draw().raw(), Score::invalid().raw()};
  WriteOptions options;
  options.block_entries = 2;
  write_table_file(path, {"KRk", Rules::Lasker, MetricSet{Metric::Dtm}, 11, 12, "egtb 9.9"}, {white, black},
                   options);
  const TableHeader h = read_header(path, TableRequirements::file_only());
  CHECK(h.format_version == FormatVersion);
  CHECK(h.signature == "KRk");
  CHECK(h.metrics == MetricSet{Metric::Dtm});
  CHECK(h.index_scheme == 11);
  CHECK(h.index_version == 12);
  CHECK(h.generator == "egtb 9.9");
  CHECK(h.block_entries == 2);
  CHECK(h.block_count == 6);
  CHECK(h.entries == std::array<uint64_t, 2>{5, 5});
  CHECK(h.stats[0].values == std::array<uint64_t, 5>{0, 0, 1, 1, 2});
  CHECK(h.stats[0].invalid == 1);
  CHECK(h.stats[0].max_depth(Rules::Lasker, Metric::Dtm) == 31);
  CHECK(h.stats[0].max_depth(Rules::Lasker, Metric::Dts) == 9);
  CHECK(h.stats[0].max_depths == std::array<int, 5>{-1, -1, 0, 9, 31});
  CHECK(h.stats[1].values == std::array<uint64_t, 5>{1, 1, 2, 0, 0});
  CHECK(h.stats[1].max_depth(Rules::Lasker, Metric::Dtm) == 30);
  CHECK(h.stats[1].max_depth(Rules::Lasker, Metric::Dts) == 0);
  CHECK(h.rules == Rules::Lasker);
  CHECK(h.stats[1].positions() == 4);
  CHECK(h.file_size == std::filesystem::file_size(path));
  CHECK(h.data_offset() == header_bytes(h) + 6 * BlockIndexEntryBytes + 8);
  CHECK(header_bytes(h) == 232);  // 216 fixed + 2 + 3 + 2 + 8 = 231, rounded up to 232
}

TEST_CASE("a header without depths of one kind records -1", "[store]") {
  const SideStats stats = compute_stats(std::vector<uint16_t>{Score::draw().raw(), Score::invalid().raw()});
  CHECK(stats.max_depth(Rules::Lasker, Metric::Dtm) == SideStats::NoDepth);
  CHECK(stats.max_depth(Rules::Lasker, Metric::Dts) == SideStats::NoDepth);
  std::vector<uint16_t> many(300000, Score::draw().raw());
  many[12345] = Score(Lasker::Mates, 77).raw();
  many[54321] = Score::invalid().raw();
  const SideStats big = compute_stats(many);
  CHECK(big.max_depth(Rules::Lasker, Metric::Dtm) == 77);
  CHECK(big.values[2] == 299998);
  CHECK(big.invalid == 1);
}

TEST_CASE("compute_stats counts as add() does, entry by entry", "[store]") {
  // Odd and even lengths, runs of one score, scores that alternate (one score at every odd
  // entry only), and calls one after the other (the thread's histograms are reused).
  const std::array<uint16_t, 5> scores{Score::draw().raw(), Score::invalid().raw(),
                                       Score(Lasker::Mates, 9).raw(), Score(Lasker::Mated, 40).raw(),
                                       Score(Lasker::Stalemates, 3).raw()};
  std::vector<std::vector<uint16_t>> cases{
      {}, {scores[2]}, {scores[0], scores[2]}, {scores[3], scores[3], scores[4]}};
  for (const size_t period : {size_t{2}, size_t{3}})
    for (const size_t n : {size_t{7}, size_t{64}, size_t{1001}}) {
      std::vector<uint16_t> raw(n);
      for (size_t i = 0; i < n; ++i) raw[i] = scores[i % period];
      cases.push_back(raw);
    }
  std::mt19937 random(7);
  std::vector<uint16_t> mixed(40000);
  for (size_t i = 0; i < mixed.size(); ++i)
    mixed[i] = random() % 3 == 0 || i == 0 ? scores[random() % scores.size()] : mixed[i - 1];
  cases.push_back(mixed);
  for (const auto& raw : cases) {
    SideStats expected;
    for (uint16_t r : raw) expected.add(Score::from_raw(r));
    CHECK(compute_stats(raw) == expected);
  }
}

TEST_CASE("a Table round-trips through write_table and Table::load", "[store]") {
  const TempDir dir;
  const indexing::IndexScheme scheme(*Material::parse("KQk"));
  Table table(scheme.material(), Rules::Lasker, MetricSet{Metric::Dtm, Metric::Dts});
  CHECK(table.size() == scheme.size());
  CHECK(table.at(Color::White, 0).is_unknown());
  for (Color stm : {Color::White, Color::Black})
    for (indexing::Index i = 0; i < table.size(); ++i) table.set(stm, i, egtb::test::fake_score(i, stm));
  const auto path = write_table(dir.path(), table);
  CHECK(path == dir / "KQk.egtb");
  const auto loaded_table = Table::load(path);
  const Table& loaded = *loaded_table;
  CHECK(loaded.signature() == "KQk");
  CHECK(loaded.metrics() == MetricSet{Metric::Dtm, Metric::Dts});
  CHECK(loaded.generator() == generator_version());
  CHECK(loaded.size() == table.size());
  for (Color stm : {Color::White, Color::Black})
    CHECK(std::equal(loaded.raw(stm).begin(), loaded.raw(stm).end(), table.raw(stm).begin(),
                     table.raw(stm).end()));
  CHECK(read_header(path, TableRequirements::file_only()).index_scheme == indexing::IndexLayoutId);
}

TEST_CASE("Table::load refuses tables this program cannot index or that are not the one asked for",
          "[store]") {
  const TempDir dir;
  const std::vector<uint16_t> few(10, Score::draw().raw());
  SECTION("wrong number of entries") {
    write_table_file(dir / "KQk.egtb",
                     {"KQk",
                      Rules::Lasker,
                      {Metric::Dtm, Metric::Dts},
                      indexing::IndexLayoutId,
                      indexing::IndexLayoutVersion,
                      "t"},
                     {few, few});
    CHECK_THROWS_WITH(Table::load(dir / "KQk.egtb"), Catch::Contains("index scheme has"));
  }
  SECTION("another index scheme version") {
    write_table_file(dir / "KQk.egtb",
                     {"KQk",
                      Rules::Lasker,
                      {Metric::Dtm, Metric::Dts},
                      indexing::IndexLayoutId,
                      indexing::IndexLayoutVersion + 1,
                      "t"},
                     {few, few});
    CHECK_THROWS_WITH(
        Table::load(dir / "KQk.egtb"),
        Catch::Contains("rebuild it with: egtb generate KQk --force --dir " + dir.path().string()));
  }
  SECTION("an index order that is not one of the table's") {
    const indexing::IndexScheme kpk(*Material::parse("KPk"));
    const std::vector<uint16_t> draws(kpk.size(), Score::draw().raw());
    TableDescription d =
        TableDescription::of(kpk.material(), Rules::Lasker, {Metric::Dtm, Metric::Dts}, kpk.order());
    for (const uint32_t code :
         {0x0u, 0x11u, 0x13u, 0x312u}) {  // none, twice the kings, no group 2, three digits
      d.index_order = code;
      write_table_file(dir / "KPk.egtb", d, {draws, draws});
      CHECK_THROWS_WITH(Table::load(dir / "KPk.egtb"),
                        Catch::Contains("is not an order of KPk's index digits"));
    }
    d.index_order = 0x12;  // the pawn leading: "P Kk"
    write_table_file(dir / "KPk.egtb", d, {draws, draws});
    CHECK(Table::load(dir / "KPk.egtb")->scheme().order().str(kpk.material()) == "P Kk");
    d.index_version = 1;  // version 1 records no order
    write_table_file(dir / "KPk.egtb", d, {draws, draws});
    CHECK_THROWS_WITH(Table::load(dir / "KPk.egtb"),
                      Catch::Contains("an index order in index layout version 1"));
  }
  SECTION("a piece before the king pair") {
    const indexing::IndexScheme kqk(*Material::parse("KQk"));
    const std::vector<uint16_t> draws(kqk.size(), Score::draw().raw());
    TableDescription d =
        TableDescription::of(kqk.material(), Rules::Lasker, {Metric::Dtm, Metric::Dts}, kqk.order());
    d.index_order = 0x12;  // Q Kk
    write_table_file(dir / "KQk.egtb", d, {draws, draws});
    CHECK_THROWS_WITH(Table::load(dir / "KQk.egtb"),
                      Catch::Contains("is not an order of KQk's index digits"));
  }
  SECTION("a signature that is not canonical") {
    write_table_file(dir / "Kkq.egtb",
                     {"Kkq",
                      Rules::Lasker,
                      {Metric::Dtm, Metric::Dts},
                      indexing::IndexLayoutId,
                      indexing::IndexLayoutVersion,
                      "t"},
                     {few, few});
    CHECK_THROWS_AS(Table::load(dir / "Kkq.egtb"), FormatError);
  }
  SECTION("another signature than the one asked for") {
    const indexing::IndexScheme krk(*Material::parse("KRk"));
    const std::vector<uint16_t> draws(krk.size(), Score::draw().raw());
    write_table_file(
        dir / "KQk.egtb",
        TableDescription::of(krk.material(), Rules::Lasker, {Metric::Dtm, Metric::Dts}, krk.order()),
        {draws, draws});
    CHECK_NOTHROW(Table::load(dir / "KQk.egtb"));
    CHECK_THROWS_WITH(Table::load(dir / "KQk.egtb", {*Material::parse("Kkq"), Rules::Lasker, {}}),
                      Catch::Contains("holds the table KRk, not KQk"));
  }
  SECTION("fewer metrics than needed") {
    const indexing::IndexScheme kqk(*Material::parse("KQk"));
    const std::vector<uint16_t> draws(kqk.size(), Score::draw().raw());
    write_table_file(dir / "KQk.egtb",
                     TableDescription::of(kqk.material(), Rules::Lasker, MetricSet{Metric::Dtm}, kqk.order()),
                     {draws, draws});
    CHECK_THROWS_WITH(Table::load(dir / "KQk.egtb", {std::nullopt, Rules::Lasker, MetricSet{Metric::Dts}}),
                      Catch::Contains("holds dtm only") && Catch::Contains("rebuild it with"));
  }
  SECTION("metrics the rules do not solve in that combination, or unknown metric bits") {
    const indexing::IndexScheme kqk(*Material::parse("KQk"));
    const std::vector<uint16_t> draws(kqk.size(), Score::draw().raw());
    const auto path = dir / "KQk.egtb";
    write_table_file(path,
                     TableDescription::of(kqk.material(), Rules::Lasker, MetricSet{Metric::Dte}, kqk.order()),
                     {draws, draws});
    CHECK_THROWS_WITH(Table::load(path),
                      Catch::Contains(path.string()) &&
                          Catch::Contains("header: metrics dte, where a lasker table holds "
                                          "dtm or dtm,dts or dts (stalemates only)") &&
                          Catch::Contains("rebuild it with"));
    write_table_file(path, TableDescription::of(kqk.material(), Rules::Lasker, StalemateOnly, kqk.order()),
                     {draws, draws});
    CHECK(Table::load(path)->metrics() == StalemateOnly);
    write_table_file(
        path, TableDescription::of(kqk.material(), Rules::Lasker, all_metrics(Rules::Lasker), kqk.order()),
        {draws, draws});
    set_metric_bits(path, 0x2b);  // DTM, DTS, DTE and two bits no metric has
    CHECK_THROWS_WITH(Table::load(path), Catch::Contains(path.string()) &&
                                             Catch::Contains("header: unknown metric bits 0x28 (of 0x2b"));
    set_metric_bits(path, 0x3);
    CHECK_NOTHROW(Table::load(path));
  }
}

TEST_CASE("writing refuses unknown entries", "[store]") {
  const TempDir dir;
  const std::vector<uint16_t> entries = {Score::draw().raw(), Score::unknown().raw()};
  CHECK_THROWS_AS(write_table_file(dir / "KQk.egtb", description("KQk"), {entries, entries}),
                  std::invalid_argument);
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("describe() words a score", "[store]") {
  CHECK(describe(Score(Lasker::Mates, 19)) == "mates in 10 (DTM 19)");
  CHECK(describe(Score(Lasker::Stalemates, 41)) == "stalemates in 21 (DTS 41)");
  CHECK(describe(Score::draw()) == "draw");
  CHECK(describe(Score(Lasker::Stalemated, 8)) == "is stalemated (DTS 8)");
  CHECK(describe(Score(Lasker::Mated, 0)) == "is mated (DTM 0)");
  CHECK(describe(Score::invalid()) == "invalid");
  CHECK(describe(Score::unknown()) == "unknown");
  CHECK(to_string(MetricSet{Metric::Dtm, Metric::Dts}) == "dtm,dts");
  CHECK(to_string(MetricSet{Metric::Dtm}) == "dtm");
  CHECK(table_path("tables", *Material::parse("Kkq")) == std::filesystem::path("tables/KQk.egtb"));
}
