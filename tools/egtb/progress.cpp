#include "tools/egtb/progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace egtb::cli {

ProgressLine::ProgressLine() : active_(isatty(STDERR_FILENO) != 0) {}

ProgressLine::~ProgressLine() { clear(); }

void ProgressLine::update(const std::function<std::string()>& make_text) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  std::fprintf(stderr, "\r\033[K%s", make_text().c_str());
  std::fflush(stderr);
}

void ProgressLine::clear() {
  if (!active_ || !shown_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  shown_ = false;
}

std::string games_progress(uint64_t games, uint64_t bytes, std::optional<uint64_t> total) {
  std::string text = with_commas(games) + (games == 1 ? " game" : " games");
  if (total && *total > 0) text += ", " + std::to_string(bytes * 100 / *total) + "%";
  return text;
}

}  // namespace egtb::cli
