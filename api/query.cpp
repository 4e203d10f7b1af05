#include "api/query.hpp"

#include <tbb/enumerable_thread_specific.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "api/errors.hpp"
#include "api/input.hpp"
#include "egtb/core/fen.hpp"
#include "egtb/store/tablebase.hpp"
#include "query/game_selection.hpp"
#include "query/tablebase_context.hpp"

namespace egtb::api {

namespace {

// An InputError for a query error located in `source`: "name:line:col: error: ...", the line and
// a caret, and the location.
InputError located_error(const query::QueryError& e, const std::string& source,
                         const std::string& source_name) {
  std::string message = query::format_error(e, source, source_name);
  if (!message.empty() && message.back() == '\n') message.pop_back();
  return InputError(message, InputLocation{.line = e.range.line,
                                           .column = e.range.column,
                                           .end_line = e.range.end_line,
                                           .end_column = e.range.end_column});
}

// run(), with a query's run stopped (RunError: loops past their bound, a failed assert ...)
// reported as an InputError located in the query.
template <typename Run>
auto located(const query::ScanQuery& query, const Run& run) {
  try {
    return run();
  } catch (const query::RunError& e) {
    throw located_error(e.error(), query.source, "query");
  }
}

void require_tables(const query::ScanQuery& query, const std::filesystem::path& directory) {
  if (query.uses_tables() && directory.empty())
    throw InputError(
        "query: this query reads table values (dtm, dts, lasker, ...): give --dir with the tables");
}

// A game's matching positions and its values for the program's sort filters.
struct GameMatches {
  std::vector<PositionMatch> found;
  query::GameSort::Values sort;
};

// What settag and removecomment ask of a game, as CQL does it: a tag is set at once (later positions
// read it), the comments after a move are removed once the game is evaluated (until then, CQL's
// comments may have joined them: only the game's own, counted at the start, go).
class GameEdits {
public:
  explicit GameEdits(pgn::Game& game) : game_(game) {
    originals_.reserve(game.size());
    for (pgn::NodeId n = 0; n < game.size(); ++n) originals_.push_back(game.node(n).comments.size());
  }
  void add(const query::GameEdits& edits) {
    for (const auto& [name, value] : edits.tags) game_.set_tag(name, value);
    removed_.insert(removed_.end(), edits.removed_comments.begin(), edits.removed_comments.end());
  }
  void remove_comments() {
    for (pgn::NodeId n : removed_) {
      std::vector<std::string>& comments = game_.node(n).comments;
      comments.erase(comments.begin(), comments.begin() + static_cast<std::ptrdiff_t>(originals_[n]));
      originals_[n] = 0;
    }
  }

private:
  pgn::Game& game_;
  std::vector<size_t> originals_;  // by node, the game's own comments
  std::vector<pgn::NodeId> removed_;
};

// The query evaluator of one thread over the positions of games, with their table values.
class GameEvaluator {
public:
  GameEvaluator(const query::ScanQuery& query, const Tablebase* tablebase, uint64_t last_game_number)
      : program_(query.program),
        sort_(query.program.info().games),
        context_(tablebase ? std::optional<query::TablebaseContext>(std::in_place, *tablebase)
                           : std::nullopt),
        evaluator_(query.program, context_ ? &*context_ : nullptr) {
    evaluator_.set_last_game_number(last_game_number);
  }

  // The matching positions of the game (its mainline, or every position), each marked with "CQL"
  // and the notes, and the game with its sort label when the program sorts; `evaluated` counts the
  // positions.
  GameMatches run(pgn::Game& game, bool variations, uint64_t& evaluated) {
    const query::GameSelection& selection = program_.info().games;
    if (!query::selects_game(selection, game)) return {};
    variations = variations || selection.variations;
    std::vector<pgn::NodeId> nodes{pgn::Game::Root};
    if (variations)
      nodes = game.preorder();
    else
      for (pgn::NodeId n : game.mainline()) nodes.push_back(n);
    GameMatches result{{}, sort_.start()};
    std::vector<PositionMatch>& found = result.found;
    GameEdits edits(game);
    for (pgn::NodeId n : nodes) {
      const Position& pos = game.position(n);
      ++evaluated;
      const Expected<query::Value, query::QueryError> v = evaluator_.evaluate(game, n, variations);
      sort_.add(result.sort, evaluator_.sort_values());
      edits.add(evaluator_.edits());
      if (!v || !v->matched) continue;
      const Score score = context_ ? context_->score(pos).value_or(Score::unknown()) : Score::unknown();
      found.push_back({n, {Material::from(pos), 0, pos, score, *v, evaluator_.notes()}});
      std::vector<std::string>& comments = game.node(n).comments;
      comments.push_back("CQL");
      comments.insert(comments.end(), evaluator_.notes().begin(), evaluator_.notes().end());
    }
    if (selection.matchcount && !selection.matchcount->contains(static_cast<int64_t>(found.size())))
      return {};
    edits.remove_comments();
    result.sort.matchcount = static_cast<int64_t>(found.size());
    if (sort_.active() && !found.empty())
      game.node(pgn::Game::Root).comments.push_back(sort_.label(result.sort));
    return result;
  }

