// A one-line progress display on standard error, redrawn in place at most ten times a second and
// silent when standard error is not a terminal (so logs and pipes stay clean).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "stats/report.hpp"

namespace egtb::cli {

class ProgressLine {
public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Shows the text `make_text` returns unless the last redraw was less than 0.1 s ago; `make_text`
  // is called only when the line is drawn, so callers that report often (a recompress after every
  // block, a query after every chunk) format nothing that is not shown.
  void update(const std::function<std::string()>& make_text);
  // Erases the line, e.g. before printing a result line.
  void clear();

private:
  bool active_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// "12,345 games, 34%": games read from an input of `total` bytes (when known), `bytes` so far.
[[nodiscard]] std::string games_progress(uint64_t games, uint64_t bytes, std::optional<uint64_t> total);

using stats::with_commas;  // "12,345,678"

}  // namespace egtb::cli
