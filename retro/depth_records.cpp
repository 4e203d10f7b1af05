#include "retro/depth_records.hpp"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>

#include "egtb/core/bitboard.hpp"
#include "egtb/store/score.hpp"

namespace egtb::retro {

namespace {

std::atomic<uint64_t> next_records_id{0};

// Words with this many bits or more are written as they are (8 bytes) rather than square by square.
constexpr int DenseBits = 8;

void put_leb128(std::vector<uint8_t>& bytes, uint64_t v) {
  for (; v >= 0x80; v >>= 7) bytes.push_back(static_cast<uint8_t>(v | 0x80));
  bytes.push_back(static_cast<uint8_t>(v));
}

uint64_t get_leb128(std::span<const uint8_t> bytes, size_t& i) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = bytes[i++];
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (b < 0x80) return v;
  }
}

// Appends the record of the listed words (the header's format) to `bytes`.
void encode(const uint64_t* words, std::span<const uint32_t> offsets, std::vector<uint8_t>& bytes) {
  uint64_t next = 0;  // the offset after the previous word
  for (const uint32_t offset : offsets) {
    const uint64_t word = words[offset];
    const bool dense = popcount(word) >= DenseBits;
    put_leb128(bytes, (offset + 1 - next) << 1 | (dense ? 1 : 0));
    next = uint64_t{offset} + 1;
    if (dense) {
      for (int k = 0; k < 8; ++k) bytes.push_back(static_cast<uint8_t>(word >> (8 * k)));
      continue;
    }
    for (Bitboard b = word; b; b &= b - 1)
      bytes.push_back(static_cast<uint8_t>(to_index(lsb(b)) | ((b & (b - 1)) ? 0 : 0x80)));
  }
}

// Gives the positions of a record, out[k] = code for each.
void decode(std::span<const uint8_t> bytes, uint16_t code, std::span<uint16_t> out) {
  uint64_t next = 0;
  for (size_t i = 0; i < bytes.size();) {
    const uint64_t v = get_leb128(bytes, i);
    const uint64_t word = next + (v >> 1) - 1;
    next = word + 1;
    uint16_t* at = out.data() + word * 64;
    if (v & 1) {
      uint64_t bits = 0;
      for (int k = 0; k < 8; ++k) bits |= uint64_t{bytes[i++]} << (8 * k);
      for (; bits; bits &= bits - 1) at[to_index(lsb(bits))] = code;
      continue;
    }
    for (bool last = false; !last;) {
      const uint8_t b = bytes[i++];
      at[b & 0x3f] = code;
      last = (b & 0x80) != 0;
    }
  }
}

}  // namespace

DepthRecords::DepthRecords(const std::filesystem::path& directory, size_t slots, uint64_t slot_words)
    : file_(directory, "the decided plies"),
      slot_words_(slot_words),
      slots_(2 * slots),
      id_(next_records_id.fetch_add(1, std::memory_order_relaxed)) {}

void DepthRecords::append(Color c, size_t slot, size_t phase, int ply, const uint64_t* words,
                          std::span<const uint32_t> offsets) {
  if (ply > Score::MaxDepth)
    throw std::overflow_error("depth " + std::to_string(ply) + " exceeds the " +
                              std::to_string(Score::MaxDepth) + " plies a table can store");
  if (offsets.empty()) return;
  Slot& s = this->slot(c, slot);
  const size_t start = s.held.size();
  encode(words, offsets, s.held);
  const auto code = static_cast<uint16_t>(ply | (phase == 0 ? FirstPhase : 0));
  s.records.push_back({static_cast<uint32_t>(s.held.size() - start), code});
  if (s.held.size() >= FlushBytes) write_held(s);
}

void DepthRecords::flush() {
  for (Slot& s : slots_) write_held(s);
}

void DepthRecords::write_held(Slot& slot) {
  if (slot.held.empty()) return;
  slot.runs.push_back({file_.append(slot.held), slot.held.size()});
  std::vector<uint8_t>().swap(slot.held);
}

void DepthRecords::rebuild(Color c, size_t slot, std::span<uint16_t> out) const {
  if (out.size() != slot_words_ * 64)
    throw std::logic_error("a pair slot rebuilt into a buffer of another size");
  const Slot& s = this->slot(c, slot);
  if (!s.held.empty()) throw std::logic_error("a pair slot rebuilt before its records were flushed");
  std::fill(out.begin(), out.end(), NotDecided);
  thread_local std::vector<uint8_t> stream;
  stream.clear();
  for (const Run& run : s.runs) {
    const size_t at = stream.size();
    stream.resize(at + run.size);
    file_.read(run.offset, std::span(stream).subspan(at));
  }
  size_t at = 0;
  for (const Record& r : s.records) {
    decode(std::span<const uint8_t>(stream).subspan(at, r.size), r.code, out);
    at += r.size;
  }
}

DepthRecords::Slot& DepthRecords::slot(Color c, size_t slot) {
  return slots_[static_cast<size_t>(to_index(c)) * slots_.size() / 2 + slot];
}

const DepthRecords::Slot& DepthRecords::slot(Color c, size_t slot) const {
  return slots_[static_cast<size_t>(to_index(c)) * slots_.size() / 2 + slot];
}

}  // namespace egtb::retro
