// egtb recompress SIG... [--all N] [--dir DIR] [--compression-level N] [--block-entries N] [--threads N]
// [--orders any|solvable] [--fill] [--rules R]: rewrites finished tables at another zstd level, block
// size and index order (egtb/store/recompress.hpp), the same entries in fewer bytes, without solving
// them again. The default orders suit probing; `--orders solvable --compression-level 3 --block-entries
// 32768` gives back the very files egtb generate writes (from filled files too: without --fill the
// invalid entries come back).
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <vector>

#include "api/signatures.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

// The size of a table file, 0 when it cannot be read (recompress_table_file then says why).
uint64_t file_bytes(const std::filesystem::path& path) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  return ec ? 0 : bytes;
}

// "KBPk  3028793 -> 2384835 bytes (78.7%)  3.5 s cpu"
std::string recompress_line(const Material& m, const RecompressResult& r, double cpu_seconds) {
  std::ostringstream out;
  out << m.str() << "  " << r.bytes_before << " -> " << r.bytes_after << " bytes (" << std::fixed
      << std::setprecision(1)
      << (r.bytes_before ? 100.0 * static_cast<double>(r.bytes_after) / static_cast<double>(r.bytes_before)
                         : 100.0)
      << "%)  " << cpu_seconds << " s cpu";
  return out.str();
}

// "45 s", "20 min", "1 h 07 min".
std::string duration_text(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  std::ostringstream out;
  if (s < 60)
    out << s << " s";
  else if (s < 3600)
    out << s / 60 << " min";
  else
    out << s / 3600 << " h " << std::setw(2) << std::setfill('0') << s % 3600 / 60 << " min";
  return out.str();
}

// The progress line of a recompress of several tables, the share of the input bytes read telling
// the time left: "KBNkp 41% (table 12 of 103; 1,234 of 6,648 MB; 20 min, about 41 min left)".
class RecompressProgressLine {
public:
  RecompressProgressLine(uint64_t total_bytes, size_t tables) : total_bytes_(total_bytes), tables_(tables) {}

  // Table number `table` (from 1), of `bytes` input bytes, begins.
  void begin(const Material& m, size_t table, uint64_t bytes) {
    name_ = m.str();
    table_ = table;
    table_bytes_ = bytes;
    update(0, 1);  // shown while the table's index order is chosen
  }
  // The table's writing has reached `written` of its `total` entries.
  void update(uint64_t written, uint64_t total) {
    const std::lock_guard lock(mutex_);
    line_.update(
        [&] { return text(total ? static_cast<double>(written) / static_cast<double>(total) : 1.0); });
  }
  // The table is done: clears the line for its result.
  void end() {
    done_bytes_ += table_bytes_;
    line_.clear();
  }

private:
  // The line with `share` of the current table written.
  std::string text(double share) const {
    const double read = static_cast<double>(done_bytes_) + share * static_cast<double>(table_bytes_);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::ostringstream out;
    out << name_ << ' ' << static_cast<int>(100 * share) << "% (table " << table_ << " of " << tables_ << "; "
        << with_commas(static_cast<uint64_t>(read / 1e6)) << " of " << with_commas(total_bytes_ / 1000000)
        << " MB; " << duration_text(elapsed);
    if (read > 0 && elapsed >= 10)
      out << ", about " << duration_text(elapsed * (static_cast<double>(total_bytes_) - read) / read)
          << " left";
    out << ')';
    return out.str();
  }

  uint64_t total_bytes_;
  size_t tables_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::string name_;
  size_t table_ = 0;
  uint64_t table_bytes_ = 0;
  uint64_t done_bytes_ = 0;
  std::mutex mutex_;
  ProgressLine line_;
};

}  // namespace

int cmd_recompress(const std::vector<std::string>& args) {
  CommandLine cl("recompress",
                 "Rewrite finished tables at another zstd level: the same entries, read back from each file, "
                 "in fewer bytes.");
  cl.rest("SIG", "material signatures of tables in --dir");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men in --dir")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "threads", po::value<std::string>()->value_name("N"), "compression threads (default: every core)")(
      "compression-level", po::value<std::string>()->value_name("N"), "zstd level, 1 to 22 (default 15)")(
      "block-entries", po::value<std::string>()->value_name("N"),
      "entries per block, 1024 to 2^30 (default 131072: with level "
      "15, about 0.75 of generate's bytes)")(
      "orders", po::value<std::string>()->value_name("SET"),
      "index orders to choose from: any (default: files for probing) or solvable (those generate "
      "writes, which a solve reading the table as a subtable reads quickly)")(
      "fill",
      "store the entries that hold no position as copies of their neighbours' scores: about 6% fewer "
      "bytes at a high level, probes as fast; stats, query, verify and generate restore those entries "
      "as they read, at a cost (format version 3)");
  cl.rules_option();
  if (!cl.parse(args)) return ExitSuccess;
  const std::filesystem::path dir = cl.option("dir", "tables");
  const Rules rules = rules_of(cl);
  WriteOptions options;
  options.threads = threads_option(cl);
  options.level = parse_int(cl.option("compression-level", std::to_string(ArchivalCompressionLevel)),
                            "--compression-level", 1, MaxCompressionLevel);
  options.block_entries =
      static_cast<uint32_t>(parse_int(cl.option("block-entries", std::to_string(ArchivalBlockEntries)),
                                      "--block-entries", 1024, MaxBlockEntries));
  const std::string orders = cl.option("orders", "any");
  if (orders != "any" && orders != "solvable")
    throw UsageError("recompress: --orders takes any or solvable, not \"" + orders + "\"");
  options.orders = orders == "any" ? OrderSet::Any : OrderSet::Solvable;
  options.fill = cl.flag("fill");
  const std::vector<Material> tables =
      api::present_tables(Tablebase(dir, {0, rules}), cl.rest_arguments(), all_option(cl));
  if (tables.empty())
    throw UsageError("recompress: name at least one signature or --all N (see egtb recompress --help)");
  std::vector<uint64_t> bytes;
  for (const Material& m : tables) bytes.push_back(file_bytes(table_path(dir, m, rules)));
  RecompressProgressLine progress(std::accumulate(bytes.begin(), bytes.end(), uint64_t{0}), tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    const std::filesystem::path path = table_path(dir, tables[t], rules);
    progress.begin(tables[t], t + 1, bytes[t]);
    const std::clock_t start = std::clock();
    const RecompressResult r = recompress_table_file(
        path, options, [&](uint64_t written, uint64_t total) { progress.update(written, total); });
    progress.end();
    std::cout << recompress_line(tables[t], r, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC)
              << std::endl;
  }
  return ExitSuccess;
}

}  // namespace egtb::cli
