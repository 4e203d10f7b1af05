#include "egtb/store/writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/table.hpp"

namespace egtb {

namespace {

std::string os_error(const std::string& what, int error) { return what + ": " + std::strerror(error); }

// The temporary file: removed by the destructor unless committed.
class TempFile {
public:
  explicit TempFile(std::filesystem::path final_path)
      : final_(std::move(final_path)), temp_(temporary_path(final_)) {
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IoError(final_, os_error("cannot create temporary file " + temp_.string(), errno));
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  void write(std::span<const uint8_t> bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("write to", n < 0 ? errno : ENOSPC);
      bytes = bytes.subspan(static_cast<size_t>(n));
    }
  }

  // fsync, close, rename over the final name, fsync the directory.
  void commit() {
    if (::fsync(fd_) != 0) fail("fsync of", errno);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) fail("close of", errno);
    if (::rename(temp_.c_str(), final_.c_str()) != 0) fail("rename of", errno);
    committed_ = true;
    sync_directory();
  }

private:
  std::filesystem::path final_;
  std::filesystem::path temp_;
  int fd_ = -1;
  bool committed_ = false;

  [[noreturn]] void fail(const std::string& operation, int error) const {
    throw IoError(
        final_, os_error(operation + " temporary file " + temp_.string() + " failed (file removed)", error));
  }

  void sync_directory() const {
    const std::filesystem::path dir = final_.has_parent_path() ? final_.parent_path() : ".";
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
      throw IoError(final_, os_error("cannot open directory " + dir.string() + " to sync it", errno));
    const int rc = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (rc != 0) throw IoError(final_, os_error("fsync of directory " + dir.string() + " failed", error));
  }
};

int thread_count(const WriteOptions& options, uint64_t blocks) {
  const int wanted =
      options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  return static_cast<int>(std::clamp<uint64_t>(blocks, 1, static_cast<uint64_t>(std::max(wanted, 1))));
}

// A block's stored form and what it counts.
struct BlockResult {
  EncodedBlock encoded;
  SideStats stats;
};

void check_known(std::span<const uint16_t> entries) {
  if (std::any_of(entries.begin(), entries.end(),
                  [](uint16_t raw) { return Score::from_raw(raw).is_unknown(); }))
    throw std::invalid_argument("write_table_file: a table with unknown entries cannot be written");
}

// Compresses and counts every block, spreading them over threads; the results come back in
// block order. Rethrows the first exception of any thread.
std::vector<BlockResult> encode_blocks(const TableHeader& h, const EntrySource& source,
                                       const WriteOptions& options) {
  std::vector<BlockResult> blocks(h.block_count);
  std::atomic<uint64_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&] {
    try {
      BlockEncoder encoder(options.level, options.transform);
      std::vector<uint16_t> entries(h.block_entries);
      for (uint64_t b = next++; b < h.block_count; b = next++) {
        const BlockSpan s = block_span(h, b);
        const auto block = std::span<uint16_t>(entries).first(s.count);
        source(s.side == 0 ? Color::White : Color::Black, s.first, block);
        check_known(block);
        blocks[b] = {encoder.encode(block), compute_stats(block)};
      }
    } catch (...) {
      const std::lock_guard lock(failure_mutex);
      if (!failure) failure = std::current_exception();
      next = h.block_count;
    }
  };
  {
    std::vector<std::jthread> workers;
    for (int t = 1; t < thread_count(options, h.block_count); ++t) workers.emplace_back(work);
    work();
  }
  if (failure) std::rethrow_exception(failure);
  return blocks;
}

TableHeader make_header(const TableDescription& d, std::array<uint64_t, 2> entries,
                        const WriteOptions& options) {
  TableHeader h;
  h.signature = d.signature;
  h.metrics = d.metrics;
  h.block_entries = options.block_entries;
  h.index_scheme = d.index_scheme;
  h.index_version = d.index_version;
  h.generator = d.generator;
  h.entries = entries;
  h.block_count = h.blocks_of_side(0) + h.blocks_of_side(1);
  return h;
}

// Fills in the statistics, block index and file size from the encoded blocks.
std::vector<BlockRef> lay_out(TableHeader& h, const std::vector<BlockResult>& blocks) {
  std::vector<BlockRef> refs(blocks.size());
  uint64_t offset = h.data_offset();
  for (size_t b = 0; b < blocks.size(); ++b) {
    const EncodedBlock& e = blocks[b].encoded;
    refs[b] = {offset, static_cast<uint32_t>(e.bytes.size()), e.transform, checksum_of(e.bytes)};
    offset += e.bytes.size();
    h.stats[static_cast<size_t>(block_span(h, b).side)].merge(blocks[b].stats);
  }
  h.file_size = offset;
  return refs;
}

}  // namespace

std::filesystem::path temporary_path(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += ".tmp." + std::to_string(::getpid());
  return temp;
}

TableHeader write_table_file(const std::filesystem::path& path, const TableDescription& description,
                             std::array<uint64_t, 2> entries, const EntrySource& source,
                             const WriteOptions& options) {
  if (options.block_entries == 0) throw std::invalid_argument("write_table_file: zero entries per block");
  TableHeader h = make_header(description, entries, options);
  const std::vector<BlockResult> blocks = encode_blocks(h, source, options);
  const std::vector<BlockRef> refs = lay_out(h, blocks);
  TempFile file(path);
  file.write(encode_preamble(h, refs));
  for (const BlockResult& block : blocks) file.write(block.encoded.bytes);
  file.commit();
  return h;
}

TableHeader write_table_file(const std::filesystem::path& path, const TableDescription& description,
                             std::array<std::span<const uint16_t>, 2> entries, const WriteOptions& options) {
  const EntrySource copy = [&](Color side, uint64_t first, std::span<uint16_t> out) {
    const auto from = entries[static_cast<size_t>(to_index(side))].subspan(first, out.size());
    std::copy(from.begin(), from.end(), out.begin());
  };
  return write_table_file(path, description, {entries[0].size(), entries[1].size()}, copy, options);
}

std::filesystem::path write_table(const std::filesystem::path& directory, const Table& table,
                                  const WriteOptions& options) {
  const TableDescription description{table.signature(), table.metrics(), indexing::IndexLayoutId,
                                     indexing::IndexLayoutVersion, table.generator()};
  const std::filesystem::path path = directory / table_file_name(table.signature());
  write_table_file(path, description, {table.raw(Color::White), table.raw(Color::Black)}, options);
  return path;
}

}  // namespace egtb
