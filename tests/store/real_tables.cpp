#include "tests/store/real_tables.hpp"

#include "egtb/core/fen.hpp"
#include "egtb/core/symmetry.hpp"
#include "egtb/store/recompress.hpp"
#include "tests/support/catch.hpp"

namespace egtb::test {

std::filesystem::path tables_dir() {
  const std::filesystem::path dir = EGTB_TEST_TABLES;
  INFO(
      "the 3-4-man tables are built by the ctest fixture tables:setup-34 (ctest -R test_line runs it), or by "
      "egtb generate --all 4 --dir "
      << dir.string());
  REQUIRE(std::filesystem::exists(dir / "KPkp.egtb"));
  return dir;
}

const Tablebase& tables() {
  static const Tablebase tb(tables_dir(), TablebaseOptions{size_t{1} << 30});
  return tb;
}

Score probe_fen(const Tablebase& tb, const std::string& fen) {
  const auto pos = parse_fen(fen);
  INFO(fen << ": " << (pos ? "" : pos.error().message));
  REQUIRE(pos.has_value());
  const auto score = tb.probe(*pos);
  INFO((score ? "" : score.error().message));
  REQUIRE(score.has_value());
  return *score;
}

Position random_position(const indexing::IndexScheme& scheme, std::mt19937_64& rng) {
  Position pos;
  bool valid = false;
  while (!valid) valid = scheme.decode(rng() % scheme.size(), rng() % 2 ? Color::White : Color::Black, pos);
  const uint64_t symmetries = scheme.material().has_pawns() ? 2 : SymmetryCount;
  return apply(AllSymmetries[rng() % symmetries], pos);
}

std::filesystem::path recompressed_copy(const Material& m, const std::filesystem::path& dir,
                                        const WriteOptions& options) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = table_path(dir, m);
  std::filesystem::copy_file(table_path(tables_dir(), m), path);
  (void)recompress_table_file(path, options);
  return path;
}

std::array<std::vector<uint16_t>, 2> kings_first(const TableReader& reader) {
  return {reader.read_side_kings_first(Color::White), reader.read_side_kings_first(Color::Black)};
}

}  // namespace egtb::test
