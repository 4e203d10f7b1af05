// Probing a directory of hand-built tables by FEN, in both colour orientations and under every
// board symmetry; error reports; the block cache limit; concurrent probes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include "egtb/core/fen.hpp"
#include "egtb/core/symmetry.hpp"
#include "egtb/store/block_cache.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/tablebase.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::fake_score;
using egtb::test::TempDir;
using indexing::Index;

namespace {

constexpr uint32_t TestBlockEntries = 1024;

// Writes `<dir>/<signature>.egtb` whose entry i scores fake_score(i + shift, stm), in blocks of
// `block_entries`.
indexing::IndexScheme write_fake_table(const TempDir& dir, const std::string& signature, Index shift = 0,
                                       uint32_t block_entries = TestBlockEntries) {
  const indexing::IndexScheme scheme(*Material::parse(signature));
  Table table(scheme.material());
  for (Color stm : {Color::White, Color::Black})
    for (Index i = 0; i < table.size(); ++i) table.set(stm, i, fake_score(i + shift, stm));
  WriteOptions options;
  options.block_entries = block_entries;
  write_table(dir.path(), table, options);
  return scheme;
}

// The FEN of the position of entry i, or "" for an invalid entry.
std::string fen_at(const indexing::IndexScheme& scheme, Index i, Color stm) {
  const auto pos = scheme.position_at(i, stm);
  return pos ? to_fen(*pos) : std::string();
}

Score probe_fen(const Tablebase& tb, const std::string& fen) {
  const auto pos = parse_fen(fen);
  REQUIRE(pos.has_value());
  const auto score = tb.probe(*pos);
  INFO(fen << ": " << (score ? "" : score.error().message));
  REQUIRE(score.has_value());
  return *score;
}

// Valid entries spread over the whole table, for both sides to move. Only entries that are the
// index of their own position: with both kings on the a1-h8 diagonal a position and its mirror
// image have an entry each (the Nalimov convention) and probes find the first of the two.
std::vector<std::pair<Index, Color>> sample_entries(const indexing::IndexScheme& scheme, int count,
                                                    uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<Index, Color>> out;
  while (static_cast<int>(out.size()) < count) {
    const Index i = rng() % scheme.size();
    const Color stm = rng() % 2 ? Color::Black : Color::White;
    const auto pos = scheme.position_at(i, stm);
    if (pos && scheme.index_of(*pos) == i) out.emplace_back(i, stm);
  }
  return out;
}

ProbeError probe_error(const Tablebase& tb, const Position& pos) {
  const auto result = tb.probe(pos);
  REQUIRE_FALSE(result.has_value());
  CHECK_FALSE(tb.try_probe(pos).has_value());
  return result.error();
}

}  // namespace

TEST_CASE("probing by FEN finds each entry in every orientation", "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const Tablebase tb(dir.path());
  for (const auto& [i, stm] : sample_entries(scheme, 300, 51)) {
    const Score expected = fake_score(i, stm);
    const Position pos = *scheme.position_at(i, stm);
    CAPTURE(to_fen(pos));
    CHECK(probe_fen(tb, to_fen(pos)) == expected);
    // With both kings on the a1-h8 diagonal, some images reach the mirror entry instead (equal to
    // this one in a real table only).
    if (indexing::on_diagonal(pos.king_square(Color::White)) &&
        indexing::on_diagonal(pos.king_square(Color::Black)))
      continue;
    for (Symmetry s : AllSymmetries) {
      const Position image = apply(s, pos);
      CHECK(probe_fen(tb, to_fen(image)) == expected);
      CHECK(probe_fen(tb, to_fen(color_flipped(image))) == expected);  // a Kkq position
    }
  }
}

// KPkp is its own colour flip: a flipped position is another entry of the same table (holding
// the same value in a real table, another fake score here), so only the file mirror is checked.
TEST_CASE("tables with pawns are probed under the file mirror and with e.p. squares", "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KPkp");
  REQUIRE(scheme.ep_size() > 0);
  const Tablebase tb(dir.path());
  int ep_positions = 0;
  for (const auto& [i, stm] : sample_entries(scheme, 300, 52)) {
    const Position pos = *scheme.position_at(i, stm);
    CAPTURE(to_fen(pos));
    CHECK(probe_fen(tb, to_fen(pos)) == fake_score(i, stm));
    CHECK(probe_fen(tb, to_fen(apply(Symmetry::FlipFiles, pos))) == fake_score(i, stm));
  }
  std::mt19937_64 rng(53);
  while (ep_positions < 50) {
    const Index i = scheme.normal_size() + rng() % scheme.ep_size();
    const Color stm = rng() % 2 ? Color::Black : Color::White;
    const std::string fen = fen_at(scheme, i, stm);
    if (fen.empty()) continue;
    ++ep_positions;
    CAPTURE(fen);
    REQUIRE(parse_fen(fen)->ep_square() != Square::None);
    CHECK(probe_fen(tb, fen) == fake_score(i, stm));
    CHECK(probe_fen(tb, to_fen(apply(Symmetry::FlipFiles, *parse_fen(fen)))) == fake_score(i, stm));
  }
}

