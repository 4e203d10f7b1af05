// Every output of every command, checked: standard output and the files commands write (annotate
// -o, stats --pgn and --figures, plan --out). main.cpp puts an OutputBuffer under std::cout, so a
// write that fails (a full disk, an I/O error, a reader that has gone) stops the command at once
// with an OutputError instead of being ignored, and the dispatcher turns it into a message and a
// non-zero exit. A closed pipe (`egtb query ... | head -1`) ends the command quietly with exit
// status 141, the 128 + SIGPIPE a shell reports for a filter killed by SIGPIPE: egtb ignores
// SIGPIPE, so it sees the EPIPE even where the parent had SIGPIPE ignored (and writes to sockets
// cannot kill `egtb serve`).
//
// The buffer flushes when full, at every line end when standard output is a terminal, and on
// std::cout.flush() (the end of a command and each batch of long-running commands). A long scan
// that prints rarely asks stdout_closed() between batches, so it stops soon after its reader has
// gone even when it has nothing to write.
//
// A file goes through an OutputFile, the same buffer over the file's descriptor: a failed write
// or close gives "cannot write to FILE: No space left on device" and the file is removed, so a
// file that exists after a command is whole (a device or FIFO given as FILE is written to, never
// removed).
#pragma once

#include <array>
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>
#include <string_view>

namespace egtb::cli {

// The exit status of a command whose standard output was closed by its reader.
inline constexpr int ExitBrokenPipe = 141;

class OutputError : public std::runtime_error {
public:
  // "cannot write to NAME: reason" for the errno value `error`.
  OutputError(const std::string& name, int error);
  explicit OutputError(int error) : OutputError("standard output", error) {}
  [[nodiscard]] bool broken_pipe() const;  // EPIPE: the reader has gone
  [[nodiscard]] int error() const { return error_; }

private:
  int error_;
};

// A stream buffer over a file descriptor whose writes throw OutputError (naming `name`) when they
// fail. After a failure every later write is dropped, so destructors and the final flush at exit
// stay quiet.
class OutputBuffer : public std::streambuf {
public:
  OutputBuffer(int fd, std::string name);

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

private:
  int fd_;
  std::string name_;
  bool line_buffered_;
  bool failed_ = false;
  std::array<char, 1 << 16> buffer_{};

  void drain();  // writes the buffer out; throws OutputError (once) on failure
};

// An output file, created (or truncated) when opened: write to stream(), then close(), which
// throws OutputError when a write or the close failed. A file not closed (an error stopped the
// command) or whose writing failed is removed.
class OutputFile {
public:
  // `executable`: with the execute permissions of a script. Throws OutputError when the file
  // cannot be created.
  explicit OutputFile(std::filesystem::path path, bool executable = false);
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  [[nodiscard]] std::ostream& stream() { return stream_; }
  void close();

private:
  std::filesystem::path path_;
  int fd_;
  bool regular_;  // a regular file, removed on failure (not a device or a FIFO)
  OutputBuffer buffer_;
  std::ostream stream_;

  void fail();  // closes and removes the file
};

// Writes `text` to a new file at `path` (an OutputFile).
void write_file(const std::filesystem::path& path, std::string_view text, bool executable = false);

// Puts an OutputBuffer under std::cout, with exceptions on badbit so that OutputError reaches the
// caller of the failing write, and ignores SIGPIPE.
void check_stdout();

// True when standard output is a pipe whose reader has gone, found without writing (poll): a long
// scan that prints rarely polls it to stop early instead of running on.
[[nodiscard]] bool stdout_closed();

// Flushes std::cout and stops reporting errors (the command is over): throws OutputError if the
// flush failed.
void finish_stdout();

}  // namespace egtb::cli
