#include "egtb/store/table_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <utility>

#include "egtb/store/error.hpp"

namespace egtb {

std::filesystem::path TableLock::lock_path(const std::filesystem::path& table) {
  std::filesystem::path path = table;
  path += ".lock";
  return path;
}

std::optional<TableLock> TableLock::try_acquire(const std::filesystem::path& table) {
  const std::filesystem::path path = lock_path(table);
  // Opened for writing: NFS emulates flock with a POSIX write lock, which needs it.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw IoError(path, std::string("cannot open lock file: ") + std::strerror(errno));
  int rc = 0;
  while ((rc = ::flock(fd, LOCK_EX | LOCK_NB)) != 0 && errno == EINTR) {
  }
  if (rc == 0) return TableLock(fd);
  const int error = errno;
  ::close(fd);
  if (error == EWOULDBLOCK) return std::nullopt;
  std::string what = std::string("cannot lock: ") + std::strerror(error);
  if (error == ENOLCK)
    what += " (the file system grants no locks: on NFS, mount v4, or v3 with lockd running)";
  throw IoError(path, what);
}

TableLock::TableLock(TableLock&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}

TableLock& TableLock::operator=(TableLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

TableLock::~TableLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace egtb
