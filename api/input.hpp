// Reading the text users give: FEN and EPD lists, query files, PGN. One reader for all of them,
// so that each gets the same checks:
//   * a read that fails (an I/O error: EIO on /proc/self/mem, a disk going bad) throws ReadError
//     "cannot read NAME: Input/output error" from whatever read it, never taken for the end;
//   * a path must be a regular file (or "-", standard input, or a FIFO, which users pipe into):
//     a directory is refused with a message, never read as empty input;
//   * a line longer than MaxLineBytes is reported as soon as it passes the cap and the rest of it
//     skipped, so an endless line (/dev/zero) cannot exhaust memory and is reported at once;
//   * a UTF-8 byte-order mark at the start is skipped, and a CR before the LF removed.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

namespace egtb::api {

inline constexpr size_t MaxLineBytes = size_t{1} << 20;

// A read of an input file that failed: an error of the system, not of the user's text.
class ReadError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// A stream buffer over a file descriptor whose reads throw ReadError (naming `name`) when they
// fail, so that an istream over it with exceptions on badbit passes the error on to its reader.
class InputBuffer : public std::streambuf {
public:
  InputBuffer(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}

protected:
  int_type underflow() override;

private:
  int fd_;
  std::string name_;
  std::array<char, 1 << 16> buffer_{};
};

// An input stream opened from a path ("-" is standard input). Throws InputError naming the path
// when it cannot be opened or is not a file; its reads throw ReadError when they fail.
class InputFile {
public:
  InputFile(const std::string& path, const std::string& what);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  [[nodiscard]] std::istream& stream() { return *in_; }
  // The name for messages: the path, or "<stdin>".
  [[nodiscard]] const std::string& name() const { return name_; }
  // The size in bytes of a regular file (for progress reports); nothing for a pipe or stdin.
  [[nodiscard]] std::optional<uint64_t> size() const { return size_; }

private:
  std::string name_;
  std::optional<uint64_t> size_;
  int fd_ = -1;  // of the file opened (not standard input's)
  std::unique_ptr<InputBuffer> buffer_;
  std::unique_ptr<std::istream> in_;
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