TEST_CASE("a pawn table is probed through its colour flip", "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KPk");
  const Tablebase tb(dir.path());
  for (const auto& [i, stm] : sample_entries(scheme, 200, 54)) {
    const Position flipped = color_flipped(*scheme.position_at(i, stm));
    CHECK(Material::from(flipped).str() == "Kkp");
    CHECK(probe_fen(tb, to_fen(flipped)) == fake_score(i, stm));
  }
}

TEST_CASE("probe errors say what is wrong and how to fix it", "[store]") {
  const TempDir dir;
  write_fake_table(dir, "KQk");
  const Tablebase tb(dir.path());
  SECTION("a missing table, in either orientation") {
    for (const char* fen : {"k7/8/8/8/8/8/8/KR6 w - - 0 1", "kr6/8/8/8/8/8/8/K7 b - - 0 1"}) {
      const ProbeError e = probe_error(tb, *parse_fen(fen));
      CHECK(e.kind == ProbeError::Kind::MissingTable);
      CHECK(e.table == "KRk");
      CHECK_THAT(e.message,
                 Catch::Contains((dir / "KRk.egtb").string()) && Catch::Contains("egtb generate KRk"));
    }
    CHECK_FALSE(tb.has_table(*Material::parse("KRk")));
    CHECK(tb.has_table(*Material::parse("Kkq")));
  }
  SECTION("too many men") {
    const ProbeError e = probe_error(tb, *parse_fen("8/8/8/8/8/8/PPPPP3/K6k w - - 0 1"));
    CHECK(e.kind == ProbeError::Kind::TooManyMen);
    CHECK(e.message == "the position has 7 men; tables exist for at most 6");
  }
  SECTION("castling rights") {
    const ProbeError e = probe_error(tb, *parse_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1"));
    CHECK(e.kind == ProbeError::Kind::Castling);
    CHECK_THAT(e.message, Catch::Contains("castling rights (K)"));
  }
  SECTION("an invalid position") {
    Position pos;
    pos.put_piece(make_piece(Color::White, PieceType::King), Square::A1);
    pos.put_piece(make_piece(Color::White, PieceType::Queen), Square::A8);
    pos.put_piece(make_piece(Color::Black, PieceType::King), Square::H8);
    const ProbeError e = probe_error(tb, pos);  // Black, not to move, is in check
    CHECK(e.kind == ProbeError::Kind::InvalidPosition);
    CHECK_THAT(e.message, Catch::StartsWith("invalid position: "));
  }
  SECTION("a position without a king") {
    Position pos;
    pos.put_piece(make_piece(Color::White, PieceType::King), Square::A1);
    pos.put_piece(make_piece(Color::White, PieceType::Queen), Square::D4);
    const ProbeError e = probe_error(tb, pos);
    CHECK(e.kind == ProbeError::Kind::InvalidPosition);
    CHECK(e.message == "invalid position: Black has no king");
  }
  SECTION("bare kings are a draw without a table") {
    CHECK(tb.probe(*parse_fen("8/8/8/4k3/8/8/8/K7 b - - 0 1")).value() == Score::draw());
  }
}

TEST_CASE("tables are read from several directories, each from the first that has it", "[store]") {
  const TempDir first;
  const TempDir second;
  const auto kqk = write_fake_table(first, "KQk");
  const auto kpk = write_fake_table(second, "KPk");
  Table draws(kqk.material());  // a KQk in the second directory that the first one's hides
  for (Color stm : {Color::White, Color::Black})
    for (Index i = 0; i < draws.size(); ++i) draws.set(stm, i, Score::draw());
  write_table(second.path(), draws, {});
  Tablebase tb(first.path());
  const auto [i, stm] = sample_entries(kpk, 1, 70).front();
  const Position pawn_position = *kpk.position_at(i, stm);
  CHECK(probe_error(tb, pawn_position).kind == ProbeError::Kind::MissingTable);

  tb.add_directory(second.path());
  CHECK(tb.directories() == std::vector{first.path(), second.path()});
  CHECK(tb.directory() == first.path());
  CHECK(probe_fen(tb, to_fen(pawn_position)) == fake_score(i, stm));
  CHECK(tb.table_path(*Material::parse("Kkp")) == second / "KPk.egtb");
  CHECK(tb.table_path(*Material::parse("KQk")) == first / "KQk.egtb");
  for (const auto& [j, side] : sample_entries(kqk, 50, 71))
    CHECK(probe_fen(tb, to_fen(*kqk.position_at(j, side))) == fake_score(j, side));

  const ProbeError missing = probe_error(tb, *parse_fen("k7/8/8/8/8/8/8/KR6 w - - 0 1"));
  CHECK(missing.message == "no table for KRk: KRk.egtb is in none of the directories " +
                               first.path().string() + ", " + second.path().string() +
                               " (build it with: egtb generate KRk --dir " + first.path().string() + ")");
  CHECK(tb.table_path(*Material::parse("KRk")) == first / "KRk.egtb");  // where it is to be built
  CHECK_THROWS_AS(tb.add_directory(first / "KQk.egtb"), IoError);
  CHECK(tb.directories().size() == 2);
}

TEST_CASE("a directory added while other threads probe serves them from then on", "[store]") {
  const TempDir first;
  const TempDir second;
  write_fake_table(first, "KQk");
  const auto kpk = write_fake_table(second, "KPk");
  Tablebase tb(first.path());
  const auto entries = sample_entries(kpk, 200, 72);
  std::atomic<bool> added{false};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      for (int round = 0; round < 20; ++round)
        for (const auto& [i, stm] : entries) {
          const bool after = added;  // read before the probe: a probe after the add must find KPk
          const auto score = tb.probe(*kpk.position_at(i, stm));
          if (score ? *score != fake_score(i, stm)
                    : after || score.error().kind != ProbeError::Kind::MissingTable)
            ++wrong;
        }
    });
  tb.add_directory(second.path());
  added = true;
  for (auto& t : threads) t.join();
  CHECK(wrong == 0);
}

