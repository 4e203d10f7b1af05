// egtb annotate IN.pgn [-o OUT.pgn] [--dir DIR] [--json] [--terse] [--threads N]: every position of every
// game that the tables hold gets its value, every move played from it its mark, every game a
// summary (api/annotate.hpp).
#include <iostream>
#include <memory>

#include "api/annotate.hpp"
#include "api/input.hpp"
#include "api/json.hpp"
#include "pgn/writer.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/output.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

constexpr const char* AnnotateSummary =
    "Check games and studies against the tables: each position of the mainline and of the variations\n"
    "that a table holds gets a comment with its value and depth, each move played from it a mark as the\n"
    "article's Appendix A writes them (! $1 the only move keeping the value, ?? $4 a concession, and in\n"
    "the comment \" the unique best move, ' an equi-optimal one, ° the only legal move), the winner's\n"
    "duals (fastest and slower), each stalemate its class (vs-b-sb, p-bm, pure, model), each game a\n"
    "summary as its first comment: the first position in the tables against the result, the\n"
    "concessions and the duals. Depths are those of the position a move leads to.\n\n"
    "The annotated games go to OUT (or standard output); with -o, the summaries are printed, with\n"
    "--json as JSON lines. A game that cannot be read is reported (file:line:col: game N: ...) and\n"
    "skipped. Exit status: 0 success, 1 a game could not be read or a table is damaged, 2 usage error.";

CommandLine annotate_command_line() {
  CommandLine cl("annotate", AnnotateSummary);
  cl.positional("IN", "the PGN file ('-': standard input)");
  const auto text = [](const char* name) { return po::value<std::string>()->value_name(name); };
  cl.options()("output,o", text("OUT"), "write the annotated games to OUT");
  cl.options()("dir", text("DIR"), "the table directory (default: tables)");
  cl.options()("threads", text("N"), "worker threads (default: every core)");
  cl.options()("terse", "comment only marks, duals, concessions and the end of each line");
  cl.json_option();
  return cl;
}

void print_summary(const api::GameAnnotation& a, bool json, Rules rules) {
  if (json) {
    std::cout << api::json_line(api::to_json(a, rules)) << '\n';
  } else if (!a.summary.empty()) {
    std::cout << "game " << a.game << " (" << a.white << " - " << a.black << "): " << a.summary << '\n';
  }
}

void print_totals(const api::AnnotateTotals& t) {
  std::cerr << "annotate: games " << with_commas(t.games) << ", unreadable " << with_commas(t.errors)
            << ", positions in the tables " << with_commas(t.positions) << ", concessions "
            << with_commas(t.concessions) << ", duals " << with_commas(t.value_duals)
            << " (at the optimal depth " << with_commas(t.depth_duals) << ")";
  if (t.unprobed > 0) {
    std::string tables;
    for (const std::string& table : t.missing_tables) tables += (tables.empty() ? "" : ", ") + table;
    std::cerr << ", not probed " << with_commas(t.unprobed) << " (missing: " << tables << ")";
  }
  std::cerr << '\n';
}

}  // namespace

int cmd_annotate(const std::vector<std::string>& args) {
  CommandLine cl = annotate_command_line();
  if (!cl.parse(args)) return ExitSuccess;
  api::InputFile input(cl.argument("IN"), "PGN file");
  std::unique_ptr<OutputFile> file;
  if (cl.flag("output")) file = std::make_unique<OutputFile>(cl.option("output", ""));
  std::ostream* pgn_out = file ? &file->stream() : cl.json() ? nullptr : &std::cout;
  const bool summaries = cl.flag("output") || cl.json();
  const Tablebase tb(cl.option("dir", "tables"));
  ProgressLine progress;
  api::AnnotateOptions options;
  options.threads = threads_option(cl);
  options.layout = cl.flag("terse") ? api::AnnotateLayout::Terse : api::AnnotateLayout::Full;
  options.progress = [&](const api::GameStreamProgress& p) {
    progress.update([&] { return "annotate: " + games_progress(p.games, p.bytes, input.size()); });
  };
  const api::AnnotateTotals totals = api::annotate_games(
      tb, input.stream(), options,
      [&](const pgn::Game& game, const api::GameAnnotation& found) {
        if (pgn_out) pgn::write_game(*pgn_out, game);
        if (summaries) print_summary(found, cl.json(), tb.rules());
      },
      [&](const pgn::PgnError& e) {
        progress.clear();
        std::cerr << "egtb: " << pgn::format_error(e, input.name()) << '\n';
      });
  progress.clear();
  if (file) file->close();
  print_totals(totals);
  return totals.errors == 0 ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
