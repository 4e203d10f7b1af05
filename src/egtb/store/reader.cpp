#include "egtb/store/reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <cerrno>
#include <cstring>
#include <sstream>

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

TableReader::FileIdentity identity_of(const struct stat& st) {
  return {st.st_dev, st.st_ino, static_cast<uint64_t>(st.st_size),
          int64_t{st.st_mtim.tv_sec} * 1'000'000'000 + st.st_mtim.tv_nsec};
}

}  // namespace

std::optional<TableReader::FileIdentity> file_identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return identity_of(st);
}

bool TableReader::file_changed() const { return file_identity(path_) != identity_; }

TableReader::TableReader(const std::filesystem::path& path, const TableRequirements& required)
    : path_(path),
      fd_(open_regular_file(path)),
      positions_only_(required.positions_only),
      scheme_(opened(required)) {
  try {
    if (scheme_) check_first_blocks();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

TableReader::~TableReader() { ::close(fd_); }

std::optional<indexing::IndexScheme> TableReader::opened(const TableRequirements& required) {
  try {
    open_checked();
    if (!required.indexable) return std::nullopt;
    return usable_scheme(header_, path_, required);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

void TableReader::open_checked() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw IoError(path_, os_error("cannot stat table", errno));
  identity_ = identity_of(st);
  const auto actual_size = static_cast<uint64_t>(st.st_size);
  const std::vector<uint8_t> preamble = read_preamble(actual_size);
  check_header(header_, path_);
  if (header_.file_size != actual_size)
    throw FormatError(path_, (actual_size < header_.file_size ? "truncated: " : "trailing bytes: ") +
                                 std::to_string(actual_size) + " bytes, the header says " +
                                 std::to_string(header_.file_size));
  const uint64_t h_size = header_bytes(header_);
  blocks_ = decode_block_index(
      header_, std::span(preamble).subspan(h_size, BlockIndexEntryBytes * header_.block_count), path_);
}

std::vector<uint8_t> TableReader::read_preamble(uint64_t actual_size) {
  const uint64_t h_size = decode_header_size(read_bytes(0, 16, "the header"), path_);
  header_ = decode_header(read_bytes(0, h_size, "the header"), path_);
  if (header_.block_count > actual_size / BlockIndexEntryBytes)
    throw FormatError(
        path_, "truncated or damaged: the header lists " + std::to_string(header_.block_count) + " blocks");
  const uint64_t covered = h_size + BlockIndexEntryBytes * header_.block_count;
  std::vector<uint8_t> preamble = read_bytes(0, covered + sizeof(uint64_t), "the block index");
  uint64_t stored = 0;
  for (size_t i = 0; i < sizeof(uint64_t); ++i) stored |= uint64_t{preamble[covered + i]} << (8 * i);
  if (checksum_of(std::span(preamble).first(covered)) != stored)
    throw FormatError(path_, "header checksum mismatch: the header or block index is damaged");
  header_.checksum = stored;
  if (header_bytes(header_) != h_size)
    throw FormatError(path_, "header size " + std::to_string(h_size) + " does not fit its texts");
  return preamble;
}

std::vector<uint8_t> TableReader::read_bytes(uint64_t offset, uint64_t size, const std::string& what) const {
  std::vector<uint8_t> bytes(size);
  uint64_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, bytes.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(path_, os_error("cannot read " + what, errno));
    if (n == 0) throw FormatError(path_, "truncated: the file ends inside " + what);
    done += static_cast<uint64_t>(n);
  }
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

std::vector<uint8_t> TableReader::read_stored_block(uint64_t block) const {
  const BlockRef& ref = blocks_[block];
  std::vector<uint8_t> bytes = read_bytes(ref.offset, ref.size, describe_block(block));
  if (checksum_of(bytes) != ref.checksum)
    throw FormatError(path_, describe_block(block) + ": checksum mismatch");
  return bytes;
}

void TableReader::read_block(uint64_t block, std::span<uint16_t> out) const {
  const std::vector<uint8_t> bytes = read_stored_block(block);
  if (const std::string error = decode_block(blocks_[block].transform, bytes, out); !error.empty())
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
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  arena.execute([&] {
    tbb::parallel_for(uint64_t{0}, header_.block_count, [&](uint64_t b) { (void)read_stored_block(b); });
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

TableHeader read_header(const std::filesystem::path& path, const TableRequirements& required) {
  return TableReader(path, required).header();
}

void verify_file(const std::filesystem::path& path, const TableRequirements& required) {
  TableReader(path, required).verify();
}

}  // namespace egtb
