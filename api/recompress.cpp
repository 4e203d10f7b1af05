#include "api/recompress.hpp"

#include <bit>
#include <ctime>
#include <mutex>
#include <numeric>

#include "api/errors.hpp"
#include "api/signatures.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

namespace {

// The size of a table file, 0 when it cannot be read (recompress_table_file then says why).
uint64_t file_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  return ec ? 0 : bytes;
}

}  // namespace

double RecompressStatus::table_share() const {
  return entries ? static_cast<double>(written) / static_cast<double>(entries) : 1.0;
}

double RecompressStatus::share_done() const {
  if (total_bytes == 0) return 1.0;
  return (static_cast<double>(done_bytes) + table_share() * static_cast<double>(table_bytes)) /
         static_cast<double>(total_bytes);
}

void check_value_block_entries(uint64_t entries, std::string_view option) {
  if (entries >= MinValueBlockEntries && entries <= MaxValueBlockEntries && std::has_single_bit(entries))
    return;
  throw InputError(std::string(option) + " of value files must be a power of two from " +
                   std::to_string(MinValueBlockEntries) + " to " + std::to_string(MaxValueBlockEntries) +
                   ", not " + std::to_string(entries));
}

std::vector<RecompressedTable> recompress(const RecompressRequest& request,
                                          const std::function<void(const RecompressStatus&)>& progress,
                                          const std::function<void(const RecompressedTable&)>& on_table) {
  if (request.value_file_block_entries)
    check_value_block_entries(*request.value_file_block_entries, "block entries");
  const Tablebase tablebase(request.directory, {0, request.rules});
  const std::vector<Material> tables = present_tables(tablebase, request.signatures, request.all);
  if (tables.empty())
    throw InputError("recompress: name at least one signature or --all N (see egtb recompress --help)");
  std::vector<uint64_t> bytes;
  for (const Material& m : tables) bytes.push_back(file_bytes(tablebase.table_path(m)));
  RecompressStatus status;
  status.tables = tables.size();
  status.total_bytes = std::accumulate(bytes.begin(), bytes.end(), uint64_t{0});
  std::mutex mutex;  // the writer reports from several threads
  const auto report = [&](uint64_t written, uint64_t entries) {
    if (!progress) return;
    const std::lock_guard lock(mutex);
    status.written = written;
    status.entries = entries;
    progress(status);
  };
  std::vector<RecompressedTable> out;
  for (size_t t = 0; t < tables.size(); ++t) {
    status.material = tables[t];
    status.table = t + 1;
    status.table_bytes = bytes[t];
    report(0, 1);  // shown while the table's index order is chosen
    const std::clock_t start = std::clock();
    const std::filesystem::path table = tablebase.table_path(tables[t]);
    RecompressResult r{bytes[t], 0};
    std::filesystem::path written = table;
    if (request.value_file_block_entries) {
      const ValueFileRecord record = write_value_file(table, *request.value_file_block_entries);
      r.bytes_after = record.value_bytes;
      written = record.path;
    } else {
      r = recompress_table_file(table, request.options, report);
    }
    status.done_bytes += bytes[t];
    out.push_back({tables[t], written, r, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC});
    if (on_table) on_table(out.back());
  }
  return out;
}

}  // namespace egtb::api
