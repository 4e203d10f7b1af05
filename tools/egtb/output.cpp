#include "tools/egtb/output.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

namespace egtb::cli {

OutputError::OutputError(const std::string& name, int error)
    : std::runtime_error("cannot write to " + name + ": " + std::strerror(error)), error_(error) {}

bool OutputError::broken_pipe() const { return error_ == EPIPE; }

OutputBuffer::OutputBuffer(int fd, std::string name)
    : fd_(fd), name_(std::move(name)), line_buffered_(isatty(fd) != 0) {
  setp(buffer_.data(), buffer_.data() + buffer_.size());
}

void OutputBuffer::drain() {
  const char* p = pbase();
  const char* const end = pptr();
  setp(buffer_.data(), buffer_.data() + buffer_.size());
  if (failed_) return;
  while (p < end) {
    const ssize_t n = ::write(fd_, p, static_cast<size_t>(end - p));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      failed_ = true;
      throw OutputError(name_, n < 0 ? errno : EIO);
    }
    p += n;
  }
}

OutputBuffer::int_type OutputBuffer::overflow(int_type c) {
  drain();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  if (line_buffered_ && traits_type::to_char_type(c) == '\n') drain();
  return c;
}

std::streamsize OutputBuffer::xsputn(const char* s, std::streamsize n) {
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

int OutputBuffer::sync() {
  drain();
  return 0;
}

OutputFile::OutputFile(std::filesystem::path path, bool executable)
    : path_(std::move(path)),
      fd_(::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666)),
      regular_(false),
      buffer_(fd_, path_.string()),
      stream_(&buffer_) {
  if (fd_ < 0) throw OutputError(path_.string(), errno);
  struct stat st {};
  regular_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
  if (executable && regular_ && ::fchmod(fd_, (st.st_mode & 07777) | 0111) != 0) {
    const int error = errno;
    fail();
    throw OutputError(path_.string(), error);
  }
  stream_.exceptions(std::ios::badbit);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) fail();
}

void OutputFile::fail() {
  stream_.exceptions(std::ios::goodbit);
  ::close(fd_);
  fd_ = -1;
  if (regular_) ::unlink(path_.c_str());
}

void OutputFile::close() {
  try {
    stream_.flush();
  } catch (...) {
    fail();
    throw;
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int error = errno;
    if (regular_) ::unlink(path_.c_str());
    throw OutputError(path_.string(), error);
  }
}

void write_file(const std::filesystem::path& path, std::string_view text, bool executable) {
  OutputFile file(path, executable);
  file.stream() << text;
  file.close();
}

void check_stdout() {
  static OutputBuffer buffer(STDOUT_FILENO, "standard output");
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
