#include "query/source.hpp"

#include <algorithm>

namespace egtb::query {

namespace {

// The text of line `line` (1-based) without its newline; empty when out of range.
std::string_view line_text(std::string_view source, int line) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    const size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  const size_t end = source.find('\n', start);
  return source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// Spaces up to the column (tabs kept so the caret lines up), then ^ and ~ over the range.
std::string caret_line(std::string_view text, const SourceRange& r) {
  std::string out;
  const size_t first = static_cast<size_t>(std::max(r.column, 1) - 1);
  for (size_t i = 0; i < first; ++i) out += (i < text.size() && text[i] == '\t') ? '\t' : ' ';
  out += '^';
  const int last = r.end_line == r.line ? r.end_column : static_cast<int>(text.size()) + 1;
  for (int c = r.column + 1; c < last; ++c) out += '~';
  return out;
}

}  // namespace

std::string format_error(const QueryError& error, std::string_view source, std::string_view file_name) {
  const SourceRange& r = error.range;
  std::string out = std::string(file_name) + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) +
                    ": error: " + error.message + "\n";
  const std::string_view text = line_text(source, r.line);
  out += std::string(text) + "\n";
  out += caret_line(text, r) + "\n";
  return out;
}

}  // namespace egtb::query
