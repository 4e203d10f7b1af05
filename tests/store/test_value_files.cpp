// Value files (egtb/store/value_file.hpp): the block forms of the header's worked example, every
// entry of real 3-4-man tables (fixture tables_34) against its table file, generated and filled,
// probes by position against the full probe, and damaged or tampered files refused.
#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include "egtb/core/fen.hpp"
#include "egtb/core/material.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/value_file.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;

namespace {

using Bytes = std::vector<uint8_t>;

// Copies the fixture's table of `m` into `dir` and writes its value file there.
std::filesystem::path value_file_of(const Material& m, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path table = table_path(dir, m);
  std::filesystem::copy_file(table_path(test::tables_dir(), m), table);
  return write_value_file(table).path;
}

// Checks that every valid entry of both sides reads in the value file as in the table file.
void check_every_entry(const TableReader& table, const ValueTable& values) {
  REQUIRE(values.scheme().same_layout(table.scheme()));
  for (const Color stm : {Color::White, Color::Black}) {
    const std::vector<uint16_t> scores = table.read_side(stm);
    uint64_t wrong = 0;
    for (uint64_t i = 0; i < scores.size(); ++i) {
      const Score s = Score::from_raw(scores[i]);
      if (s.is_valid() && values.at(stm, i) != s.value()) ++wrong;
    }
    CHECK(wrong == 0);
  }
}

uint64_t u64_at(const Bytes& bytes, size_t offset) {
  uint64_t v = 0;
  std::memcpy(&v, bytes.data() + offset, 8);
  return v;
}

uint32_t u32_at(const Bytes& bytes, size_t offset) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + offset, 4);
  return v;
}

// Where the parts of a value file lie (value_file.hpp): its header size H, block count n, the
// block offsets at H, the block checksums after them, the index checksum, and the data.
struct Layout {
  uint64_t blocks, offsets, sums, index_sum, data;
  explicit Layout(const Bytes& bytes)
      : blocks(u64_at(bytes, 56)),
        offsets(u32_at(bytes, 12)),
        sums(offsets + 4 * (blocks + 1)),
        index_sum(sums + 4 * blocks),
        data(index_sum + 8) {}
  // Where block b's bytes begin in the file.
  [[nodiscard]] uint64_t block(const Bytes& bytes, uint64_t b) const {
    return data + u32_at(bytes, offsets + 4 * b);
  }
};

// KRkr's value file written in a new directory, its bytes as written, and the file opened: for
// the tests that change it in place under the mapping.
struct MappedKRkr {
  test::TempDir dir;
  Material m = *Material::parse("KRkr");
  std::filesystem::path path = value_file_of(m, dir.path());
  Bytes good = test::read_file(path);
  Layout at{good};
  uint64_t block_entries = u32_at(good, 36);
  ValueTable values{path, {m, Rules::Lasker, {}}};

  // Writes `bytes` over the file from `offset` on, in place, the file's size kept.
  void write_in_place(uint64_t offset, std::string_view bytes) const {
    std::fstream out(path, std::ios::in | std::ios::out | std::ios::binary);
    out.seekp(static_cast<std::streamoff>(offset));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
};

// Rewrites every block checksum and the index checksum of a value file after an edit, as a
// tamperer would.
void reseal(const std::filesystem::path& path) {
  Bytes bytes = test::read_file(path);
  const Layout at(bytes);
  for (uint64_t b = 0; b < at.blocks; ++b) {
    const uint64_t begin = at.block(bytes, b);
    const uint64_t end = std::max(begin, at.block(bytes, b + 1));
    const auto sum = static_cast<uint32_t>(checksum_of(std::span(bytes).subspan(begin, end - begin)));
    std::memcpy(bytes.data() + at.sums + 4 * b, &sum, 4);
  }
  const uint64_t sum = checksum_of(std::span(bytes).first(at.index_sum));
  std::memcpy(bytes.data() + at.index_sum, &sum, 8);
  test::write_file(path, bytes);
}

// `bytes` with the 32-bit value at `offset` replaced by v.
Bytes with_u32(Bytes bytes, size_t offset, uint32_t v) {
  std::memcpy(bytes.data() + offset, &v, 4);
  return bytes;
}

}  // namespace