  [[nodiscard]] std::vector<query::PersistentValue> persistent_values() const {
    return evaluator_.persistent_values();
  }

private:
  const query::Program& program_;
  const query::GameSort sort_;
  std::optional<query::TablebaseContext> context_;
  query::Evaluator evaluator_;
};

}  // namespace

query::ScanQuery prepare_query(const std::string& source, const std::string& source_name) {
  Expected<query::ScanQuery, query::QueryError> prepared = query::prepare_query(source);
  if (prepared) return std::move(*prepared);
  throw located_error(prepared.error(), source, source_name);
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
  return located(query, [&] { return query::scan_tables(query, tables, options, sink); });
}

BoundedResult run_bounded(const query::ScanQuery& query, const BoundedQuery& request) {
  BoundedResult result;
  query::ScanOptions options = request.options;
  options.list = true;
  options.limit = request.limit + 1;  // one more tells whether the limit cut the listing
  const Cancellation budget(request.cancellation, Cancellation::Clock::now() + request.budget);
  options.cancellation = &budget;
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
  require_tables(query, options.directory);
  std::vector<Position> positions;
  LineReader reader(fens);
  while (std::optional<Line> line = reader.next()) {
    if (line->too_long) {
      on_error({line->number, "", "the line is longer than " + std::to_string(MaxLineBytes) + " bytes"});
      continue;
    }
    if (line->text.find_first_not_of(" \t") == std::string::npos || line->text[0] == '#') continue;
    const Expected<Position, egtb::FenError> pos = parse_fen(line->text, FenCheck::Board);
    if (pos)
      positions.push_back(*pos);
    else
      on_error({line->number, line->text, pos.error().message});
  }
  return located(query, [&] { return query::scan_positions(query, positions, options, sink); });
}

namespace {

// lastgamenumber's value, as CQL 6.2 gives it: the number of games of the input, or the header's
// last game number when it is less (cql(gamenumber 3 10) over 253 games: 10); 0 when the query
// does not read it. Example: over a file of 127 games "gamenumber == lastgamenumber" is game 127.
uint64_t last_game(const query::GameSelection& games, const PgnQueryOptions& options) {
  if (!games.last_game_number) return 0;
  if (!options.count_games)
    throw InputError(
        "lastgamenumber counts the games before the run: it needs a PGN file, not standard input");
  uint64_t last = options.count_games();
  if (games.gamenumber && games.gamenumber->high >= 0)
    last = std::min(last, static_cast<uint64_t>(games.gamenumber->high));
  return last;
}

}  // namespace

PgnQuerySummary query_pgn(const query::ScanQuery& query, std::istream& games, const PgnQueryOptions& options,
                          const GameMatchSink& on_game,
                          const std::function<void(const pgn::PgnError&)>& on_error) {
  require_tables(query, options.directory);
  const auto start = std::chrono::steady_clock::now();
  std::optional<Tablebase> tablebase;
  if (!options.directory.empty())
    tablebase.emplace(options.directory,
                      TablebaseOptions{TablebaseOptions::DefaultCacheBytes, options.rules});
  const uint64_t last_game_number = last_game(query.program.info().games, options);
  tbb::enumerable_thread_specific<std::unique_ptr<GameEvaluator>> evaluators([&] {
    return std::make_unique<GameEvaluator>(query, tablebase ? &*tablebase : nullptr, last_game_number);
  });
  PgnQuerySummary summary;
  std::atomic<bool> enough = false;
  const std::vector<query::VariableInfo>& variables = query.program.info().variables;
  const std::vector<query::DictionaryInfo>& dictionaries = query.program.info().dictionaries;
  const bool persistent = std::any_of(variables.begin(), variables.end(),
                                      [](const query::VariableInfo& v) { return v.persistent; }) ||
                          std::any_of(dictionaries.begin(), dictionaries.end(),
                                      [](const query::DictionaryInfo& d) { return d.persistent; });
  const GameStreamOptions stream{persistent ? 1 : options.threads, options.progress,
                                 [&] { return enough.load(); }};
  // A sorting program's matching games wait here for the end of the input; others go at once.
  const query::GameSort sort(query.program.info().games);
  std::vector<std::pair<pgn::Game, GameMatches>> sorted;
  const auto work = [&](pgn::Game& game) -> GameDelivery {
    uint64_t evaluated = 0;
    auto matches =
        std::make_shared<GameMatches>(evaluators.local()->run(game, options.variations, evaluated));
    return [&, matches, evaluated] {
      summary.positions += evaluated;
      if (matches->found.empty() || enough) return;
      ++summary.matched_games;
      summary.matched_positions += matches->found.size();
      if (sort.active())
        sorted.emplace_back(game, std::move(*matches));
      else if (on_game)
        on_game(game, matches->found);
      if (options.limit && summary.matched_games >= options.limit) enough = true;
    };
  };
  const GameStreamCounts counts =
      located(query, [&] { return for_each_game(games, stream, work, on_error); });
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const auto& a, const auto& b) { return sort.before(a.second.sort, b.second.sort); });
  if (on_game)
    for (const auto& [game, matches] : sorted) on_game(game, matches.found);
  summary.games = counts.games;
  summary.errors = counts.errors;
  if (persistent) summary.persistent = evaluators.local()->persistent_values();
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace egtb::api
