// Little-endian integers and length-prefixed texts in byte vectors: how the headers of table files
// (format.hpp) and value files (value_file.hpp) are written and read.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "egtb/store/error.hpp"

namespace egtb {

// a / b rounded up, the blocks or bytes that hold a items: ceil_div(10, 4) = 3.
constexpr uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// Appends little-endian integers and texts to a byte vector.
class ByteWriter {
public:
  explicit ByteWriter(std::vector<uint8_t>& out) : out_(out) {}

  template <class T>
  void put(T value) {
    for (size_t i = 0; i < sizeof(T); ++i)
      out_.push_back(static_cast<uint8_t>(static_cast<uint64_t>(value) >> (8 * i)));
  }
  void put_text(const std::string& text) {
    put(static_cast<uint16_t>(text.size()));
    out_.insert(out_.end(), text.begin(), text.end());
  }
  void pad_to(size_t size) { out_.resize(std::max(out_.size(), size), 0); }

private:
  std::vector<uint8_t>& out_;
};

// Reads little-endian integers and texts, throwing FormatError past the end.
class ByteReader {
public:
  ByteReader(std::span<const uint8_t> bytes, const std::filesystem::path& path)
      : bytes_(bytes), path_(path) {}

  template <class T>
  T get() {
    need(sizeof(T));
    uint64_t value = 0;
    for (size_t i = 0; i < sizeof(T); ++i) value |= uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += sizeof(T);
    return static_cast<T>(value);
  }
  std::string get_text() {
    const size_t size = get<uint16_t>();
    need(size);
    std::string text(bytes_.begin() + static_cast<std::ptrdiff_t>(pos_),
                     bytes_.begin() + static_cast<std::ptrdiff_t>(pos_ + size));
    pos_ += size;
    return text;
  }

private:
  std::span<const uint8_t> bytes_;
  const std::filesystem::path& path_;
  size_t pos_ = 0;

  void need(size_t size) const {
    if (pos_ + size > bytes_.size())
      throw FormatError(path_, "header ends early, at byte " + std::to_string(pos_));
  }
};

}  // namespace egtb