TEST_CASE("value blocks take the forms of the worked example") {
  const Bytes two = encode_value_block(Bytes{4, 4, 4, 4, 4, 4, 2, 2});
  CHECK(two == Bytes{0x07, 0x24, 0xc0});
  CHECK(value_in_block(two, 6) == 2);
  CHECK(value_in_block(two, 5) == 4);
  Bytes ten_six(10, 4);
  ten_six.resize(16, 2);
  const Bytes runs = encode_value_block(ten_six);
  CHECK(runs == Bytes{0x05, 0x31, 0x1b});
  for (uint32_t j = 0; j < 16; ++j) CHECK(value_in_block(runs, j) == ten_six[j]);
  CHECK(encode_value_block(Bytes(5, 3)) == Bytes{3});
  const Bytes five = {0, 1, 2, 3, 4, 4, 3, 2, 1, 0, 2};
  const Bytes base5 = encode_value_block(five);
  CHECK(base5[0] == 6);
  CHECK(!check_value_block(base5, 11));
  for (uint32_t j = 0; j < five.size(); ++j) CHECK(value_in_block(base5, j) == five[j]);
  Bytes four(64);
  for (size_t j = 0; j < four.size(); ++j) four[j] = static_cast<uint8_t>(j * 7 % 5 == 0 ? 0 : j % 3 + 1);
  const Bytes packed = encode_value_block(four);
  CHECK(packed[0] == 8);
  for (uint32_t j = 0; j < four.size(); ++j) CHECK(value_in_block(packed, j) == four[j]);
}

TEST_CASE("value blocks that are not what they say are refused") {
  CHECK(check_value_block(Bytes{}, 4).value() == "an empty block");
  CHECK(check_value_block(Bytes{10}, 4).value() == "unknown block form 10");
  CHECK(check_value_block(Bytes{2, 0}, 4).has_value());
  CHECK(check_value_block(Bytes{0x05}, 4).value() == "a block of runs without a run");
  // Runs are checked as they are read: an entry they do not reach is refused, never read past the
  // block's end (ten 4s and six 2s: entry 16 lies past them).
  const Bytes runs = {0x05, 0x31, 0x1b};
  CHECK(!check_value_block(runs, 17));
  CHECK(value_in_block(runs, 15) == 2);
  CHECK(value_in_block(runs, 16) == UnreachedValue);
  CHECK(value_in_block(Bytes{0x05, 0x31, 0x9b}, 12) == UnreachedValue);  // a token cut by the end
  CHECK(value_in_block(Bytes{0x05, 0x31, 0x9b}, 3) == 4);
  CHECK(value_in_block(Bytes{0x05, 0x80, 0x80, 0x80, 0x80, 0x00}, 0) == UnreachedValue);  // 5 bytes
  CHECK(check_value_block(Bytes{0x06, 125}, 3).value() == "a base-5 byte past 124");
  CHECK(check_value_block(Bytes{0x07, 0x25, 0x00}, 8).value() == "a palette value 5, past 4");
  CHECK(check_value_block(Bytes{0x08, 0, 1, 2, 7, 0}, 4).value() == "a palette value 7, past 4");
  CHECK(check_value_block(Bytes{0x07, 0x24, 0xc0}, 16).has_value());
  CHECK_THROWS_AS(encode_value_block(Bytes{5}), std::invalid_argument);
}

TEST_CASE("a pair grammar parses and reads back the blocks of the worked example") {
  const PairGrammar grammar({{4, 4}, {5, 5}, {6, 2}}, 8);
  CHECK(grammar.symbol_bits() == 3);
  CHECK(grammar.expand(7) == Bytes{4, 4, 4, 4, 2});
  const PairParser parser(grammar);
  const Bytes values = {4, 4, 4, 4, 2, 4, 4, 0};
  CHECK(parser.parse(values) == std::vector<uint16_t>{7, 5, 0});
  const Bytes pairs = encode_value_block(values, &parser);
  CHECK(pairs == Bytes{0x09, 0x2f, 0x00});
  CHECK(!check_value_block(pairs, 8, grammar));
  for (uint32_t j = 0; j < values.size(); ++j) CHECK(value_in_block(pairs, j, grammar) == values[j]);
  CHECK(encode_value_block(values)[0] == 6);  // without a grammar: Base 5, 4 bytes
}

