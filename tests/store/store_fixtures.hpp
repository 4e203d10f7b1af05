// Helpers of the store tests: scratch directories, synthetic scores, file surgery.
#pragma once

#include <sys/resource.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "egtb/core/types.hpp"
#include "egtb/store/score.hpp"
#include "egtb/store/writer.hpp"
#include "indexing/index.hpp"

namespace egtb::test {

// The description of the KQk files the writer and recompress tests write.
inline const TableDescription KQkDescription{"KQk", Rules::Lasker, {Metric::Dtm, Metric::Dts}, 1,
                                             1,     "egtb test"};

// A fresh directory under the system temporary directory, removed with its contents.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
  std::filesystem::path path_;
};

// A valid score derived from an entry number, with every value and a spread of depths.
[[nodiscard]] Score fake_score(indexing::Index i, Color stm);

// `count` raw scores shaped like a real table: mostly draws with runs of invalid entries and
// sparse wins and losses with depths up to `max_depth`, from a fixed seed.
[[nodiscard]] std::vector<uint16_t> realistic_scores(size_t count, int max_depth, uint32_t seed);

// `count` raw scores of every valid value and depth (up to Score::MaxDepth) and invalid, at random.
[[nodiscard]] std::vector<uint16_t> random_scores(size_t count, uint32_t seed);

[[nodiscard]] std::vector<uint8_t> read_file(const std::filesystem::path& path);
void write_file(const std::filesystem::path& path, const std::vector<uint8_t>& bytes);
// Flips every bit of the byte at `offset`.
void flip_byte(const std::filesystem::path& path, uint64_t offset);

// Lowers the file size limit for the lifetime of the object; writes beyond it fail with EFBIG
// (SIGXFSZ ignored), as on a full disk.
class FileSizeLimit {
public:
  explicit FileSizeLimit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &saved_);
    old_handler_ = ::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = saved_;
    lowered.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &lowered);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &saved_);
    ::signal(SIGXFSZ, old_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

private:
  rlimit saved_{};
  void (*old_handler_)(int) = SIG_DFL;
};

}  // namespace egtb::test
