#include "breakerlab/data/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "breakerlab/data/load_error.h"

namespace breakerlab {

namespace {
std::string osReason(int error) {
  return std::strerror(error);
}
}  // namespace

namespace {
std::string fileKind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return osReason(EISDIR);
  return "not a regular file";
}

std::string sizeText(std::uint64_t bytes) {
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}
}  // namespace

int openRegularFile(const std::filesystem::path& path, std::uint64_t& size) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, forever.
  const int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw LoadError(name, 0, 0, "cannot read: " + osReason(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    throw LoadError(name, 0, 0, "cannot read: " + osReason(error));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const std::string kind = fileKind(st.st_mode);
    throw LoadError(name, 0, 0,
                    S_ISDIR(st.st_mode) ? "cannot read: " + kind
                                        : "cannot read: " + kind + ", not a regular file");
  }
  // Regular files never block; reads of the descriptor behave as usual from here on.
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  size = static_cast<std::uint64_t>(st.st_size);
  return fd;
}

std::string readTextFile(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const std::string name = path.string();
  std::uint64_t size = 0;
  const int fd = openRegularFile(path, size);
  // bytes == 0: the size is not known (the file grew past the limit while it was read).
  const auto tooLarge = [&](std::uint64_t bytes) {
    const std::string is = bytes > 0 ? sizeText(bytes) + ", " : std::string();
    return LoadError(
        name, 0, 0,
        "cannot read: the file is " + is + "larger than the limit of " + sizeText(max_bytes));
  };
  if (size > max_bytes) {
    ::close(fd);
    throw tooLarge(size);
  }
  std::string contents;
  contents.reserve(static_cast<std::size_t>(size));
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      throw LoadError(name, 0, 0, "cannot read: " + osReason(error));
    }
    if (n == 0) break;
    // The file may grow while it is read (a log being written): the limit still holds.
    if (contents.size() + static_cast<std::size_t>(n) > max_bytes) {
      ::close(fd);
      throw tooLarge(0);
    }
    contents.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return contents;
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view contents) {
  const std::string name = path.string();
  // A LoadError, as for reading: the path is the user's, and the CLI answers it with exit 2.
  const auto failure = [&](const std::string& what, int error) {
    return LoadError(name, 0, 0, what + ": " + osReason(error));
  };
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string temp = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) throw failure("cannot create a temporary file in " + dir.string(), errno);

  const auto abandon = [&](const std::string& what) {
    const int error = errno;
    ::close(fd);
    ::unlink(temp.c_str());
    return failure(what, error);
  };
  // Keep the permissions of the file being replaced; new files get rw-r--r--.
  struct stat existing {};
  const mode_t mode = ::stat(name.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : 0644;
  if (::fchmod(fd, mode) != 0) throw abandon("cannot set permissions");
  const char* data = contents.data();
  std::size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw abandon("cannot write");
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw abandon("cannot flush to disk");
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw failure("cannot close", error);
  }
  if (::rename(temp.c_str(), name.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw failure("cannot replace", error);
  }
  // Make the rename itself durable (best effort: not every file system allows it).
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace breakerlab
