// Errors of the table files, thrown only where the store touches the file system.
//
// FormatError: the file exists and was read, but its contents are not a valid table (bad magic,
// unknown format version, checksum mismatch, truncation, counts that disagree with the data).
// IoError: the operating system refused an operation (open, read, write, fsync, rename), e.g. a
// missing file or a full disk. Both messages name the file and what failed, ready to print; the
// command line turns them into exit codes.
#pragma once

#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace egtb {

class StoreError : public std::runtime_error {
public:
  StoreError(const std::filesystem::path& path, const std::string& what)
      : std::runtime_error(path.string() + ": " + what), path_(path) {}

  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
  std::filesystem::path path_;
};

class FormatError : public StoreError {
public:
  using StoreError::StoreError;
};

class IoError : public StoreError {
public:
  using StoreError::StoreError;
};

// What failed and the operating system's reason for it, the text of an IoError: os_error("cannot
// write table", ENOSPC) is "cannot write table: No space left on device".
inline std::string os_error(const std::string& what, int error) { return what + ": " + std::strerror(error); }

}  // namespace egtb
