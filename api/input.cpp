#include "api/input.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

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

InputFile::InputFile(const std::string& path, const std::string& what)
    : name_(path == "-" ? "<stdin>" : path) {
  if (path == "-") {
    in_ = &std::cin;
    return;
  }
  if (const std::string why = unreadable(path); !why.empty())
    throw InputError("cannot read " + what + " '" + path + "': " + why);
  std::error_code error;
  if (std::filesystem::is_regular_file(path, error)) size_ = std::filesystem::file_size(path, error);
  file_ = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (!*file_) throw InputError("cannot read " + what + " '" + path + "'");
  in_ = file_.get();
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
