#include "tests/store/store_fixtures.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>

namespace egtb::test {

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  path_ = std::filesystem::temp_directory_path() /
          ("egtb-store-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

Score fake_score(indexing::Index i, Color stm) {
  const auto value = static_cast<Lasker>((i + 3 * static_cast<uint64_t>(to_index(stm))) % 5);
  const int depth = static_cast<int>((i / 5) % 100);
  switch (value) {
    case Lasker::Mates:
    case Lasker::Stalemates: return Score(value, 2 * depth + 1);
    case Lasker::Draw: return Score::draw();
    case Lasker::Stalemated:
    case Lasker::Mated: return Score(value, 2 * depth);
  }
  return Score::invalid();
}

std::vector<uint16_t> realistic_scores(size_t count, int max_depth, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> percent(0, 99);
  std::uniform_int_distribution<int> half_depth(0, max_depth / 2);
  std::vector<uint16_t> out(count);
  uint16_t run = Score::draw().raw();
  for (size_t i = 0; i < count; ++i) {
    const int p = percent(rng);
    if (p < 3) run = Score::invalid().raw();
    if (p >= 3 && p < 6) run = Score::draw().raw();
    if (p == 6)
      out[i] = Score(Lasker::Mates, 2 * half_depth(rng) + 1).raw();
    else if (p == 7)
      out[i] = Score(Lasker::Mated, 2 * half_depth(rng)).raw();
    else if (p == 8)
      out[i] = Score(Lasker::Stalemates, 2 * half_depth(rng) + 1).raw();
    else if (p == 9)
      out[i] = Score(Lasker::Stalemated, 2 * half_depth(rng)).raw();
    else
      out[i] = run;
  }
  return out;
}

std::vector<uint16_t> random_scores(size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> value(0, 5);
  std::uniform_int_distribution<int> depth(0, Score::MaxDepth);
  std::vector<uint16_t> out(count);
  for (uint16_t& raw : out) {
    const int v = value(rng);
    if (v == 5)
      raw = Score::invalid().raw();
    else if (v == 2)
      raw = Score::draw().raw();
    else
      raw = Score(static_cast<Lasker>(v), depth(rng)).raw();
  }
  return out;
}

std::vector<uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  // A new file rather than a truncated one: ext4 flushes truncated-and-rewritten files on close.
  std::filesystem::remove(path);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

void flip_byte(const std::filesystem::path& path, uint64_t offset) {
  std::vector<uint8_t> bytes = read_file(path);
  bytes.at(offset) ^= 0xff;
  write_file(path, bytes);
}

}  // namespace egtb::test
