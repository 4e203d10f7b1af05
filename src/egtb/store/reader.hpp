// Reading table files (format.hpp): the header once, then single blocks and their index entries on
// demand, with pread (the header and block index kept as read at opening) or from the file mapped
// into memory (TableRequirements::mapped).
// The one reader of a finished table: Tablebase, the solver's subtables, query scans, statistics,
// the verifier and the scheduler all open table files through it.
//
// Opening reads and checks the header and the block index against the file checksum, and the file
// size against the header; every block read checks its index entry (format.hpp, decode_block_ref)
// and that block's checksum before decoding it, and reading the whole file (verify) checks that the
// blocks are contiguous too. A damaged file therefore raises FormatError naming the file (and the
// block), never returns a wrong score. Opening also checks, once for every caller, that this program can use
// the table (its index scheme, version and entries) and that it is the table the caller asked for
// (TableRequirements: signature, rules, metrics), with a message that says how to rebuild it.
//
// The checksums cannot tell whether the header's index order is the one the blocks were written
// in: a header edited to another order of the same table, its file checksum recomputed, would
// pass them, and every entry would be read as another position's. The blocks themselves tell: an
// entry stored as invalid holds no position under the order the blocks were written in (men on
// one square, the side not to move in check), and another order has positions there (25-40% of
// a table's entries are invalid; a file filled by recompress --fill keeps them only in blocks
// without a position, so it is checked little). So opening an indexable table checks the first
// block of each side against the header's order, and verify() checks every block
// (check_invalid_entries).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "egtb/core/material.hpp"
#include "egtb/core/types.hpp"
#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "indexing/index.hpp"

namespace egtb {

// What a caller needs of the table file it opens; an unset field accepts anything.
struct TableRequirements {
  std::optional<Material> material;  // the signature it must hold (either colour orientation)
  std::optional<Rules> rules;        // the rules it must be built under
  MetricSet metrics;                 // metrics it must carry (DTS for a table that needs stalemates)
  // False: only the file's integrity is checked, not that this build can index it (`egtb info`
  // describes any table file; scheme() is then unavailable).
  bool indexable = true;
  // True: the caller asks only for the entries of legal positions (IndexScheme::index_of), as
  // probes do, so the blocks of a filled file (format.hpp) are read as stored. False: they come
  // back with their invalid entries restored from the index (IndexScheme::for_each_invalid).
  bool positions_only = false;
  // True: the file is mapped into memory (MappedFile) and a block read copies from the mapping
  // without a system call, for probes that read blocks at random (Tablebase). False: blocks are
  // read with pread, so that a file read whole (a solve's subtables, verify) keeps none of its
  // pages in the process's resident memory (a 6-man verification reads a 4 GB table).
  bool mapped = false;

  // The requirements that check the file alone.
  [[nodiscard]] static TableRequirements file_only() { return {std::nullopt, std::nullopt, {}, false}; }
};

// What tells one file, and one version of it, from another (TableReader::file_changed).
struct FileIdentity {
  uint64_t device = 0, inode = 0, size = 0;
  int64_t modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// A regular file mapped read-only into memory (mmap): its pages are read from the page cache as
// they are first touched, with no copy and no system call, so that opening a file of 100 MB costs
// what is read of it. A file truncated in place while mapped (cp over it) loses the pages past its
// new end, and touching one would stop the process with SIGBUS; copy() and checksum() touch them
// under a guard that turns that into a failed read. egtb itself replaces files by renaming a
// complete temporary over them, which leaves a mapped file whole.
class MappedFile {
public:
  // Maps the regular file at `path` (a FIFO, directory or device is refused, never waited on).
  // Throws IoError, or FormatError when the file has more than `limit` bytes.
  MappedFile(const std::filesystem::path& path, uint64_t limit);
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::span<const uint8_t> bytes() const { return {data_, size_}; }
  [[nodiscard]] const uint8_t* data() const { return data_; }
  [[nodiscard]] uint64_t size() const { return size_; }
  // The file as it was when mapped.
  [[nodiscard]] const FileIdentity& identity() const { return identity_; }
  // Copies the bytes from `offset` on into `out`; false when the file no longer has them (cut
  // short in place since it was mapped). Precondition: offset + out.size() <= size().
  [[nodiscard]] bool copy(uint64_t offset, std::span<uint8_t> out) const;
  // checksum_of (format.hpp) the bytes [offset, offset + count), or nothing as for copy().
  [[nodiscard]] std::optional<uint64_t> checksum(uint64_t offset, uint64_t count) const;
  // Runs `read`, which touches the mapping, under the guard copy() and checksum() read under;
  // false when the file no longer has a page it touched. `read` may be left by a jump out of the
  // signal handler at any touch, so it must hold no object with a destructor while it touches
  // (throwing is allowed: the guard is cleared). Example: a value file's probe reading one byte.
  template <class Read>
  [[nodiscard]] bool guarded(const Read& read) const {
    return run_guarded([](const void* r) { (*static_cast<const Read*>(r))(); }, &read);
  }

private:
  const uint8_t* data_ = nullptr;  // null for an empty file
  uint64_t size_ = 0;
  FileIdentity identity_;

