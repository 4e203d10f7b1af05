// A lock per table, so that several `egtb generate` processes sharing a directory (on one machine
// or on several machines sharing it over a network file system) build each table exactly once.
//
// The lock is flock(2) on a lock file beside the table: KQk.egtb is guarded by KQk.egtb.lock. The
// lock file holds nothing and stays in the directory (removing it would race with a process that
// has just opened it); it may be deleted when no generate runs. Only the holder of a table's lock
// writes that table, and it writes through a temporary file renamed over the table when complete
// (writer.hpp), so:
//
// * a process that finds a lock taken builds another table, or waits for it (retro/scheduler.hpp);
// * a holder that dies (Ctrl-C, SIGKILL, a crash) loses its lock with its last file descriptor, and
//   leaves at most a temporary file, which the next holder removes (remove_stale_temporaries);
//   no reader ever opens a half-written table.
//
// Network file systems. Linux emulates flock on NFS with a whole-file POSIX lock held by the
// server, so the lock works across machines when the server grants locks: NFSv4 (locks are part
// of the protocol; a dead client's locks are freed when its lease expires, 90 s by default), or
// NFSv3 with the lock daemons (rpc.statd/lockd) running on server and clients. Mounts with
// `nolock` or `local_lock=flock`/`local_lock=all` make the lock local to one machine: do not run
// cooperating processes on several machines over such a mount. ENOLCK from flock means the
// server grants no locks; it is reported, never ignored.
#pragma once

#include <filesystem>
#include <optional>

namespace egtb {

class TableLock {
public:
  // The lock file of the table at `table`: "<table>.lock" (tables/KQk.egtb -> tables/KQk.egtb.lock).
  [[nodiscard]] static std::filesystem::path lock_path(const std::filesystem::path& table);

  // Takes the lock of the table at `table` when no other process holds it; nothing when one
  // does. Throws IoError when the lock file cannot be opened or the file system grants no locks.
  [[nodiscard]] static std::optional<TableLock> try_acquire(const std::filesystem::path& table);

  TableLock(TableLock&& other) noexcept;
  TableLock& operator=(TableLock&& other) noexcept;
  TableLock(const TableLock&) = delete;
  TableLock& operator=(const TableLock&) = delete;
  ~TableLock();  // releases the lock

private:
  explicit TableLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace egtb