TEST_CASE("blocks of pairs that are not what they say are refused") {
  const PairGrammar grammar({{4, 4}, {5, 5}}, 8);  // symbols below 7, 3 bits each
  // Symbols 6 6 ("4444 4444"): 8 values in 0b110110 = 0x36.
  CHECK(!check_value_block(Bytes{0x09, 0x36}, 8, grammar));
  CHECK(check_value_block(Bytes{0x09, 0x36}, 9, grammar).value().find("end before entry 8") !=
        std::string::npos);
  CHECK(value_in_block(Bytes{0x09, 0x36}, 8, grammar) == UnreachedValue);
  // Symbol 7 names no rule of two: refused, never read.
  CHECK(check_value_block(Bytes{0x09, 0x3e}, 8, grammar).has_value());
  CHECK(value_in_block(Bytes{0x09, 0x3e}, 5, grammar) == UnreachedValue);
  CHECK(value_in_block(Bytes{0x09, 0x3e}, 2, grammar) == 4);  // before it
  CHECK(check_value_block(Bytes{0x09, 0x36}, 6, grammar).value() ==
        "its symbols stand for 8 values, the block holds 6");
  CHECK(check_value_block(Bytes{0x09, 0x36}, 4, grammar).value() == "bits set after its last symbol");
  CHECK(check_value_block(Bytes{0x09, 0x36, 0x00}, 8, grammar).value().find("in 3 bytes, expected 2") !=
        std::string::npos);
  CHECK(check_value_block(Bytes{0x09, 0x76}, 8, grammar).value() == "bits set after its last symbol");
  CHECK(check_value_block(Bytes{0x09, 0x36}, 8).has_value());  // without the grammar, 6 is no symbol
  // A first read refuses the block as check_value_block does, though entry j lies before the fault.
  CHECK(checked_value_in_block(Bytes{0x09, 0x36}, 8, 7, grammar).value() == 4);
  for (const uint32_t j : {2u, 5u})  // before the unknown symbol 7 and in it
    CHECK(checked_value_in_block(Bytes{0x09, 0x3e}, 8, j, grammar).error() ==
          check_value_block(Bytes{0x09, 0x3e}, 8, grammar).value());
  CHECK(checked_value_in_block(Bytes{0x09, 0x36}, 6, 0, grammar).error() ==
        "its symbols stand for 8 values, the block holds 6");
  CHECK(checked_value_in_block(Bytes{0x09, 0x36}, 4, 3, grammar).error() == "bits set after its last symbol");
  CHECK(
      checked_value_in_block(Bytes{0x09, 0x36, 0x00}, 8, 1, grammar).error().find("in 3 bytes, expected 2") !=
      std::string::npos);
  CHECK(checked_value_in_block(Bytes{0x06, 125}, 3, 0).error() == "a base-5 byte past 124");
  CHECK(checked_value_in_block(Bytes{0x05, 0x31, 0x9b}, 13, 3).value() == 4);
  // Rules refer to symbols below their own and stand for a block's values at most.
  CHECK_THROWS_WITH(PairGrammar({{4, 5}}, 8), Catch::Contains("rule 0 (symbol 5) refers to symbol 5"));
  CHECK_THROWS_WITH(PairGrammar({{4, 4}, {5, 5}, {6, 6}}, 4), Catch::Contains("rule 2 stands for 8 values"));
  CHECK_THROWS_AS(PairGrammar(std::vector<PairRule>(PairGrammar::MaxRules + 1), 8), std::invalid_argument);
}

