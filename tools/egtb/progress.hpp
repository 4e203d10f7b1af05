// A one-line progress display on standard error, redrawn in place at most ten times a second and
// silent when standard error is not a terminal (so logs and pipes stay clean).
#pragma once

#include <chrono>
#include <string>

#include "stats/report.hpp"

namespace egtb::cli {

class ProgressLine {
public:
  ProgressLine();
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // Shows `text` unless the last redraw was less than 0.1 s ago (or `force`).
  void update(const std::string& text, bool force = false);
  // Erases the line, e.g. before printing a result line.
  void clear();

private:
  bool active_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

using stats::with_commas;  // "12,345,678"

}  // namespace egtb::cli
