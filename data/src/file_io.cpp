#include "breakerlab/data/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "breakerlab/data/load_error.h"

namespace breakerlab {

namespace {
std::string osReason(int error) {
  return std::strerror(error);
}
}  // namespace

std::string readTextFile(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw LoadError(name, 0, 0, "cannot read: " + osReason(EISDIR));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(name.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) throw LoadError(name, 0, 0, "cannot read: " + osReason(errno));
  std::string contents;
  char buffer[65536];
  for (;;) {
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file.get());
    contents.append(buffer, n);
    if (n < sizeof buffer) {
      if (std::ferror(file.get())) throw LoadError(name, 0, 0, "cannot read: " + osReason(errno));
      break;
    }
  }
  return contents;
}

void writeFileAtomically(const std::filesystem::path& path, std::string_view contents) {
  const std::string name = path.string();
  const auto failure = [&](const std::string& what, int error) {
    return std::runtime_error(name + ": " + what + ": " + osReason(error));
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