TEST_CASE("a damaged or mismatched table throws from probe", "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const Position pos =
      *scheme.position_at(sample_entries(scheme, 1, 55)[0].first, sample_entries(scheme, 1, 55)[0].second);
  SECTION("a damaged block") {
    const TableReader reader(dir / "KQk.egtb", TableRequirements::file_only());
    const uint64_t block = reader.block_of(pos.side_to_move(), *scheme.index_of(pos));
    egtb::test::flip_byte(dir / "KQk.egtb", reader.block_ref(block).offset + 1);
    const Tablebase tb(dir.path());
    CHECK_THROWS_WITH(tb.probe(pos),
                      Catch::Contains("KQk.egtb") && Catch::Contains("block " + std::to_string(block)));
    CHECK_THROWS_AS(tb.try_probe(pos), FormatError);
  }
  SECTION("a table under another signature's name") {
    write_fake_table(dir, "KRk");
    std::filesystem::rename(dir / "KRk.egtb", dir / "KQk.egtb");
    const Tablebase tb(dir.path());
    CHECK_THROWS_AS(tb.probe(pos), FormatError);
  }
  SECTION("an entry marked invalid for a legal position") {
    const Index i = *scheme.index_of(pos);
    Table table(scheme.material());
    for (Color stm : {Color::White, Color::Black})
      for (Index j = 0; j < table.size(); ++j) table.set(stm, j, fake_score(j, stm));
    table.set(pos.side_to_move(), i, Score::invalid());
    write_table(dir.path(), table);
    const Tablebase tb(dir.path());
    // Found when the probe reads it, or at opening when it lies in the first block of its side.
    CHECK_THROWS_WITH(tb.probe(pos), Catch::Contains("is marked invalid") ||
                                         Catch::Contains("is stored as invalid but holds a position"));
  }
}

