#include "tools/egtb/output.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

namespace egtb::cli {

OutputError::OutputError(int error)
    : std::runtime_error(std::string("cannot write to standard output: ") + std::strerror(error)),
      error_(error) {}

bool OutputError::broken_pipe() const { return error_ == EPIPE; }

StdoutBuffer::StdoutBuffer(int fd) : fd_(fd), line_buffered_(isatty(fd) != 0) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

void StdoutBuffer::drain() {
  const char* p = pbase();
  const char* const end = pptr();
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  if (failed_) return;
  while (p < end) {
    const ssize_t n = ::write(fd_, p, static_cast<size_t>(end - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed_ = true;
      throw OutputError(n < 0 ? errno : EIO);
    }
    p += n;
  }
}

StdoutBuffer::int_type StdoutBuffer::overflow(int_type c) {
  drain();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  if (line_buffered_ && traits_type::to_char_type(c) == '\n') drain();
  return c;
}

std::streamsize StdoutBuffer::xsputn(const char* s, std::streamsize n) {
  std::streamsize done = 0;
  while (done < n) {
    if (pptr() == epptr()) drain();
    const std::streamsize room = std::min<std::streamsize>(epptr() - pptr(), n - done);
    std::memcpy(pptr(), s + done, static_cast<size_t>(room));
    pbump(static_cast<int>(room));
    done += room;
  }
  if (line_buffered_ && std::memchr(s, '\n', static_cast<size_t>(n)) != nullptr) drain();
  return n;
}

int StdoutBuffer::sync() {
  drain();
  return 0;
}

void check_stdout() {
  static StdoutBuffer buffer;
  std::signal(SIGPIPE, SIG_IGN);
  std::cout.rdbuf(&buffer);
  std::cout.exceptions(std::ios::badbit);
  // Messages on stderr do not flush stdout (a failing flush would throw from inside them): stdout
  // goes out line by line on a terminal anyway, and elsewhere the two are separate files.
  std::cerr.tie(nullptr);
}

bool stdout_closed() {
  pollfd p{STDOUT_FILENO, POLLOUT, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

void finish_stdout() {
  try {
    std::cout.flush();
  } catch (...) {
    std::cout.exceptions(std::ios::goodbit);
    throw;
  }
  std::cout.exceptions(std::ios::goodbit);
}

}  // namespace egtb::cli
