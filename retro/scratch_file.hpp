// An unnamed file for what a solve sets aside until the table is written: the packed slices of a
// pawn table solved in slices (solved_slice.hpp), which would otherwise stay in memory
// (KRPkr: 191 MB of its 401 MB peak), and the lean path's decided plies (depth_records.hpp). The file has no
// name (O_TMPFILE; where the file system lacks it, a named file removed at once), so it disappears with the
// process however that ends, and its pages live in the kernel's page cache, not in the process's resident
// memory.
//
// Example: append({bytes of chunk 0}) returns 0, append({chunk 1, 300 bytes}) after a 120-byte
// chunk 0 returns 120, and read(120, 300 bytes) reads chunk 1 back, from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace egtb::retro {

class ScratchFile {
public:
  // Creates the file in `directory` for `what` it holds ("the finished slices"), which its error
  // messages name. Throws IoError (naming the directory) when it cannot.
  ScratchFile(const std::filesystem::path& directory, std::string what);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  // Writes `bytes` after everything appended so far and returns their offset. Safe from many
  // threads. Throws IoError when the write fails (a full disk).
  uint64_t append(std::span<const uint8_t> bytes);
  // Reads bytes.size() bytes at `offset`, all of them appended before. Safe from many threads.
  void read(uint64_t offset, std::span<uint8_t> bytes) const;

private:
  std::filesystem::path directory_;
  std::string what_;
  int fd_ = -1;
  std::atomic<uint64_t> end_{0};
};

}  // namespace egtb::retro
