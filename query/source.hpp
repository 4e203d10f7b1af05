// Source locations and errors of CQL queries.
//
// Lines and columns count from 1; a range covers [column, end_column) on the line `line` when it
// stays on one line. Example: in "btm attacks 3" the number is the range {1, 13, 1, 14}, and
//   format_error({{1, 13, 1, 14}, "expected square set after 'attacks'"}, text, "q.cql")
// gives
//   q.cql:1:13: error: expected square set after 'attacks'
//   btm attacks 3
//               ^
#pragma once

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

// "file:line:col: error: message", the source line and a caret line (^~~~) under the range.
[[nodiscard]] std::string format_error(const QueryError& error, std::string_view source,
                                       std::string_view file_name = "query");

}  // namespace egtb::query
