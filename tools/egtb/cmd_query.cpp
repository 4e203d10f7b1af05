// egtb query SIG... 'QUERY' | --file Q.cql | --fens FILE: runs a CQL query over every position of
// tables (or over a list of FENs) and lists or counts the matching positions (query/scan.hpp;
// the output formats are in query_output.hpp).
#include <fstream>
#include <iostream>
#include <sstream>

#include "egtb/core/fen.hpp"
#include "egtb/store/tablebase.hpp"
#include "query/scan.hpp"
#include "tools/egtb/commands.hpp"
#include "tools/egtb/options.hpp"
#include "tools/egtb/progress.hpp"
#include "tools/egtb/query_output.hpp"

namespace egtb::cli {

namespace {

using indexing::Convention;

struct QueryText {
  std::string source;
  std::string file_name;  // for error messages: the --file path or "query"
};

// The text of a file, or of standard input for "-".
std::string read_file(const std::string& path, const std::string& what) {
  if (path == "-") {
    std::ostringstream text;
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path);
  if (!in) throw UsageError("cannot read " + what + " '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The query (the last argument, or --file) and the signatures (the other arguments).
QueryText query_text(const CommandLine& cl, std::vector<std::string>& args) {
  if (cl.flag("file")) {
    const std::string path = cl.option("file", "");
    return {read_file(path, "query file"), path == "-" ? "<stdin>" : path};
  }
  if (args.empty()) throw UsageError("query: missing QUERY (see egtb query --help)");
  QueryText q{args.back(), "query"};
  args.pop_back();
  return q;
}

QueryFormat output_format(const CommandLine& cl) {
  const int chosen = int{cl.json()} + int{cl.flag("csv")} + int{cl.flag("pgn")};
  if (chosen > 1) throw UsageError("query: choose one of --json, --csv and --pgn");
  if (cl.json()) return QueryFormat::JsonLines;
  if (cl.flag("csv")) return QueryFormat::Csv;
  return cl.flag("pgn") ? QueryFormat::Pgn : QueryFormat::Text;
}

std::vector<Material> signatures(const std::vector<std::string>& args) {
  std::vector<Material> tables;
  for (const std::string& text : args) {
    const auto m = Material::parse(text);
    if (!m) throw UsageError(m.error());
    if (m->is_bare_kings()) throw UsageError("KK has no table: bare kings are a draw");
    tables.push_back(*m);
  }
  return tables;
}

// Fails (exit 1) naming the first missing table and the command that builds it.
void require_tables(const std::vector<Material>& tables, const std::filesystem::path& dir) {
  const Tablebase tb(dir);
  for (const Material& m : tables)
    if (!tb.has_table(m))
      throw std::runtime_error("table " + m.normalized().str() + " is missing from " + dir.string() +
                               " (build it with: egtb generate " + m.normalized().str() + " --dir " +
                               dir.string() + ")");
}

std::vector<Position> read_fens(const std::string& path) {
  std::istringstream lines(read_file(path, "FEN file"));
  std::vector<Position> positions;
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    if (line.back() == '\r') line.pop_back();
    const Expected<Position, FenError> pos = parse_fen(line);
    if (!pos)
      throw UsageError((path == "-" ? "<stdin>" : path) + ":" + std::to_string(number) + ": " +
                       pos.error().message);
    positions.push_back(*pos);
  }
  return positions;
}

void print_counts(const query::ScanSummary& s, Convention c, bool json) {
  const std::string convention(indexing::convention_name(c));
  if (s.tables.empty()) {  // a FEN list: one position each
    if (json)
      print_json({{"matches", s.matches}});
    else
      std::cout << with_commas(s.matches) << " positions\n";
    return;
  }
  if (json) {
    Json tables = Json::array();
    for (const query::TableTally& t : s.tables)
      tables.push_back({{"signature", t.table.str()},
                        {"matches", t.matches},
                        {"entries", t.entries},
                        {"evaluated", t.evaluated}});
    print_json({{"convention", convention}, {"tables", tables}, {"matches", s.matches}});
    return;
  }
  for (const query::TableTally& t : s.tables)
    std::cout << t.table.str() << "  " << with_commas(t.matches) << " positions (" << convention << ")\n";
  if (s.tables.size() != 1)
    std::cout << "total  " << with_commas(s.matches) << " positions (" << convention << ")\n";
}

CommandLine command_line() {
  CommandLine cl("query", "Run a CQL query over every position of tables, or over a list of FENs.");
  cl.rest("ARG", "material signatures (KQk, KBNk, ...), then the query unless --file is given");
  cl.options()("file", po::value<std::string>()->value_name("FILE"),
               "read the query from a .cql file ('-': standard input)")(
      "fens", po::value<std::string>()->value_name("FILE"),
      "evaluate the FENs of FILE (one per line, '-': standard input) instead of tables")(
      "dir", po::value<std::string>()->value_name("DIR"), "table directory (default ./tables)")(
      "count", "print only the number of matching positions per table")(
      "limit", po::value<std::string>()->value_name("N"), "list at most N matches")(
      "convention", po::value<std::string>()->value_name("NAME"),
      "how positions count: index462 (default: every index entry), physical (every placement, as CQL sees "
      "them), classes (each symmetry class once)")("threads", po::value<std::string>()->value_name("N"),
                                                   "worker threads (default: every core)")(
      "csv", "list matches as CSV")("pgn", "list matches as PGN games with the optimal line");
  cl.json_option();
  return cl;
}

struct Run {
  query::ScanOptions options;
  QueryFormat format = QueryFormat::Text;
  bool count = false;
};

Run run_options(const CommandLine& cl) {
  Run r;
  r.count = cl.flag("count");
  r.format = output_format(cl);
  r.options.directory = cl.option("dir", "tables");
  r.options.convention = parse_convention(cl.option("convention", "index462"));
  r.options.threads = parse_int(cl.option("threads", "0"), "--threads", 0, 1024);
  r.options.limit = static_cast<uint64_t>(parse_int(cl.option("limit", "0"), "--limit", 0, 2'000'000'000));
  r.options.list = !r.count;
  return r;
}

query::ScanQuery prepare(const QueryText& q) {
  Expected<query::ScanQuery, query::QueryError> prepared = query::prepare_query(q.source);
  if (prepared) return std::move(*prepared);
  std::string message = query::format_error(prepared.error(), q.source, q.file_name);
  if (!message.empty() && message.back() == '\n') message.pop_back();
  throw UsageError(message);
}

query::ScanSummary run_fens(const CommandLine& cl, const query::ScanQuery& query, Run& r,
                            const query::MatchSink& sink) {
  if (query.uses_tables() && !cl.flag("dir"))
    throw UsageError(
        "query: this query reads table values (dtm, dts, lasker, ...): give --dir with the tables");
  if (!cl.flag("dir")) r.options.directory.clear();
  const std::vector<Position> positions = read_fens(cl.option("fens", ""));
  return query::scan_positions(query, positions, r.options, sink);
}

query::ScanSummary run_tables(const std::vector<Material>& tables, const query::ScanQuery& query, Run& r,
                              const query::MatchSink& sink) {
  if (tables.empty())
    throw UsageError("query: name at least one signature, or --fens FILE (see egtb query --help)");
  require_tables(tables, r.options.directory);
  ProgressLine progress;
  r.options.progress = [&](const query::ScanProgress& p) {
    progress.update(p.table.str() + " " + with_commas(p.done) + " / " + with_commas(p.total) + " entries");
  };
  query::ScanSummary s = query::scan_tables(query, tables, r.options, sink);
  progress.clear();
  return s;
}

}  // namespace

int cmd_query(const std::vector<std::string>& args) {
  CommandLine cl = command_line();
  if (!cl.parse(args)) return ExitSuccess;
  std::vector<std::string> rest = cl.rest_arguments();
  const QueryText text = query_text(cl, rest);
  Run r = run_options(cl);
  const query::ScanQuery query = prepare(text);
  const std::vector<Material> tables = signatures(rest);
  if (cl.flag("fens") && !tables.empty()) throw UsageError("query: give signatures or --fens, not both");
  std::optional<Tablebase> tablebase;
  if (r.format == QueryFormat::Pgn && (!cl.flag("fens") || cl.flag("dir")))
    tablebase.emplace(r.options.directory);
  const std::unique_ptr<MatchWriter> writer =
      make_match_writer(r.format, std::cout, tablebase ? &*tablebase : nullptr);
  const query::MatchSink sink = [&](const query::Match& m) { writer->write(m); };
  const query::ScanSummary s =
      cl.flag("fens") ? run_fens(cl, query, r, sink) : run_tables(tables, query, r, sink);
  if (r.count) print_counts(s, r.options.convention, cl.json());
  return ExitSuccess;
}

}  // namespace egtb::cli
