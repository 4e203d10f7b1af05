// The slice storage: the solved slices of a table (SolvedSlice), kept as the solver left them or
// packed into a scratch file, and what a solved table keeps of the solver (Solution::Sets). The
// solver (solver.cpp) adds each slice as it finishes; the exits of a later slice and the writer
// (run_positions.cpp) read their scores.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "egtb/store/block_codec.hpp"
#include "indexing/word_layout.hpp"
#include "retro/scratch_file.hpp"
#include "retro/slice_sets.hpp"
#include "retro/solver.hpp"

namespace egtb::retro {

// raw scores compressed (store/block_codec.hpp) in chunks of ChunkEntries positions and written
// to a scratch file (retro/scratch_file.hpp), so that only the slice being solved is held in
// memory. A chunk is read back and unpacked when a score of it is asked for (by the exits of a
// later placement slice, or by the writer), and each thread keeps the last two chunks it unpacked
// of every variant of every slice for the next asks. A reader in order (the writer) reads the
// packed chunks a group (GroupChunks) at a time while it moves forward through a variant's
// chunks. A chunk is 64 words: a word lies in one.
// The writer asks in storage order, where a run of a few thousand entries visits every variant
// but only a chunk or two of each: KRPkr's storage index runs through the pawn's squares (every
// variant) inside each rook square, while a variant's layout (a placement slice's) holds the 64
// rook squares of a king pair, 4,096 positions, in a row.
class SolvedSlice {
public:
  // A slice of its table, solved in `sets`; `first_variant` numbers its first variant among the
  // variants of every slice of the table. With a scratch file it is packed into it, else kept.
  SolvedSlice(std::unique_ptr<SliceSets> sets, size_t first_variant, ScratchFile* scratch);

  [[nodiscard]] const indexing::WordLayout& layout() const { return layout_; }
  [[nodiscard]] Score score(Color c, uint64_t p) const;
  // The scores of the positions of `word` of side c on `squares` (its bits): out[i] for the i-th.
  // Packed slices only: only a table of several slices has pawn steps into another.
  void word_scores(Color c, uint64_t word, Bitboard squares, Score* out) const;
  // The scores of the positions of `word` of side c, its sets and depth bytes read once. Kept
  // slices only (a packed slice's reader holds its chunk).
  [[nodiscard]] SliceSets::Word kept_word(Color c, uint64_t word) const;

  // A chunk a thread unpacked.
  struct Unpacked {
    uint64_t id = ~uint64_t{0};  // of the slice it belongs to
    Color c = Color::White;
    uint64_t chunk = 0;
    uint64_t stamp = 0;  // the thread's count of unpacks when this one was made
    uint64_t asked = 0;  // the thread's count of asks when it was last asked for
    std::vector<uint16_t> raw;
  };

  // A thread's hold on an unpacked chunk of a packed slice, through which the writer reads a
  // run's scores without asking chunk_of for each: it holds while the run stays in the chunk and
  // the thread has not unpacked another chunk in its place (the stamp, unique per unpack in a
  // thread, tells). Example: KRPkr's runs of the pawn's 48 squares, each square's position one
  // step apart from run to run, read 4,096 positions of a chunk through one hold.
  // The hold keeps what it checks beside the chunk's scores, so that a check reads one line of
  // the hold and the stamp of the chunk it holds.
  class Hold {
  public:
    [[nodiscard]] bool holds(const SolvedSlice* slice, Color c, uint64_t p) const {
      return slice == slice_ && c == c_ && p / ChunkEntries == chunk_ && *stamp_at_ == stamp_;
    }
    [[nodiscard]] uint16_t raw(uint64_t p) const { return raw_[p % ChunkEntries]; }

  private:
    friend class SolvedSlice;
    const SolvedSlice* slice_ = nullptr;
    Color c_ = Color::White;
    uint64_t chunk_ = ~uint64_t{0};
    const uint16_t* raw_ = nullptr;
    const uint64_t* stamp_at_ = nullptr;  // the stamp of the unpacked chunk held
    uint64_t stamp_ = 0;
  };
  [[nodiscard]] bool packed() const { return kept_ == nullptr; }
  // Packed slices only: a hold on the calling thread's chunk of side c holding position p.
  [[nodiscard]] Hold hold(Color c, uint64_t p) const;
  // Calls f(first, raw) for every chunk of side c of a packed slice in turn, unpacked: raw[k] is
  // the score of position first + k. One read per group of chunks, and nothing kept: for a reader
  // of the whole slice (Solution::gather).
  void for_each_chunk(Color c, const std::function<void(uint64_t, std::span<const uint16_t>)>& f) const;

