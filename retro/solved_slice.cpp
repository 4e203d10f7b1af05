#include "retro/solved_slice.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <string>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace egtb::retro {

namespace {

// Numbers the slices of the process, so that a thread's unpacked chunks name the slice they are of.
std::atomic<uint64_t> next_slice_id{0};

}  // namespace

SolvedSlice::SolvedSlice(std::unique_ptr<SliceSets> sets, size_t first_variant, ScratchFile* scratch)
    : layout_(sets->layout),
      first_variant_(first_variant),
      variant_positions_(layout_.pair_words() * static_cast<uint64_t>(layout_.kings().size) * 64),
      id_(next_slice_id.fetch_add(1, std::memory_order_relaxed)) {
  if (sets->records)
    pair_chunks_ = static_cast<size_t>(std::max<uint64_t>(2, layout_.pair_words() * 64 / ChunkEntries));
  if (scratch)
    pack(*sets, *scratch);
  else
    kept_ = std::move(sets);
}

void SolvedSlice::pack(const SliceSets& sets, ScratchFile& scratch) {
  scratch_ = &scratch;
  const uint64_t positions = layout_.words() * 64;
  const size_t count = static_cast<size_t>((positions + ChunkEntries - 1) / ChunkEntries);
  tbb::enumerable_thread_specific<BlockEncoder> encoders(PackLevel);
  tbb::enumerable_thread_specific<std::vector<uint16_t>> buffers;
  for (Color c : {Color::White, Color::Black}) {
    chunks_[static_cast<size_t>(to_index(c))].resize(count);
    tbb::parallel_for(size_t{0}, (count + GroupChunks - 1) / GroupChunks,
                      [&](size_t g) { pack_group(sets, c, g, encoders.local(), buffers.local(), scratch); });
  }
}

void SolvedSlice::pack_group(const SliceSets& sets, Color c, size_t g, BlockEncoder& encoder,
                             std::vector<uint16_t>& raw, ScratchFile& scratch) {
  const uint64_t positions = layout_.words() * 64;
  auto& chunks = chunks_[static_cast<size_t>(to_index(c))];
  const size_t end = std::min(chunks.size(), (g + 1) * GroupChunks);
  thread_local std::vector<uint8_t> bytes;
  bytes.clear();
  for (size_t k = g * GroupChunks; k < end; ++k) {
    const uint64_t first = k * ChunkEntries;
    raw.resize(static_cast<size_t>(std::min(ChunkEntries, positions - first)));
    for (size_t i = 0; i < raw.size(); i += 64) sets.word_scores(c, (first + i) / 64, raw.data() + i);
    const EncodedBlock block = encoder.encode(raw);
    chunks[k] = {bytes.size(), static_cast<uint32_t>(block.bytes.size()), block.transform};
    bytes.insert(bytes.end(), block.bytes.begin(), block.bytes.end());
  }
  const uint64_t offset = scratch.append(bytes);
  for (size_t k = g * GroupChunks; k < end; ++k) chunks[k].offset += offset;
}

Score SolvedSlice::score(Color c, uint64_t p) const {
  if (kept_) return kept_->score(c, p);
  return Score::from_raw(chunk_of(c, p).raw[p % ChunkEntries]);
}

void SolvedSlice::word_scores(Color c, uint64_t word, Bitboard squares, Score* out) const {
  if (kept_) throw std::logic_error("a table of one slice has no pawn steps into other slices");
  const uint16_t* raw =
      chunk_of(c, word * 64).raw.data() + word * 64 % ChunkEntries;  // a word lies in one chunk
  for (; squares; squares &= squares - 1)
    *out++ = Score::from_raw(raw[static_cast<size_t>(to_index(lsb(squares)))]);
}

SliceSets::Word SolvedSlice::kept_word(Color c, uint64_t word) const {
  if (!kept_) throw std::logic_error("a packed slice's words are read through its chunks");
  return {*kept_, c, word};
}

SolvedSlice::Hold SolvedSlice::hold(Color c, uint64_t p) const {
  const Unpacked& unpacked = chunk_of(c, p, true);
  Hold h;
  h.slice_ = this;
  h.c_ = c;
  h.chunk_ = unpacked.chunk;
  h.raw_ = unpacked.raw.data();
  h.stamp_at_ = &unpacked.stamp;
  h.stamp_ = unpacked.stamp;
  return h;
}

