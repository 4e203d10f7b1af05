#include "egtb/store/reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "egtb/store/error.hpp"

namespace egtb {

namespace {

std::string side_name(int side) { return side == 0 ? "White to move" : "Black to move"; }

// Opens a regular file for reading without blocking on a FIFO: a FIFO, a directory or a device in
// place of a table is refused, never waited on. Throws IoError.
int open_regular_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw IoError(path, os_error("cannot open table", errno));
  struct stat st {};
  const bool stat_ok = ::fstat(fd, &st) == 0;
  const int error = errno;
  if (stat_ok && S_ISREG(st.st_mode)) {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
  }
  ::close(fd);
  if (!stat_ok) throw IoError(path, os_error("cannot stat table", error));
  throw IoError(path, S_ISDIR(st.st_mode)
                          ? "is a directory, not a table file"
                          : "is not a regular file (a FIFO, device or socket), not a table file");
}

// Whether the entries of a filled side, counted as stored (`stored`), can be those the header
// counts (`solved`) with each invalid entry replaced by a valid score of the side: the same maxima,
// and each value at least as often.
bool filled_from(const SideStats& stored, const SideStats& solved) {
  if (stored.max_depths != solved.max_depths || stored.entries() != solved.entries()) return false;
  for (size_t v = 0; v < stored.values.size(); ++v)
    if (stored.values[v] < solved.values[v]) return false;
  return stored.invalid <= solved.invalid;
}

FileIdentity identity_of(const struct stat& st) {
  return {st.st_dev, st.st_ino, static_cast<uint64_t>(st.st_size),
          int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace

std::optional<FileIdentity> file_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return identity_of(st);
}

bool TableReader::file_changed() const { return file_identity(path_) != identity_; }

TableReader::TableReader(const std::filesystem::path& path, const TableRequirements& required)
    : path_(path), positions_only_(required.positions_only) {
  open_file(required.mapped);
  try {
    scheme_ = opened(required);
    if (scheme_) check_first_blocks();
    if (mapped_ && header_.packed && !restores_invalid())
      checked_blocks_ = std::make_unique<std::atomic<uint64_t>[]>((header_.block_count + 63) / 64);
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    throw;
  }
}

TableReader::~TableReader() {
  if (fd_ >= 0) ::close(fd_);
}

void TableReader::open_file(bool mapped) {
  if (mapped) {
    mapped_.emplace(path_, std::numeric_limits<uint64_t>::max());
    identity_ = mapped_->identity();
    return;
  }
  fd_ = open_regular_file(path_);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int error = errno;
    ::close(fd_);
    throw IoError(path_, os_error("cannot stat table", error));
  }
  identity_ = identity_of(st);
}

std::optional<indexing::IndexScheme> TableReader::opened(const TableRequirements& required) {
  read_preamble();
  if (!required.indexable) return std::nullopt;
  return usable_scheme(header_, path_, required);
}

void TableReader::read_preamble() {
  const uint64_t h_size = decode_header_size(read_bytes(0, 16, "the header"), path_);
  header_ = decode_header(read_bytes(0, h_size, "the header"), path_);
  const uint64_t actual_size = identity_.size;
  if (header_.block_count > actual_size / BlockIndexEntryBytes)
    throw FormatError(
        path_, "truncated or damaged: the header lists " + std::to_string(header_.block_count) + " blocks");
  const uint64_t covered = h_size + BlockIndexEntryBytes * header_.block_count;
  const std::vector<uint8_t> checksum_bytes = read_bytes(covered, sizeof(uint64_t), "the block index");
  uint64_t stored = 0;
  for (size_t i = 0; i < sizeof(uint64_t); ++i) stored |= uint64_t{checksum_bytes[i]} << (8 * i);
  std::optional<uint64_t> actual;
  if (mapped_) {
    actual = mapped_->checksum(0, covered);
  } else {
    preamble_ = read_bytes(0, covered, "the block index");
    actual = checksum_of(preamble_);
  }
  if (!actual)
    throw IoError(path_, "cannot read the block index: the file was cut short since it was opened");
  if (*actual != stored)
    throw FormatError(path_, "header checksum mismatch: the header or block index is damaged");
  header_.checksum = stored;
  if (header_bytes(header_) != h_size)
    throw FormatError(path_, "header size " + std::to_string(h_size) + " does not fit its texts");
  check_header(header_, path_);
  if (header_.file_size != actual_size)
    throw FormatError(path_, (actual_size < header_.file_size ? "truncated: " : "trailing bytes: ") +
                                 std::to_string(actual_size) + " bytes, the header says " +
                                 std::to_string(header_.file_size));
}

void TableReader::check_block_index() const {
  const uint64_t size = BlockIndexEntryBytes * header_.block_count;
  if (mapped_)  // a mapped file keeps no copy of its block index (preamble_): read it
    (void)decode_block_index(header_, read_bytes(header_bytes(header_), size, "the block index"), path_);
  else
    (void)decode_block_index(header_, std::span(preamble_).subspan(header_bytes(header_), size), path_);
}

template <class What>
void TableReader::copy_bytes(uint64_t offset, std::span<uint8_t> out, const What& what) const {
  if (!within_file(offset, out.size()))
    throw FormatError(path_, "truncated: the file ends inside " + std::string(what()));
  if (mapped_) {
    if (!mapped_->copy(offset, out)) throw cut_short(what());
    return;
  }
  for (size_t done = 0; done < out.size();) {
    const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path_, os_error("cannot read " + std::string(what()), errno));
    if (n == 0) throw cut_short(what());
    done += static_cast<size_t>(n);
  }
}

