#include "egtb/store/block_codec.hpp"

#include <zstd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <stdexcept>

#include "egtb/store/score.hpp"

namespace egtb {

namespace {

constexpr size_t MaxDictionary = 256;

// The depth parity a valid score of this value code has: odd for 4 and 3, even otherwise.
// One unsigned comparison, which vectorises: value - 3 wraps above 1 for the codes below 3.
constexpr uint16_t expected_parity(uint16_t value_code) {
  return static_cast<uint16_t>(static_cast<uint16_t>(value_code - 3) < 2);
}

// plane_decode in three bit-field moves, which the compiler turns into a few vector instructions per
// eight entries (a block's decode runs it on every entry): the value stays in bits 0-2, the half
// depth moves up one bit from 3-14 to 4-15, and the depth's low bit (bit 3) is the residual bit 15
// with the value's parity. Example: code 0x0008 (value 0, half depth 1, residual 0) gives
// 0 | 0x10 | 0 = 0x10, "mated, DTM 2". Internal, so that the library's position-independent code
// inlines it into decode_planes (a call to the exported plane_decode, which another library could
// interpose, is not inlined: it took 9% of a cache miss's time).
constexpr uint16_t from_plane_code(uint16_t code) {
  const uint16_t value = code & 7;
  return static_cast<uint16_t>(value | (code & 0x7ff8) << 1 | ((code >> 15) ^ expected_parity(value)) << 3);
}

struct DCtxDeleter {
  void operator()(ZSTD_DCtx* ctx) const { ZSTD_freeDCtx(ctx); }
};

ZSTD_DCtx* thread_dctx() {
  thread_local std::unique_ptr<ZSTD_DCtx, DCtxDeleter> ctx(ZSTD_createDCtx());
  return ctx.get();
}

// Decompresses one zstd frame into `out` (sized to the frame's declared content size, at most
// `limit`); an error message or "".
std::string decompress(std::span<const uint8_t> bytes, size_t limit, std::vector<uint8_t>& out) {
  const unsigned long long declared = ZSTD_getFrameContentSize(bytes.data(), bytes.size());
  if (declared == ZSTD_CONTENTSIZE_ERROR) return "not a zstd frame";
  if (declared == ZSTD_CONTENTSIZE_UNKNOWN || declared > limit)
    return "zstd frame declares " + std::to_string(declared) + " bytes, at most " + std::to_string(limit) +
           " expected";
  out.resize(static_cast<size_t>(declared));
  const size_t got = ZSTD_decompressDCtx(thread_dctx(), out.data(), out.size(), bytes.data(), bytes.size());
  if (ZSTD_isError(got)) return std::string("zstd: ") + ZSTD_getErrorName(got);
  if (got != out.size())
    return "decoded " + std::to_string(got) + " bytes, expected " + std::to_string(out.size());
  return {};
}

// A Constant block's stored bytes: the two of its score, little-endian (format.hpp).
constexpr size_t ConstantBlockBytes = 2;

// What is wrong with a Constant block's stored bytes, or "".
std::string check_constant(std::span<const uint8_t> bytes) {
  if (bytes.size() != ConstantBlockBytes)
    return "constant block of " + std::to_string(bytes.size()) + " bytes, expected " +
           std::to_string(ConstantBlockBytes);
  return {};
}

uint16_t constant_entry(std::span<const uint8_t> bytes) {
  return static_cast<uint16_t>(bytes[0] | bytes[1] << 8);
}

std::string decode_constant(std::span<const uint8_t> bytes, std::span<uint16_t> entries) {
  if (std::string error = check_constant(bytes); !error.empty()) return error;
  std::fill(entries.begin(), entries.end(), constant_entry(bytes));
  return {};
}

// Decompression scratch space, reused by each thread's block reads.
std::vector<uint8_t>& thread_scratch() {
  thread_local std::vector<uint8_t> scratch;
  return scratch;
}

std::string decode_planes(std::span<const uint8_t> bytes, std::span<uint16_t> entries) {
  std::vector<uint8_t>& raw = thread_scratch();
  const size_t n = entries.size();
  if (std::string error = decompress(bytes, 2 * n, raw); !error.empty()) return error;
  if (raw.size() != 2 * n)
    return "decoded " + std::to_string(raw.size()) + " bytes, expected " + std::to_string(2 * n);
  for (size_t i = 0; i < n; ++i)
    entries[i] = from_plane_code(static_cast<uint16_t>(raw[i] | raw[n + i] << 8));
  return {};
}

std::string decode_dictionary(std::span<const uint8_t> bytes, std::span<uint16_t> entries) {
  std::vector<uint8_t>& raw = thread_scratch();
  const size_t n = entries.size();
  if (std::string error = decompress(bytes, 1 + 2 * MaxDictionary + n, raw); !error.empty()) return error;
  const size_t k = raw.empty() ? 0 : size_t{raw[0]} + 1;
  if (raw.size() != 1 + 2 * k + n)
    return "dictionary block of " + std::to_string(raw.size()) + " bytes, expected " +
           std::to_string(1 + 2 * k + n);
  std::array<uint16_t, MaxDictionary> dictionary{};
  for (size_t j = 0; j < k; ++j) dictionary[j] = static_cast<uint16_t>(raw[1 + 2 * j] | raw[2 + 2 * j] << 8);
  const uint8_t* codes = raw.data() + 1 + 2 * k;
  for (size_t i = 0; i < n; ++i) {
    if (codes[i] >= k)
      return "code " + std::to_string(codes[i]) + " outside a dictionary of " + std::to_string(k);
    entries[i] = dictionary[codes[i]];
  }
  return {};
}

// A Packed block's list of k scores and its codes of w bits (format.hpp): where each part begins.
struct PackedLayout {
  size_t k = 0;
  unsigned w = 0;
  size_t codes = 0;  // offset of the codes: after the byte k - 1 and the k scores
};

PackedLayout packed_layout(uint8_t first_byte) {
  const size_t k = size_t{first_byte} + 1;
  return {k, static_cast<unsigned>(std::bit_width(k - 1)), 1 + 2 * k};
}

// The code of entry j (bits j w to j w + w - 1 after the list, low bits first), or nothing when
// they lie past `bytes`.
std::optional<unsigned> packed_code(std::span<const uint8_t> bytes, const PackedLayout& p, size_t j) {
  if (p.w == 0) return 0u;
  const size_t bit = j * p.w;
  const size_t at = p.codes + bit / 8;
  const unsigned shift = bit % 8;
  if (at >= bytes.size() || (shift + p.w > 8 && at + 1 >= bytes.size())) return std::nullopt;
  unsigned word = bytes[at];
  if (shift + p.w > 8) word |= unsigned{bytes[at + 1]} << 8;
  return (word >> shift) & ((1u << p.w) - 1);
}

uint16_t packed_score(std::span<const uint8_t> bytes, size_t code) {
  return static_cast<uint16_t>(bytes[1 + 2 * code] | bytes[2 + 2 * code] << 8);
}

std::string decode_packed(std::span<const uint8_t> bytes, std::span<uint16_t> entries) {
  if (std::string error = check_packed_block(bytes, entries.size()); !error.empty()) return error;
  const PackedLayout p = packed_layout(bytes[0]);
  for (size_t j = 0; j < entries.size(); ++j) {
    const unsigned code = *packed_code(bytes, p, j);  // within the bytes, as checked
    if (code >= p.k)
      return "code " + std::to_string(code) + " of entry " + std::to_string(j) + " outside a list of " +
             std::to_string(p.k) + " scores";
    entries[j] = packed_score(bytes, code);
  }
  return {};
}

// The distinct scores of a block in ascending order, or an empty vector when there are more
// than MaxDictionary of them.
std::vector<uint16_t> distinct_scores(std::span<const uint16_t> scores) {
  std::vector<bool> seen(1u << 16);
  std::vector<uint16_t> distinct;
  for (uint16_t s : scores) {
    if (seen[s]) continue;
    if (distinct.size() == MaxDictionary) return {};
    seen[s] = true;
    distinct.push_back(s);
  }
  std::sort(distinct.begin(), distinct.end());
  return distinct;
}

}  // namespace

std::string to_string(BlockTransform t) {
  switch (t) {
    case BlockTransform::Constant: return "constant";
    case BlockTransform::Planes: return "planes";
    case BlockTransform::Dictionary: return "dictionary";
    case BlockTransform::Packed: return "packed";
  }
  return "transform " + std::to_string(static_cast<int>(t));
}

uint16_t plane_code(uint16_t raw) {
  const uint16_t value = raw & 7;
  const uint16_t depth = raw >> 3;
  const uint16_t half = depth >> 1;
  const uint16_t residual = (depth & 1) ^ expected_parity(value);
  const uint16_t low = static_cast<uint16_t>(value | (half & 31) << 3);
  const uint16_t high = static_cast<uint16_t>(half >> 5 | residual << 7);
  return static_cast<uint16_t>(low | high << 8);
}

uint16_t plane_decode(uint16_t code) { return from_plane_code(code); }

struct BlockEncoder::Impl {
  struct CCtxDeleter {
    void operator()(ZSTD_CCtx* ctx) const { ZSTD_freeCCtx(ctx); }
  };
  std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx{ZSTD_createCCtx()};
  std::vector<uint8_t> raw;  // the transformed block, reused from block to block
  std::vector<uint8_t> out;  // compressed bytes before they are copied out at their size
};

BlockEncoder::BlockEncoder(int level, TransformChoice choice)
    : impl_(std::make_unique<Impl>()), choice_(choice) {
  ZSTD_CCtx_setParameter(impl_->cctx.get(), ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(impl_->cctx.get(), ZSTD_c_contentSizeFlag, 1);
  ZSTD_CCtx_setParameter(impl_->cctx.get(), ZSTD_c_checksumFlag, 0);
}

BlockEncoder::~BlockEncoder() = default;

EncodedBlock BlockEncoder::encode(std::span<const uint16_t> scores) {
  assert(!scores.empty());
  if (std::all_of(scores.begin(), scores.end(), [&](uint16_t s) { return s == scores[0]; }))
    return {BlockTransform::Constant,
            {static_cast<uint8_t>(scores[0] & 0xff), static_cast<uint8_t>(scores[0] >> 8)}};
  if (choice_ == TransformChoice::Planes) return encode_planes(scores);
  const std::vector<uint16_t> distinct = distinct_scores(scores);
  if (distinct.empty()) return encode_planes(scores);
  if (choice_ == TransformChoice::Packed) return encode_packed(scores, distinct);
  EncodedBlock dictionary = encode_dictionary(scores, distinct);
  if (choice_ == TransformChoice::Dictionary) return dictionary;
  EncodedBlock planes = encode_planes(scores);
  return planes.bytes.size() < dictionary.bytes.size() ? planes : dictionary;
}

EncodedBlock BlockEncoder::encode_planes(std::span<const uint16_t> scores) {
  const size_t n = scores.size();
  std::vector<uint8_t>& raw = impl_->raw;
  raw.resize(2 * n);
  // Byte stores may alias the scores unless told otherwise; told, the loop vectorises (it was 4%
  // of a KRPkr build's CPU time).
  const uint16_t* __restrict in = scores.data();
  uint8_t* __restrict low = raw.data();
  uint8_t* __restrict high = low + n;
  for (size_t i = 0; i < n; ++i) {
    const uint16_t code = plane_code(in[i]);
    low[i] = static_cast<uint8_t>(code & 0xff);
    high[i] = static_cast<uint8_t>(code >> 8);
  }
  return {BlockTransform::Planes, compress(raw)};
}

EncodedBlock BlockEncoder::encode_dictionary(std::span<const uint16_t> scores,
                                             std::span<const uint16_t> distinct) {
  std::array<uint8_t, 1u << 16> code_of{};
  std::vector<uint8_t>& raw = impl_->raw;
  raw.clear();
  raw.push_back(static_cast<uint8_t>(distinct.size() - 1));
  for (size_t j = 0; j < distinct.size(); ++j) {
    code_of[distinct[j]] = static_cast<uint8_t>(j);
    raw.push_back(static_cast<uint8_t>(distinct[j] & 0xff));
    raw.push_back(static_cast<uint8_t>(distinct[j] >> 8));
  }
  for (uint16_t s : scores) raw.push_back(code_of[s]);
  return {BlockTransform::Dictionary, compress(raw)};
}

EncodedBlock BlockEncoder::encode_packed(std::span<const uint16_t> scores,
                                         std::span<const uint16_t> distinct) {
  const PackedLayout p = packed_layout(static_cast<uint8_t>(distinct.size() - 1));
  std::vector<uint8_t> bytes(p.codes + (scores.size() * p.w + 7) / 8);
  bytes[0] = static_cast<uint8_t>(p.k - 1);
  for (size_t c = 0; c < p.k; ++c) {
    bytes[1 + 2 * c] = static_cast<uint8_t>(distinct[c] & 0xff);
    bytes[2 + 2 * c] = static_cast<uint8_t>(distinct[c] >> 8);
  }
  for (size_t j = 0; j < scores.size(); ++j) {
    const auto code = static_cast<unsigned>(std::lower_bound(distinct.begin(), distinct.end(), scores[j]) -
                                            distinct.begin());
    const size_t bit = j * p.w;
    const size_t at = p.codes + bit / 8;
    bytes[at] = static_cast<uint8_t>(bytes[at] | code << (bit % 8));
    if (bit % 8 + p.w > 8) bytes[at + 1] = static_cast<uint8_t>(code >> (8 - bit % 8));
  }
  return {BlockTransform::Packed, std::move(bytes)};
}

std::vector<uint8_t> BlockEncoder::compress(std::span<const uint8_t> raw) {
  std::vector<uint8_t>& out = impl_->out;
  out.resize(std::max(out.size(), ZSTD_compressBound(raw.size())));
  const size_t size = ZSTD_compress2(impl_->cctx.get(), out.data(), out.size(), raw.data(), raw.size());
  if (ZSTD_isError(size))
    throw std::runtime_error(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
  return {out.begin(), out.begin() + static_cast<std::ptrdiff_t>(size)};
}

void fill_invalid(std::span<uint16_t> scores) {
  const auto valid = [](uint16_t raw) { return !Score::from_raw(raw).is_invalid(); };
  const auto first = std::find_if(scores.begin(), scores.end(), valid);
  if (first == scores.end()) return;
  uint16_t last = *first;
  for (uint16_t& raw : scores) {
    if (valid(raw))
      last = raw;
    else
      raw = last;
  }
}

std::string decode_block(BlockTransform transform, std::span<const uint8_t> bytes,
                         std::span<uint16_t> entries) {
  switch (transform) {
    case BlockTransform::Constant: return decode_constant(bytes, entries);
    case BlockTransform::Planes: return decode_planes(bytes, entries);
    case BlockTransform::Dictionary: return decode_dictionary(bytes, entries);
    case BlockTransform::Packed: return decode_packed(bytes, entries);
  }
  return "unknown block transform " + std::to_string(static_cast<int>(transform));
}

std::string check_packed_block(std::span<const uint8_t> bytes, size_t entries) {
  if (bytes.empty()) return "packed block of 0 bytes";
  const PackedLayout p = packed_layout(bytes[0]);
  const size_t bits = entries * p.w;
  const size_t expected = p.codes + (bits + 7) / 8;
  if (bytes.size() != expected)
    return "packed block of " + std::to_string(bytes.size()) + " bytes, expected " +
           std::to_string(expected) + " for " + std::to_string(entries) + " codes of " + std::to_string(p.w) +
           " bits into " + std::to_string(p.k) + " scores";
  for (size_t c = 1; c < p.k; ++c)
    if (packed_score(bytes, c) <= packed_score(bytes, c - 1))
      return "packed block's scores not ascending at score " + std::to_string(c);
  if (bits % 8 != 0 && bytes.back() >> (bits % 8) != 0)
    return "packed block's bits after its last code not zero";
  return {};
}

std::optional<uint16_t> packed_entry(std::span<const uint8_t> bytes, size_t j) {
  if (bytes.empty()) return std::nullopt;
  const PackedLayout p = packed_layout(bytes[0]);
  const std::optional<unsigned> code = packed_code(bytes, p, j);
  if (!code || *code >= p.k || p.codes > bytes.size()) return std::nullopt;
  return packed_score(bytes, *code);
}

bool in_place_transform(BlockTransform transform) {
  return transform == BlockTransform::Constant || transform == BlockTransform::Packed;
}

std::string check_in_place_block(BlockTransform transform, std::span<const uint8_t> bytes, size_t entries) {
  return transform == BlockTransform::Packed ? check_packed_block(bytes, entries) : check_constant(bytes);
}

std::optional<uint16_t> in_place_entry(BlockTransform transform, std::span<const uint8_t> bytes, size_t j) {
  if (transform == BlockTransform::Packed) return packed_entry(bytes, j);
  if (bytes.size() != ConstantBlockBytes) return std::nullopt;
  return constant_entry(bytes);
}

}  // namespace egtb
