// Probing a list of positions: one FEN or EPD per line in, one JSON line per input line out, in
// input order, the lines probed in parallel (TBB). A line that cannot be probed — a bad FEN, a
// missing or damaged table, a line too long — gives an error object and the batch goes on.
#pragma once

#include <functional>
#include <istream>
#include <string>
#include <string_view>

#include "api/probe.hpp"
#include "egtb/store/tablebase.hpp"

namespace egtb::api {

struct BatchOptions {
  ProbeDetail detail = ProbeDetail::Full;
  int threads = 0;  // 0: every core
};

struct BatchLine {
  size_t number = 0;  // 1-based line number in the input
  std::string input;
  std::string output;  // one line of compact JSON
  bool ok = true;      // false: output is an error object {"line", "input", "error"}
};

struct BatchSummary {
  size_t lines = 0;  // probed (blank lines are skipped)
  size_t failed = 0;
};

// Probes every non-blank line of `in`, calling `out` for each in input order.
BatchSummary probe_batch(const Tablebase& tb, std::istream& in, const BatchOptions& options,
                         const std::function<void(const BatchLine&)>& out);

// The FEN of a FEN or EPD line: the four position fields, and the two counters when fields five
// and six are numbers (otherwise they are EPD operations, ignored).
[[nodiscard]] std::string fen_of_line(std::string_view line);

}  // namespace egtb::api
