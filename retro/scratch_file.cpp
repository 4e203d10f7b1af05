#include "retro/scratch_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "egtb/store/error.hpp"

namespace egtb::retro {

namespace {

// An unnamed file in `directory`, or a named one unlinked at once where O_TMPFILE is missing.
int open_unnamed(const std::filesystem::path& directory, const std::string& what) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    throw IoError(directory, os_error("cannot create a scratch file for " + what, errno));
  std::string name = (directory / "egtb-scratch.XXXXXX").string();
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw IoError(directory, os_error("cannot create a scratch file for " + what, errno));
  ::unlink(name.c_str());
  return fd;
}

// Calls io(done) until `size` bytes are moved, io returning what one pread or pwrite moved;
// throws IoError(directory, what) when it fails, or ends the file early.
template <class Io>
void transfer(const std::filesystem::path& directory, size_t size, const std::string& what, Io&& io) {
  for (size_t done = 0; done < size;) {
    const ssize_t n = io(done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError(directory, os_error("cannot " + what, errno));
    if (n == 0) throw IoError(directory, "cannot " + what + ": the file ends early");
    done += static_cast<size_t>(n);
  }
}

}  // namespace

ScratchFile::ScratchFile(const std::filesystem::path& directory, std::string what)
    : directory_(directory), what_(std::move(what)), fd_(open_unnamed(directory, what_)) {}

ScratchFile::~ScratchFile() { ::close(fd_); }

uint64_t ScratchFile::append(std::span<const uint8_t> bytes) {
  const uint64_t offset = end_.fetch_add(bytes.size(), std::memory_order_relaxed);
  transfer(directory_, bytes.size(), "write " + what_ + " to a scratch file", [&](size_t done) {
    return ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
  });
  return offset;
}

void ScratchFile::read(uint64_t offset, std::span<uint8_t> bytes) const {
  transfer(directory_, bytes.size(), "read " + what_ + " from a scratch file", [&](size_t done) {
    return ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
  });
}

}  // namespace egtb::retro
