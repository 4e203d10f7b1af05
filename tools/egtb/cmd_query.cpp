// egtb query SIG... 'QUERY' | --file Q.cql | --fens FILE | --pgn-in FILE: runs a CQL query over
// every position of tables (or of a list of FENs, or of PGN games: query_pgn.cpp) and lists or
// counts the matching positions (api/query.hpp; the output formats are in api/query_output.hpp).
#include <cerrno>
#include <iostream>

#include "api/input.hpp"
#include "api/json.hpp"
#include "api/query.hpp"
#include "api/query_output.hpp"
#include "api/signatures.hpp"
#include "api/statistics.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/output.hpp"
#include "tools/egtb/progress.hpp"
#include "tools/egtb/query_pgn.hpp"

namespace egtb::cli {

namespace {

struct QueryText {
  std::string source;
  std::string name;  // for error messages: the --file path or "query"
};

// The query (the last argument, or --file) and the signatures (the other arguments).
QueryText query_text(const CommandLine& cl, std::vector<std::string>& args) {
  if (cl.flag("file")) {
    api::InputFile file(cl.option("file", ""), "query file");
    return {api::read_all(file), file.name()};
  }
  if (args.empty()) throw UsageError("query: missing QUERY (see egtb query --help)");
  QueryText q{args.back(), "query"};
  args.pop_back();
  return q;
}

api::QueryFormat output_format(const CommandLine& cl) {
  const int chosen = int{cl.json()} + int{cl.flag("csv")} + int{cl.flag("pgn")};
  if (chosen > 1) throw UsageError("query: choose one of --json, --csv and --pgn");
  if (cl.json()) return api::QueryFormat::JsonLines;
  if (cl.flag("csv")) return api::QueryFormat::Csv;
  return cl.flag("pgn") ? api::QueryFormat::Pgn : api::QueryFormat::Text;
}

void print_counts(const query::ScanSummary& s, indexing::Convention c, bool json,
                  const std::optional<std::string>& warning) {
  if (json) {
    api::Json counts = api::to_json(s, c);
    if (warning) counts["warning"] = *warning;
    return print_json(counts);
  }
  const std::string convention(indexing::convention_name(c));
  if (s.tables.empty()) {  // a FEN list: one position each
    std::cout << with_commas(s.matches) << " positions\n";
    return;
  }
  for (const query::TableTally& t : s.tables)
    std::cout << t.table.str() << "  " << with_commas(t.matches) << " positions (" << convention << ")\n";
  if (s.tables.size() != 1)
    std::cout << "total  " << with_commas(s.matches) << " positions (" << convention << ")\n";
}

CommandLine query_command_line() {
  CommandLine cl("query",
                 "Run a CQL query over every position of tables, of a list of FENs, or of PGN games.");
  cl.rest(
      "ARG",
      "material signatures (KQk, KBNk, ..., or all: every table in --dir), then the query unless --file is "
      "given");
  cl.options()("all", po::value<std::string>()->value_name("N"), "every table of 3 to N men in --dir")(
      "file", po::value<std::string>()->value_name("FILE"),
      "read the query from a .cql file ('-': standard input)")(
      "fens", po::value<std::string>()->value_name("FILE"),
      "evaluate the FENs of FILE (one per line, '-': standard input) instead of tables")(
      "pgn-in", po::value<std::string>()->value_name("FILE"),
      "evaluate every position of the games of FILE ('-': standard input); matching games are listed as PGN "
      "with {CQL} at the matching positions")("variations", "with --pgn-in: the positions of variations too")(
      "dir", po::value<std::string>()->value_name("DIR"),
      "table directory (default ./tables; with --fens or --pgn-in none: no table values)")(
      "count", "print only the number of matching positions per table (with --pgn-in: of games)")(
      "limit", po::value<std::string>()->value_name("N"),
      "list at most N matches (with --pgn-in: games; 0, the default: all)")(
      "convention", po::value<std::string>()->value_name("NAME"),
      "how positions count: index462 (default: every index entry), physical (every placement, as CQL sees "
      "them), classes (each symmetry class once)")("threads", po::value<std::string>()->value_name("N"),
                                                   "worker threads (default: every core)")(
      "csv", "list matches as CSV")("pgn", "list matches as PGN games with the optimal line");
  cl.rules_option().json_option();
  return cl;
}

query::ScanOptions scan_options(const CommandLine& cl) {
  query::ScanOptions o;
  o.directory = cl.option("dir", cl.flag("fens") ? "" : "tables");
  o.convention = convention_option(cl);
  o.rules = rules_of(cl);
  o.threads = threads_option(cl);
  o.limit = static_cast<uint64_t>(parse_int(cl.option("limit", "0"), "--limit", 0, 2'000'000'000));
  o.list = !cl.flag("count");
  return o;
}

// Evaluates the FEN list; a line that is not a FEN is reported on stderr and the list goes on.
query::ScanSummary run_fens(const CommandLine& cl, const query::ScanQuery& query, const query::ScanOptions& o,
                            const query::MatchSink& sink, bool& ok) {
  api::InputFile input(cl.option("fens", ""), "FEN file");
  return api::query_fens(query, input.stream(), o, sink, [&](const api::FenLineError& e) {
    std::cerr << "egtb: " << input.name() << ":" << e.line << ": " << e.message << '\n';
    ok = false;
  });
}

query::ScanSummary run_tables(const std::vector<std::string>& texts, std::optional<int> all,
                              const query::ScanQuery& query, query::ScanOptions o,
                              const query::MatchSink& sink) {
  if (texts.empty() && !all)
    throw UsageError("query: name at least one signature, or --fens FILE (see egtb query --help)");
  const std::vector<Material> tables =
      api::scan_tables(Tablebase(o.directory, TablebaseOptions{0, o.rules}), texts, all);
  ProgressLine progress;
  o.progress = [&](const query::ScanProgress& p) {
    progress.update([&] {
      return p.table.str() + " " + with_commas(p.done) + " / " + with_commas(p.total) + " entries";
    });
    std::cout.flush();  // each batch of matches reaches a pipe's reader as the scan goes on
  };
  o.stop = [] { return stdout_closed(); };
  query::ScanSummary s = api::query_tables(query, tables, o, sink);
  progress.clear();
  if (s.stopped) throw OutputError(EPIPE);  // the reader of standard output has gone
  return s;
}

}  // namespace

int cmd_query(const std::vector<std::string>& args) {
  CommandLine cl = query_command_line();
  if (!cl.parse(args)) return ExitSuccess;
  std::vector<std::string> rest = cl.rest_arguments();
  const QueryText text = query_text(cl, rest);
  const query::ScanOptions options = scan_options(cl);
  const api::QueryFormat format = output_format(cl);
  const query::ScanQuery query = api::prepare_query(text.source, text.name);
  const std::optional<int> all = all_option(cl);
  if (int{!rest.empty() || all.has_value()} + int{cl.flag("fens")} + int{cl.flag("pgn-in")} > 1)
    throw UsageError("query: give signatures, --fens or --pgn-in, only one of them");
  if (cl.flag("pgn-in")) return run_query_pgn(cl, query);
  std::optional<Tablebase> tablebase;
  if (format == api::QueryFormat::Pgn && !options.directory.empty())
    tablebase.emplace(options.directory,
                      TablebaseOptions{TablebaseOptions::DefaultCacheBytes, options.rules});
  const auto writer =
      api::make_match_writer(format, std::cout, options.rules, tablebase ? &*tablebase : nullptr);
  const query::MatchSink sink = [&](const query::Match& m) { writer->write(m); };
  bool ok = true;
  const query::ScanSummary s =
      cl.flag("fens") ? run_fens(cl, query, options, sink, ok) : run_tables(rest, all, query, options, sink);
  const std::optional<std::string> warning = api::incomplete_table_warning(s.incomplete);
  if (warning) std::cerr << "egtb query: warning: " << *warning << '\n';
  if (cl.flag("count")) print_counts(s, options.convention, cl.json(), warning);
  return ok ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
