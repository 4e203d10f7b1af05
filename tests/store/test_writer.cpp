// The writer's temporary file: a table appears under its final name only when complete, and a
// failed write (a full disk, a file size limit, a missing directory) leaves nothing behind.
#include <signal.h>
#include <sys/resource.h>
#include <array>
#include <fstream>

#include "egtb/store/error.hpp"
#include "egtb/store/reader.hpp"
#include "egtb/store/table_lock.hpp"
#include "egtb/store/writer.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using namespace egtb;
using egtb::test::FileSizeLimit;
using egtb::test::KQkDescription;
using egtb::test::TempDir;

namespace {

std::vector<std::string> names_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("a completed write leaves the table and no temporary file", "[store]") {
  const TempDir dir;
  const auto entries = egtb::test::realistic_scores(5000, 40, 41);
  write_table_file(dir / "KQk.egtb", KQkDescription, {entries, entries});
  CHECK(names_in(dir.path()) == std::vector<std::string>{"KQk.egtb"});
  std::array<char, 256> host{};
  REQUIRE(::gethostname(host.data(), host.size() - 1) == 0);
  CHECK(temporary_path(dir / "KQk.egtb").filename().string() ==
        "KQk.egtb.tmp." + std::string(host.data()) + "." + std::to_string(::getpid()));
}

TEST_CASE("stale temporary files go, those of live writers and held tables stay", "[store]") {
  const TempDir dir;
  const auto write = [&](const std::string& name) { std::ofstream(dir / name) << "half-written"; };
  write("KQk.egtb.tmp.otherhost.4711");  // another host, table not locked: stale
  write("KRk.egtb.tmp.otherhost.4711");  // another host, but KRk's lock is held: kept
  write("KBk.egtb.tmp.999999999");       // this host (an earlier name), process dead: stale
  write(temporary_path(dir / "KNk.egtb").filename().string());  // this live process: kept
  {
    const auto held = egtb::TableLock::try_acquire(dir / "KRk.egtb");
    REQUIRE(held);
    CHECK_FALSE(egtb::TableLock::try_acquire(dir / "KRk.egtb"));  // one holder at a time
    CHECK(remove_stale_temporaries(dir.path()) == 2);
    CHECK(remove_stale_temporaries(dir / "KRk.egtb", *held) == 1);  // its holder may remove it
  }
  CHECK(egtb::TableLock::try_acquire(dir / "KRk.egtb"));  // released with its holder
  std::vector<std::string> left;
  for (const std::string& name : names_in(dir.path()))
    if (name.find(".tmp.") != std::string::npos) left.push_back(name);
  CHECK(left == std::vector<std::string>{temporary_path(dir / "KNk.egtb").filename().string()});
}

TEST_CASE("rewriting a table replaces it whole", "[store]") {
  const TempDir dir;
  const auto first = egtb::test::realistic_scores(5000, 40, 42);
  const auto second = egtb::test::realistic_scores(6000, 40, 43);
  write_table_file(dir / "KQk.egtb", KQkDescription, {first, first});
  write_table_file(dir / "KQk.egtb", KQkDescription, {second, second});
  CHECK(TableReader(dir / "KQk.egtb", TableRequirements::file_only()).read_side(Color::Black) == second);
  CHECK(names_in(dir.path()) == std::vector<std::string>{"KQk.egtb"});
}

TEST_CASE("a full disk gives an IoError and leaves no file", "[store]") {
  if (!std::filesystem::exists("/dev/full")) {
    WARN("SKIPPED: /dev/full is not available");
    return;
  }
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  const auto old_entries = egtb::test::realistic_scores(3000, 40, 44);
  write_table_file(path, KQkDescription, {old_entries, old_entries});
  // The writer opens its temporary name without O_EXCL, so a symbolic link there sends every
  // write to /dev/full, which fails with ENOSPC like a full disk.
  std::filesystem::create_symlink("/dev/full", temporary_path(path));
  const auto entries = egtb::test::random_scores(50000, 45);
  CHECK_THROWS_AS(write_table_file(path, KQkDescription, {entries, entries}), IoError);
  std::filesystem::create_symlink("/dev/full", temporary_path(path));
  CHECK_THROWS_WITH(write_table_file(path, KQkDescription, {entries, entries}),
                    Catch::Contains(path.string()) && Catch::Contains("No space left on device") &&
                        Catch::Contains("write to temporary file"));
  CHECK(names_in(dir.path()) == std::vector<std::string>{"KQk.egtb"});
  CHECK(TableReader(path, TableRequirements::file_only()).read_side(Color::White) ==
        old_entries);  // the old table is untouched
}

TEST_CASE("a write that fails midway leaves no table", "[store]") {
  const TempDir dir;
  const auto path = dir / "KQk.egtb";
  const auto entries = egtb::test::random_scores(200000, 46);
  {
    const FileSizeLimit limit(20000);  // the file would be several hundred KB
    CHECK_THROWS_WITH(write_table_file(path, KQkDescription, {entries, entries}),
                      Catch::Contains("KQk.egtb") && Catch::Contains("File too large"));
  }
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("an unwritable destination gives an IoError", "[store]") {
  const TempDir dir;
  const auto entries = egtb::test::realistic_scores(100, 40, 47);
  CHECK_THROWS_WITH(
      write_table_file(dir / "missing" / "KQk.egtb", KQkDescription, {entries, entries}),
      Catch::Contains("cannot create temporary file") && Catch::Contains("No such file or directory"));
}
