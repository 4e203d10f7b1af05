#include "api/query.hpp"

#include "api/errors.hpp"
#include "api/input.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

query::ScanQuery prepare_query(const std::string& source, const std::string& source_name) {
  Expected<query::ScanQuery, query::QueryError> prepared = query::prepare_query(source);
  if (prepared) return std::move(*prepared);
  const query::QueryError& e = prepared.error();
  std::string message = query::format_error(e, source, source_name);
  if (!message.empty() && message.back() == '\n') message.pop_back();
  throw InputError(message, InputLocation{.line = e.range.line,
                                          .column = e.range.column,
                                          .end_line = e.range.end_line,
                                          .end_column = e.range.end_column});
}

void check_tables_present(const std::vector<Material>& tables, const query::ScanOptions& options) {
  if (tables.empty()) throw InputError("query: name at least one signature, or a list of FENs");
  const Tablebase tb(options.directory, {TablebaseOptions::DefaultCacheBytes, options.rules});
  for (const Material& m : tables)
    if (!tb.has_table(m)) throw MissingTableError(tb.missing_message(m), m.normalized().str());
}

query::ScanSummary query_tables(const query::ScanQuery& query, const std::vector<Material>& tables,
                                const query::ScanOptions& options, const query::MatchSink& sink) {
  check_tables_present(tables, options);
  return query::scan_tables(query, tables, options, sink);
}

BoundedResult run_bounded(const query::ScanQuery& query, const BoundedQuery& request) {
  BoundedResult result;
  query::ScanOptions options = request.options;
  options.list = true;
  options.limit = request.limit + 1;  // one more tells whether the limit cut the listing
  const auto deadline = std::chrono::steady_clock::now() + request.budget;
  options.stop = [&] {
    return std::chrono::steady_clock::now() >= deadline || (request.cancelled && request.cancelled());
  };
  result.summary = query_tables(query, request.tables, options, [&](const query::Match& m) {
    if (result.matches.size() < request.limit)
      result.matches.push_back(m);
    else
      result.limit_reached = true;
  });
  result.out_of_time = result.summary.stopped;
  if (result.limit_reached) --result.summary.matches;
  return result;
}

query::ScanSummary query_fens(const query::ScanQuery& query, std::istream& fens,
                              const query::ScanOptions& options, const query::MatchSink& sink,
                              const std::function<void(const FenLineError&)>& on_error) {
  if (query.uses_tables() && options.directory.empty())
    throw InputError(
        "query: this query reads table values (dtm, dts, lasker, ...): give --dir with the tables");
  std::vector<Position> positions;
  LineReader reader(fens);
  while (std::optional<Line> line = reader.next()) {
    if (line->too_long) {
      on_error({line->number, "", "the line is longer than " + std::to_string(MaxLineBytes) + " bytes"});
      continue;
    }
    if (line->text.find_first_not_of(" \t") == std::string::npos || line->text[0] == '#') continue;
    const Expected<Position, egtb::FenError> pos = parse_fen(line->text);
    if (pos)
      positions.push_back(*pos);
    else
      on_error({line->number, line->text, pos.error().message});
  }
  return query::scan_positions(query, positions, options, sink);
}

}  // namespace egtb::api
