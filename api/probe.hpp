// Probing one position: its score, the score every legal move leads to, and the optimal line, as
// every front end reports them (the command line as text or JSON, the HTTP API, Python, C).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/rules.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

// How much a probe reports.
enum class ProbeDetail : uint8_t {
  Value,      // the score alone (the fast batch form)
  ValueFile,  // the value alone, from the value files (Tablebase::probe_value): no depth decoded
  Moves,      // the score and every move's score, without the optimal line (the HTTP API's answer)
  Full,       // the score, every move's score and the optimal line
};

struct ProbeReport {
  Position position;  // as probed, its e.p. square normalised (Position::normalize_ep_square)
  Rules rules = Rules::Lasker;
  Score score;                   // for ProbeDetail::ValueFile the value with depth 0, not the depth
  std::vector<MoveValue> moves;  // best first (egtb/store/line.hpp); empty for Value and ValueFile
  std::vector<Move> line;        // the optimal line; empty for a draw, a finished game, Value, ValueFile
                                 // or Moves

  // The position at the end of the line (the position itself when the line is empty).
  [[nodiscard]] Position final_position() const;
};

// A tablebase over the tables of `directory` (lazily opened, tablebase.hpp), for the front ends
// that keep one open: the Python module and the C library. Throws InputError when `directory` is
// not a directory, so that a mistyped path shows when it is opened, not as a missing table at
// every probe.
[[nodiscard]] std::unique_ptr<Tablebase> open_tablebase(const std::filesystem::path& directory,
                                                        const TablebaseOptions& options = {});
// Adds a directory to a tablebase (Tablebase::add_directory), with the check of open_tablebase:
// the Python module's Tablebase.add_directory and the C library's egtb_add_directory.
void add_directory(Tablebase& tablebase, const std::filesystem::path& directory);

// The report of pos. Fails with the ProbeError of the position or of a move's position (a missing
// table, castling rights, too many men, an invalid position, tables that contradict each other).
// Throws FormatError or IoError for a damaged or unreadable table.
[[nodiscard]] Expected<ProbeReport, ProbeError> probe(const Tablebase& tb, Position pos, ProbeDetail detail);

// The same, throwing: InputError for what the user got wrong (castling rights, too many men, an
// invalid position), MissingTableError for a missing table, std::runtime_error for tables that
// contradict each other.
[[nodiscard]] ProbeReport probe_or_throw(const Tablebase& tb, Position pos, ProbeDetail detail);
// Throws the exception of a ProbeError as probe_or_throw does.
[[noreturn]] void raise(const ProbeError& e);

// What a stalemate-only table holds of a position (Tablebase::probe_stalemate): value 3 or 1 with
// its DTS, or a draw (value 2, depth 0) for "not a stalemate win or loss".
struct StalemateReport {
  Position position;  // as probed, its e.p. square normalised
  Score score;
};

// The stalemate report of pos, from a stalemate-only table or a full one. Throws as probe_or_throw,
// MissingTableError also for a table built without DTS.
[[nodiscard]] StalemateReport probe_stalemate_or_throw(const Tablebase& tb, Position pos);
// "White to move forces stalemate: DTS 41 plies, 21 moves", "Black to move is stalemated", or "Not a
// stalemate win or loss (a mate, a draw or a loss to mate: stalemate-only tables do not tell)".
[[nodiscard]] std::string stalemate_words(const StalemateReport& report);

// The value of a position's score for its side to move in words: "White to move forces stalemate:
// DTS 41 plies, 21 moves", "Black to move is checkmated", "Draw"; under the other rules "White to
// move wins: DTE 9 plies, mate or stalemate in 5".
[[nodiscard]] std::string value_words(Rules rules, const Position& pos, Score s);
// The depth in metric m of a move for its mover, the move included (the depth of the position
// after it plus one), when the move's value for the mover has that metric: the depth `egtb probe`
// prints beside each move and the C library's root moves carry. Example: a move to a position
// whose side to move is mated in DTM 2 is a mate in DTM 3 for its mover.
[[nodiscard]] std::optional<int> mover_depth(Rules rules, const MoveValue& m, Metric metric);
// The result of a game played out optimally from a position of score s with `stm` to move, as
// PGN's Result tag writes it: "1-0" or "0-1" for a win (a mate, or under stalemate-wins a mate or
// stalemate), "1/2-1/2" for a draw and for Lasker's stalemate wins (chess scores a stalemate drawn).
[[nodiscard]] std::string implied_result(Rules rules, Score s, Color stm);
// The value of a move for its mover in one word: "mate", "stalemate", "draw", "stalemated",
// "mated"; "win", "draw", "loss" under the other rules.
[[nodiscard]] std::string_view move_word(Rules rules, Lasker value_for_mover);

}  // namespace egtb::api
