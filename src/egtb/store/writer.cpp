#include "egtb/store/writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_pipeline.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <cerrno>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "egtb/store/error.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/table.hpp"
#include "egtb/store/table_lock.hpp"

namespace egtb {

namespace {

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

  // Appends to the bytes written.
  void write(std::span<const uint8_t> bytes) {
    write_at(end_, bytes);
    end_ += bytes.size();
  }

  // Writes at `offset`: over bytes already written, or at their end.
  void write_at(uint64_t offset, std::span<const uint8_t> bytes) {
    while (!bytes.empty()) {
      const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) fail("write to", n < 0 ? errno : ENOSPC);
      bytes = bytes.subspan(static_cast<size_t>(n));
      offset += static_cast<uint64_t>(n);
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
  uint64_t end_ = 0;  // the bytes appended so far
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

// Blocks a thread compresses in a row: a source whose entries come from a cache of what was
// read last (the solver's packed slices) then reads each of its chunks about once.
constexpr uint64_t BlocksPerRun = 8;

// Compresses and counts the blocks, spread over the threads of `options` in runs of consecutive
// blocks, and writes each run to `file` (after the preamble's space) once the runs before it are
// written, so that a few runs per thread are held at a time, not the table's blocks (KRPkr's
// 199 MB). Fills in the statistics and the file size; returns the block index. An exception of
// any block (a source that fails, an unknown entry, a full disk) is rethrown here. No exception
// crosses the pipeline: oneTBB 2021 leaks the runs in flight when one does, so a stage that fails
// keeps the first exception and the pipeline drains (no new runs, the rest not stored).
std::vector<BlockRef> write_blocks(TableHeader& h, const EntrySource& source, const WriteOptions& options,
                                   TempFile& file) {
  struct Run {
    uint64_t first = 0;  // block number
    std::vector<BlockResult> blocks;
  };
  std::vector<BlockRef> refs(h.block_count);
  tbb::enumerable_thread_specific<BlockEncoder> encoders(options.level, options.transform);
  tbb::enumerable_thread_specific<std::vector<uint16_t>> scratch(h.block_entries);
  tbb::task_arena arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::atomic<bool> failed = false;
  const auto fail = [&] {
    const std::lock_guard lock(failure_mutex);
    if (!failure) failure = std::current_exception();
    failed = true;
  };
  uint64_t next = 0;
  uint64_t offset = h.data_offset();
  const auto read = [&](tbb::flow_control& control) {
    if (next >= h.block_count || failed) control.stop();
    const uint64_t first = next;
    next += BlocksPerRun;
    return first;
  };
  const auto encode = [&](uint64_t first) {
    Run run{first, {}};
    try {
      for (uint64_t b = first; b < std::min(first + BlocksPerRun, h.block_count) && !failed; ++b) {
        const BlockSpan s = block_span(h, b);
        const auto block = std::span<uint16_t>(scratch.local()).first(s.count);
        source(s.side == 0 ? Color::White : Color::Black, s.first, block);
        check_known(block);
        const SideStats stats = compute_stats(block);
        if (options.fill) fill_invalid(block);
        run.blocks.push_back({encoders.local().encode(block), stats});
      }
    } catch (...) {
      fail();
    }
    return run;
  };
  const auto store = [&](const Run& run) {
    try {
      for (size_t k = 0; k < run.blocks.size() && !failed; ++k) {
        const uint64_t b = run.first + k;
        const EncodedBlock& e = run.blocks[k].encoded;
        refs[b] = {offset, static_cast<uint32_t>(e.bytes.size()), e.transform, checksum_of(e.bytes)};
        offset += e.bytes.size();
        h.stats[static_cast<size_t>(block_span(h, b).side)].merge(run.blocks[k].stats);
        file.write(e.bytes);
      }
    } catch (...) {
      fail();
    }
  };
  arena.execute([&] {
    tbb::parallel_pipeline(static_cast<size_t>(4 * arena.max_concurrency()),
                           tbb::make_filter<void, uint64_t>(tbb::filter_mode::serial_in_order, read) &
                               tbb::make_filter<uint64_t, Run>(tbb::filter_mode::parallel, encode) &
                               tbb::make_filter<Run, void>(tbb::filter_mode::serial_in_order, store));
  });
  if (failure) std::rethrow_exception(failure);
  h.file_size = offset;
  return refs;
}

TableHeader make_header(const TableDescription& d, std::array<uint64_t, 2> entries,
                        const WriteOptions& options) {
  TableHeader h;
  h.signature = d.signature;
  h.rules = d.rules;
  h.metrics = d.metrics;
  h.block_entries = options.block_entries;
  h.index_scheme = d.index_scheme;
  h.index_version = d.index_version;
  h.index_order = d.index_order;
  h.generator = d.generator;
  h.entries = entries;
  h.block_count = h.blocks_of_side(0) + h.blocks_of_side(1);
  h.filled = options.fill;
  h.packed = options.transform == TransformChoice::Packed;
  return h;
}

// The parts of a temporary file's name: "KQk.egtb.tmp.node7.4711" is table "KQk.egtb" written by
// process 4711 on host node7. Names without a host ("KQk.egtb.tmp.4711") are of earlier versions.
constexpr const char* TemporaryMarker = ".tmp.";

struct TemporaryName {
  std::string table;
  std::string host;
  std::string pid;
};

std::string host_name() {
  std::array<char, 256> name{};
  if (::gethostname(name.data(), name.size() - 1) != 0) return "localhost";
  return name.data();
}

std::optional<TemporaryName> parse_temporary(const std::string& name) {
  const size_t at = name.find(std::string(TableExtension) + TemporaryMarker);
  if (at == std::string::npos) return std::nullopt;
  const size_t tail = at + std::string(TableExtension).size();
  const std::string rest = name.substr(tail + std::string(TemporaryMarker).size());
  const size_t dot = rest.rfind('.');
  if (dot == std::string::npos) return TemporaryName{name.substr(0, tail), host_name(), rest};
  return TemporaryName{name.substr(0, tail), rest.substr(0, dot), rest.substr(dot + 1)};
}

// Whether a process of this host that may still be writing the file is alive. A file of another
// host is never known to be live here: its table's lock tells (remove_stale_temporaries).
bool written_by_live_process(const TemporaryName& name) {
  return name.host == host_name() && std::filesystem::exists("/proc/" + name.pid);
}

// The temporary files in `directory` with their names' parts.
std::vector<std::pair<std::filesystem::path, TemporaryName>> temporaries_in(
    const std::filesystem::path& directory) {
  std::vector<std::pair<std::filesystem::path, TemporaryName>> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec))
    if (const auto name = parse_temporary(entry.path().filename().string()))
      out.emplace_back(entry.path(), *name);
  return out;
}

int remove_file(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::remove(path, ec) ? 1 : 0;
}

}  // namespace

