#include "workspace_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "breakerlab/data/workspace.h"

namespace breakerlab::workspace_detail {

class WorkspaceLock {
 public:
  WorkspaceLock(int fd, bool exclusive, std::pair<dev_t, ino_t> file)
      : fd_(fd), exclusive_(exclusive), file_(file) {}
  ~WorkspaceLock();
  WorkspaceLock(const WorkspaceLock&) = delete;
  WorkspaceLock& operator=(const WorkspaceLock&) = delete;
  int fd() const { return fd_; }
  bool exclusive() const { return exclusive_; }
  void makeExclusive() { exclusive_ = true; }

 private:
  int fd_;
  bool exclusive_;
  std::pair<dev_t, ino_t> file_;
};

namespace {

using FileId = std::pair<dev_t, ino_t>;

// Recursive: the last holder of a lock may let go of it inside lockWorkspace or heldDescriptor.
std::recursive_mutex& registryMutex() {
  static std::recursive_mutex m;
  return m;
}
// The locks this process holds, by file: every open of a file shares one.
std::map<FileId, std::weak_ptr<WorkspaceLock>>& registry() {
  static std::map<FileId, std::weak_ptr<WorkspaceLock>> held;
  return held;
}

bool fileIdOf(const std::filesystem::path& path, FileId& id) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  id = {st.st_dev, st.st_ino};
  return true;
}

int flockRetrying(int fd, int operation) {
  int code = 0;
  do {
    code = ::flock(fd, operation);
  } while (code != 0 && errno == EINTR);
  return code;
}

[[noreturn]] void inUse(const std::filesystem::path& path, bool writer) {
  throw WorkspaceError(
      WorkspaceError::Kind::in_use,
      path.string() + ": the workspace is open in another BreakerLab (a workbench window or " +
          "breakerlab-cli)" +
          (writer ? "; two programs saving into one workspace at once could damage it"
                  : " that is saving into it") +
          ". Close it there first; it was not changed.");
}

}  // namespace

WorkspaceLock::~WorkspaceLock() {
  {
    const std::lock_guard<std::recursive_mutex> guard(registryMutex());
    auto it = registry().find(file_);
    if (it != registry().end() && it->second.expired()) registry().erase(it);
  }
  ::close(fd_);  // releases the flock; SQLite's connections to the file are closed by now
}

std::shared_ptr<const WorkspaceLock> lockWorkspace(const std::filesystem::path& path, bool writer) {
  const std::lock_guard<std::recursive_mutex> guard(registryMutex());
  FileId id{};
  if (fileIdOf(path, id)) {
    auto it = registry().find(id);
    if (it != registry().end()) {
      if (std::shared_ptr<WorkspaceLock> held = it->second.lock()) {
        if (writer && !held->exclusive()) {
          if (flockRetrying(held->fd(), LOCK_EX | LOCK_NB) != 0) inUse(path, writer);
          held->makeExclusive();
        }
        return held;
      }
    }
  }
  // Not held in this process yet, so no SQLite connection of this process has the file open
  // either (each Workspace holds the lock before and after its connection): opening and, on
  // failure, closing a descriptor here drops no one's locks.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    throw WorkspaceError(WorkspaceError::Kind::cannot_open,
                         path.string() + ": cannot open the workspace: " + std::strerror(errno));
  if (flockRetrying(fd, (writer ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK) inUse(path, writer);
    // A file system without flock (some network mounts): SQLite's own locks are all there is.
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) == 0) id = {st.st_dev, st.st_ino};
  auto lock = std::make_shared<WorkspaceLock>(fd, writer, id);
  registry()[id] = lock;
  return lock;
}

int heldDescriptor(const std::filesystem::path& path) {
  const std::lock_guard<std::recursive_mutex> guard(registryMutex());
  FileId id{};
  if (!fileIdOf(path, id)) return -1;
  auto it = registry().find(id);
  if (it == registry().end()) return -1;
  const std::shared_ptr<WorkspaceLock> held = it->second.lock();
  return held ? held->fd() : -1;
}

}  // namespace breakerlab::workspace_detail
