// libFuzzer target for value files (egtb/store/value_file.hpp): the header, the block index and the
// blocks of any file must be read or refused with a FormatError, never crash, hang, read out of
// bounds or give a value past 4. The file is the input past its first byte, an odd first byte
// recomputing every block checksum and then the index checksum first (tests/fuzz/memory_file.hpp).
// Up to MaxProbes entries of each side, evenly spaced, are probed (a side's probing stops at
// MaxRefusals refusals).
// Built with -DEGTB_FUZZ=ON under clang 16 (see tests/query/fuzz_parser.cpp and docs/testing.md):
//   build-fuzz/tests/fuzz/fuzz_value_file build-fuzz/corpus-value tests/fuzz/corpus/value
//   -max_total_time=600
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <xxhash.h>

#include "egtb/store/error.hpp"
#include "egtb/store/value_file.hpp"
#include "tests/fuzz/memory_file.hpp"

namespace {

using namespace egtb;

constexpr uint64_t MaxProbes = 2048;
// A side's probing stops at this many refusals: an exception is slow under the sanitizers.
constexpr int MaxRefusals = 8;

// Recomputes the block checksums and the index checksum (value_file.hpp) where the fields allow.
void fix_checksums(std::vector<uint8_t>& file) {
  const uint64_t offsets = fuzz::load(file, 12, 4);
  const uint64_t blocks = fuzz::load(file, 56, 8);
  if (offsets > file.size() || blocks > file.size() / 8) return;
  const uint64_t sums = offsets + 4 * (blocks + 1);
  const uint64_t data = sums + 4 * blocks + 8;
  if (data > file.size()) return;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t begin = data + fuzz::load(file, offsets + 4 * b, 4);
    const uint64_t end = data + fuzz::load(file, offsets + 4 * (b + 1), 4);
    if (begin <= end && end <= file.size())
      fuzz::store(file, sums + 4 * b, 4, XXH3_64bits(file.data() + begin, end - begin));
  }
  fuzz::store(file, data - 8, 8, XXH3_64bits(file.data(), data - 8));
}

// Probes up to MaxProbes entries of side `stm`, evenly spaced, until MaxRefusals of them are
// refused; every value answered is 0 to 4.
void probe_side(const ValueTable& values, Color stm) {
  const uint64_t size = values.scheme().size();
  const uint64_t step = std::max<uint64_t>(1, size / MaxProbes);
  int refusals = 0;
  for (uint64_t i = 0; i < size && refusals < MaxRefusals; i += step) {
    try {
      if (static_cast<int>(values.at(stm, i)) > 4) std::abort();
    } catch (const FormatError&) {
      ++refusals;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::optional<std::string> path = fuzz::input_file(data, size, fix_checksums);
  if (!path) return 0;
  try {
    const ValueTable values(*path, {});
    for (const Color stm : {Color::White, Color::Black}) probe_side(values, stm);
  } catch (const StoreError&) {
  }
  return 0;
}
