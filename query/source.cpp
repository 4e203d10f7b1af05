#include "query/source.hpp"

#include <algorithm>
#include <vector>

namespace egtb::query {

namespace {

constexpr std::string_view ByteOrderMark = "\xEF\xBB\xBF";
constexpr std::string_view Ellipsis = "\u2026";

// The length of the well-formed UTF-8 character starting at s[i], or 0 when none starts there.
// The lead byte gives the length and the range of the second byte (Unicode, table 3-7).
size_t char_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  const unsigned lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // no overlong forms
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (byte(1) < low || byte(1) > high) return 0;
  for (size_t k = 2; k < length; ++k)
    if ((byte(k) & 0xC0) != 0x80) return 0;
  return length;
}

// The bytes of the character at s[i]: one byte when it is not well-formed UTF-8.
std::string_view char_at(std::string_view s, size_t i) {
  return s.substr(i, std::max<size_t>(char_length(s, i), 1));
}

// A character as an error shows it: itself, or \xNN for a control byte or a byte of invalid
// UTF-8; a tab stays a tab where `keep_tab`.
std::string shown(std::string_view ch, bool keep_tab) {
  const auto byte = static_cast<unsigned char>(ch[0]);
  const bool escape = ch.size() == 1 && (byte < 0x20 || byte == 0x7f || byte >= 0x80);
  if (!escape || (keep_tab && byte == '\t')) return std::string(ch);
  constexpr std::string_view Hex = "0123456789abcdef";
  return std::string("\\x") + Hex[byte >> 4] + Hex[byte & 15];
}

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

// The characters of a line shown in an error: [from, to) of its characters, character i being
// the bytes from starts[i] to starts[i + 1].
struct ShownLine {
  std::string_view text;
  std::vector<size_t> starts;
  size_t from = 0;
  size_t to = 0;

  [[nodiscard]] size_t size() const { return starts.size() - 1; }
  [[nodiscard]] std::string_view raw(size_t i) const {
    return text.substr(starts[i], starts[i + 1] - starts[i]);
  }
  // Columns on a terminal: 4 for an escaped byte, else 1 (past the end too).
  [[nodiscard]] size_t width(size_t i) const { return i < size() && shown(raw(i), true) != raw(i) ? 4 : 1; }
};

// The line split into characters, and a window of at most MaxShownColumns of them around
// character `first`, with 60 before it where the line allows.
ShownLine shown_line(std::string_view text, size_t first) {
  ShownLine l{text, {}, 0, 0};
  for (size_t i = 0; i < text.size(); i += char_at(text, i).size()) l.starts.push_back(i);
  l.starts.push_back(text.size());
  l.to = l.size();
  if (l.size() <= MaxShownColumns) return l;
  const size_t before = MaxShownColumns * 3 / 8;
  l.to = std::min(l.size(), (first > before ? first - before : 0) + MaxShownColumns);
  l.from = l.to - MaxShownColumns;
  return l;
}

std::string echo(const ShownLine& l) {
  std::string out = l.from > 0 ? std::string(Ellipsis) : "";
  for (size_t i = l.from; i < l.to; ++i) out += shown(l.raw(i), true);
  return l.to < l.size() ? out + std::string(Ellipsis) : out;
}

// Spaces (and the line's tabs) up to character `first`, then ^ and ~ under [first, last).
std::string caret(const ShownLine& l, size_t first, size_t last) {
  std::string out = l.from > 0 ? " " : "";
  for (size_t i = l.from; i < first; ++i) out += l.raw(i) == "\t" ? "\t" : std::string(l.width(i), ' ');
  out += '^' + std::string(l.width(first) - 1, '~');
  for (size_t i = first + 1; i < std::min(last, l.to); ++i) out += std::string(l.width(i), '~');
  return out;
}

}  // namespace

size_t byte_order_mark(std::string_view source) {
  return source.starts_with(ByteOrderMark) ? ByteOrderMark.size() : 0;
}

size_t invalid_utf8(std::string_view source) {
  for (size_t i = 0; i < source.size();) {
    const size_t n = char_length(source, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

SourceRange range_at(std::string_view source, size_t offset) {
  int line = 1, column = 1;
  for (size_t i = byte_order_mark(source); i < offset && i < source.size(); i += char_at(source, i).size()) {
    if (source[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column, line, column + 1};
}

std::string quote_source(std::string_view text) {
  std::string out;
  size_t i = 0;
  for (size_t n = 0; i < text.size() && n < MaxQuotedColumns; ++n) {
    const std::string_view ch = char_at(text, i);
    out += shown(ch, false);
    i += ch.size();
  }
  return i < text.size() ? out + std::string(Ellipsis) : out;
}

std::string format_error(const QueryError& error, std::string_view source, std::string_view file_name) {
  const SourceRange& r = error.range;
  std::string out = std::string(file_name) + ":" + std::to_string(r.line) + ":" + std::to_string(r.column) +
                    ": error: " + error.message + "\n";
  std::string_view text = line_text(source, r.line);
  if (r.line == 1) text.remove_prefix(byte_order_mark(text));
  if (text.ends_with('\r')) text.remove_suffix(1);
  const size_t first = static_cast<size_t>(std::max(r.column, 1) - 1);
  const ShownLine l = shown_line(text, first);
  const size_t at = std::min(first, l.size());
  const size_t last =
      r.end_line == r.line ? static_cast<size_t>(std::max(r.end_column - 1, r.column)) : l.size();
  return out + echo(l) + "\n" + caret(l, at, last) + "\n";
}

}  // namespace egtb::query
