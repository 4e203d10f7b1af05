// Reading the text users give: FEN and EPD lists, query files, PGN. One reader for all of them,
// so that each gets the same checks:
//   * a path must be a regular file (or "-", standard input, or a FIFO, which users pipe into):
//     a directory is refused with a message, never read as empty input;
//   * a line longer than MaxLineBytes is reported as soon as it passes the cap and the rest of it
//     skipped, so an endless line (/dev/zero) cannot exhaust memory and is reported at once;
//   * a UTF-8 byte-order mark at the start is skipped, and a CR before the LF removed.
#pragma once

#include <cstddef>
#include <fstream>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace egtb::api {

inline constexpr size_t MaxLineBytes = size_t{1} << 20;

// An input stream opened from a path ("-" is standard input). Throws InputError naming the path
// when it cannot be opened or is not a file.
class InputFile {
public:
  InputFile(const std::string& path, const std::string& what);

  [[nodiscard]] std::istream& stream() { return *in_; }
  // The name for messages: the path, or "<stdin>".
  [[nodiscard]] const std::string& name() const { return name_; }
  // The size in bytes of a regular file (for progress reports); nothing for a pipe or stdin.
  [[nodiscard]] std::optional<uint64_t> size() const { return size_; }

private:
  std::string name_;
  std::optional<uint64_t> size_;
  std::unique_ptr<std::ifstream> file_;
  std::istream* in_ = nullptr;
};

struct Line {
  size_t number = 0;  // 1-based
  std::string text;   // without the line end; empty when too_long
  bool too_long = false;
};

// Reads lines of at most MaxLineBytes bytes (see above).
class LineReader {
public:
  explicit LineReader(std::istream& in, size_t max_bytes = MaxLineBytes) : in_(in), max_bytes_(max_bytes) {}

  // The next line, or nothing at the end of the input.
  [[nodiscard]] std::optional<Line> next();

private:
  std::istream& in_;
  size_t max_bytes_;
  size_t number_ = 0;
  std::vector<char> buffer_ = std::vector<char>(size_t{1} << 16);
  size_t at_ = 0, end_ = 0;  // the unread bytes of buffer_
  bool skipping_ = false;    // the last line returned was too long: its rest is still unread

  // Reads more of the input into buffer_; false at its end.
  bool refill();
  // Reads past the next line end; false when the input ends first.
  bool skip_rest();
  // Appends n bytes to `line`, or marks it too long past max_bytes_.
  void append(Line& line, const char* bytes, size_t n) const;
};

// The whole text of an input, at most `max_bytes` (a query file). Throws InputError beyond that.
[[nodiscard]] std::string read_all(InputFile& input, size_t max_bytes = 16 * MaxLineBytes);

// True when `text` is valid UTF-8.
[[nodiscard]] bool is_utf8(std::string_view text);

}  // namespace egtb::api