IoError TableReader::cut_short(const std::string& what) const {
  return IoError(
      path_, "cannot read " + what + ": the file was cut short since it was opened (rewritten in place?)");
}

std::vector<uint8_t> TableReader::read_bytes(uint64_t offset, uint64_t size, const char* what) const {
  std::vector<uint8_t> bytes(within_file(offset, size) ? size : 0);  // a damaged size allocates nothing
  copy_bytes(offset, std::span(bytes.data(), size), [&] { return what; });
  return bytes;
}

std::string TableReader::describe_block(uint64_t block) const {
  const BlockSpan s = block_span(header_, block);
  return "block " + std::to_string(block) + " (" + side_name(s.side) + ", entries " +
         std::to_string(s.first) + "-" + std::to_string(s.first + s.count - 1) + ")";
}

uint64_t TableReader::block_of(Color stm, uint64_t index) const {
  return egtb::block_of(header_, to_index(stm), index);
}

void TableReader::read_block(uint64_t block, std::vector<uint16_t>& out) const {
  out.resize(block_span(header_, block).count);
  read_block(block, std::span<uint16_t>(out));
}

BlockRef TableReader::block_ref(uint64_t block) const {
  if (block >= header_.block_count)
    throw std::out_of_range(path_.string() + ": no block " + std::to_string(block) + " (the file has " +
                            std::to_string(header_.block_count) + ")");
  const uint64_t offset = header_bytes(header_) + BlockIndexEntryBytes * block;
  if (!mapped_)
    return decode_block_ref(header_, block, std::span(preamble_).subspan(offset, BlockIndexEntryBytes),
                            path_);
  std::array<uint8_t, BlockIndexEntryBytes> entry;
  copy_bytes(offset, entry, [&] { return "the block index entry of " + describe_block(block); });
  return decode_block_ref(header_, block, entry, path_);
}

std::span<const uint8_t> TableReader::read_stored_block(uint64_t block, const BlockRef& ref) const {
  thread_local std::vector<uint8_t> stored;  // grown to the largest block read, never shrunk
  if (stored.size() < ref.size) stored.resize(ref.size);
  const std::span<uint8_t> bytes(stored.data(), ref.size);
  copy_bytes(ref.offset, bytes, [&] { return describe_block(block); });
  if (checksum_of(bytes) != ref.checksum)
    throw FormatError(path_, describe_block(block) + ": checksum mismatch");
  return bytes;
}

std::optional<Score> TableReader::entry_in_place(uint64_t block, size_t j) const {
  const BlockRef ref = block_ref(block);
  if (!in_place_transform(ref.transform)) return std::nullopt;
  std::atomic<uint64_t>& checked = checked_blocks_[block / 64];
  const uint64_t bit = uint64_t{1} << (block % 64);
  if (!(checked.load(std::memory_order_acquire) & bit)) {
    const Score score = first_entry_in_place(block, ref, j);
    checked.fetch_or(bit, std::memory_order_acq_rel);
    return score;
  }
  std::optional<uint16_t> raw;
  const std::span<const uint8_t> bytes(mapped_->data() + ref.offset, ref.size);
  if (!mapped_->guarded([&] { raw = in_place_entry(ref.transform, bytes, j); }))
    throw cut_short(describe_block(block));
  if (!raw)
    throw FormatError(path_, describe_block(block) + ": entry " + std::to_string(j) +
                                 " lies outside its codes or its list of scores: the file changed since "
                                 "it was opened");
  return Score::from_raw(*raw);
}