const SolvedSlice::Unpacked& SolvedSlice::chunk_of(Color c, uint64_t p, bool in_order) const {
  Recent& r = recent(p / variant_positions_);
  const uint64_t chunk = p / ChunkEntries;
  const auto holds = [&](const Unpacked& u) { return u.id == id_ && u.c == c && u.chunk == chunk; };
  if (pair_chunks_ > 0 && r.pair.size() != pair_chunks_) r.pair.resize(pair_chunks_);
  thread_local uint64_t asks = 0;
  Unpacked& last = pair_chunks_ > 0                        ? r.pair[static_cast<size_t>(chunk % pair_chunks_)]
                   : holds(r.chunks[0])                    ? r.chunks[0]
                   : holds(r.chunks[1])                    ? r.chunks[1]
                   : r.chunks[0].asked < r.chunks[1].asked ? r.chunks[0]
                                                           : r.chunks[1];
  last.asked = ++asks;
  if (!holds(last)) {
    const auto k = static_cast<size_t>(chunk);
    last.id = ~uint64_t{0};
    unpack(c, k, packed_bytes(c, k, in_order, r.group), last.raw);
    thread_local uint64_t unpacks = 0;
    last.id = id_;
    last.c = c;
    last.chunk = chunk;
    last.stamp = ++unpacks;
  }
  return last;
}

std::span<const uint8_t> SolvedSlice::packed_bytes(Color c, size_t k, bool in_order, ReadGroup& read) const {
  const auto& chunks = chunks_[static_cast<size_t>(to_index(c))];
  const size_t g = k / GroupChunks;
  if (read.id != id_ || read.c != c) {
    read.id = id_;
    read.c = c;
    read.last = read.group = NoChunk;
  }
  const bool onward = in_order && read.last != NoChunk && k > read.last && k - read.last < GroupChunks;
  read.last = k;
  if (read.group != g && !onward) {
    thread_local std::vector<uint8_t> bytes;
    bytes.resize(chunks[k].size);
    scratch_->read(chunks[k].offset, bytes);
    return bytes;
  }
  if (read.group != g) {
    read.group = NoChunk;
    read_group(c, g, read.bytes);
    read.group = g;
  }
  return std::span<const uint8_t>(read.bytes)
      .subspan(static_cast<size_t>(chunks[k].offset - chunks[g * GroupChunks].offset), chunks[k].size);
}

void SolvedSlice::read_group(Color c, size_t g, std::vector<uint8_t>& bytes) const {
  const auto& chunks = chunks_[static_cast<size_t>(to_index(c))];
  const PackedChunk& first = chunks[g * GroupChunks];
  const PackedChunk& last = chunks[std::min(chunks.size(), (g + 1) * GroupChunks) - 1];
  bytes.resize(static_cast<size_t>(last.offset + last.size - first.offset));
  scratch_->read(first.offset, bytes);
}

void SolvedSlice::unpack(Color c, size_t k, std::span<const uint8_t> bytes,
                         std::vector<uint16_t>& raw) const {
  const uint64_t first = k * ChunkEntries;
  raw.resize(static_cast<size_t>(std::min(ChunkEntries, layout_.words() * 64 - first)));
  const BlockTransform transform = chunks_[static_cast<size_t>(to_index(c))][k].transform;
  if (const std::string error = decode_block(transform, bytes, raw); !error.empty())
    throw std::logic_error("a packed slice does not unpack: " + error);
}

void SolvedSlice::for_each_chunk(Color c,
                                 const std::function<void(uint64_t, std::span<const uint16_t>)>& f) const {
  if (kept_) throw std::logic_error("a slice kept in memory has no chunks");
  const auto& chunks = chunks_[static_cast<size_t>(to_index(c))];
  std::vector<uint8_t> bytes;
  std::vector<uint16_t> raw;
  for (size_t g = 0; g * GroupChunks < chunks.size(); ++g) {
    read_group(c, g, bytes);
    for (size_t k = g * GroupChunks; k < std::min(chunks.size(), (g + 1) * GroupChunks); ++k) {
      const auto at = static_cast<size_t>(chunks[k].offset - chunks[g * GroupChunks].offset);
      unpack(c, k, std::span<const uint8_t>(bytes).subspan(at, chunks[k].size), raw);
      f(k * ChunkEntries, raw);
    }
  }
}

SolvedSlice::Recent& SolvedSlice::recent(uint64_t v) const {
  thread_local std::deque<Recent> last;  // grows at its end: holds stay valid
  const size_t k = first_variant_ + static_cast<size_t>(v);
  if (last.size() <= k) last.resize(k + 1);
  return last[k];
}

}  // namespace egtb::retro
