#include "breakerlab/data/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "breakerlab/data/load_error.h"
#include "file_kind.h"

namespace breakerlab {

namespace {
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
    const std::string kind = fileKindName(st.st_mode);
    throw LoadError(name, 0, 0,
                    S_ISDIR(st.st_mode) ? "cannot read: " + osReason(EISDIR)
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

}  // namespace breakerlab
