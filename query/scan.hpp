// Running a query over every position of endgame tables, in parallel, or over a list of positions.
//
//   Expected<ScanQuery, QueryError> q = prepare_query("dts == maxdts dtsend any : modelstalemate");
//   ScanOptions o;  o.directory = "tables";  o.convention = Convention::Physical;
//   ScanSummary s = scan_tables(*q, {KBk}, o, [](const Match& m) { ... });
//
// A table scan reads the table file block by block (each worker thread decodes its own blocks, so
// memory stays small even for 5-man tables), tests each entry's stored score against the query's
// ScoreCondition (scan_plan.hpp) before decoding its position, and evaluates the query only on the
// entries left, with the entry's score serving dtm, dts, lasker, maxdtm and maxdts directly and a
// Tablebase over the same directory serving other positions (move, imagine, dtsend, dtmend).
//
// A signature scanned in its colour-flipped form (Kkq, KNkr) is read from the canonical table
// (KQk, KRkn) and every position is colour-flipped before the query sees it.
//
// Counting conventions (docs/design.md §3, indexing/index.hpp):
//   Index462  each valid entry once, the symmetric duplicate entries included;
//   Physical  every legal placement, as CQL sees positions: an entry stands for its distinct
//             symmetric images (its physical weight: 8 or 4 without pawns, 2 with pawns); when the
//             query is symmetry invariant it runs once and counts the weight, otherwise on each
//             image; listings show every matching image;
//   Classes   each symmetry class once: the second of two duplicate entries and e.p. entries are
//             skipped (their classes weight is 0).
// In index462 and classes the query runs on the stored image of each entry only; for a query that
// is not symmetry invariant (`Ka1`) that image decides, so use physical for such queries.
// Matches are reported in a fixed order, whatever the number of threads: by table (in the order
// given), side to move (White first), entry index, then image.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "egtb/core/cancellation.hpp"
#include "egtb/core/material.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "indexing/index.hpp"
#include "query/compile.hpp"
#include "query/eval.hpp"
#include "query/scan_plan.hpp"

namespace egtb::query {

// A query compiled for scanning: its syntax tree, its program and what a scan learns from it.
struct ScanQuery {
  std::string source;  // the text compiled, for the errors of a run (RunError, eval.hpp)
  NodePtr tree;
  Program program;
  ScoreCondition condition;
  bool invariant_pawnless = false;  // symmetry_invariant(tree, false)
  bool invariant_pawns = false;     // symmetry_invariant(tree, true)

  [[nodiscard]] bool uses_tables() const { return program.info().uses_tables; }
};

// lex, parse, analyze, compile, and the scan plan.
[[nodiscard]] Expected<ScanQuery, QueryError> prepare_query(std::string_view source);

// One matching position.
struct Match {
  Material table;             // the signature as scanned (the query's orientation)
  indexing::Index index = 0;  // its entry in the canonical table (0 for a position list)
  Position position;
  Score score;                     // Score::unknown() when no table value is known
  Value value;                     // the query's value
  std::vector<std::string> notes;  // message and comment output
};

struct ScanProgress {
  Material table;
  uint64_t done = 0;  // entries of this table scanned so far (both sides)
  uint64_t total = 0;
};

struct ScanOptions {
  std::filesystem::path directory = "tables";
  Rules rules = Rules::Lasker;  // of the tables scanned and probed
  indexing::Convention convention = indexing::Convention::Index462;
  int threads = 0;                                    // 0: every core
  bool list = true;                                   // false: count only, on_match is not called
  uint64_t limit = 0;                                 // listing: stop after this many matches (0: no limit)
  std::function<void(const ScanProgress&)> progress;  // called from the calling thread
  // Polled before each block (a table scan, from any worker thread) or position (a list): true
  // stops the scan early, with ScanSummary::stopped set (standard output closed).
  std::function<bool()> stop;
  // May be null. Asked before each position evaluated, every 64 entries between, and inside the
  // query's loops (eval.hpp), so that a time budget, a client gone or a server stopping ends the
  // scan within milliseconds, with ScanSummary::stopped set.
  const Cancellation* cancellation = nullptr;
};

struct TableTally {
  Material table;
  uint64_t matches = 0;    // in the convention
  uint64_t entries = 0;    // entries read (both sides)
  uint64_t evaluated = 0;  // positions the query ran on
};

struct ScanSummary {
  std::vector<TableTally> tables;
  uint64_t matches = 0;  // the sum over tables; with a limit, the matches reported
  uint64_t entries = 0;
  uint64_t evaluated = 0;
  double seconds = 0;  // wall time
  int threads = 1;
  bool stopped = false;  // ScanOptions::stop or cancellation ended the scan before every position was seen
  // The tables read that lack a metric of the rules (built with --metrics dtm: their values 3 and
  // 1 read as draws), canonical signatures without repeats.
  std::vector<Material> incomplete;
};

using MatchSink = std::function<void(const Match&)>;

// Scans the tables of `tables` (any orientation) in `options.directory`. Throws IoError when a
// table file is missing or unreadable, FormatError when one is damaged, RunError (eval.hpp)
// when the query's loops go past their bound on a position.
ScanSummary scan_tables(const ScanQuery& query, std::span<const Material> tables, const ScanOptions& options,
                        const MatchSink& on_match = {});

// Evaluates the query on each position in order. `directory` (may be empty) gives the table values;
// positions without a table value get Score::unknown(). Only `list`, `limit` and `directory` of
// the options are used; matches count one each.
ScanSummary scan_positions(const ScanQuery& query, std::span<const Position> positions,
                           const ScanOptions& options, const MatchSink& on_match = {});

}  // namespace egtb::query