Score TableReader::first_entry_in_place(uint64_t block, const BlockRef& ref, size_t j) const {
  const std::span<const uint8_t> bytes = read_stored_block(block, ref);
  const auto refused = [&](const std::string& why) {
    return FormatError(path_, describe_block(block) + ": " + why);
  };
  if (const std::string error = check_in_place_block(ref.transform, bytes, block_span(header_, block).count);
      !error.empty())
    throw refused(error);
  const std::optional<uint16_t> raw = in_place_entry(ref.transform, bytes, j);
  if (!raw) throw refused("the code of entry " + std::to_string(j) + " lies outside its list of scores");
  return Score::from_raw(*raw);
}

void TableReader::read_block(uint64_t block, std::span<uint16_t> out) const {
  const BlockRef ref = block_ref(block);
  if (const std::string error = decode_block(ref.transform, read_stored_block(block, ref), out);
      !error.empty())
    throw FormatError(path_, describe_block(block) + ": " + error);
  if (restores_invalid()) restore_invalid(block, out);
}

void TableReader::restore_invalid(uint64_t block, std::span<uint16_t> out) const {
  const BlockSpan s = block_span(header_, block);
  const Color stm = s.side == 0 ? Color::White : Color::Black;
  scheme_->for_each_invalid(s.first, s.first + s.count, stm,
                            [&](indexing::Index i) { out[i - s.first] = Score::invalid().raw(); });
}

void TableReader::check_invalid_entries(const indexing::IndexScheme& scheme, uint64_t block,
                                        std::span<const uint16_t> entries) const {
  const BlockSpan s = block_span(header_, block);
  const Color stm = s.side == 0 ? Color::White : Color::Black;
  const uint16_t invalid = Score::invalid().raw();
  uint64_t next = s.first;  // the entries from `next` up to the next invalid one hold positions
  const auto positions_until = [&](uint64_t end) {
    for (; next < end; ++next)
      if (entries[next - s.first] == invalid)
        throw FormatError(path_, describe_block(block) + ": entry " + std::to_string(next) +
                                     " is stored as invalid but holds a position under the index order " +
                                     index_order_name(header_) +
                                     " the header gives: the header does not describe these blocks "
                                     "(edited, or taken from another file)");
  };
  scheme.for_each_invalid(s.first, s.first + s.count, stm, [&](indexing::Index i) {
    positions_until(i);
    next = i + 1;
  });
  positions_until(s.first + s.count);
}

void TableReader::check_first_blocks() const {
  std::vector<uint16_t> entries;
  for (const uint64_t block : {uint64_t{0}, header_.blocks_of_side(0)})
    if (block < header_.block_count) {
      read_block(block, entries);
      check_invalid_entries(*scheme_, block, entries);
    }
}

std::optional<indexing::IndexScheme> TableReader::scheme_if_indexable() const {
  if (scheme_) return scheme_;
  try {
    return usable_scheme(header_, path_, TableRequirements::file_only());
  } catch (const FormatError&) {
    return std::nullopt;
  }
}

Score TableReader::read_entry(Color stm, uint64_t index) const {
  std::vector<uint16_t> block;
  read_block(block_of(stm, index), block);
  return Score::from_raw(block[offset_in_block(index)]);
}

void TableReader::read_side(Color stm, std::span<uint16_t> out) const {
  const int side = to_index(stm);
  const uint64_t first = egtb::block_of(header_, side, 0);
  for (uint64_t b = first; b < first + header_.blocks_of_side(side); ++b) {
    const BlockSpan s = block_span(header_, b);
    read_block(b, out.subspan(s.first, s.count));
  }
}

std::vector<uint16_t> TableReader::read_side_kings_first(Color stm) const {
  std::vector<uint16_t> stored = read_side(stm);
  const indexing::IndexScheme kings_first(material());
  if (kings_first.same_layout(scheme())) return stored;
  std::vector<uint16_t> out(stored.size());
  for (indexing::Index j = 0; j < out.size(); ++j) out[j] = stored[kings_first.entry_in(scheme(), j)];
  return out;
}

