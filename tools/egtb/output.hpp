// Standard output of every command, checked: main.cpp puts a StdoutBuffer under std::cout, so a
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
#pragma once

#include <array>
#include <stdexcept>
#include <streambuf>
#include <string>

namespace egtb::cli {

// The exit status of a command whose standard output was closed by its reader.
inline constexpr int ExitBrokenPipe = 141;

class OutputError : public std::runtime_error {
public:
  explicit OutputError(int error);
  [[nodiscard]] bool broken_pipe() const;  // EPIPE: the reader has gone
  [[nodiscard]] int error() const { return error_; }

private:
  int error_;
};

// A stream buffer over file descriptor 1 whose writes throw OutputError when they fail. After a
// failure every later write is dropped, so destructors and the final flush at exit stay quiet.
class StdoutBuffer : public std::streambuf {
public:
  explicit StdoutBuffer(int fd = 1);

protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

private:
  int fd_;
  bool line_buffered_;
  bool failed_ = false;
  std::array<char, 1 << 16> buffer_{};

  void drain();  // writes the buffer out; throws OutputError (once) on failure
};

// Puts a StdoutBuffer under std::cout, with exceptions on badbit so that OutputError reaches the
// caller of the failing write, and ignores SIGPIPE.
void check_stdout();

// True when standard output is a pipe whose reader has gone, found without writing (poll): a long
// scan that prints rarely polls it to stop early instead of running on.
[[nodiscard]] bool stdout_closed();

// Flushes std::cout and stops reporting errors (the command is over): throws OutputError if the
// flush failed.
void finish_stdout();

}  // namespace egtb::cli