TEST_CASE("a learnt grammar reads back every block, and writes a repeated pattern once") {
  std::mt19937 rng(7);
  // Blocks of a pattern of 37 values repeated, each with a few values changed at random.
  Bytes pattern(37);
  for (uint8_t& v : pattern) v = static_cast<uint8_t>(rng() % 5);
  std::vector<Bytes> blocks(64, Bytes(1024));
  for (Bytes& block : blocks) {
    for (size_t j = 0; j < block.size(); ++j) block[j] = pattern[j % pattern.size()];
    for (int k = 0; k < 8; ++k) block[rng() % block.size()] = static_cast<uint8_t>(rng() % 5);
  }
  const PairGrammar grammar = PairGrammar::learn(blocks);
  CHECK(grammar.rules().size() > 30);
  CHECK(grammar.rules().size() <= PairGrammar::MaxRules);
  CHECK(PairGrammar::learn(blocks).rules().size() == grammar.rules().size());
  const PairParser parser(grammar);
  size_t pairs_bytes = 0;
  for (const Bytes& block : blocks) {
    const Bytes encoded = encode_value_block(block, &parser);
    REQUIRE(!check_value_block(encoded, static_cast<uint32_t>(block.size()), grammar));
    for (uint32_t j = 0; j < block.size(); ++j) REQUIRE(value_in_block(encoded, j, grammar) == block[j]);
    pairs_bytes += encoded.size();
  }
  // Base 5 takes 342 bytes a block; the grammar's symbols a tenth of that.
  CHECK(pairs_bytes < blocks.size() * 40);
}

namespace {

// A grammar of `rules` random rules, each standing for at most 64 values (symbols of
// bit_width(4 + rules) bits), and every symbol's values, expanded here rule by rule.
std::pair<PairGrammar, std::vector<Bytes>> random_grammar(uint32_t rules, std::mt19937& rng) {
  std::vector<PairRule> pairs;
  std::vector<Bytes> strings;
  for (uint8_t v = 0; v < PairGrammar::Values; ++v) strings.push_back({v});
  while (pairs.size() < rules) {
    const auto below = static_cast<uint32_t>(strings.size());
    PairRule rule{static_cast<uint16_t>(rng() % below), static_cast<uint16_t>(rng() % below)};
    if (strings[rule.left].size() + strings[rule.right].size() > 64)
      rule = {static_cast<uint16_t>(rng() % 5), 4};
    Bytes string = strings[rule.left];
    string.insert(string.end(), strings[rule.right].begin(), strings[rule.right].end());
    strings.push_back(string);
    pairs.push_back(rule);
  }
  return {PairGrammar(pairs, 64), strings};
}

// The symbols laid out as a block of Pairs: the form byte, then w bits a symbol, low bits first.
Bytes pairs_block(const std::vector<uint32_t>& symbols, int w) {
  Bytes block(1 + (symbols.size() * static_cast<size_t>(w) + 7) / 8);
  block[0] = 9;
  for (size_t k = 0; k < symbols.size(); ++k)
    for (int b = 0; b < w; ++b)
      if (symbols[k] >> b & 1) {
        const size_t bit = k * static_cast<size_t>(w) + static_cast<size_t>(b);
        block[1 + bit / 8] |= static_cast<uint8_t>(1u << (bit % 8));
      }
  return block;
}

}  // namespace

TEST_CASE("a block of pairs reads as its symbols walked one at a time, unknown symbols too") {
  std::mt19937 rng(11);
  // Symbols of 3, 4, 7 and 12 bits (every 12-bit number a symbol), blocks of 1 to 400 symbols,
  // some with a symbol the grammar does not know at a random place (reads from there on refused,
  // the block too), against the values each symbol expands to in turn: the groups of four symbols
  // pair_value sums, and the group holding an unknown one, at every place in a block and near its
  // end.
  for (const uint32_t rules : {0u, 5u, 100u, PairGrammar::MaxRules}) {
    const auto [grammar, strings] = random_grammar(rules, rng);
    const int w = grammar.symbol_bits();
    for (uint32_t symbol = 0; symbol < grammar.symbol_count(); ++symbol)
      REQUIRE(grammar.expand(symbol) == strings[symbol]);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<uint32_t> symbols(1 + rng() % 400);
      for (uint32_t& symbol : symbols) symbol = static_cast<uint32_t>(rng() % grammar.symbol_count());
      const bool unknown = grammar.symbol_count() < (1u << w) && trial % 3 == 0;
      const size_t at = rng() % symbols.size();
      if (unknown)
        symbols[at] =
            grammar.symbol_count() + static_cast<uint32_t>(rng() % ((1u << w) - grammar.symbol_count()));
      Bytes values;
      for (size_t k = 0; k < (unknown ? at : symbols.size()); ++k)
        values.insert(values.end(), strings[symbols[k]].begin(), strings[symbols[k]].end());
      const Bytes block = pairs_block(symbols, w);
      // Past the values only an unknown symbol refuses: zero bits after the last symbol may read as
      // symbols 0 (check_value_block refuses a block whose symbols stand for more than it holds).
      for (uint32_t j = 0; j < values.size() + (unknown ? 70 : 0); ++j)
        REQUIRE(value_in_block(block, j, grammar) == (j < values.size() ? values[j] : UnreachedValue));
      if (values.empty()) continue;
      const auto entries = static_cast<uint32_t>(values.size());
      const std::optional<std::string> problem = check_value_block(block, entries, grammar);
      CHECK(problem.has_value() == unknown);
      // A first read checks the whole block whichever entry it reads: first, last and 30 at random.
      for (int k = 0; k < 32; ++k) {
        const uint32_t j = k == 0 ? 0 : k == 1 ? entries - 1 : static_cast<uint32_t>(rng() % entries);
        const Expected<uint8_t, std::string> read = checked_value_in_block(block, entries, j, grammar);
        if (unknown)
          REQUIRE(read.error() == *problem);
        else
          REQUIRE(read.value() == values[j]);
      }
    }
  }
}

