#include "workspace/workspace_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include "breakerlab/data/workspace.h"
#include "file_kind.h"
#include "workspace/workspace_lock.h"

namespace breakerlab::workspace_detail {

namespace {

using Kind = WorkspaceError::Kind;

std::string reasonOf(int error) {
  return std::strerror(error);
}

// Worded as openRegularFile words it for incidents: "a FIFO, not a regular file".
std::string notRegular(mode_t mode) {
  const std::string kind = fileKindName(mode);
  return kind == "not a regular file" ? kind : kind + ", not a regular file";
}

// A permission error is the folder's or the file's mode (or a read-only mount, which says so
// itself); the hint tells the user which of the two to change.
std::string permissionHint(int error, const char* what) {
  return error == EACCES || error == EPERM ? std::string(" (the ") + what + " is not writable)"
                                           : std::string();
}

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
  throw WorkspaceError(Kind::cannot_open, path.string() + ": cannot open the workspace: " + why);
}

std::string linkTarget(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
  return ec ? std::string("a missing file") : target.string();
}

bool writable(const std::string& name, int mode, int& error) {
  // AT_EACCESS: the effective ids are the ones open(2) goes by.
  if (::faccessat(AT_FDCWD, name.c_str(), mode, AT_EACCESS) == 0) return true;
  error = errno;
  return false;
}

struct Companion {
  const char* suffix;
  const char* what;
};
// SQLite's files beside a workspace. Each is opened with a blocking open(2) when present (the
// -journal when SQLite looks for a hot journal, in every journal mode), so each is checked.
constexpr Companion kCompanions[] = {
    {"-wal", "write-ahead log"}, {"-shm", "shared-memory index"}, {"-journal", "rollback journal"}};

void checkCompanions(const std::filesystem::path& path, WorkspaceFile& file) {
  for (const Companion& c : kCompanions) {
    const std::string name = file.companion_base.string() + c.suffix;
    const std::string its = std::string("its ") + c.what + " " + name;
    struct stat link {};
    if (::lstat(name.c_str(), &link) != 0) {
      const int error = errno;
      if (error == ENOENT) continue;
      refuse(path, its + " cannot be looked at: " + reasonOf(error));
    }
    struct stat st {};
    if (::stat(name.c_str(), &st) != 0) {
      const int error = errno;
      // SQLite would create the file the link points to, somewhere the user did not choose.
      if (error == ENOENT && S_ISLNK(link.st_mode))
        refuse(path, its + " is a symbolic link to " + linkTarget(name) + ", which does not exist");
      refuse(path, its + " cannot be opened: " + reasonOf(error));
    }
    if (!S_ISREG(st.st_mode)) refuse(path, its + " is " + notRegular(st.st_mode));
    if (std::string_view(c.suffix) == "-wal")
      file.wal_size = static_cast<std::uint64_t>(st.st_size);
  }
}

}  // namespace

std::string folderOf(const std::filesystem::path& path) {
  return path.has_parent_path() ? path.parent_path().string() : std::string(".");
}

WorkspaceFile inspectWorkspaceFile(const std::filesystem::path& path, bool may_create) {
  WorkspaceFile file;
  const std::string name = path.string();
  if (name.empty()) refuse(path, "no file name given");
  // stat, not open: a device or FIFO is refused without being opened at all (opening some
  // devices does something).
  struct stat st {};
  if (::stat(name.c_str(), &st) != 0) {
    const int error = errno;
    struct stat link {};
    if (error == ENOENT && ::lstat(name.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      refuse(path, "a symbolic link to " + linkTarget(path) + ", which does not exist");
    if (error != ENOENT) refuse(path, reasonOf(error));
    // A new workspace. SQLite would say only "unable to open database file" for a folder it
    // cannot write; say which folder and why.
    file.companion_base = path;
    if (may_create) {
      const std::string dir = folderOf(path);
      int why = 0;
      if (!writable(dir, W_OK | X_OK, why))
        throw WorkspaceError(Kind::cannot_open, name + ": cannot create the workspace in " + dir +
                                                    ": " + reasonOf(why) +
                                                    permissionHint(why, "folder"));
    }
    checkCompanions(path, file);
    return file;
  }
  if (!S_ISREG(st.st_mode)) refuse(path, notRegular(st.st_mode));

  // Read through the descriptor this process holds the workspace's lock with, if it does, and
  // leave it open: closing any descriptor of the file, a dup too, would drop the POSIX locks of
  // this process's SQLite connections to it (workspace_lock.h).
  const int held = heldDescriptor(path);
  // O_NONBLOCK: the path may have become a FIFO since the stat; a regular file never blocks.
  const int fd =
      held >= 0 ? held : ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  const auto release = [&] {
    if (fd != held) ::close(fd);
  };
  if (fd < 0) {
    const int error = errno;
    refuse(path, reasonOf(error));
  }
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int error = errno;
    release();
    refuse(path, S_ISREG(st.st_mode) ? reasonOf(error) : notRegular(st.st_mode));
  }
  file.exists = true;
  file.size = static_cast<std::uint64_t>(st.st_size);
  char header[18] = {};
  ssize_t got = 0;
  do {
    got = ::pread(fd, header, sizeof header, 0);
  } while (got < 0 && errno == EINTR);
  const int read_error = errno;
  release();
  if (got < 0) refuse(path, reasonOf(read_error));
  // Empty: SQLite takes it for a new database.
  file.sqlite_header =
      file.size == 0 || (got >= 16 && std::memcmp(header, "SQLite format 3\0", 16) == 0);
  if (file.sqlite_header && got == static_cast<ssize_t>(sizeof header)) {
    // Bytes 16 and 17: the page size, big-endian, 1 meaning 65536. An impossible one is left
    // to SQLite, which calls it "file is not a database".
    const unsigned raw =
        static_cast<unsigned char>(header[16]) << 8 | static_cast<unsigned char>(header[17]);
    const std::uint64_t page = raw == 1 ? 65536 : raw;
    if (page >= 512 && (page & (page - 1)) == 0 && file.size % page != 0)
      file.damage = "the file is " + std::to_string(file.size) + " bytes, not a whole number of " +
                    std::to_string(page) + "-byte pages: it was cut short";
  }

  struct stat link {};
  const bool is_link = ::lstat(name.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
  file.companion_base = path;
  if (is_link) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (!ec) file.companion_base = target;
  }
  checkCompanions(path, file);
  return file;
}

std::string whyNotWritable(const std::filesystem::path& path, const WorkspaceFile& file) {
  int error = 0;
  if (!writable(path.string(), W_OK, error))
    return "cannot write " + path.string() + ": " + reasonOf(error) + permissionHint(error, "file");
  // A save in WAL mode writes the -wal and maps the -shm; SQLite creates them beside the file
  // when they are missing, which takes a folder it can write.
  for (const char* suffix : {"-wal", "-shm"}) {
    const std::string name = file.companion_base.string() + suffix;
    struct stat st {};
    if (::lstat(name.c_str(), &st) == 0) {
      if (!writable(name, R_OK | W_OK, error))
        return "cannot write " + name + ": " + reasonOf(error) + permissionHint(error, "file");
      continue;
    }
    const std::string dir = folderOf(name);
    if (!writable(dir, W_OK | X_OK, error))
      return "cannot create " + name + " in " + dir + ": " + reasonOf(error) +
             permissionHint(error, "folder");
  }
  return {};
}

}  // namespace breakerlab::workspace_detail
