// The one JSON module: every result of the application layer as the JSON the front ends print
// (the command line's --json, the HTTP API, the Python module's dicts). Built with nlohmann/json,
// never by string concatenation; object keys keep the order written here.
//
// Conventions: depths are plies, or null where a position has no such depth; "w" and "b" name the
// sides to move; counts are integers. Examples are in docs/probe.md, docs/stats.md and docs/cql.md.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "api/annotate.hpp"
#include "api/errors.hpp"
#include "api/plan.hpp"
#include "api/position_report.hpp"
#include "api/probe.hpp"
#include "api/query.hpp"
#include "api/recompress.hpp"
#include "api/tables.hpp"
#include "api/verify_parts.hpp"
#include "egtb/store/format.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/score.hpp"
#include "indexing/index.hpp"
#include "query/scan.hpp"
#include "retro/scheduler.hpp"
#include "retro/verify.hpp"
#include "stats/statistics.hpp"

namespace egtb::api {

using Json = nlohmann::ordered_json;

// Compact JSON text on one line; text that is not valid UTF-8 (a FEN or comment of the user's)
// is written with U+FFFD in place of the bad bytes instead of failing.
[[nodiscard]] std::string json_line(const Json& json);
// Indented by two spaces (the command line's --json).
[[nodiscard]] std::string json_text(const Json& json);

// A depth or null.
[[nodiscard]] Json depth_json(std::optional<int> depth);

// {"fen", "category", "lasker", "dtm", "dts", "checkmate", "stalemate", "insufficient_material",
// "signed_dtm", "signed_dts", "side_to_move", "fullmove_number", "men", "moves": [{"uci", "san",
// "category", "lasker", "dtm", "dts", "checkmate", "stalemate", "insufficient_material",
// "signed_dtm", "signed_dts", "fen"}], "pv": [uci]}; without pv for ProbeDetail::Moves (the HTTP
// API's /api/lasker); {"fen", "lasker", "dtm", "dts"} alone for a report of ProbeDetail::Value (the
// fast batch form), {"fen", "lasker"} for ProbeDetail::ValueFile. A move's values are those of the position
// after it (its "fen"), for that position's side to move (as the lichess tablebase API gives them: a winning
// move leads to a "loss"); checkmate, stalemate and insufficient_material tell whether that position is one.
// dtm and dts are plies, never negative; signed_dtm and signed_dts are the same depths signed as
// lichess's "dtm": positive when the side to move wins, negative when it loses. "men" maps squares
// to FEN letters ({"d1": "K", "b1": "k"}).
[[nodiscard]] Json to_json(const ProbeReport& report, ProbeDetail detail);
// A stalemate probe: {"fen", "category", "lasker", "dts"}: category "stalemate-win" (lasker 3) or
// "stalemate-loss" (1) with dts in plies, or "no-stalemate" (lasker 2, dts null) for "not a
// stalemate win or loss" (a mate, a draw or a loss to mate). `egtb probe --stalemate --json` and
// GET /api/stalemate.
[[nodiscard]] Json to_json(const StalemateReport& report);
// The optimal line of a full report with each position's value:
// {"fen", "category", "lasker", "dtm", "dts", "signed_dtm", "signed_dts", "side_to_move",
// "fullmove_number", "men", "mainline": [{"uci", "san", "fen", "category", "lasker", "dtm", "dts",
// "signed_dtm", "signed_dts"}], "winner", "final": {"fen", "checkmate", "stalemate",
// "insufficient_material"}}; each step's values are those of the position after the move. Empty
// for a draw or a finished game. "winner" is "w" or "b", the side whose value is a win (under
// Lasker a mate or a stalemate), or null for a draw, as the lichess mainline gives it.
[[nodiscard]] Json mainline_json(const ProbeReport& report);

// The words of a rule set for a page (api/rules_words.hpp): {"name", "summary", "metrics",
// "stalemated", "stalemate_passes", "values": [{"category", "value", "metric", "goal", "title",
// "verb", "ends", "share"}] best first, "maxima": {"maxdts": {"name", "description"}, ...}} ("metric"
// and "ends" null for the draw; "maxima" in the order of the tables' fields).
[[nodiscard]] Json rules_json(Rules rules);
// Every rule set: {"default": name, "rules": [rules_json...]}, the answer of GET /api/rules.
[[nodiscard]] Json all_rules_json(Rules default_rules);

// A batch line that could not be probed: {"line": N, "input": ..., "error": ...}.
[[nodiscard]] Json batch_error_json(size_t line, const std::string& input, const std::string& error);

// A request that failed: {"error": message[, "location": {"fen_field"} or {"line", "column",
// "end_line", "end_column"}][, "table": signature]}.
[[nodiscard]] Json error_json(const std::string& message, const std::optional<InputLocation>& location = {},
                              const std::string& missing_table = "");

// A table present in a directory, from its header: {"signature", "men", "file_size", "metrics",
// "sides": {"w"|"b": {"positions", "lasker": [5 counts]}}, "maxdts": {"w"|"b": {"plies",
// "side_to_move"} | null}, "maxdtm": ...}: maxdts and maxdtm keyed by the winner as in the statistics
// of a table (to_json(TableStatistics)), with the depth and side to move of each Table 1 row but not
// its positions, example and line, which only a scan of the table gives (stats::deepest_depth).
// Under the other rules, as in their statistics, "rules" after "metrics" and the maxima of their
// metric instead ("maxdte" under stalemate-wins, "maxdtm" under stalemate-passes); "lasker" counts
// the values 0-4 of the table's codes (4 win, 2 draw, 0 loss).
[[nodiscard]] Json to_json(const PresentTable& table);
// The tables present of one rule set: {"rules", "tables": [to_json(table)...]}.
[[nodiscard]] Json tables_json(const std::vector<PresentTable>& tables, Rules rules);

// The findings of annotating one game (api/annotate.hpp): {"game", "white", "black", "event",
// "result", "positions", "first", "concessions", "duals", "stalemates", "value_duals", "depth_duals",
// "unprobed", "missing_tables"}. "first" is {"ply", "after", "fen", "category", "lasker", "dtm", "dts",
// "implied_result", "agrees"} or null; a concession {"ply", "move", "mainline", "fen", "from",
// "to", "best"} ("from" and "to" are categories for the mover); a dual {"ply", "move",
// "mainline", "fen", "keeping", "optimal"} (moves in SAN); "stalemates" lists each stalemate
// reached, {"ply", "move" (empty), "mainline", "fen", "class" ("3-0-0, 0-0"), "vs", "b", "sb", "p",
// "bm", "pure", "model"} (query::StalemateClass). "result" is the Result tag, or the termination
// marker of a game without one; "agrees" is null when it is "*".
[[nodiscard]] Json to_json(const GameAnnotation& annotation, Rules rules);

// One matching position of a PGN game: {"game", "ply", "move", "mainline"} (the move that reached
// it, numbered, or null for the start position), then the fields of a query match.
[[nodiscard]] Json to_json(const pgn::Game& game, const PositionMatch& match, Rules rules);
// The counts of a query over PGN games: {"games", "errors", "positions", "matched_games",
// "matched_positions"}.
[[nodiscard]] Json to_json(const PgnQuerySummary& summary);

// The statistics of one table (see docs/stats.md).
[[nodiscard]] Json to_json(const stats::TableStatistics& table);
// What `egtb stats --json` prints: {"tables": [to_json(table)...]}.
[[nodiscard]] Json stats_json(const std::vector<stats::TableStatistics>& tables);

// One query match: {"fen", "lasker", "dtm", "dts"[, "value"][, "notes"]}.
[[nodiscard]] Json to_json(const query::Match& match, Rules rules);
// The counts of a scan: {"convention", "tables": [{"signature", "matches", "entries", "evaluated"}],
// "matches"}, or {"matches"} for a list of positions.
[[nodiscard]] Json to_json(const query::ScanSummary& summary, indexing::Convention convention);

// A bounded query run: {"convention", "matches": [match + "table"], "count", "complete",
// "limit_reached", "out_of_time", "entries", "evaluated", "seconds"}; complete is false when the
// listing stopped at the limit or the time budget.
[[nodiscard]] Json to_json(const BoundedResult& result, indexing::Convention convention, Rules rules);

// Where building a table is (retro::Progress): {"signature", "stage": "setup" | "solving" |
// "finish", "metric": "dtm" | "dts" | null (while solving), "ply", "resolved", "seconds", "slice",
// "slices"} (the slice whose plies these are: 1 of 1 for a table solved whole).
[[nodiscard]] Json to_json(const Material& table, const retro::Progress& progress);
// One table built or kept by `egtb generate`: "signature", "path", "built", "file_size",
// "bytes_per_position", "sides", "seconds", "cpu_seconds", "peak_rss_bytes", and when they apply
// "replaced" (why the file there was not kept), "by_other_process" (kept: another process built it
// during this run), "waited_for" (tables other processes held while this one waited before it)
// with "wait_seconds".
[[nodiscard]] Json to_json(const retro::GenerateRecord& record);
// One table's file rewritten by `egtb recompress`, or its value file written: {"signature", "path"
// (the file written), "bytes_before" (the table file's), "bytes_after" (the file written's),
// "cpu_seconds"}.
[[nodiscard]] Json to_json(const RecompressedTable& table);
// What `egtb generate --json` prints: {"directory", "tables": [to_json(record)...]}.
[[nodiscard]] Json generate_json(const std::filesystem::path& directory,
                                 const std::vector<retro::GenerateRecord>& records);
// The jobs of `egtb plan --format json`: "directory", "rules", "tables" in build order, each with
// "signature", "file", "dependencies" (signatures), "entries_per_side", "estimated_cpu_seconds"
// (one thread), "estimated_peak_bytes", "cpus" and "memory_bytes" (what a job should ask for)
// and "command" (the argument vector of its `egtb generate SIG --no-closure`, threads to add).
[[nodiscard]] Json to_json(const Plan& plan);
// The result of verifying one table (or a part of it): "signature", "part" {"number", "count"},
// "entries_checked", "errors", "sides" {"w", "b"}, each {"first", "entries", "positions",
// "duplicates", "lasker" (positions per value 0-4), "errors"}, and "first_errors". The parts'
// counts add up to the whole table's.
[[nodiscard]] Json to_json(const retro::VerifyReport& report);
// One table verified: to_json(report) of the forward check, with "gaviota": {"positions_checked",
// "errors", "first_errors"} when compared with Gaviota's tables.
[[nodiscard]] Json to_json(const VerifyOutcome& outcome);
// A table's verification added up from its parts (api/verify_parts.hpp): {"ok", "signature",
// "parts", "files", "entries_checked", "errors", "sides" (as a report's), "problems"}.
[[nodiscard]] Json to_json(const CombinedVerification& combined);
// What `egtb verify --json` prints: {"ok" (every table), "tables": [to_json(outcome)...]}.
[[nodiscard]] Json verify_json(const std::vector<VerifyOutcome>& outcomes);
// A signature's index (`egtb info SIG --json`): {"signature", "index_size", "ep_entries",
// "bytes_per_entry", "positions": {convention: {"w", "b"}}}.
[[nodiscard]] Json to_json(const SignatureInfo& info);
// A position checked (`egtb fen --json`): {"input", "fen", "side_to_move": "white" | "black",
// "state", "moves": [{"san", "uci"}]}.
[[nodiscard]] Json to_json(const std::string& input, const PositionReport& report);
// A leaf count (`egtb perft --json`): {"fen", "depth", "nodes"[, "divide": {uci: nodes}]}.
[[nodiscard]] Json to_json(const PerftReport& report);
// The errors of a verification (forward or against Gaviota), as a list.
[[nodiscard]] Json errors_json(const std::vector<retro::VerifyError>& errors);
// A table file's header, its checksums verified.
[[nodiscard]] Json header_json(const std::filesystem::path& path, const TableHeader& header);
// A value file's header, every block checked: {"file", "kind": "value file", "signature",
// "format_version", "rules", "metrics", "index_scheme", "index_version", "index_order", "entries":
// {"w", "b"}, "block_entries", "blocks", "file_size", "table_checksum" (a number), "checksums"}.
[[nodiscard]] Json value_file_json(const std::filesystem::path& path, const ValueFileInfo& info);
// The counts per side to move of one side of a header: positions, invalid, per value, maxima.
[[nodiscard]] Json side_json(const TableHeader& header, int side, bool details);

}  // namespace egtb::api