// A file renamed over an open one leaves the open one readable (its blocks still match); one
// rewritten in place fails its checksums, and the Tablebase opens it again.
TEST_CASE("a table replaced, rewritten or removed under an open Tablebase: probes read the file there",
          "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const auto entries = sample_entries(scheme, 300, 77);
  TablebaseOptions options;  // the default cache, which keeps every block probed
  options.file_check_interval = std::chrono::milliseconds(0);
  const Tablebase tb(dir.path(), options);
  const auto check_probes = [&](Index shift) {
    for (const auto& [i, stm] : entries)
      REQUIRE(probe_fen(tb, fen_at(scheme, i, stm)) == fake_score(i + shift, stm));
  };
  check_probes(0);
  REQUIRE(tb.cache_stats().blocks > 0);
  const TempDir other;
  write_fake_table(other, "KQk", 1, 3 * TestBlockEntries);  // other scores in other blocks
  SECTION("rewritten in place (cp over it: the same inode)") {
    const std::vector<uint8_t> bytes = egtb::test::read_file(other / "KQk.egtb");
    std::ofstream out(dir / "KQk.egtb", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    check_probes(1);
  }
  SECTION("replaced (another file renamed over it)") {
    std::filesystem::rename(other / "KQk.egtb", dir / "KQk.egtb");
    check_probes(1);
    CHECK_FALSE(tb.table(scheme.material())->file_changed());
  }
  SECTION("removed: a missing table") {
    std::filesystem::remove(dir / "KQk.egtb");
    const auto [i, stm] = entries[0];
    CHECK(probe_error(tb, *scheme.position_at(i, stm)).kind == ProbeError::Kind::MissingTable);
    CHECK(tb.table(scheme.material()) == nullptr);
  }
}

// The table file is mapped: a probe that reads a block the file no longer has fails (the read's
// guard catches the SIGBUS), and the Tablebase opens the file again, which is refused while empty.
TEST_CASE("a table cut short in place under an open Tablebase: a failed probe, then the file again",
          "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const std::vector<uint8_t> bytes = egtb::test::read_file(dir / "KQk.egtb");
  TablebaseOptions options;
  options.file_check_interval = std::chrono::hours(1);  // only a failed read compares the file
  const Tablebase tb(dir.path(), options);
  const auto entries = sample_entries(scheme, 2, 79);
  REQUIRE(entries[0].first / TestBlockEntries != entries[1].first / TestBlockEntries);
  const std::string opened = fen_at(scheme, entries[0].first, entries[0].second);
  const std::string unread = fen_at(scheme, entries[1].first, entries[1].second);
  REQUIRE(probe_fen(tb, opened) == fake_score(entries[0].first, entries[0].second));
  std::filesystem::resize_file(dir / "KQk.egtb", 0);  // in place, as `cp` over it begins
  CHECK_THROWS_WITH(tb.probe(*parse_fen(unread)), Catch::Contains("truncated"));
  std::ofstream out(dir / "KQk.egtb", std::ios::binary | std::ios::trunc);  // and ends
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  CHECK(probe_fen(tb, unread) == fake_score(entries[1].first, entries[1].second));
}

TEST_CASE("an open table's file is compared with the one opened at most every file_check_interval",
          "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const auto [i, stm] = sample_entries(scheme, 1, 78)[0];
  const std::string fen = fen_at(scheme, i, stm);
  TablebaseOptions hourly;
  hourly.file_check_interval = std::chrono::hours(1);
  TablebaseOptions often;
  often.file_check_interval = std::chrono::milliseconds(100);
  const Tablebase late(dir.path(), hourly);
  const Tablebase soon(dir.path(), often);
  CHECK(probe_fen(late, fen) == fake_score(i, stm));
  CHECK(probe_fen(soon, fen) == fake_score(i, stm));
  const TempDir other;
  write_fake_table(other, "KQk", 1);
  std::filesystem::rename(other / "KQk.egtb", dir / "KQk.egtb");
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  CHECK(probe_fen(soon, fen) == fake_score(i + 1, stm));
  CHECK(probe_fen(late, fen) == fake_score(i, stm));  // not compared yet: the old file's block
}

// Its memory lives as long as a block does: a thread's recent blocks (table.hpp) hold blocks after
// their Tablebase and its cache are gone.
TEST_CASE("a block decoded into the cache's memory outlives the cache", "[store]") {
  BlockCache::Block kept;
  {
    BlockCache cache(size_t{1} << 20, BlockCache::Memory::HugePagePool);
    kept = cache.find_or_load({0, 0}, [](BlockEntries& out) { out.assign(1000, 7); });
    for (uint64_t b = 1; b < 100; ++b)  // 2 MB, more than the cache holds: the oldest go
      (void)cache.find_or_load({0, b},
                               [&](BlockEntries& out) { out.assign(10000, static_cast<uint16_t>(b)); });
    REQUIRE(cache.find({0, 0}) == nullptr);
  }
  REQUIRE(kept->size() == 1000);
  CHECK(std::all_of(kept->begin(), kept->end(), [](uint16_t s) { return s == 7; }));
}

TEST_CASE("the LRU block cache keeps within its byte limit", "[store]") {
  const std::vector<uint16_t> entries(1000);
  const size_t block_bytes = BlockCache::charge(entries);
  BlockCache cache(3 * block_bytes);
  auto block = [&] { return std::make_shared<const BlockEntries>(entries.begin(), entries.end()); };
  for (uint64_t b = 0; b < 3; ++b) cache.insert({0, b}, block());
  CHECK(cache.find({0, 0}) != nullptr);  // 0 becomes the most recently used: 1 is the oldest
  cache.insert({0, 3}, block());
  CHECK(cache.find({0, 1}) == nullptr);
  CHECK(cache.find({0, 0}) != nullptr);
  CHECK(cache.find({0, 2}) != nullptr);
  CHECK(cache.find({0, 3}) != nullptr);
  CHECK(cache.find({1, 0}) == nullptr);  // same block number, another table
  const BlockCache::Stats s = cache.stats();
  CHECK(s.blocks == 3);
  CHECK(s.bytes == 3 * block_bytes);
  CHECK(s.evictions == 1);
  CHECK(s.hits == 4);
  CHECK(s.misses == 2);
  BlockCache tiny(block_bytes - 1);  // a block larger than the whole cache is not kept
  tiny.insert({0, 0}, block());
  CHECK(tiny.stats().blocks == 0);
}

TEST_CASE("a Tablebase's cache stays within the caller's limit", "[store]") {
  const TempDir dir;
  const auto scheme = write_fake_table(dir, "KQk");
  const size_t block_bytes = BlockCache::charge(std::vector<uint16_t>(TestBlockEntries));
  TablebaseOptions options;
  options.cache_bytes = 5 * block_bytes;
  const Tablebase tb(dir.path(), options);
  for (const auto& [i, stm] : sample_entries(scheme, 400, 56)) {
    REQUIRE(tb.probe(*scheme.position_at(i, stm)).value() == fake_score(i, stm));
    REQUIRE(tb.cache_stats().bytes <= options.cache_bytes);
  }
  const auto s = tb.cache_stats();
  CHECK(s.blocks == 5);
  CHECK(s.misses > 50);
  const Position pos =
      *scheme.position_at(sample_entries(scheme, 1, 57)[0].first, sample_entries(scheme, 1, 57)[0].second);
  (void)tb.probe(pos);
  const uint64_t misses = tb.cache_stats().misses;
  (void)tb.probe(pos);
  CHECK(tb.cache_stats().misses == misses);  // served by this thread's recent blocks or the cache
}

TEST_CASE("concurrent probes from several threads agree with the table", "[store]") {
  const TempDir dir;
  const auto kqk = write_fake_table(dir, "KQk");
  const auto kpk = write_fake_table(dir, "KPk");
  TablebaseOptions options;
  options.cache_bytes = 8 * BlockCache::charge(std::vector<uint16_t>(TestBlockEntries));  // forces evictions
  const Tablebase tb(dir.path(), options);
  std::atomic<int> wrong{0};
  std::atomic<int> probes{0};
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (const auto* scheme : {&kqk, &kpk})
        for (const auto& [i, stm] : sample_entries(*scheme, 500, 60 + t)) {
          Position pos = *scheme->position_at(i, stm);
          if (i % 2) pos = color_flipped(pos);
          const auto score = tb.try_probe(pos);
          if (!score || *score != fake_score(i, stm)) ++wrong;
          ++probes;
        }
    });
  for (auto& t : threads) t.join();
  CHECK(wrong == 0);
  CHECK(probes == 4000);
  CHECK(tb.cache_stats().bytes <= options.cache_bytes);
}

TEST_CASE("every entry of KQk, KPk and KBNk is found from its position in every orientation",
          "[store][slow]") {
  const TempDir dir;
  for (const char* signature : {"KQk", "KPk", "KBNk"}) {
    const auto scheme = write_fake_table(dir, signature);
    const Tablebase tb(dir.path());
    const bool pawns = Material::parse(signature)->has_pawns();
    Position pos;
    for (Color stm : {Color::White, Color::Black})
      for (Index i = 0; i < scheme.size(); ++i) {
        if (!scheme.decode(i, stm, pos) || scheme.index_of(pos) != i) continue;
        const bool twin = indexing::on_diagonal(pos.king_square(Color::White)) &&
                          indexing::on_diagonal(pos.king_square(Color::Black));
        for (Symmetry s : AllSymmetries) {
          if ((pawns && s != Symmetry::Identity && s != Symmetry::FlipFiles) ||
              (twin && s != Symmetry::Identity))
            continue;
          const Position image = apply(s, pos);
          REQUIRE(tb.probe(image).value() == fake_score(i, stm));
          REQUIRE(tb.probe(color_flipped(image)).value() == fake_score(i, stm));
        }
      }
  }
}
