// Orders of the index digits (indexing/index_order.hpp) on the real 3-4-man tables of the fixture
// tables_34: a file of index layout version 1 (the king pair leading, no order recorded), made here
// from each table with pawns, gives every position the score the generated file gives it, found
// through each file's own index scheme (IndexScheme::index_of of the decoded position, not by
// moving digits as entry_in does); and egtb recompress, choosing the order again, turns it back
// into the very bytes egtb generate wrote. A header edited to name another order is refused.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/order_choice.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index.hpp"
#include "indexing/index_order.hpp"
#include "tests/store/real_tables.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"
#include "tests/support/entries_in.hpp"

using namespace egtb;

namespace {

using indexing::Index;
using indexing::IndexScheme;

// Writes the entries of `table` (any order) as a file of index layout version 1 at `path`, with the
// table's own header fields and the default write options.
void write_first_layout(const Table& table, const std::filesystem::path& path) {
  const IndexScheme first(table.material());
  const auto sides = test::entries_in(table, first);
  TableDescription d = TableDescription::of(table.material(), table.rules(), table.metrics(), first.order());
  d.index_version = 1;
  d.index_order = 0;
  d.generator = table.generator();
  write_table_file(path, d, {sides[0], sides[1]});
}

}  // namespace

TEST_CASE(
    "a table of index layout version 1 holds every position's score, and recompresses to generate's file",
    "[tables]") {
  const test::TempDir dir;
  for (const char* signature : {"KPk", "KPkp", "KRkp", "KPPk", "KBPk", "KQkp"}) {
    INFO(signature);
    const Material m = *Material::parse(signature);
    const std::filesystem::path original = table_path(test::tables_dir(), m);
    const auto current = Table::load(original);
    const std::filesystem::path old = table_path(dir.path(), m);
    write_first_layout(*current, old);
    const auto first = Table::load(old);
    REQUIRE(first->scheme().same_layout(IndexScheme(m)));
    Position pos;
    uint64_t positions = 0;
    for (Color c : {Color::White, Color::Black})
      for (Index i = 0; i < current->size(); ++i) {
        if (!current->scheme().decode(i, c, pos)) continue;
        const auto j = first->scheme().index_of(pos);
        REQUIRE(j);
        if (*j != i) ++positions;  // the entry moved: generate chose another order
        REQUIRE(first->at(c, *j) == current->at(c, i));
      }
    CHECK((positions > 0) == !current->scheme().same_layout(first->scheme()));
    const RecompressResult r = recompress_table_file(old, {.level = DefaultCompressionLevel});
    CHECK(r.bytes_after == std::filesystem::file_size(original));
    CHECK(test::read_file(old) == test::read_file(original));
  }
}

TEST_CASE("tables paged by the solver keep the king pair leading, and smaller ones try every order",
          "[store]") {
  const auto orders_of = [](const char* signature) {
    std::vector<std::string> names;
    const Material m = *Material::parse(signature);
    for (const indexing::IndexOrder& o : writable_orders(m, OrderSet::Solvable)) names.push_back(o.str(m));
    return names;
  };
  // KRPk: 3.7 M entries per side, loaded whole when read as a subtable.
  CHECK(orders_of("KRPk") == std::vector<std::string>{"Kk R P", "Kk P R", "P Kk R"});
  // KRPkr: 333 M entries per side, above PagedTableEntries.
  REQUIRE(IndexScheme(*Material::parse("KRPkr")).size() > PagedTableEntries);
  const std::vector<std::string> krpkr = orders_of("KRPkr");
  CHECK(krpkr.size() == 3);  // "Kk R P r", "Kk R r P", "Kk P R r"
  for (const std::string& o : krpkr) CHECK(o.starts_with("Kk "));
  CHECK(std::find(krpkr.begin(), krpkr.end(), "Kk P R r") != krpkr.end());
  // Files for probes only may take every order.
  CHECK(writable_orders(*Material::parse("KRPkr"), OrderSet::Any).size() == 4);
  // Pawnless: one order whatever the size.
  CHECK(orders_of("KQRkr") == std::vector<std::string>{"Kk Q R r"});
}

// A header edited to another order its table may take (tables with pawns have several), its file
// checksum recomputed: the checksums all pass, but the blocks were written in the other order.
// Opening the table (probes) and verifying it (egtb info, egtb verify) refuse it, from the entries
// stored as invalid.
TEST_CASE("a header naming another index order than its blocks' is refused", "[store]") {
  for (const char* signature : {"KPk", "KRPk", "KPkp"}) {
    const Material material = *Material::parse(signature);
    const auto original = test::tables_dir() / (std::string(signature) + ".egtb");
    std::vector<uint8_t> bytes = test::read_file(original);
    TableHeader h = decode_header(
        std::span(bytes).first(decode_header_size(std::span(bytes).first(16), original)), original);
    const std::vector<BlockRef> blocks = decode_block_index(
        h, std::span(bytes).subspan(header_bytes(h), BlockIndexEntryBytes * h.block_count), original);
    const indexing::IndexOrder kept = *indexing::IndexOrder::from_code(h.index_order, material);
    int tampered = 0;
    for (const indexing::IndexOrder& other : indexing::IndexOrder::candidates(material)) {
      if (other.code() == kept.code()) continue;
      ++tampered;
      INFO(signature << ": " << other.str(material) << " in place of " << kept.str(material));
      h.index_order = other.code();
      const std::vector<uint8_t> preamble = encode_preamble(h, blocks);
      std::copy(preamble.begin(), preamble.end(), bytes.begin());
      const test::TempDir dir;
      const auto path = dir / (std::string(signature) + ".egtb");
      test::write_file(path, bytes);
      CHECK_NOTHROW(TableReader(path, TableRequirements::file_only()).verify_checksums());
      CHECK_THROWS_WITH(TableReader(path, {material, Rules::Lasker, {}}),
                        Catch::Contains("the header does not describe these blocks"));
      CHECK_THROWS_WITH(verify_file(path, TableRequirements::file_only()),
                        Catch::Contains("the header does not describe these blocks"));
      const Tablebase tb(dir.path());
      CHECK_THROWS_AS(tb.table(material), FormatError);
    }
    CHECK(tampered > 0);
  }
}