std::vector<uint16_t> TableReader::read_side(Color stm) const {
  std::vector<uint16_t> entries(this->entries(stm));
  read_side(stm, entries);
  return entries;
}

void TableReader::verify(int threads) const {
  check_block_index();
  using Stats = std::array<SideStats, 2>;
  tbb::enumerable_thread_specific<Stats> partial;
  tbb::enumerable_thread_specific<std::vector<uint16_t>> blocks;
  const std::optional<indexing::IndexScheme> order_check = scheme_if_indexable();
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(uint64_t{0}, header_.block_count, [&](uint64_t b) {
      std::vector<uint16_t>& block = blocks.local();
      read_block(b, block);
      if (order_check) check_invalid_entries(*order_check, b, block);
      partial.local()[static_cast<size_t>(block_span(header_, b).side)].merge(compute_stats(block));
    });
  });
  Stats stats{};
  for (const Stats& p : partial)
    for (size_t side = 0; side < 2; ++side) stats[side].merge(p[side]);
  const bool as_stored = header_.filled && !restores_invalid();
  for (int side = 0; side < 2; ++side)
    if (!(as_stored ? filled_from(stats[static_cast<size_t>(side)], header_.stats[static_cast<size_t>(side)])
                    : stats[static_cast<size_t>(side)] == header_.stats[static_cast<size_t>(side)]))
      throw FormatError(path_, side_name(side) + ": the entries do not match the header's counts and maxima");
}

void TableReader::verify_checksums(int threads) const {
  check_block_index();
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(uint64_t{0}, header_.block_count,
                      [&](uint64_t b) { (void)read_stored_block(b, block_ref(b)); });
  });
}

namespace {

// The material of header `h` of the file at `path`, after checking that this program can use the
// table and that it meets `required`.
Material usable_material(const TableHeader& h, const std::filesystem::path& path,
                         const TableRequirements& required) {
  const auto material = Material::parse(h.signature);
  if (!material)
    throw FormatError(path, "header: bad signature \"" + h.signature + "\": " + material.error());
  if (material->str() != h.signature || !material->is_canonical())
    throw FormatError(path, "header: signature \"" + h.signature + "\" is not in canonical form");
  if (material->count(Color::White, PieceType::King) != 1 ||
      material->count(Color::Black, PieceType::King) != 1 || material->men() > indexing::MaxIndexMen)
    throw FormatError(path, "header: no index scheme for \"" + h.signature + "\"");
  if (required.material && required.material->normalized() != *material)
    throw FormatError(path, "holds the table " + h.signature + ", not " +
                                required.material->normalized().str() +
                                " (a file renamed or copied over another?)");
  if (h.index_scheme != indexing::IndexLayoutId || h.index_version < indexing::OldestIndexLayoutVersion ||
      h.index_version > indexing::IndexLayoutVersion)
    throw FormatError(path, "built with index scheme " + std::to_string(h.index_scheme) + " version " +
                                std::to_string(h.index_version) + ", this program reads scheme " +
                                std::to_string(indexing::IndexLayoutId) + " versions " +
                                std::to_string(indexing::OldestIndexLayoutVersion) + " to " +
                                std::to_string(indexing::IndexLayoutVersion) + ": " + rebuild_hint(path));
  const indexing::Index size = indexing::IndexScheme(*material).size();
  if (h.entries[0] != size || h.entries[1] != size)
    throw FormatError(path, "holds " + std::to_string(h.entries[0]) + " and " + std::to_string(h.entries[1]) +
                                " entries per side to move, the index scheme has " + std::to_string(size));
  if (required.rules && *required.rules != h.rules)
    throw FormatError(path, "built under the rules " + std::string(rules_name(h.rules)) + ", not " +
                                std::string(rules_name(*required.rules)));
  if (!h.metrics.contains(required.metrics))
    throw FormatError(path, "holds " + to_string(h.metrics) + " only (built with --metrics " +
                                to_string(h.metrics) + "), " + to_string(required.metrics) +
                                " is needed: " + rebuild_hint(path));
  return *material;
}

// The order of the index digits header `h` records for `material` (the king pair leading in index
// layout version 1). Throws FormatError.
indexing::IndexOrder index_order(const TableHeader& h, const std::filesystem::path& path,
                                 const Material& material) {
  if (h.index_version == 1) {
    if (h.index_order != 0) throw FormatError(path, "header: an index order in index layout version 1");
    return indexing::IndexOrder::kings_first(material);
  }
  const auto order = indexing::IndexOrder::from_code(h.index_order, material);
  if (!order) {
    std::ostringstream code;
    code << std::hex << h.index_order;
    throw FormatError(path, "header: index order 0x" + code.str() + " is not an order of " + material.str() +
                                "'s index digits");
  }
  return *order;
}

}  // namespace