namespace {

// The blocks counted by form are every block of the file, and their bytes the file's data (the
// file less its header, block offsets, block checksums and index checksum); each block's form is
// its first byte's.
void check_contents(const ValueTable& values, const ValueFileContents& contents) {
  const TableHeader& h = values.header();
  uint64_t blocks = 0;
  uint64_t bytes = 0;
  for (size_t f = 0; f < ValueBlockForms.size(); ++f) {
    blocks += contents.blocks[f];
    bytes += contents.bytes[f];
    CHECK((contents.blocks[f] == 0) == (contents.bytes[f] == 0));
  }
  CHECK(blocks == h.block_count);
  const uint64_t header_bytes = values.file_bytes() - bytes - 4 * (2 * h.block_count + 1) - 8;
  CHECK(header_bytes % 8 == 0);
  CHECK(header_bytes >= 92 + 4 * uint64_t{contents.grammar_rules});
  CHECK(contents.symbol_bits == std::max(3, static_cast<int>(std::bit_width(4u + contents.grammar_rules))));
  CHECK((contents.grammar_rules > 0 || contents.blocks[value_block_form(9)] == 0));
}

}  // namespace

TEST_CASE("a value file reads every entry as its table, generated or filled", "[tables]") {
  const test::TempDir dir;
  for (const char* signature : {"KQk", "KPk", "KBNk", "KRkr", "KPkp", "KQkq", "KRkp", "KNNk", "KBPk"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    const std::filesystem::path path = value_file_of(m, dir / "generated");
    const TableReader table(table_path(test::tables_dir(), m));
    const ValueTable values(path, {m, Rules::Lasker, {}});
    CHECK(values.table_checksum() == table.header().checksum);
    CHECK(values.file_bytes() == std::filesystem::file_size(path));
    check_contents(values, values.check_every_block());
    check_every_entry(table, values);
  }
  // Filled files (their invalid entries stored as neighbours' values) of a table with pawns and
  // without: their value files skip the invalid entries as the generated files' do.
  for (const char* signature : {"KPk", "KBNk", "KRkp"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    const std::filesystem::path filled = table_path(dir / "filled", m);
    std::filesystem::create_directories(dir / "filled");
    std::filesystem::copy_file(table_path(test::tables_dir(), m), filled);
    (void)recompress_table_file(filled, {.level = 3, .orders = OrderSet::Any, .fill = true});
    const TableReader filled_table(filled);
    check_every_entry(filled_table, ValueTable(write_value_file(filled, 1024).path, {m, Rules::Lasker, {}}));
  }
}

TEST_CASE("Tablebase::probe_value answers the full probe's value on random positions", "[tables]") {
  const test::TempDir dir;
  std::mt19937_64 random(57);
  Tablebase tb(dir.path());
  for (const char* signature : {"KQk", "KRk", "KPk", "KBNk", "KRkr", "KPkp", "KQkq", "KRPk", "KBkn"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    (void)value_file_of(m, dir.path());
    const indexing::IndexScheme scheme(m);
    for (int k = 0; k < 2000; ++k) {
      Position pos = test::random_position(scheme, random);
      if (k % 2 == 1) pos = color_flipped(pos);
      const auto full = test::tables().probe(pos);
      const auto value = tb.probe_value(pos);
      REQUIRE(full.has_value());
      REQUIRE(value.has_value());
      CHECK(*value == full->value());
    }
  }
  CHECK(*tb.probe_value(*parse_fen("8/8/8/8/8/8/8/K6k w - - 0 1")) == Lasker::Draw);
  const auto missing = tb.probe_value(*parse_fen("8/8/8/8/8/8/1N6/K6k w - - 0 1"));
  REQUIRE(!missing.has_value());
  CHECK(missing.error().kind == ProbeError::Kind::MissingTable);
  CHECK(missing.error().message.find("egtb recompress KNk --value-files") != std::string::npos);
}

TEST_CASE("a damaged or tampered value file is refused, never misread", "[tables]") {
  const test::TempDir dir;
  const Material m = *Material::parse("KRkr");
  const std::filesystem::path path = value_file_of(m, dir.path());
  const Bytes good = test::read_file(path);
  const auto refused = [&](const std::string& expected) {
    try {
      const ValueTable values(path, {m, Rules::Lasker, {}});
      FAIL("opened a bad value file, expected: " << expected);
    } catch (const FormatError& e) {
      CHECK(std::string(e.what()).find(expected) != std::string::npos);
    }
    test::write_file(path, good);
  };
  // A malformed block opens (its structure is checked when a probe first reads it) but is refused
  // by the probe of any of its entries, every time; the file's other blocks still answer.
  const auto refused_at_probe = [&](const std::string& expected, uint64_t malformed, uint64_t sound,
                                    Color stm = Color::White) {
    const ValueTable values(path, {m, Rules::Lasker, {}});
    for (int twice = 0; twice < 2; ++twice) {
      try {
        (void)values.at(stm, malformed);
        FAIL("probed a malformed block, expected: " << expected);
      } catch (const FormatError& e) {
        CHECK(std::string(e.what()).find(expected) != std::string::npos);
      }
    }
    CHECK_NOTHROW((void)values.at(Color::White, sound));
    CHECK_THROWS_WITH(values.check_every_block(), Catch::Contains(expected));
    test::write_file(path, good);
  };

  const Layout at(good);
  const uint64_t block_entries = u32_at(good, 36);
  REQUIRE(at.blocks > 3);
  // A damaged header or block index is refused at opening; a damaged block at its first probe, by
  // its own checksum, while the other blocks answer.
  test::flip_byte(path, 40);  // the entries of White to move
  refused("checksum mismatch: the header or block index is damaged");
  test::flip_byte(path, at.sums + 4);  // block 1's checksum
  refused("checksum mismatch: the header or block index is damaged");
  test::flip_byte(path, at.block(good, 2) - 1);  // block 1's last byte
  refused_at_probe("block 1: checksum mismatch", block_entries, 0);
  test::flip_byte(path, good.size() - 1);  // the last block's last byte: Black's last entry
  refused_at_probe("block " + std::to_string(at.blocks - 1) + ": checksum mismatch", u64_at(good, 48) - 1, 0,
                   Color::Black);
  test::write_file(path, Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(good.size()) - 100));
  refused("cut short or damaged");
  test::write_file(path, Bytes(good.begin(), good.begin() + 20));
  refused("not a value file");
  test::write_file(path, test::read_file(table_path(test::tables_dir(), m)));
  refused("not a value file");

  // Edits a tamperer seals with fresh checksums.
  test::flip_byte(path, at.data);  // the first block's form
  reseal(path);
  refused_at_probe("block 0: ", 0, block_entries);
  test::flip_byte(path, 8);  // the version
  reseal(path);
  refused("value file version");
  test::flip_byte(path, 8);
  reseal(path);
  refused("(write it again with: egtb recompress KRkr --dir " + dir.path().string() + " --value-files)");
  test::flip_byte(path, 42);  // the entries of White to move
  reseal(path);
  refused("blocks for");
  test::write_file(
      path, with_u32(good, at.offsets + 4, u32_at(good, at.offsets + 8)));  // block 1 at block 2's offset
  reseal(path);
  refused("block 1: an empty or overlapping block");
  test::write_file(path,
                   with_u32(good, at.offsets + 4, u32_at(good, at.offsets + 4) + 1));  // block 1 a byte later
  reseal(path);
  refused_at_probe("block 0: ", 0, 2 * block_entries);
  // A block of pairs whose first symbol is one the grammar lacks (all bits set: the grammar's R
  // rules at byte 88, after "KRkr", leave it unknown): any of its entries is refused, the next block
  // still answers.
  const uint32_t rules = u32_at(good, 88);
  const auto width = static_cast<int>(std::bit_width(4u + rules));
  REQUIRE((uint32_t{1} << width) - 1 > 4 + rules);
  uint64_t pairs_block = 0;
  while (good[at.block(good, pairs_block)] != 9) ++pairs_block;
  REQUIRE(pairs_block + 1 < u64_at(good, 40) / block_entries);  // one of White's blocks, all full
  Bytes unknown = good;
  const uint64_t first = at.block(good, pairs_block) + 1;
  for (int bit = 0; bit < width; ++bit)
    unknown[first + static_cast<uint64_t>(bit / 8)] |= static_cast<uint8_t>(1u << (bit % 8));
  test::write_file(path, unknown);
  reseal(path);
  refused_at_probe("block " + std::to_string(pairs_block) + ": its symbols end before entry " +
                       std::to_string(block_entries - 1) + " or name no rule of the " + std::to_string(rules),
                   pairs_block * block_entries + block_entries / 2, (pairs_block + 1) * block_entries);
  // A rule that refers to itself, or more rules than the header holds, is refused at opening.
  test::write_file(path, with_u32(good, 92, 5 | 4u << 16));  // rule 0: (5, 4)
  reseal(path);
  refused("header: grammar: rule 0 (symbol 5) refers to symbol 5, not below its own");
  test::write_file(path, with_u32(good, 88, 4000));
  reseal(path);
  refused("header: a grammar of 4000 rules");
  test::flip_byte(path, 82);  // the signature's first letter
  reseal(path);
  refused("signature");

  std::filesystem::copy_file(path, dir / "KQk.egv");
  Tablebase tb(dir.path());
  CHECK_THROWS_AS((void)tb.probe_value(*parse_fen("8/8/8/8/8/8/1Q6/K6k w - - 0 1")), FormatError);
}

// A value file cut short in place while mapped (`cp` over it leaves it so at first) loses the pages
// past its new end, and touching one raises SIGBUS: a probe of a block read before and one never
// read both fail with IoError naming the file and the block, and the process goes on.
TEST_CASE("a value file cut short in place while mapped fails its probes, the process goes on", "[tables]") {
  const test::TempDir dir;
  const Material m = *Material::parse("KRkr");
  const std::filesystem::path path = value_file_of(m, dir.path());
  const ValueTable values(path, {m, Rules::Lasker, {}});
  const uint64_t last = values.header().entries[1] - 1;  // Black's last entry: the last block
  const uint64_t last_block = values.header().block_count - 1;
  REQUIRE_NOTHROW((void)values.at(Color::White, 0));
  std::filesystem::resize_file(path, 0);
  const auto fails_cut_short = [&](Color stm, uint64_t index, uint64_t block) {
    try {
      (void)values.at(stm, index);
      FAIL("probed a value file cut short in place");
    } catch (const IoError& e) {
      const std::string message = e.what();
      for (const std::string& part : {path.string(), "block " + std::to_string(block) + ":",
                                      std::string("cut short"), std::string("renaming")})
        CHECK(message.find(part) != std::string::npos);
    }
  };
  fails_cut_short(Color::White, 0, 0);              // its block checked and read before
  fails_cut_short(Color::Black, last, last_block);  // never read
  CHECK_THROWS_AS(values.check_every_block(), IoError);
  CHECK_THROWS_WITH(ValueTable(path, {m, Rules::Lasker, {}}), Catch::Contains("not a value file"));

  // Through a Tablebase that mapped it before the cut, its probes fail the same way.
  const test::TempDir other;
  const std::filesystem::path kept = value_file_of(m, other.path());
  Tablebase tb(other.path());
  const Position pos = *parse_fen("8/8/8/8/8/2r5/1R6/K6k w - - 0 1");
  REQUIRE(tb.probe_value(pos).has_value());
  std::filesystem::resize_file(kept, 0);
  CHECK_THROWS_WITH((void)tb.probe_value(pos), Catch::Contains("cut short"));
}

// A value file rewritten in place at its size while mapped (`cp` of another file of that size over
// it) changes a block under the mapping after the block was checked: whatever the new bytes, a probe
// reads none past the block and answers 0 to 4 or fails with FormatError naming the block.
TEST_CASE("a value file rewritten in place while mapped is never read past a block or past 4", "[tables]") {
  const MappedKRkr f;
  const uint64_t white_blocks = u64_at(f.good, 40) / f.block_entries;
  // One of White's full blocks of at least 3 bytes but fewer than Two's 2 + entries / 8.
  uint64_t b = 0;
  const auto size_of = [&](uint64_t k) { return f.at.block(f.good, k + 1) - f.at.block(f.good, k); };
  while (b < white_blocks && (size_of(b) < 3 || size_of(b) >= 2 + f.block_entries / 8)) ++b;
  REQUIRE(b < white_blocks);
  const uint64_t first = b * f.block_entries;
  const uint64_t last = first + f.block_entries - 1;
  REQUIRE_NOTHROW((void)f.values.at(Color::White, first));  // checks the block
  // Form Two, palette (15, 15): entry 0 reads 15; the last entry's byte lies past the block.
  f.write_in_place(f.at.block(f.good, b), "\x07\xff");
  REQUIRE(std::filesystem::file_size(f.path) == f.good.size());
  const std::string name = "block " + std::to_string(b) + ": ";
  CHECK_THROWS_WITH(f.values.at(Color::White, first), Catch::Contains(name + "entry 0 reads 15, past 4"));
  CHECK_THROWS_WITH(f.values.at(Color::White, last), Catch::Contains(name + "its bytes end before entry " +
                                                                     std::to_string(f.block_entries - 1)));
}

// A probe reads its block's offsets in the mapping, each time: when the block index is rewritten in
// place while mapped, offsets that no longer place a block inside the data fail the probe with a
// FormatError naming the block, whether the block was read before or never, and a changed checksum
// fails the block's first read.
TEST_CASE("a value file whose block index is rewritten in place fails its probes, never reads outside",
          "[tables]") {
  const MappedKRkr f;
  const Lasker first = f.values.at(Color::White, 0);  // block 0, read and checked
  const auto write_u32 = [&](uint64_t offset, uint32_t value) {
    f.write_in_place(offset, std::string_view(reinterpret_cast<const char*>(&value), sizeof value));
  };
  const auto refused = [&](uint64_t index, uint64_t block, const std::string& why) {
    CHECK_THROWS_WITH(f.values.at(Color::White, index),
                      Catch::Contains(f.path.string()) &&
                          Catch::Contains("block " + std::to_string(block) + ":") && Catch::Contains(why));
  };
  const std::string moved = "no longer places it inside the data";
  const uint64_t data_bytes = f.good.size() - f.at.data;
  // Block 0 ends past the data; then block 1 begins where it ends (empty), then after its end.
  write_u32(f.at.offsets + 4, static_cast<uint32_t>(data_bytes + 1));
  refused(0, 0, moved);
  write_u32(f.at.offsets + 4, u32_at(f.good, f.at.offsets + 8));
  refused(f.block_entries, 1, moved);
  write_u32(f.at.offsets + 4, u32_at(f.good, f.at.offsets + 8) + 1);
  refused(f.block_entries, 1, moved);
  write_u32(f.at.offsets + 4, u32_at(f.good, f.at.offsets + 4));
  CHECK(f.values.at(Color::White, 0) == first);  // the index as it was
  // Block 2's checksum changed before its first read.
  write_u32(f.at.sums + 8, u32_at(f.good, f.at.sums + 8) ^ 1);
  refused(2 * f.block_entries, 2, "checksum mismatch");
  // Opened again, the changed index no longer matches the index checksum.
  CHECK_THROWS_WITH(ValueTable(f.path, {f.m, Rules::Lasker, {}}), Catch::Contains("checksum mismatch"));
}
