// The lean path's decided depths (SolveConfig::lean): instead of a depth byte per position held
// for the whole solve (depths.hpp), each ply's decided set of each king pair slot and side is
// appended to an unnamed scratch file (scratch_file.hpp) as it is decided, and a slot's depths
// are rebuilt from its records only when its scores are packed (solved_slice.hpp), one slot at a
// time. A position decided at depth d of phase f lies in exactly one record, (f, d), of its slot.
//
// A record lists the slot's nonzero words of the decided set in ascending order. Each word is a
// LEB128 number (7 bits a byte, the high bit set on all but the last), its offset's gap from the
// previous listed word's offset plus one (from 0 for the first), doubled, plus 1 when the word is
// dense (8 bits or more): then its 8 bytes follow, little-endian; else the squares of its bits
// follow, a byte each, ascending, the last one with 0x80 added. Example: words 3 (bits 5 and 9)
// and 4 (every bit) give the bytes 08 05 89 (gap 4 doubled, squares 5 and 9 | 0x80), 03 (gap 1
// doubled, plus 1) and ff ff ff ff ff ff ff ff. About a byte per decided position where a ply's
// positions are sparse, a bit where they are dense.
//
// A slot's records follow each other in its stream of bytes, held in memory until FlushBytes
// gather and then appended to the file in one write (KRkp's records, a few bytes each, took a
// system call each), so that a slot is rebuilt from a few reads.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "egtb/core/types.hpp"
#include "retro/scratch_file.hpp"

namespace egtb::retro {

class DepthRecords {
public:
  // A rebuilt position's code: NotDecided, or its depth plus FirstPhase when it was decided in
  // the first phase. Example: DTM 19 is 0x8013, DTS 300 is 300.
  static constexpr uint16_t NotDecided = 0xFFFF;
  static constexpr uint16_t FirstPhase = 0x8000;

  // Records for `slots` pair slots of `slot_words` words each, in an unnamed file in `directory`.
  DepthRecords(const std::filesystem::path& directory, size_t slots, uint64_t slot_words);

  // Appends side c's positions of pair slot `slot` decided at depth `ply` of phase `phase`: the
  // words words[offset] for the listed offsets (ascending, each word nonzero). One thread at a
  // time per slot and side. Throws std::overflow_error past Score::MaxDepth plies.
  void append(Color c, size_t slot, size_t phase, int ply, const uint64_t* words,
              std::span<const uint32_t> offsets);
  // Writes what the slots hold in memory to the file: before the first rebuild.
  void flush();
  // The codes of side c's positions in pair slot `slot`: out[k] for the slot's k-th position
  // (out.size() == slot_words * 64).
  void rebuild(Color c, size_t slot, std::span<uint16_t> out) const;
  // Unique in the process: tells the threads' rebuilt slots apart.
  [[nodiscard]] uint64_t id() const { return id_; }

private:
  static constexpr size_t FlushBytes = size_t{1} << 14;

  struct Record {
    uint32_t size = 0;
    uint16_t code = 0;  // the code its positions get
  };
  // A run of a slot's stream in the file.
  struct Run {
    uint64_t offset = 0;
    uint64_t size = 0;
  };
  struct Slot {
    std::vector<Record> records;
    std::vector<Run> runs;
    std::vector<uint8_t> held;  // the stream's bytes not written yet
  };

  void write_held(Slot& slot);
  [[nodiscard]] Slot& slot(Color c, size_t slot);
  [[nodiscard]] const Slot& slot(Color c, size_t slot) const;

  ScratchFile file_;
  uint64_t slot_words_;
  std::vector<Slot> slots_;  // by side and slot: [c * slots + slot]
  uint64_t id_;
};

}  // namespace egtb::retro
