// egtb recompress SIG... [--all N] [--dir DIR] [--compression-level N] [--block-entries N] [--threads N]
// [--orders any|solvable] [--fill] [--rules R]: rewrites finished tables at another zstd level, block
// size and index order (egtb/store/recompress.hpp), the same entries in fewer bytes, without solving
// them again. The default orders suit probing; `--orders solvable --compression-level 3 --block-entries
// 32768` gives back the very files egtb generate writes (from filled files too: without --fill the
// invalid entries come back).
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "api/signatures.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/recompress.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

namespace {

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
  for (const Material& m : tables) {
    const std::filesystem::path path = table_path(dir, m, rules);
    const std::clock_t start = std::clock();
    const RecompressResult r = recompress_table_file(path, options);
    std::cout << recompress_line(m, r, static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC)
              << std::endl;
  }
  return ExitSuccess;
}

}  // namespace egtb::cli
