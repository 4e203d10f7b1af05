#include "tools/egtb/query_pgn.hpp"

#include <iostream>

#include "api/input.hpp"
#include "api/json.hpp"
#include "api/query.hpp"
#include "pgn/writer.hpp"
#include "tools/egtb/progress.hpp"

namespace egtb::cli {

namespace {

api::PgnQueryOptions pgn_options(const CommandLine& cl) {
  api::PgnQueryOptions o;
  o.directory = cl.option("dir", "");
  o.variations = cl.flag("variations");
  o.limit = static_cast<uint64_t>(parse_int(cl.option("limit", "0"), "--limit", 0, 2'000'000'000));
  o.threads = threads_option(cl);
  return o;
}

void print_counts(const api::PgnQuerySummary& s, bool json) {
  if (json) return print_json(api::to_json(s));
  std::cout << with_commas(s.matched_games) << " of " << with_commas(s.games) << " games match ("
            << with_commas(s.matched_positions) << " of " << with_commas(s.positions) << " positions)\n";
}

}  // namespace

int run_query_pgn(const CommandLine& cl, const query::ScanQuery& query) {
  if (cl.flag("csv") || cl.flag("convention"))
    throw UsageError("query: --pgn-in lists games as PGN or positions as JSON (no --csv or --convention)");
  api::InputFile input(cl.option("pgn-in", ""), "PGN file");
  api::PgnQueryOptions options = pgn_options(cl);
  const std::string path = cl.option("pgn-in", "");
  if (path != "-")
    options.count_games = [path] { return api::count_games(api::InputFile(path, "PGN file").stream()); };
  ProgressLine progress;
  options.progress = [&](const api::GameStreamProgress& p) {
    progress.update([&] { return "query: " + games_progress(p.games, p.bytes, input.size()); });
  };
  const bool count = cl.flag("count");
  const api::GameMatchSink sink = [&](const pgn::Game& game, const std::vector<api::PositionMatch>& found) {
    if (count) return;
    if (!cl.json()) return pgn::write_game(std::cout, game);
    for (const api::PositionMatch& m : found)
      std::cout << api::json_line(api::to_json(game, m, options.rules)) << '\n';
  };
  const api::PgnQuerySummary s =
      api::query_pgn(query, input.stream(), options, sink, [&](const pgn::PgnError& e) {
        progress.clear();
        std::cerr << "egtb: " << pgn::format_error(e, input.name()) << '\n';
      });
  progress.clear();
  // CQL writes its persistent variables after the games; egtb's standard output holds the games.
  for (const query::PersistentValue& v : s.persistent) std::cerr << v.name << ": " << v.text << '\n';
  if (count) print_counts(s, cl.json());
  return s.errors == 0 ? ExitSuccess : ExitFailure;
}

}  // namespace egtb::cli
