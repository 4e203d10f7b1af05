// size_lab: re-encodes the entries of table files under candidate block layouts and prints the
// bytes each would take (issue 23). Measurement only; it writes nothing.
//
//   size_lab FILE...                 bytes per file under each variant (SIZE_LAB_ONLY picks them)
//   size_lab --orders FILE...        bytes at level 3 under every order of the index digits
//   size_lab --compare A B           every position holds the same score in both files
//
// A variant is named <transform>-L<level>[-<n>K]: transform planes (the Planes transform of
// egtb/store/format.hpp), fill (planes after replacing each invalid entry with the previous valid
// score), split or splitrel (a value plane, then depth planes, relative to the block's smallest
// depth for splitrel) or fillsplit; n thousand entries a block (32 by default). Example:
// SIZE_LAB_ONLY=planes-L3,planes-L15-64K. SIZE_LAB_EVERY=N compresses one block in N of each side
// and counts it N times, for an estimate of a large set in a fraction of the time. More transforms:
// zplanes, planes compressed with a zstd dictionary trained on up to 128 of the side's blocks (of
// at most SIZE_LAB_DICT_KB KiB, 32 by default, and 1% of the side's planes; its bytes count);
// up1 and up2, the planes of each plane code XOR that of the entry one step before in the
// innermost digit (up1) or the next digit out (up2), as PNG's "up" filter; fillup1 and fillup2,
// fill with each invalid entry taken from the entry one step before in the innermost digit or the
// next digit out (the previous score in the first such step); best, the smaller of
// the Planes and Dictionary transforms per block (BlockEncoder, TransformChoice::Smallest); sub8 and
// sub16, one zstd frame of the planes of each sub-block of 8 or 16 thousand entries in turn, flushed
// after each, so that a probe could stop decoding at its entry's sub-block.
#include <zdict.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egtb/store/block_codec.hpp"
#include "egtb/store/table.hpp"
#include "indexing/binomial.hpp"

using namespace egtb;

