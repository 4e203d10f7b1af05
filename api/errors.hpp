// The errors every front end tells apart, and how: the command line by its exit status, the HTTP
// server by its status code, the Python module by its exception class.
//
//   InputError          bad input from the user: a malformed FEN, an unknown signature, a bad
//                       option value, a CQL syntax error             exit 2, HTTP 400, ValueError
//   MissingTableError   a table the request needs is not in the directory; the message names
//                       the command that builds it                   exit 1, HTTP 404, MissingTableError
//   egtb::StoreError    a damaged or unreadable table file (egtb/store/error.hpp)
//                                                                    exit 1, HTTP 500, TableError
// Anything else is a failure of the program itself.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>

namespace egtb::api {

// Where in the user's text an input error lies, for front ends that point at it (the HTTP API
// returns it beside the message): a FEN field, or a range of lines and columns of a query.
struct InputLocation {
  int fen_field = 0;  // 1..6, or 0
  int line = 0;       // 1-based; 0 when the error is not in a text of lines
  int column = 0;
  int end_line = 0;
  int end_column = 0;  // one past the last character
};

class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
  InputError(const std::string& message, InputLocation location)
      : std::runtime_error(message), location_(location) {}

  [[nodiscard]] const std::optional<InputLocation>& location() const { return location_; }

private:
  std::optional<InputLocation> location_;
};

class MissingTableError : public std::runtime_error {
public:
  MissingTableError(const std::string& message, std::string table)
      : std::runtime_error(message), table_(std::move(table)) {}

  // The canonical signature of the missing table ("KQk").
  [[nodiscard]] const std::string& table() const { return table_; }

private:
  std::string table_;
};

}  // namespace egtb::api
