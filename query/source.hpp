// Source locations and errors of CQL queries.
//
// A query is UTF-8 text. Lines and columns count from 1, columns in characters (code points), so
// that a caret lines up under the text in a terminal whatever the bytes of the characters before
// it; a byte-order mark at the start of the text is skipped and counts no column. A range covers
// [column, end_column) on the line `line` when it stays on one line. Example: in "btm attacks 3"
// the number is the range {1, 13, 1, 14}, and
//   format_error({{1, 13, 1, 14}, "expected square set after 'attacks'"}, text, "q.cql")
// gives
//   q.cql:1:13: error: expected square set after 'attacks'
//   btm attacks 3
//               ^
// The echoed line shows control bytes and bytes that are not UTF-8 escaped ("\x01", a caret
// ^~~~ under them), keeps tabs (the caret line copies them), and shows a line longer than
// MaxShownColumns as a window around the error between ellipses ("…"). Source text quoted in a
// message goes through quote_source, which escapes it the same way and cuts it short.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace egtb::query {

struct SourceRange {
  int line = 1;
  int column = 1;
  int end_line = 1;
  int end_column = 1;  // one past the last character

  // The smallest range covering both.
  [[nodiscard]] SourceRange to(const SourceRange& last) const {
    return {line, column, last.end_line, last.end_column};
  }
  bool operator==(const SourceRange&) const = default;
};

struct QueryError {
  SourceRange range;
  std::string message;
};

inline constexpr size_t MaxShownColumns = 160;  // of a source line in an error
inline constexpr size_t MaxQuotedColumns = 40;  // of source text quoted in a message

// 3 when the text starts with the UTF-8 byte-order mark, else 0.
[[nodiscard]] size_t byte_order_mark(std::string_view source);

// The first byte of `source` that is not part of well-formed UTF-8 (overlong forms, surrogates
// and code points past U+10FFFF are not), or npos.
[[nodiscard]] size_t invalid_utf8(std::string_view source);

// The range of the character at byte `offset` (a byte of invalid UTF-8 counts as a character).
[[nodiscard]] SourceRange range_at(std::string_view source, size_t offset);

// Source text for a message: control bytes and invalid UTF-8 escaped ("\x01"), at most
// MaxQuotedColumns characters, then "…".
[[nodiscard]] std::string quote_source(std::string_view text);

// "file:line:col: error: message", the source line and a caret line (^~~~) under the range.
[[nodiscard]] std::string format_error(const QueryError& error, std::string_view source,
                                       std::string_view file_name = "query");

}  // namespace egtb::query
