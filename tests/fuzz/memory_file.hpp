// The file a file-reading fuzz target reads (fuzz_table_reader, fuzz_value_file): the input past
// its first byte, written to one memfd per process and opened through its /proc/self/fd path as
// any file. The first byte is a switch: when its low bit is set, the target's `seal` recomputes
// the file's checksums first, as a careful forger would, so that damage reaches the fields and
// blocks behind them instead of stopping at the first mismatch.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace egtb::fuzz {

// The little-endian integer of `width` bytes (at most 8) at `at`, or 0 where the file is too short.
inline uint64_t load(const std::vector<uint8_t>& bytes, uint64_t at, size_t width) {
  uint64_t v = 0;
  if (at <= bytes.size() && width <= bytes.size() - at) std::memcpy(&v, bytes.data() + at, width);
  return v;
}

// Writes the low `width` bytes of v at `at`, where the file holds them.
inline void store(std::vector<uint8_t>& bytes, uint64_t at, size_t width, uint64_t v) {
  if (at <= bytes.size() && width <= bytes.size() - at) std::memcpy(bytes.data() + at, &v, width);
}

// The path of the file the input gives (above), or nothing for an empty input. Aborts when the
// memfd fails.
template <class Seal>
std::optional<std::string> input_file(const uint8_t* data, size_t size, Seal seal) {
  if (size == 0) return std::nullopt;
  std::vector<uint8_t> bytes(data + 1, data + size);
  if (data[0] & 1) seal(bytes);
  static const int fd = [] {
    const int f = memfd_create("fuzz_file", 0);
    if (f < 0) std::abort();
    return f;
  }();
  if (ftruncate(fd, 0) != 0 ||
      (!bytes.empty() && pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size())))
    std::abort();
  return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace egtb::fuzz