  // The positions of a chunk: position p lies in chunk p / ChunkEntries.
  static constexpr uint64_t ChunkEntries = 1 << 12;

private:
  // Chunks packed together: one write to the scratch file for each group, and one read for the
  // writer when it reads a variant's chunks in order (KRPkr: about 18 KB a group instead of 16
  // system calls of 1.1 KB each). A chunk asked for out of order is read alone: choosing the
  // storage order samples blocks in every candidate order, where a group read for one chunk
  // costs 16 (KBPkp's order 0.61-0.70 s in file slices, 0.35-0.40 s reading those alone).
  static constexpr size_t GroupChunks = 16;
  // zstd's fastest levels: the chunks live only until written and are unpacked several times, so
  // speed beats size (docs/scale.md measures levels 1 to -256).
  static constexpr int PackLevel = -256;

  // Where a packed chunk lies in the scratch file.
  struct PackedChunk {
    uint64_t offset = 0;
    uint32_t size = 0;
    BlockTransform transform = BlockTransform::Constant;
  };

  indexing::WordLayout layout_;
  std::unique_ptr<SliceSets> kept_;
  const ScratchFile* scratch_ = nullptr;            // holds the packed chunks
  std::array<std::vector<PackedChunk>, 2> chunks_;  // by side to move
  size_t first_variant_;
  uint64_t variant_positions_;  // the positions of one variant
  size_t pair_chunks_ = 0;      // on the lean path: the chunks of a king pair (Recent::pair)
  uint64_t id_;                 // unique in the process: tells the threads' unpacked chunks apart

  // What a thread read last of a variant's packed chunks of side c: the chunk, and the group of
  // chunks it read in one go (a read in order of a chunk less than a group after `last`).
  static constexpr size_t NoChunk = ~size_t{0};
  struct ReadGroup {
    uint64_t id = ~uint64_t{0};  // of the slice it belongs to
    Color c = Color::White;
    size_t last = NoChunk;   // the chunk read last
    size_t group = NoChunk;  // the group whose chunks `bytes` holds
    std::vector<uint8_t> bytes;
  };
  // What a thread keeps of variant v of the slice: its last two unpacked chunks (the two sides of
  // a chunk boundary inside a run of the storage order), the one asked for longer ago replaced
  // first and neither moved, so that a Hold on either stays good; and what it read last. A slice
  // solved on the lean path (a pawnless table, packed whole) keeps instead a king pair's worth of
  // chunks, chunk k in pair[k % pair_chunks_]: the storage order of identical men hops between
  // the chunks of a pair from one run to the next (KRRkr in "Kk RR r", whose writing took 30 s
  // instead of 2 with two chunks).
  struct Recent {
    std::array<Unpacked, 2> chunks;
    std::vector<Unpacked> pair;
    ReadGroup group;
  };

  void pack(const SliceSets& sets, ScratchFile& scratch);
  // Packs the chunks of group g of side c and appends them to the scratch file.
  void pack_group(const SliceSets& sets, Color c, size_t g, BlockEncoder& encoder, std::vector<uint16_t>& raw,
                  ScratchFile& scratch);
  // The unpacked chunk of side c holding position p (this thread's, until its next ask). With
  // `in_order`, a reader that goes on to the chunks after it: their whole group is read at once.
  [[nodiscard]] const Unpacked& chunk_of(Color c, uint64_t p, bool in_order = false) const;
  // The packed bytes of chunk k of side c, read alone or, `in_order`, through the group `read`.
  [[nodiscard]] std::span<const uint8_t> packed_bytes(Color c, size_t k, bool in_order,
                                                      ReadGroup& read) const;
  // Reads the packed bytes of group g of side c, its chunks in a row, into `bytes`.
  void read_group(Color c, size_t g, std::vector<uint8_t>& bytes) const;
  // Unpacks chunk k of side c from its packed bytes into raw (resized to the chunk's positions).
  void unpack(Color c, size_t k, std::span<const uint8_t> bytes, std::vector<uint16_t>& raw) const;
  [[nodiscard]] Recent& recent(uint64_t v) const;
};

// What a solved table keeps of the solver: its solved slices and the scores of its e.p. entries.
struct Solution::Sets {
  Sets(const Material& material, Rules r, MetricSet m, indexing::Slicing slicing)
      : scheme(material), slices(scheme, slicing), rules(r), metrics(m), phases(solve_phases(r)) {
    if (phases.size() > 2) throw std::logic_error("the solver keeps two phases apart, not more");
    for (auto& scores : ep_scores) scores.assign(scheme.ep_size(), Score::invalid().raw());
  }

  indexing::IndexScheme scheme;
  indexing::PawnSlices slices;
  Rules rules;
  MetricSet metrics;  // the phases solved
  std::span<const SolvePhase> phases;
  std::unique_ptr<ScratchFile> scratch;            // the packed slices of a table of several
  std::vector<SolvedSlice> solved;                 // by slice, as they are solved
  std::array<std::vector<uint16_t>, 2> ep_scores;  // raw, by side to move and e.p. entry
};

}  // namespace egtb::retro
