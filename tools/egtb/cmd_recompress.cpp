// egtb recompress SIG... [--all N] [--dir DIR] [--compression-level N] [--block-entries N]
// [--threads N] [--orders any|solvable] [--fill] [--packed] [--rules R] [--value-files]: rewrites
// finished tables at another zstd level, block size and index order (egtb/store/recompress.hpp),
// the same entries in fewer bytes, without solving them again; with --value-files, writes each
// table's value file (SIG.egv, egtb/store/value_file.hpp) beside it instead. The default orders
// suit probing; `--orders solvable --compression-level 3 --block-entries 32768` gives back the very
// files egtb generate writes (from filled or packed files too: without --fill the invalid entries
// come back).
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "api/recompress.hpp"
#include "egtb/store/format.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

// "KBPk  3028793 -> 2384835 bytes (78.7%)  3.5 s cpu", or with --value-files "KBPk  tables/KBPk.egv
// 3028793 -> 146082 bytes (4.8%)  0.2 s cpu".
std::string recompress_line(const api::RecompressedTable& t, bool value_file) {
  const RecompressResult& r = t.result;
  std::ostringstream out;
  out << t.material.str() << "  " << (value_file ? t.path.string() + "  " : "") << r.bytes_before << " -> "
      << r.bytes_after << " bytes (" << std::fixed << std::setprecision(1)
      << (r.bytes_before ? 100.0 * static_cast<double>(r.bytes_after) / static_cast<double>(r.bytes_before)
                         : 100.0)
      << "%)  " << t.cpu_seconds << " s cpu";
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
std::string progress_text(const api::RecompressStatus& s, double elapsed) {
  const double read = s.share_done() * static_cast<double>(s.total_bytes);
  std::ostringstream out;
  out << s.material.str() << ' ' << static_cast<int>(100 * s.table_share()) << "% (table " << s.table
      << " of " << s.tables << "; " << with_commas(static_cast<uint64_t>(read / 1e6)) << " of "
      << with_commas(s.total_bytes / 1000000) << " MB; " << duration_text(elapsed);
  if (read > 0 && elapsed >= 10)
    out << ", about " << duration_text(elapsed * (static_cast<double>(s.total_bytes) - read) / read)
        << " left";
  out << ')';
  return out.str();
}

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
      "as they read, at a cost (format version 3)")(
      "packed",
      "store each block of at most 256 distinct scores as a list of them and a code of a few bits per "
      "entry, not compressed, which probes read in place, decoding no block: depth probes in search, "
      "with --block-entries 1024; larger files (format version 4)")(
      "value-files",
      "write beside each table its value file instead (SIG.egv: the values without depths, kept in "
      "memory for probes in search: probe --value-file, egtb_probe_value; 7.0 MB for the 3-4-man "
      "set), leaving the table as it is; --block-entries then counts the value file's entries per "
      "block, a power of two from 1024 to 2^20 (default 1024)");
  cl.rules_option();
  if (!cl.parse(args)) return ExitSuccess;
  api::RecompressRequest request;
  request.directory = cl.option("dir", "tables");
  request.rules = rules_of(cl);
  request.signatures = cl.rest_arguments();
  request.all = all_option(cl);
  WriteOptions& options = request.options;
  options.threads = threads_option(cl);
  options.level = parse_int(cl.option("compression-level", std::to_string(ArchivalCompressionLevel)),
                            "--compression-level", 1, MaxCompressionLevel);
  options.block_entries =
      static_cast<uint32_t>(parse_int(cl.option("block-entries", std::to_string(ArchivalBlockEntries)),
                                      "--block-entries", 1024, MaxBlockEntries));
  if (cl.flag("value-files")) {
    const auto entries =
        static_cast<uint32_t>(parse_int(cl.option("block-entries", std::to_string(DefaultValueBlockEntries)),
                                        "--block-entries", api::MinValueBlockEntries, MaxValueBlockEntries));
    api::check_value_block_entries(entries, "--block-entries");
    request.value_file_block_entries = entries;
  }
  const std::string orders = cl.option("orders", "any");
  if (orders != "any" && orders != "solvable")
    throw UsageError("recompress: --orders takes any or solvable, not \"" + orders + "\"");
  options.orders = orders == "any" ? OrderSet::Any : OrderSet::Solvable;
  options.fill = cl.flag("fill");
  if (cl.flag("packed")) options.transform = TransformChoice::Packed;
  const auto start = std::chrono::steady_clock::now();
  ProgressLine line;
  api::recompress(
      request,
      [&](const api::RecompressStatus& s) {
        line.update([&] {
          return progress_text(
              s, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        });
      },
      [&](const api::RecompressedTable& t) {
        line.clear();
        std::cout << recompress_line(t, request.value_file_block_entries.has_value()) << std::endl;
      });
  return ExitSuccess;
}

}  // namespace egtb::cli