indexing::IndexScheme usable_scheme(const TableHeader& h, const std::filesystem::path& path,
                                    const TableRequirements& required) {
  const Material material = usable_material(h, path, required);
  return indexing::IndexScheme(material, index_order(h, path, material));
}

MappedFile::MappedFile(const std::filesystem::path& path, uint64_t limit) {
  const int fd = open_regular_file(path);
  try {
    struct stat st {};
    if (::fstat(fd, &st) != 0) throw IoError(path, os_error("cannot stat file", errno));
    identity_ = identity_of(st);
    size_ = static_cast<uint64_t>(st.st_size);
    if (size_ > limit)
      throw FormatError(path, std::to_string(size_) + " bytes, more than the " + std::to_string(limit) +
                                  " such a file can have");
    if (size_ > 0) {
      void* mapped = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (mapped == MAP_FAILED) throw IoError(path, os_error("cannot map file", errno));
      data_ = static_cast<const uint8_t*>(mapped);
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);  // the mapping keeps the file
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

namespace {

// The guard of MappedFile's reads. Touching a page of a mapping past the end its file has now
// raises SIGBUS in the touching thread; while that thread is inside guarded(), the handler jumps
// back there, which then reports a failed read. The handler is installed on the first guarded read
// and is the process's SIGBUS handler from then on: a SIGBUS outside a guarded read restores the
// disposition there was before (the default one stops the process) and returns, so that the
// faulting instruction raises it again under that disposition (a SIGBUS sent by another process is
// raised again). SA_NODEFER leaves SIGBUS unblocked
// in the handler, so that jumping out of it leaves the thread's signal mask as it was.
thread_local sigjmp_buf* guarded_read = nullptr;
struct sigaction before_guard {};

void on_bus_error(int, siginfo_t* info, void*) {
  if (sigjmp_buf* escape = guarded_read) {
    guarded_read = nullptr;
    siglongjmp(*escape, 1);
  }
  ::sigaction(SIGBUS, &before_guard, nullptr);
  if (info->si_code <= 0) ::raise(SIGBUS);  // sent (kill), not a fault: it would not recur
}

// Installs the handler once, as a static's initialisation: every guarded read after the first pays a
// load and a compare, where std::call_once sets two of the thread's variables and calls
// pthread_once.
void install_bus_guard() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    return ::sigaction(SIGBUS, &action, &before_guard) == 0;
  }();
  (void)installed;
}

}  // namespace

// Example: a table file of 70 MB cut to 1 MB in place by `cp` while mapped: copying a block beyond
// the first MB returns false instead of stopping the process.
bool MappedFile::run_guarded(void (*read)(const void*), const void* context) {
  install_bus_guard();
  sigjmp_buf escape;
  if (sigsetjmp(escape, 0) != 0) return false;
  guarded_read = &escape;
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the guard is set before the first touch
  try {
    read(context);
  } catch (...) {
    guarded_read = nullptr;
    throw;
  }
  std::atomic_signal_fence(std::memory_order_seq_cst);  // and cleared after the last
  guarded_read = nullptr;
  return true;
}

bool MappedFile::copy(uint64_t offset, std::span<uint8_t> out) const {
  if (out.empty()) return true;
  return guarded([&] { std::memcpy(out.data(), data_ + offset, out.size()); });
}

std::optional<uint64_t> MappedFile::checksum(uint64_t offset, uint64_t count) const {
  uint64_t sum = checksum_of({});
  if (count > 0 && !guarded([&] { sum = checksum_of({data_ + offset, count}); })) return std::nullopt;
  return sum;
}

TableHeader read_header(const std::filesystem::path& path, const TableRequirements& required) {
  return TableReader(path, required).header();
}

void verify_file(const std::filesystem::path& path, const TableRequirements& required) {
  TableReader(path, required).verify();
}

}  // namespace egtb
