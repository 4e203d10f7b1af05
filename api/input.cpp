#include "api/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "api/errors.hpp"

namespace egtb::api {

namespace {

constexpr std::string_view ByteOrderMark = "\xEF\xBB\xBF";

// Why `path` cannot be read as text, or an empty string.
std::string unreadable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode)) return "it is not a file";
  return "";
}

}  // namespace

InputBuffer::int_type InputBuffer::underflow() {
  for (;;) {
    const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw ReadError("cannot read " + name_ + ": " + std::strerror(errno));
    if (n == 0) return traits_type::eof();
    setg(buffer_.data(), buffer_.data(), buffer_.data() + n);
    return traits_type::to_int_type(buffer_[0]);
  }
}

InputFile::InputFile(const std::string& path, const std::string& what)
    : name_(path == "-" ? "<stdin>" : path) {
  if (path != "-") {
    if (const std::string why = unreadable(path); !why.empty())
      throw InputError("cannot read " + what + " '" + path + "': " + why);
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError("cannot read " + what + " '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<uint64_t>(st.st_size);
  }
  buffer_ = std::make_unique<InputBuffer>(fd_ >= 0 ? fd_ : STDIN_FILENO, name_);
  in_ = std::make_unique<std::istream>(buffer_.get());
  in_->exceptions(std::ios::badbit);
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineReader::refill() {
  at_ = 0;
  end_ =
      static_cast<size_t>(in_.rdbuf()->sgetn(buffer_.data(), static_cast<std::streamsize>(buffer_.size())));
  return end_ > 0;
}

void LineReader::append(Line& line, const char* bytes, size_t n) const {
  if (line.too_long || line.text.size() + n > max_bytes_) {
    line.too_long = true;
    return;
  }
  line.text.append(bytes, n);
}

bool LineReader::skip_rest() {
  while (at_ < end_ || refill()) {
    const char* start = buffer_.data() + at_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - at_));
    if (newline) {
      at_ += static_cast<size_t>(newline - start) + 1;
      return true;
    }
    at_ = end_;
  }
  return false;
}

std::optional<Line> LineReader::next() {
  if (skipping_) {
    skipping_ = false;
    if (!skip_rest()) return std::nullopt;
  }
  Line line;
  bool any = false;
  while (at_ < end_ || refill()) {
    any = true;
    const char* start = buffer_.data() + at_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - at_));
    const size_t n = newline ? static_cast<size_t>(newline - start) : end_ - at_;
    append(line, start, n);
    at_ += n + (newline ? 1 : 0);
    if (newline) break;
    if (line.too_long) {  // reported now, the rest skipped by the next call (an endless line too)
      skipping_ = true;
      break;
    }
  }
  if (!any) return std::nullopt;
  line.number = ++number_;
  if (line.too_long) line.text.clear();
  if (!line.text.empty() && line.text.back() == '\r') line.text.pop_back();
  if (line.number == 1 && line.text.starts_with(ByteOrderMark)) line.text.erase(0, ByteOrderMark.size());
  return line;
}

std::string read_all(InputFile& input, size_t max_bytes) {
  std::string text;
  std::istream& in = input.stream();
  char buffer[65536];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes)
      throw InputError(input.name() + ": longer than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  if (text.starts_with(ByteOrderMark)) text.erase(0, ByteOrderMark.size());
  return text;
}

bool is_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k)
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return false;
    i += length;
  }
  return true;
}

}  // namespace egtb::api
