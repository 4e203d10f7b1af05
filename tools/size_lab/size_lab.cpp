// size_lab: re-encodes the entries of table files under candidate block layouts and prints the
// bytes each would take (issue 23). Measurement only; it writes nothing.
#include <zstd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "egtb/store/block_codec.hpp"
#include "egtb/store/table.hpp"

using namespace egtb;

namespace {

struct Zstd {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ~Zstd() { ZSTD_freeCCtx(c); }
  std::vector<uint8_t> out;
  size_t size(const std::vector<uint8_t>& raw, int level) {
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    out.resize(ZSTD_compressBound(raw.size()));
    return ZSTD_compress2(c, out.data(), out.size(), raw.data(), raw.size());
  }
};

bool constant(std::span<const uint16_t> s) {
  for (uint16_t x : s)
    if (x != s[0]) return false;
  return true;
}

// Planes layout of format v2.
std::vector<uint8_t> planes(std::span<const uint16_t> s) {
  const size_t n = s.size();
  std::vector<uint8_t> raw(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t c = plane_code(s[i]);
    raw[i] = static_cast<uint8_t>(c);
    raw[n + i] = static_cast<uint8_t>(c >> 8);
  }
  return raw;
}

// Invalid entries (code 5) replaced by the previous valid score (the next one at the start).
std::vector<uint16_t> fill(std::span<const uint16_t> s) {
  std::vector<uint16_t> f(s.begin(), s.end());
  uint16_t last = 0xffff;
  for (uint16_t x : f)
    if ((x & 7) <= 4) {
      last = x;
      break;
    }
  if (last == 0xffff) return f;
  for (auto& x : f) {
    if ((x & 7) <= 4)
      last = x;
    else if ((x & 7) == 5)
      x = last;
  }
  return f;
}

// Split: one byte per entry of value code (0-5), then the depth-halved plane code's low depth byte
// and high byte of the entries with a depth (values 0, 1, 3, 4) only.
std::vector<uint8_t> split(std::span<const uint16_t> s, bool relative) {
  const size_t n = s.size();
  std::vector<uint8_t> raw(n);
  std::vector<uint16_t> halves;
  for (size_t i = 0; i < n; ++i) {
    raw[i] = static_cast<uint8_t>(s[i] & 7);
    const uint16_t v = s[i] & 7;
    if (v == 0 || v == 1 || v == 3 || v == 4) {
      const uint16_t c = plane_code(s[i]);  // half in bits 3-7 and 8-14, residual bit 15
      halves.push_back(static_cast<uint16_t>(c >> 3));
    }
  }
  uint16_t lo = 0xffff;
  if (relative)
    for (uint16_t h : halves) lo = std::min<uint16_t>(lo, h & 0xfff);
  for (uint16_t h : halves) raw.push_back(static_cast<uint8_t>(relative ? (h & 0xfff) - lo : h));
  for (uint16_t h : halves) raw.push_back(static_cast<uint8_t>((relative ? (h & 0xfff) - lo : h) >> 8));
  return raw;
}

double cpu() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

}  // namespace

// size_lab --compare A B: every entry of both sides of two table files equal (exit 0), else
// the first difference (exit 1).
int compare(const char* a, const char* b) {
  const auto ta = Table::load(a);
  const auto tb = Table::load(b);
  for (Color c : {Color::White, Color::Black}) {
    const auto ra = ta->raw(c);
    const auto rb = tb->raw(c);
    if (ra.size() != rb.size()) return std::printf("%s %s: sizes differ\n", a, b), 1;
    for (size_t i = 0; i < ra.size(); ++i)
      if (ra[i] != rb[i]) return std::printf("%s %s: entry %zu differs\n", a, b, i), 1;
  }
  std::printf("%s %s: %zu + %zu entries equal\n", a, b, ta->raw(Color::White).size(),
              ta->raw(Color::Black).size());
  return 0;
}

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "--compare") return compare(argv[2], argv[3]);
  struct Variant {
    const char* name;
    size_t block;
    int level;
    int kind;  // 0 planes, 1 fill+planes, 2 split, 3 split relative, 4 fill+split
  };
  const std::vector<Variant> all_variants = {
      {"planes-L3", 32768, 3, 0},     {"planes-L9", 32768, 9, 0},       {"planes-L19", 32768, 19, 0},
      {"planes-L3-64K", 65536, 3, 0}, {"planes-L3-128K", 131072, 3, 0}, {"fill-L3", 32768, 3, 1},
      {"fill-L19", 32768, 19, 1},     {"split-L3", 32768, 3, 2},        {"split-L19", 32768, 19, 2},
      {"splitrel-L3", 32768, 3, 3},   {"fillsplit-L3", 32768, 3, 4},    {"split-L3-128K", 131072, 3, 2},
      {"split-L9", 32768, 9, 2},      {"fillsplit-L19", 32768, 19, 4},  {"planes-L12", 32768, 12, 0},
      {"planes-L15", 32768, 15, 0},   {"planes-L17", 32768, 17, 0},     {"planes-L19-128K", 131072, 19, 0},
      {"planes-L22", 32768, 22, 0},
  };
  // SIZE_LAB_ONLY=name,name picks variants (all by default).
  std::vector<Variant> picked;
  const char* only = std::getenv("SIZE_LAB_ONLY");
  for (const auto& v : all_variants)
    if (!only || ("," + std::string(only) + ",").find("," + std::string(v.name) + ",") != std::string::npos)
      picked.push_back(v);
  const std::vector<Variant>& variants = picked;
  std::vector<size_t> total(variants.size());
  std::vector<double> secs(variants.size());
  std::printf("table file_bytes");
  for (const auto& v : variants) std::printf(" %s", v.name);
  std::printf("\n");
  uint64_t file_total = 0;
  Zstd z;
  for (int a = 1; a < argc; ++a) {
    const auto table = Table::load(argv[a]);
    const uint64_t file_bytes = std::filesystem::file_size(argv[a]);
    file_total += file_bytes;
    std::printf("%s %llu", table->signature().c_str(), static_cast<unsigned long long>(file_bytes));
    for (size_t k = 0; k < variants.size(); ++k) {
      const Variant& v = variants[k];
      size_t bytes = 0;
      const double t0 = cpu();
      for (Color c : {Color::White, Color::Black}) {
        const auto all = table->raw(c);
        for (size_t first = 0; first < all.size(); first += v.block) {
          const auto s = all.subspan(first, std::min(v.block, all.size() - first));
          bytes += 24;
          if (constant(s)) {
            bytes += 2;
            continue;
          }
          std::vector<uint8_t> raw;
          switch (v.kind) {
            case 0: raw = planes(s); break;
            case 1: raw = planes(fill(s)); break;
            case 2: raw = split(s, false); break;
            case 3: raw = split(s, true); break;
            case 4: raw = split(fill(s), false); break;
          }
          bytes += z.size(raw, v.level);
        }
      }
      secs[k] += cpu() - t0;
      total[k] += bytes;
      std::printf(" %zu", bytes);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  std::printf("TOTAL %llu", static_cast<unsigned long long>(file_total));
  for (size_t t : total) std::printf(" %zu", t);
  std::printf("\nCPU_s -");
  for (double s : secs) std::printf(" %.2f", s);
  std::printf("\n");
}
