// Running CQL queries for the front ends: compiling with located errors, scanning tables (each
// named table checked to be present first), and evaluating a list of FENs line by line.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <istream>
#include <string>
#include <vector>

#include "api/game_stream.hpp"
#include "egtb/core/material.hpp"
#include "egtb/store/rules.hpp"
#include "pgn/game.hpp"
#include "pgn/parser.hpp"
#include "query/scan.hpp"

namespace egtb::api {

// The query compiled for scanning. Throws InputError with the error located in `source` under
// `source_name` ("query", a file name): file:line:col, the source line and a caret; its
// location() holds the line and column range.
[[nodiscard]] query::ScanQuery prepare_query(const std::string& source,
                                             const std::string& source_name = "query");

// Throws MissingTableError, naming the command that builds it, for the first of `tables` (any
// orientation) not in `options.directory`; InputError when `tables` is empty.
void check_tables_present(const std::vector<Material>& tables, const query::ScanOptions& options);

// Scans `tables` (any orientation) in `options.directory`, each of which must be there (else
// MissingTableError naming the command that builds it). Here and below, a query whose loops go past
// their bound on a position (query::MaxLoopSteps) is an InputError located at the loop.
query::ScanSummary query_tables(const query::ScanQuery& query, const std::vector<Material>& tables,
                                const query::ScanOptions& options, const query::MatchSink& sink);

// A query run that must end: at most `limit` matches, and no longer than `budget` (a request to a
// server, which one query must not hold).
struct BoundedQuery {
  std::vector<Material> tables;  // any orientation, as written
  query::ScanOptions
      options;  // directory, rules, convention, threads; `limit` and `cancellation` are set here
  uint64_t limit = 100;
  std::chrono::milliseconds budget{5000};
  const Cancellation* cancellation =
      nullptr;  // may be null; ends the run too (a client gone, a server stopping)
};

struct BoundedResult {
  std::vector<query::Match> matches;  // in scan order (query/scan.hpp)
  query::ScanSummary summary;
  bool limit_reached = false;  // more matches may follow the last one
  bool out_of_time = false;    // the budget ran out (or `cancellation` said so) before the scan ended
};

// Runs `query` as `request` says (query_tables: each table must be present).
[[nodiscard]] BoundedResult run_bounded(const query::ScanQuery& query, const BoundedQuery& request);

// A line of a FEN list that could not be read.
struct FenLineError {
  size_t line = 0;
  std::string input;
  std::string message;
};

// Evaluates the query on each FEN of `fens` (one per line; blank lines and lines starting with
// '#' are skipped) in order. A line that is not a FEN goes to `on_error` and the list goes on.
// `options.directory` empty: no table values (a query that reads them is refused: InputError).
query::ScanSummary query_fens(const query::ScanQuery& query, std::istream& fens,
                              const query::ScanOptions& options, const query::MatchSink& sink,
                              const std::function<void(const FenLineError&)>& on_error);

// CQL over PGN games, as CQL itself runs: the query is evaluated at every position of every game
// (the start position included; with `variations`, the positions of variations too), with table
// values at the positions the tables hold (`directory` given); a game matches when a position does.
// A matching game gets, at each matching position, the comment "CQL" and the query's message and
// comment notes, after the move that reached it (before the first move for the start position),
// as CQL marks the positions it matched.
struct PgnQueryOptions {
  std::filesystem::path directory;  // the tables; empty: no table values
  Rules rules = Rules::Lasker;
  bool variations = false;  // also the positions of variations
  uint64_t limit = 0;       // stop after this many matching games (0: no limit)
  int threads = 0;          // 0: every core
  std::function<void(const GameStreamProgress&)> progress;  // after each game, in input order
  // The number of games of the input, counted before the run when the query reads lastgamenumber
  // (a second reading of the file: count_games); null when the input can be read once only.
  std::function<uint64_t()> count_games;
};

// One matching position of a game.
struct PositionMatch {
  pgn::NodeId node = pgn::Game::Root;
  query::Match match;  // its table is the position's material, its index 0
};

struct PgnQuerySummary {
  uint64_t games = 0;      // read, bad ones included
  uint64_t errors = 0;     // games that could not be read (and were skipped)
  uint64_t positions = 0;  // positions evaluated
  uint64_t matched_games = 0;
  uint64_t matched_positions = 0;
  double seconds = 0;
  // The values of the query's persistent variables at the end (CQL writes them after its run).
  std::vector<query::PersistentValue> persistent;
};

using GameMatchSink = std::function<void(const pgn::Game&, const std::vector<PositionMatch>&)>;

// Runs the query over the games of a PGN stream in parallel (on one thread, in input order, when
// it has persistent variables or dictionaries, which carry values from game to game, as CQL runs it);
// `on_game` gets each matching game (marked as above) with its matches in input order, `on_error` each game
// that could not be read. Throws InputError for a query that reads table values without a directory.
PgnQuerySummary query_pgn(const query::ScanQuery& query, std::istream& games, const PgnQueryOptions& options,
                          const GameMatchSink& on_game,
                          const std::function<void(const pgn::PgnError&)>& on_error);

}  // namespace egtb::api
