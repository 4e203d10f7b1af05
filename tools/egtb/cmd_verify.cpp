// egtb verify SIG... [--all N] [--dir DIR] [--gaviota DIR] [--full-dir DIR] [--part K/N] [--threads N]
// [--combine DIR] [--json]:
// checks tables independently of the solver (every position against its successors, one ply
// forward) and, when built with libgaviotatb, values 4/0 and DTM of 3-4-man tables against the
// Gaviota tables; a stalemate-only table against its full table in --full-dir.
#include <chrono>
#include <iostream>

#include "api/json.hpp"
#include "api/tables.hpp"
#include "api/verify_parts.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

// "verify KQRBkr: White to move, 1,234,567 of 6,817,791,584 entries (0.0%), 712,345 a second",
// the rate since the side's first report, `started`.
std::string progress_text(const Material& m, Color c, uint64_t done, uint64_t total,
                          std::chrono::steady_clock::time_point started) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const double percent = total > 0 ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0;
  char share[16];
  std::snprintf(share, sizeof share, "%.1f%%", percent);
  return "verify " + m.str() + ": " + (c == Color::White ? "White" : "Black") + " to move, " +
         with_commas(done) + " of " + with_commas(total) + " entries (" + share + ")" +
         (seconds > 1
              ? ", " + with_commas(static_cast<uint64_t>(static_cast<double>(done) / seconds)) + " a second"
              : "");
}

// --part K/N: part K of N (retro::VerifyPart), e.g. "2/4".
retro::VerifyPart part_option(const CommandLine& cl) {
  const std::string text = cl.option("part", "1/1");
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw UsageError("--part must be K/N, part K of N (such as 2/4), not '" + text + "'");
  retro::VerifyPart part;
  part.count = static_cast<uint64_t>(parse_int(text.substr(slash + 1), "--part's N", 1, 1'000'000));
  part.number =
      static_cast<uint64_t>(parse_int(text.substr(0, slash), "--part's K", 1, static_cast<int>(part.count)));
  return part;
}

// --combine DIR: the reports of the parts of one table added up (api/verify_parts.hpp).
int combine_parts(const CommandLine& cl, const api::VerifyRequest& request) {
  const std::vector<Material> tables = parse_signatures(cl, "verify");
  if (tables.size() != 1 || cl.flag("part") || cl.flag("gaviota") || cl.flag("full-dir"))
    throw UsageError(
        "verify --combine DIR adds up the parts of one table: give one signature, without "
        "--part, --gaviota or --full-dir");
  const api::CombinedVerification combined =
      api::combine_verify_parts(tables.front(), request, cl.option("combine", ""));
  if (cl.json())
    print_json(api::to_json(combined));
  else
    std::cout << combined.text << std::flush;
  return combined.ok() ? ExitSuccess : ExitFailure;
}

}  // namespace

int cmd_verify(const std::vector<std::string>& args) {
  CommandLine cl("verify", "Check tables one ply forward, and against the Gaviota tables (values 4/0, DTM).");
  cl.rest("SIG", "material signatures of tables in --dir");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "gaviota", po::value<std::string>()->value_name("DIR"), "also compare 3-4-man tables with Gaviota's")(
      "full-dir", po::value<std::string>()->value_name("DIR"),
      "the full tables that stalemate-only ones (--metrics dts) are checked against, entry by entry")(
      "part", po::value<std::string>()->value_name("K/N"),
      "check part K of N equal parts of the entries (both sides end to end), e.g. 2/4")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)")(
      "cache-mb", po::value<std::string>()->value_name("MB"),
      "decoded-block cache of the subtables read block by block, in MiB (default 1024)")(
      "combine", po::value<std::string>()->value_name("DIR"),
      "verify nothing: add up the reports of --part K/N --json runs saved as DIR/*.json, and check that "
      "they are every part once and their counts the table file's");
  cl.rules_option().json_option();
  if (!cl.parse(args)) return ExitSuccess;
  api::VerifyRequest request;
  request.directory = cl.option("dir", "tables");
  if (cl.flag("gaviota")) request.gaviota = cl.option("gaviota", "");
  if (cl.flag("full-dir")) request.full_directory = cl.option("full-dir", "");
  request.part = part_option(cl);
  request.threads = threads_option(cl);
  request.cache_bytes = cache_bytes_option(cl);
  request.rules = rules_of(cl);
  if (cl.flag("combine")) return combine_parts(cl, request);
  api::check_gaviota(request.gaviota);
  ProgressLine progress;
  std::optional<std::pair<Material, Color>> side;  // the side being checked, since `started`
  auto started = std::chrono::steady_clock::now();
  request.progress = [&](const Material& m, Color c, uint64_t done, uint64_t total) {
    if (!side || side->first != m || side->second != c) {
      side = {m, c};
      started = std::chrono::steady_clock::now();
    }
    progress.update([&] { return progress_text(m, c, done, total, started); });
  };
  std::vector<api::VerifyOutcome> outcomes;
  bool ok = true;
  for (const Material& m : parse_signatures(cl, "verify")) {
    outcomes.push_back(api::verify(m, request));
    progress.clear();
    if (!cl.json()) std::cout << outcomes.back().text << std::flush;
    ok = ok && outcomes.back().ok();
  }
  if (cl.json()) print_json(api::verify_json(outcomes));
  return ok ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