  static bool run_guarded(void (*read)(const void*), const void* context);
};

class TableReader {
public:
  // Opens and checks a table file. Throws IoError (cannot open or read: missing, a directory,
  // not a regular file) or FormatError (damaged, incompatible, or not what `required` asks for).
  explicit TableReader(const std::filesystem::path& path, const TableRequirements& required = {});
  ~TableReader();
  TableReader(const TableReader&) = delete;
  TableReader& operator=(const TableReader&) = delete;

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  // True when the file at path() is no longer the one opened: another file put in its place, or
  // this one rewritten (another size or modification time). Its blocks then no longer match the
  // block index read at opening.
  [[nodiscard]] bool file_changed() const;
  [[nodiscard]] const TableHeader& header() const { return header_; }
  // Precondition: opened with `indexable` requirements.
  [[nodiscard]] const indexing::IndexScheme& scheme() const { return *scheme_; }
  [[nodiscard]] const Material& material() const { return scheme_->material(); }
  [[nodiscard]] Rules rules() const { return header_.rules; }
  // Block `block`'s index entry, checked (decode_block_ref): from the mapping, or from the bytes
  // read at opening. Throws std::out_of_range for a block the file does not have.
  [[nodiscard]] BlockRef block_ref(uint64_t block) const;
  [[nodiscard]] uint64_t entries(Color stm) const {
    return header_.entries[static_cast<size_t>(to_index(stm))];
  }

  // The block holding entry `index` of side `stm`, and that entry's position inside it.
  [[nodiscard]] uint64_t block_of(Color stm, uint64_t index) const;
  [[nodiscard]] size_t offset_in_block(uint64_t index) const { return index % header_.block_entries; }

  // Reads, checks and decodes one block into `out` (resized to the block's entries), with the
  // invalid entries of a filled file restored unless opened for positions only or not indexable.
  // Safe to call from several threads at once. Throws FormatError or IoError.
  void read_block(uint64_t block, std::vector<uint16_t>& out) const;
  // The score of one entry, read from its block (no caching: Tablebase caches).
  [[nodiscard]] Score read_entry(Color stm, uint64_t index) const;
  // True when a probe reads this file's entries where they lie (entry_in_place): a file of Packed
  // blocks (format version 4, `egtb recompress --packed`), mapped, read as stored.
  [[nodiscard]] bool reads_in_place() const { return checked_blocks_ != nullptr; }
  // Entry j of block `block` read where it lies in the mapped file, when the block is Packed or
  // Constant, decoding nothing: the block copied out, its checksum and structure checked, at its
  // first read (by any thread), then its bytes read in the mapping. Nothing for a block of another
  // transform, which the caller decodes (read_block). Precondition: reads_in_place(), j below the
  // block's entries. Throws FormatError naming the block when it is damaged or malformed, or
  // changed in place since it was checked so that entry j lies outside its codes or list; IoError
  // when the file was cut short in place. Example: KQRkr recompressed with --packed on blocks of
  // 1,024 entries, a probe reads 3 bytes of its block's 650 or so, and 24 of the block index.
  [[nodiscard]] std::optional<Score> entry_in_place(uint64_t block, size_t j) const;
  // Reads, checks and decodes one block into `out`, which has exactly the block's entries.
  void read_block(uint64_t block, std::span<uint16_t> out) const;
  // Every entry of one side to move, in index order, into `out` of entries(stm) entries.
  void read_side(Color stm, std::span<uint16_t> out) const;
  [[nodiscard]] std::vector<uint16_t> read_side(Color stm) const;
  // Every entry of one side to move in the order of the king pair leading (indexing/index.hpp),
  // whatever order the file's index digits have: entry j of the result is entry j of
  // IndexScheme(material()). Tables compared entry by entry are read so.
  [[nodiscard]] std::vector<uint16_t> read_side_kings_first(Color stm) const;
  // Reads every block, on `threads` threads (0: every core), checking its checksum, and compares
  // the decoded values with the header's counts and maxima. Blocks of a filled file read as
  // stored hold the same maxima, and each value at least as often as the header counts it.
  void verify(int threads = 0) const;
  // Reads every block, on `threads` threads, checking its checksum without decoding it: what tells
  // a damaged or truncated file, since the checksums cover every stored byte (format.hpp), at a
  // small part of verify()'s cost (KRPkr and its 18 subtables, 332 MB: 0.3 s against 3.6 s).
  void verify_checksums(int threads = 0) const;

private:
  std::filesystem::path path_;
  std::optional<MappedFile> mapped_;  // the file mapped, when opened `mapped`
  int fd_ = -1;                       // else the file open for pread,
  std::vector<uint8_t> preamble_;     // and its header and block index as read at opening
  FileIdentity identity_;
  TableHeader header_;
  bool positions_only_ = false;
  std::optional<indexing::IndexScheme> scheme_;
  // A bit per block of a file read in place, set once its checksum and structure were checked;
  // null for every other file.
  std::unique_ptr<std::atomic<uint64_t>[]> checked_blocks_;

