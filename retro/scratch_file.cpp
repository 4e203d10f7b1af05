#include "retro/scratch_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "egtb/store/error.hpp"

namespace egtb::retro {

namespace {

std::string os_error(const std::string& what, int error) { return what + ": " + std::strerror(error); }

// An unnamed file in `directory`, or a named one unlinked at once where O_TMPFILE is missing.
int open_unnamed(const std::filesystem::path& directory) {
  int fd = ::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0) return fd;
  if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
    throw IoError(directory, os_error("cannot create a scratch file for the finished slices", errno));
  std::string name = (directory / "egtb-scratch.XXXXXX").string();
  fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0)
    throw IoError(directory, os_error("cannot create a scratch file for the finished slices", errno));
  ::unlink(name.c_str());
  return fd;
}

}  // namespace

ScratchFile::ScratchFile(const std::filesystem::path& directory)
    : directory_(directory), fd_(open_unnamed(directory)) {}

ScratchFile::~ScratchFile() { ::close(fd_); }

uint64_t ScratchFile::append(std::span<const uint8_t> bytes) {
  const uint64_t offset = end_.fetch_add(bytes.size(), std::memory_order_relaxed);
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n =
        ::pwrite(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw IoError(directory_, os_error("cannot write the finished slices to a scratch file", errno));
    done += static_cast<size_t>(n);
  }
  return offset;
}

void ScratchFile::read(uint64_t offset, std::span<uint8_t> bytes) const {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n =
        ::pread(fd_, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw IoError(directory_, os_error("cannot read the finished slices from a scratch file", errno));
    if (n == 0) throw IoError(directory_, "a scratch file of finished slices ends early");
    done += static_cast<size_t>(n);
  }
}

}  // namespace egtb::retro
