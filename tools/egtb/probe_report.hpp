// What `egtb probe` prints about one position: its score, the score of every legal move and the
// optimal line, as text or as the JSON object scripts read (README.md, "Probing").
#pragma once

#include <ostream>
#include <vector>

#include "egtb/core/expected.hpp"
#include "egtb/core/position.hpp"
#include "egtb/store/line.hpp"
#include "egtb/store/tablebase.hpp"
#include "tools/egtb/options.hpp"

namespace egtb::cli {

struct ProbeReport {
  Position position;  // as probed, its e.p. square normalised
  Score score;
  std::vector<MoveValue> moves;  // best first (line.hpp)
  std::vector<Move> line;        // the optimal line, empty for a draw or a finished game
};

// The report of pos; with `value_only`, moves and line stay empty (the fast batch form).
[[nodiscard]] Expected<ProbeReport, ProbeError> make_report(const Tablebase& tb, Position pos,
                                                            bool value_only);

// "White to move forces stalemate: DTS 41 plies, 21 moves", "Black to move is checkmated", "Draw".
[[nodiscard]] std::string value_words(Color stm, Score s);

void print_report(std::ostream& out, const ProbeReport& report);

// {"fen", "lasker", "dtm", "dts", "moves": [{"uci", "san", "lasker", "dtm", "dts"}], "pv": [uci]};
// without moves and pv for a value-only report.
[[nodiscard]] Json report_json(const ProbeReport& report, bool value_only);

}  // namespace egtb::cli