  // Whether read_block restores the invalid entries of a filled file.
  [[nodiscard]] bool restores_invalid() const { return header_.filled && scheme_ && !positions_only_; }
  // Sets the entries of `out`, block `block` as decoded, that hold no position to Score::invalid().
  void restore_invalid(uint64_t block, std::span<uint16_t> out) const;
  // Throws FormatError when an entry of block `block`, decoded in `entries`, is stored as
  // Score::invalid() but holds a position under `scheme`.
  void check_invalid_entries(const indexing::IndexScheme& scheme, uint64_t block,
                             std::span<const uint16_t> entries) const;
  // check_invalid_entries on the first block of each side: at opening.
  void check_first_blocks() const;
  // The index scheme of a file this program can index, else nothing (for a file opened with
  // requirements that are not `indexable`).
  [[nodiscard]] std::optional<indexing::IndexScheme> scheme_if_indexable() const;

  // Reads and checks the file's preamble and that it meets `required`.
  [[nodiscard]] std::optional<indexing::IndexScheme> opened(const TableRequirements& required);
  // Decodes header_ and checks it, the file checksum over header and block index, and the file size.
  void read_preamble();
  // The whole block index, checked (decode_block_index): for the readers of every block.
  void check_block_index() const;
  // The stored bytes of one block, their checksum checked, in a buffer of the calling thread that
  // the next call overwrites. Throws FormatError or IoError.
  [[nodiscard]] std::span<const uint8_t> read_stored_block(uint64_t block, const BlockRef& ref) const;
  // entry_in_place at the block's first read: its stored bytes read and checked, then entry j.
  [[nodiscard]] Score first_entry_in_place(uint64_t block, const BlockRef& ref, size_t j) const;
  [[nodiscard]] bool within_file(uint64_t offset, uint64_t size) const {
    return offset <= identity_.size && size <= identity_.size - offset;
  }
  // Opens the file (mapped or for pread) and records its identity.
  void open_file(bool mapped);
  // Copies the file's bytes from `offset` on into `out`; `what()` names them in the error thrown
  // when the file ends before (FormatError) or was cut short since it was opened (IoError).
  template <class What>
  void copy_bytes(uint64_t offset, std::span<uint8_t> out, const What& what) const;
  [[nodiscard]] std::vector<uint8_t> read_bytes(uint64_t offset, uint64_t size, const char* what) const;
  // The IoError of a read of `what` that found the file cut short since it was opened.
  [[nodiscard]] IoError cut_short(const std::string& what) const;
  [[nodiscard]] std::string describe_block(uint64_t block) const;
};

// The index scheme of the table header `h` describes, after checking that this program can index
// it (signature, index scheme and version, entries, index order) and that it meets `required`
// (signature, rules, metrics): what TableReader checks at opening, and the value files' reader
// (value_file.hpp) too. Throws FormatError naming `path`, with how to rebuild the table.
[[nodiscard]] indexing::IndexScheme usable_scheme(const TableHeader& h, const std::filesystem::path& path,
                                                  const TableRequirements& required);

// The identity of the file at `path` now, or nothing when it cannot be read: what tells whatever
// was computed from a table file before from the file there now.
[[nodiscard]] std::optional<FileIdentity> file_identity(const std::filesystem::path& path);

// The header of a table file, after checking the file checksum and that it meets `required`.
[[nodiscard]] TableHeader read_header(const std::filesystem::path& path,
                                      const TableRequirements& required = {});

// Checks every checksum of a file and that its entries match the header's counts (for `egtb
// info`, `egtb verify` and the scheduler's "kept"). Throws FormatError or IoError naming the first
// problem.
void verify_file(const std::filesystem::path& path, const TableRequirements& required = {});

}  // namespace egtb