std::filesystem::path temporary_path(const std::filesystem::path& path) {
  std::filesystem::path temp = path;
  temp += TemporaryMarker + host_name() + "." + std::to_string(::getpid());
  return temp;
}

int remove_stale_temporaries(const std::filesystem::path& directory) {
  int removed = 0;
  for (const auto& [path, name] : temporaries_in(directory)) {
    if (written_by_live_process(name)) continue;
    const auto lock = TableLock::try_acquire(directory / name.table);
    if (lock) removed += remove_file(path);  // otherwise its table is being built
  }
  return removed;
}

int remove_stale_temporaries(const std::filesystem::path& table, const TableLock& /*held*/) {
  int removed = 0;
  const std::filesystem::path directory = table.has_parent_path() ? table.parent_path() : ".";
  for (const auto& [path, name] : temporaries_in(directory))
    if (name.table == table.filename().string() && !written_by_live_process(name))
      removed += remove_file(path);
  return removed;
}

void write_file_atomically(const std::filesystem::path& path, std::span<const uint8_t> bytes) {
  TempFile file(path);
  file.write(bytes);
  file.commit();
}

TableHeader write_table_file(const std::filesystem::path& path, const TableDescription& description,
                             std::array<uint64_t, 2> entries, const EntrySource& source,
                             const WriteOptions& options) {
  if (options.block_entries == 0) throw std::invalid_argument("write_table_file: zero entries per block");
  if (options.block_entries > MaxBlockEntries)
    throw std::invalid_argument("write_table_file: " + std::to_string(options.block_entries) +
                                " entries per block, more than the " + std::to_string(MaxBlockEntries) +
                                " whose stored size the block index's 32 bits hold");
  TableHeader h = make_header(description, entries, options);
  TempFile file(path);
  file.write(std::vector<uint8_t>(h.data_offset()));  // the preamble's space, written last
  const std::vector<BlockRef> refs = write_blocks(h, source, options, file);
  const std::vector<uint8_t> preamble = encode_preamble(h, refs);
  assert(preamble.size() == h.data_offset());
  file.write_at(0, preamble);
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

TableDescription TableDescription::of(const Material& material, Rules rules, MetricSet metrics,
                                      const indexing::IndexOrder& order) {
  return {material.str(),      rules,       metrics, indexing::IndexLayoutId, indexing::IndexLayoutVersion,
          generator_version(), order.code()};
}

std::filesystem::path write_table(const std::filesystem::path& directory, const Table& table,
                                  const WriteOptions& options) {
  TableDescription description =
      TableDescription::of(table.material(), table.rules(), table.metrics(), table.scheme().order());
  description.generator = table.generator();
  const std::filesystem::path path = table_path(directory, table.material(), table.rules());
  write_table_file(path, description, {table.raw(Color::White), table.raw(Color::Black)}, options);
  return path;
}

}  // namespace egtb
