// The scratch file of a solve in slices (retro/scratch_file.hpp): what is appended from many
// threads reads back unchanged, the file has no name, and a missing directory or a full disk is
// an IoError naming the directory.
#include <tbb/parallel_for.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "egtb/store/error.hpp"
#include "retro/scratch_file.hpp"
#include "tests/store/store_fixtures.hpp"
#include "tests/support/catch.hpp"

using egtb::retro::ScratchFile;

namespace {

// A fresh empty directory under the system temporary directory, removed with its contents.
struct EmptyDir {
  std::filesystem::path path;
  EmptyDir() {
    std::string name = (std::filesystem::temp_directory_path() / "egtb-scratch-test.XXXXXX").string();
    path = ::mkdtemp(name.data());
  }
  ~EmptyDir() { std::filesystem::remove_all(path); }
};

// Chunk k: k % 251 + 1 bytes, each (k + i) % 256.
std::vector<uint8_t> chunk(size_t k) {
  std::vector<uint8_t> bytes(k % 251 + 1);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>((k + i) % 256);
  return bytes;
}

}  // namespace

TEST_CASE("a scratch file reads back what threads appended, and has no name", "[retro]") {
  const EmptyDir dir;
  ScratchFile scratch(dir.path, "the finished slices");
  constexpr size_t Chunks = 5000;
  std::vector<uint64_t> offsets(Chunks);
  tbb::parallel_for(size_t{0}, Chunks, [&](size_t k) { offsets[k] = scratch.append(chunk(k)); });
  CHECK(std::filesystem::is_empty(dir.path));
  size_t wrong = 0;
  tbb::parallel_for(size_t{0}, Chunks, [&](size_t k) {
    std::vector<uint8_t> back(chunk(k).size());
    scratch.read(offsets[k], back);
    if (back != chunk(k)) ++wrong;
  });
  CHECK(wrong == 0);
  std::vector<uint8_t> beyond(10);
  CHECK_THROWS_AS(scratch.read(offsets[0] + 1'000'000, beyond), egtb::IoError);
}

TEST_CASE("a scratch file in a missing directory or on a full disk is an IoError naming it", "[retro]") {
  const EmptyDir dir;
  const std::filesystem::path missing = dir.path / "missing";
  CHECK_THROWS_WITH(ScratchFile(missing, "the finished slices"),
                    Catch::Contains(missing.string()) && Catch::Contains("cannot create a scratch file"));
  ScratchFile scratch(dir.path, "the finished slices");
  const egtb::test::FileSizeLimit limit(4096);
  const std::vector<uint8_t> bytes(10'000, 7);
  CHECK_THROWS_WITH(scratch.append(bytes), Catch::Contains(dir.path.string()) &&
                                               Catch::Contains("cannot write the finished slices"));
}
