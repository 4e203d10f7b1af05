// egtb probe [--dir DIR] [--json] FEN, or egtb probe [--dir DIR] --epd FILE [--value-only | --value-file]:
// the Lasker value and depth of positions, the value of every move and the optimal line (api/probe.hpp,
// api/batch.hpp).
#include <iostream>

#include "api/batch.hpp"
#include "api/input.hpp"
#include "api/json.hpp"
#include "api/statistics.hpp"
#include "egtb/core/fen.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/probe_report.hpp"

namespace egtb::cli {

namespace {

constexpr const char* ProbeSummary =
    "Probe positions: the Lasker value (4 mates, 3 stalemates the opponent, 2 draw, 1 is stalemated,\n"
    "0 is mated) and DTM or DTS of the side to move, every legal move with the value and depth it\n"
    "leads to (best first), and the optimal line to the mate or stalemate with its final FEN.\n\n"
    "With --stalemate, only the value 3 or 1 and its DTS, or \"not a stalemate win or loss\": what\n"
    "stalemate-only tables (generate --metrics dts) hold, and all a full probe of them refuses.\n\n"
    "With --epd, each line of FILE (- for standard input) holds a FEN or an EPD (four fields, then\n"
    "operations, which are ignored); each gives one line of compact JSON, in order, and a bad line\n"
    "gives {\"line\": N, \"input\": ..., \"error\": ...} while the batch goes on. Blank lines are "
    "skipped.\n\n"
    "Exit status: 0 success; 1 a table is missing, damaged or inconsistent, or (with --epd) some\n"
    "line failed; 2 a bad FEN, castling rights, more men than any table, or a usage error.";

// Tables built with --metrics dtm show values 3 and 1 as draws: say so on stderr.
std::optional<std::string> warn_incomplete_tables(const Tablebase& tb) {
  std::optional<std::string> warning = api::incomplete_table_warning(tb.incomplete_tables());
  if (warning) std::cerr << "egtb probe: warning: " << *warning << '\n';
  return warning;
}

int run_batch(const Tablebase& tb, const CommandLine& cl) {
  api::InputFile input(cl.option("epd", "-"), "EPD file");
  api::BatchOptions options;
  options.detail = cl.flag("value-file")   ? api::ProbeDetail::ValueFile
                   : cl.flag("value-only") ? api::ProbeDetail::Value
                                           : api::ProbeDetail::Full;
  options.threads = threads_option(cl);
  const api::BatchSummary s = api::probe_batch(tb, input.stream(), options, [](const api::BatchLine& line) {
    std::cout << line.output << '\n';
    if (!line.ok) std::cout.flush();  // at once: the rest of a long line may take long to skip
  });
  warn_incomplete_tables(tb);
  return s.failed == 0 ? ExitSuccess : ExitFailure;
}

// The FEN from the arguments: one quoted argument, or its fields as separate arguments.
std::string fen_argument(const std::vector<std::string>& words) {
  if (words.empty()) throw UsageError("probe: missing argument FEN (see egtb probe --help)");
  std::string fen;
  for (const std::string& w : words) fen += (fen.empty() ? "" : " ") + w;
  return fen;
}

// --stalemate: what a stalemate-only table holds of the position (api::probe_stalemate_or_throw).
int run_stalemate(const Tablebase& tb, const CommandLine& cl) {
  const api::StalemateReport report =
      api::probe_stalemate_or_throw(tb, parse_position(fen_argument(cl.rest_arguments())));
  if (cl.json())
    print_json(api::to_json(report));
  else
    std::cout << to_fen(report.position) << '\n' << api::stalemate_words(report) << '\n';
  return ExitSuccess;
}

int run_single(const Tablebase& tb, const CommandLine& cl) {
  const api::ProbeReport report =
      api::probe_or_throw(tb, parse_position(fen_argument(cl.rest_arguments())), api::ProbeDetail::Full);
  const std::optional<std::string> warning = warn_incomplete_tables(tb);
  if (cl.json()) {
    api::Json json = api::to_json(report, api::ProbeDetail::Full);
    if (warning) json["warning"] = *warning;
    print_json(json);
  } else {
    print_report(std::cout, report);
  }
  return ExitSuccess;
}

void add_options(CommandLine& cl) {
  cl.rest("FEN", "the position (quoted, or its fields as separate arguments)");
  const auto text = [](const char* name) { return po::value<std::string>()->value_name(name); };
  cl.options()("dir", text("DIR"), "the table directory (default: tables)");
  cl.options()("epd", text("FILE"), "probe every FEN or EPD line of FILE (- for stdin)");
  cl.options()("value-only", "with --epd: print only fen, lasker, dtm and dts (no moves, no pv)");
  cl.options()("value-file",
               "with --epd: print only fen and lasker, read from the value files (SIG.egv, written by "
               "recompress --value-files), which hold no depth");
  cl.options()("stalemate",
               "only whether the side to move forces stalemate (3) or is stalemated (1), with the DTS: "
               "what tables built with --metrics dts hold");
  cl.options()("threads", text("N"), "with --epd: probing threads (default: every core)");
  cl.options()("cache-mb", text("MB"), "decoded-block cache limit in MiB (default 1024)");
  cl.rules_option().json_option();
}

TablebaseOptions tablebase_options(const CommandLine& cl) {
  TablebaseOptions options;
  options.rules = rules_of(cl);
  options.cache_bytes = cache_bytes_option(cl);
  return options;
}

}  // namespace

int cmd_probe(const std::vector<std::string>& args) {
  CommandLine cl("probe", ProbeSummary);
  add_options(cl);
  if (!cl.parse(args)) return ExitSuccess;
  const Tablebase tb(cl.option("dir", "tables"), tablebase_options(cl));
  if (!cl.flag("epd")) {
    if (cl.flag("value-only") || cl.flag("value-file"))
      throw UsageError("probe: --value-only and --value-file need --epd");
    return cl.flag("stalemate") ? run_stalemate(tb, cl) : run_single(tb, cl);
  }
  if (cl.flag("stalemate")) throw UsageError("probe: --stalemate takes a FEN, not --epd");
  if (!cl.rest_arguments().empty()) throw UsageError("probe: give either a FEN or --epd FILE, not both");
  return run_batch(tb, cl);
}

}  // namespace egtb::cli
