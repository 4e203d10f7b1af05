// egtb stats SIG... [--all N] [--dir DIR] [--convention C] [--format md|csv|latex|json] [--json]
// [--rank [--top N]] [--figures DIR] [--threads N]: the article's Tables 1 and 2, depth histograms and
// figures of finished tables (stats/statistics.hpp; the JSON is api/json.hpp's, described in docs/stats.md).
#include <filesystem>
#include <iostream>

#include "api/json.hpp"
#include "api/statistics.hpp"
#include "egtb/store/error.hpp"
#include "stats/figures.hpp"
#include "stats/report.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/output.hpp"

namespace egtb::cli {

namespace {

// The text format, or nothing for JSON.
std::optional<stats::TextFormat> parse_format(const std::string& text) {
  if (text == "md") return stats::TextFormat::Markdown;
  if (text == "csv") return stats::TextFormat::Csv;
  if (text == "latex") return stats::TextFormat::Latex;
  if (text == "json") return std::nullopt;
  throw UsageError("--format must be md, csv, latex or json, not '" + text + "'");
}

void write_figures(const std::filesystem::path& dir, const std::vector<stats::TableStatistics>& tables) {
  std::filesystem::create_directories(dir);
  size_t count = 0;
  for (const stats::TableStatistics& t : tables)
    for (const stats::Figure& f : stats::figures(t)) {
      write_file(dir / f.file_name, f.svg);
      ++count;
    }
  std::cerr << "egtb stats: wrote " << count << " SVG figures to " << dir.string() << '\n';
}

CommandLine stats_command_line() {
  CommandLine cl(
      "stats",
      "Print the article's Tables 1 (maxDTS, maxDTM) and 2 (Lasker values) and the depth histograms "
      "of finished tables.");
  cl.rest("SIG", "material signatures such as KBk, KNk or KBvK");
  cl.options()("all", po::value<std::string>()->value_name("N"),
               "every table of 3 to N men in the directory")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "convention", po::value<std::string>()->value_name("C"),
      "index462 (default, the article's), physical or classes")(
      "format", po::value<std::string>()->value_name("F"), "md (default), csv, latex or json")(
      "figures", po::value<std::string>()->value_name("DIR"),
      "also write SVG diagrams and histograms to DIR")(
      "pgn", po::value<std::string>()->value_name("FILE"),
      "also write every maxDTS and maxDTM example with its optimal line as PGN to FILE")(
      "rank", "Table 1 and maxDTM: the rows of every table together, deepest first")(
      "top", po::value<std::string>()->value_name("N"), "with --rank: at most N rows each")(
      "threads", po::value<std::string>()->value_name("N"), "worker threads (default: every core)");
  cl.rules_option().json_option();
  return cl;
}

}  // namespace

int cmd_stats(const std::vector<std::string>& args) {
  CommandLine cl = stats_command_line();
  if (!cl.parse(args)) return ExitSuccess;
  if (cl.json() && cl.flag("format")) throw UsageError("stats: give --json or --format, not both");
  const std::optional<stats::TextFormat> format =
      parse_format(cl.json() ? "json" : cl.option("format", "md"));
  if (cl.flag("top") && !cl.flag("rank")) throw UsageError("stats: --top needs --rank");
  const stats::ReportOptions report{
      cl.flag("rank"), static_cast<size_t>(parse_int(cl.option("top", "0"), "--top", 0, 1'000'000))};
  if (cl.rest_arguments().empty() && !cl.flag("all"))
    throw UsageError("stats: name at least one signature or --all N (see egtb stats --help)");
  bool unreadable = false;
  const api::StatsRequest request{cl.option("dir", "tables"),
                                  cl.rest_arguments(),
                                  all_option(cl),
                                  {convention_option(cl), threads_option(cl)},
                                  rules_of(cl)};
  const std::vector<stats::TableStatistics> tables = api::table_statistics(request, [&](const StoreError& e) {
    std::cerr << "egtb stats: " << e.what() << " (left out)\n";
    unreadable = true;
  });
  for (const stats::TableStatistics& t : tables)
    if (const auto warning = api::incomplete_table_warning(t))
      std::cerr << "egtb stats: " << *warning << '\n';
  if (format) {
    std::cout << stats::render(tables, *format, report);
  } else {
    print_json(api::stats_json(tables));
  }
  if (cl.flag("figures")) write_figures(cl.option("figures", ""), tables);
  if (cl.flag("pgn")) write_file(cl.option("pgn", ""), api::examples_pgn(tables));
  return unreadable ? ExitFailure : ExitSuccess;
}

}  // namespace egtb::cli