namespace {

std::vector<uint8_t> planes(std::span<const uint16_t> s);

struct Zstd {
  ZSTD_CCtx* c = ZSTD_createCCtx();
  ~Zstd() { ZSTD_freeCCtx(c); }
  std::vector<uint8_t> out;
  size_t size(const std::vector<uint8_t>& raw, int level, const ZSTD_CDict* dict = nullptr) {
    if (dict) {
      out.resize(ZSTD_compressBound(raw.size()));
      return ZSTD_compress_usingCDict(c, out.data(), out.size(), raw.data(), raw.size(), dict);
    }
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    out.resize(ZSTD_compressBound(raw.size()));
    return ZSTD_compress2(c, out.data(), out.size(), raw.data(), raw.size());
  }
  // One frame of the planes of each sub-block in turn, flushed after each.
  size_t sub_size(std::span<const uint16_t> s, size_t sub, int level) {
    ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
    ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
    ZSTD_CCtx_setParameter(c, ZSTD_c_contentSizeFlag, 1);
    ZSTD_CCtx_setPledgedSrcSize(c, 2 * s.size());
    out.resize(ZSTD_compressBound(2 * s.size()) + 1024);
    ZSTD_outBuffer o{out.data(), out.size(), 0};
    for (size_t first = 0; first < s.size(); first += sub) {
      const auto raw = planes(s.subspan(first, std::min(sub, s.size() - first)));
      ZSTD_inBuffer in{raw.data(), raw.size(), 0};
      const bool last = first + sub >= s.size();
      size_t left;
      do left = ZSTD_compressStream2(c, &o, &in, last ? ZSTD_e_end : ZSTD_e_flush);
      while (left != 0 && !ZSTD_isError(left));
      if (ZSTD_isError(left)) std::abort();
    }
    return o.pos;
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

// size_lab --compare A B: every position holds the same score in both files, whatever their index
// layouts (exit 0), else the first difference (exit 1).
int compare(const char* a, const char* b) {
  const auto ta = Table::load(a);
  const auto tb = Table::load(b);
  if (ta->material() != tb->material()) return std::printf("%s %s: different tables\n", a, b), 1;
  for (Color c : {Color::White, Color::Black})
    for (indexing::Index i = 0; i < ta->size(); ++i)
      if (ta->at(c, i) != tb->at(c, ta->scheme().entry_in(tb->scheme(), i)))
        return std::printf("%s %s: entry %llu of %s differs\n", a, b, static_cast<unsigned long long>(i),
                           c == Color::White ? "White" : "Black"),
               1;
  std::printf("%s %s: %llu + %llu entries equal\n", a, b, static_cast<unsigned long long>(ta->size()),
              static_cast<unsigned long long>(ta->size()));
  return 0;
}

// The radices of a table's index digits, outermost first: the king pair, then each group.
std::vector<uint64_t> digit_radices(const Table& t) {
  const Material& m = t.material();
  std::vector<uint64_t> r{m.has_pawns() ? 1806u : 462u};
  for (Color c : {Color::White, Color::Black})
    for (PieceType pt :
         {PieceType::Queen, PieceType::Rook, PieceType::Bishop, PieceType::Knight, PieceType::Pawn})
      if (const int k = m.count(c, pt); k > 0)
        r.push_back(indexing::binomial(pt == PieceType::Pawn ? 48 : 62, k));
  return r;
}

// The normal section of `all` re-ordered so that digit order[0] is outermost ... order[n-1]
// innermost; the e.p. section follows unchanged.
std::vector<uint16_t> reorder(std::span<const uint16_t> all, const std::vector<uint64_t>& radix,
                              const std::vector<int>& order) {
  const size_t n = radix.size();
  uint64_t normal = 1;
  for (uint64_t r : radix) normal *= r;
  std::vector<uint64_t> stride(n, 1);  // of each digit in the original index
  for (size_t d = n - 1; d-- > 0;) stride[d] = stride[d + 1] * radix[d + 1];
  std::vector<uint16_t> out;
  out.reserve(all.size());
  std::vector<uint64_t> digit(n, 0);
  for (uint64_t k = 0; k < normal; ++k) {
    uint64_t i = 0;
    for (size_t d = 0; d < n; ++d)
      i += digit[static_cast<size_t>(order[d])] * stride[static_cast<size_t>(order[d])];
    out.push_back(all[i]);
    for (size_t d = n; d-- > 0;) {
      const auto o = static_cast<size_t>(order[d]);
      if (++digit[o] < radix[o]) break;
      digit[o] = 0;
    }
  }
  out.insert(out.end(), all.begin() + static_cast<std::ptrdiff_t>(normal), all.end());
  return out;
}

// The entries of one side with the king pair leading (then the groups, indexing/index.hpp).
std::vector<uint16_t> in_first_layout(const Table& t, Color c) {
  const indexing::IndexScheme first(t.material());
  std::vector<uint16_t> out(t.size());
  for (indexing::Index i = 0; i < t.size(); ++i) out[i] = t.at(c, first.entry_in(t.scheme(), i)).raw();
  return out;
}

// size_lab --orders FILE...: the bytes at level 3 (planes and fill) of every order of the index
// digits, allowed in table files or not (indexing/index_order.hpp): 0 the king pair, then the
// groups in order (White Q R B N P, Black q r b n p). KRPkr's "P Kk R r" is 2 0 1 3.
int orders(int argc, char** argv) {
  Zstd z;
  for (int a = 2; a < argc; ++a) {
    const auto table = Table::load(argv[a]);
    const std::array<std::vector<uint16_t>, 2> sides = {in_first_layout(*table, Color::White),
                                                        in_first_layout(*table, Color::Black)};
    const auto radix = digit_radices(*table);
    std::vector<int> order(radix.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = static_cast<int>(d);
    do {
      size_t bytes[2] = {0, 0};
      for (const auto& side : sides) {
        const auto all = reorder(side, radix, order);
        for (size_t first = 0; first < all.size(); first += 32768) {
          const auto s =
              std::span<const uint16_t>(all).subspan(first, std::min<size_t>(32768, all.size() - first));
          if (constant(s)) {
            bytes[0] += 2, bytes[1] += 2;
            continue;
          }
          bytes[0] += z.size(planes(s), 3);
          bytes[1] += z.size(planes(fill(s)), 3);
        }
      }
      std::printf("%s order", table->signature().c_str());
      for (int d : order) std::printf(" %d", d);
      std::printf(" planes-L3 %zu fill-L3 %zu\n", bytes[0], bytes[1]);
      std::fflush(stdout);
    } while (std::next_permutation(order.begin(), order.end()));
  }
  return 0;
}

namespace {

enum class Transform {
  Planes,
  Fill,
  Split,
  SplitRelative,
  FillSplit,
  TrainedPlanes,
  Up1,
  Up2,
  FillUp1,
  FillUp2,
  Smallest,
  Sub8,
  Sub16
};

struct Variant {
  std::string name;
  Transform transform = Transform::Planes;
  int level = 3;
  size_t block = 32768;
};

// The variant a name gives ("planes-L15-64K"), or nothing for a name of no variant.
std::optional<Variant> parse_variant(const std::string& name) {
  static const std::pair<const char*, Transform> transforms[] = {{"planes", Transform::Planes},
                                                                 {"fill", Transform::Fill},
                                                                 {"split", Transform::Split},
                                                                 {"splitrel", Transform::SplitRelative},
                                                                 {"fillsplit", Transform::FillSplit},
                                                                 {"zplanes", Transform::TrainedPlanes},
                                                                 {"up1", Transform::Up1},
                                                                 {"up2", Transform::Up2},
                                                                 {"fillup1", Transform::FillUp1},
                                                                 {"fillup2", Transform::FillUp2},
                                                                 {"best", Transform::Smallest},
                                                                 {"sub8", Transform::Sub8},
                                                                 {"sub16", Transform::Sub16}};
  const size_t dash = name.find("-L");
  if (dash == std::string::npos) return std::nullopt;
  Variant v{name};
  const auto t = std::find_if(std::begin(transforms), std::end(transforms),
                              [&](const auto& p) { return name.compare(0, dash, p.first) == 0; });
  if (t == std::end(transforms) || std::string(t->first).size() != dash) return std::nullopt;
  v.transform = t->second;
  size_t used = 0;
  v.level = std::stoi(name.substr(dash + 2), &used);
  const std::string rest = name.substr(dash + 2 + used);
  if (!rest.empty()) {
    if (rest.size() < 3 || rest[0] != '-' || rest.back() != 'K') return std::nullopt;
    v.block = std::stoul(rest.substr(1, rest.size() - 2)) * 1024;
  }
  return v;
}

// Planes of each plane code XOR the code `stride` entries before (the first `stride` as they are).
// Example, stride 62: entry 70's code is stored XOR entry 8's, so equal neighbours store 0.
std::vector<uint8_t> up(std::span<const uint16_t> s, size_t stride) {
  const size_t n = s.size();
  std::vector<uint8_t> raw(2 * n);
  for (size_t i = 0; i < n; ++i) {
    const uint16_t c =
        static_cast<uint16_t>(plane_code(s[i]) ^ (i >= stride ? plane_code(s[i - stride]) : 0));
    raw[i] = static_cast<uint8_t>(c);
    raw[n + i] = static_cast<uint8_t>(c >> 8);
  }
  return raw;
}

// The entries between neighbours in the innermost digit and in the next one out (up1, up2).
struct Strides {
  size_t inner = 64;
  size_t next = 4096;
};

Strides strides_of(const Table& table) {
  const auto radix = digit_radices(table);
  const auto digits = table.scheme().order().digits();
  const size_t inner = radix[digits[digits.size() - 1]];
  return {inner, inner * radix[digits[digits.size() - 2]]};
}

// Invalid entries replaced by the (filled) entry `stride` before, or by fill()'s previous score in
// the first `stride` entries (fillup1, fillup2).
std::vector<uint16_t> fill_up(std::span<const uint16_t> s, size_t stride) {
  std::vector<uint16_t> f = fill(s);
  for (size_t i = stride; i < f.size(); ++i)
    if ((s[i] & 7) == 5) f[i] = f[i - stride];
  return f;
}

std::vector<uint8_t> transformed(Transform t, std::span<const uint16_t> s, const Strides& strides) {
  switch (t) {
    case Transform::Up1: return up(s, strides.inner);
    case Transform::Up2: return up(s, strides.next);
    case Transform::FillUp1: return planes(fill_up(s, strides.inner));
    case Transform::FillUp2: return planes(fill_up(s, strides.next));
    case Transform::Planes:
    case Transform::TrainedPlanes:
    case Transform::Smallest:
    case Transform::Sub8:
    case Transform::Sub16: return planes(s);
    case Transform::Fill: return planes(fill(s));
    case Transform::Split: return split(s, false);
    case Transform::SplitRelative: return split(s, true);
    case Transform::FillSplit: return split(fill(s), false);
  }
  return {};
}

struct CDictDeleter {
  void operator()(ZSTD_CDict* d) const { ZSTD_freeCDict(d); }
};
using CDict = std::unique_ptr<ZSTD_CDict, CDictDeleter>;

// A zstd dictionary trained on the planes of up to 128 non-constant blocks of `all`, spread
// evenly; adds its size to `bytes`. Null when training fails (too few samples).
CDict trained(std::span<const uint16_t> all, const Variant& v, size_t& bytes) {
  std::vector<size_t> starts;
  for (size_t first = 0; first < all.size(); first += v.block)
    if (!constant(all.subspan(first, std::min(v.block, all.size() - first)))) starts.push_back(first);
  if (starts.size() < 8) return nullptr;
  const size_t step = std::max<size_t>(1, starts.size() / 128);
  std::vector<uint8_t> samples;
  std::vector<size_t> sizes;
  for (size_t k = 0; k < starts.size(); k += step) {
    const auto raw = planes(all.subspan(starts[k], std::min(v.block, all.size() - starts[k])));
    samples.insert(samples.end(), raw.begin(), raw.end());
    sizes.push_back(raw.size());
  }
  const char* kb = std::getenv("SIZE_LAB_DICT_KB");
  const size_t cap =
      std::min<size_t>((kb ? std::stoul(kb) : 32) * 1024, std::max<size_t>(1024, all.size() * 2 / 100));
  std::vector<uint8_t> dict(cap);
  const size_t got = ZDICT_trainFromBuffer(dict.data(), cap, samples.data(), sizes.data(),
                                           static_cast<unsigned>(sizes.size()));
  if (ZDICT_isError(got)) return nullptr;
  bytes += got;
  return CDict(ZSTD_createCDict(dict.data(), got, v.level));
}

// The bytes of both sides of a table under a variant, compressing one block in `every`.
size_t variant_bytes(const Table& table, const Variant& v, size_t every, Zstd& z) {
  size_t bytes = 0;
  BlockEncoder best(v.level, TransformChoice::Smallest);
  const Strides strides = strides_of(table);
  for (Color c : {Color::White, Color::Black}) {
    const auto all = table.raw(c);
    const CDict dict = v.transform == Transform::TrainedPlanes ? trained(all, v, bytes) : nullptr;
    for (size_t first = 0, b = 0; first < all.size(); first += v.block, ++b) {
      bytes += 24;
      if (b % every != 0) continue;
      const auto s = all.subspan(first, std::min(v.block, all.size() - first));
      if (v.transform == Transform::Sub8 || v.transform == Transform::Sub16) {
        bytes +=
            every * (constant(s) ? 2 : z.sub_size(s, v.transform == Transform::Sub8 ? 8192 : 16384, v.level));
        continue;
      }
      if (v.transform == Transform::Smallest) {
        bytes += every * best.encode(s).bytes.size();
        continue;
      }
      bytes += every * (constant(s) ? 2 : z.size(transformed(v.transform, s, strides), v.level, dict.get()));
    }
  }
  return bytes;
}

const char* const DefaultVariants[] = {"planes-L3",      "planes-L9",       "planes-L19",   "planes-L3-64K",
                                       "planes-L3-128K", "fill-L3",         "fill-L19",     "split-L3",
                                       "split-L19",      "splitrel-L3",     "fillsplit-L3", "split-L3-128K",
                                       "split-L9",       "fillsplit-L19",   "planes-L12",   "planes-L15",
                                       "planes-L17",     "planes-L19-128K", "planes-L22"};

}  // namespace

int measure(int argc, char** argv) {
  std::vector<std::string> names(std::begin(DefaultVariants), std::end(DefaultVariants));
  if (const char* only = std::getenv("SIZE_LAB_ONLY")) {
    names.clear();
    for (std::string list = std::string(only) + ","; !list.empty(); list.erase(0, list.find(',') + 1))
      if (list.find(',') > 0) names.push_back(list.substr(0, list.find(',')));
  }
  std::vector<Variant> variants;
  for (const std::string& name : names) {
    const auto v = parse_variant(name);
    if (!v) return std::fprintf(stderr, "size_lab: no variant %s\n", name.c_str()), 2;
    variants.push_back(*v);
  }
  const char* every_text = std::getenv("SIZE_LAB_EVERY");
  const size_t every = every_text ? std::max(1ul, std::stoul(every_text)) : 1;
  std::vector<size_t> total(variants.size());
  std::vector<double> secs(variants.size());
  std::printf("table file_bytes");
  for (const auto& v : variants) std::printf(" %s", v.name.c_str());
  std::printf("\n");
  uint64_t file_total = 0;
  Zstd z;
  for (int a = 1; a < argc; ++a) {
    const auto table = Table::load(argv[a]);
    const uint64_t file_bytes = std::filesystem::file_size(argv[a]);
    file_total += file_bytes;
    std::printf("%s %llu", table->signature().c_str(), static_cast<unsigned long long>(file_bytes));
    for (size_t k = 0; k < variants.size(); ++k) {
      const double t0 = cpu();
      const size_t bytes = variant_bytes(*table, variants[k], every, z);
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
  for (double s : secs) std::printf(" %.2f", s * static_cast<double>(every));
  std::printf("\n");
  return 0;
}

int main(int argc, char** argv) try {
  if (argc >= 2 && std::string(argv[1]) == "--orders") return orders(argc, argv);
  if (argc == 4 && std::string(argv[1]) == "--compare") return compare(argv[2], argv[3]);
  return measure(argc, argv);
} catch (const std::exception& e) {
  std::fprintf(stderr, "size_lab: %s\n", e.what());
  return 2;
}
