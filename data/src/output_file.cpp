#include "breakerlab/data/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "breakerlab/data/load_error.h"
#include "file_kind.h"

namespace breakerlab {

namespace {

// As the kernel counts symlinks in one path lookup (MAXSYMLINKS).
constexpr int kMaxSymlinkHops = 40;

// Where a path that names nothing yet leads: itself, or the end of its chain of (dangling)
// symlinks, so that writing creates the link's target and keeps the link.
std::filesystem::path endOfSymlinks(const std::filesystem::path& path, const std::string& name) {
  std::filesystem::path at = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return at;
    if (hops == kMaxSymlinkHops) throw LoadError(name, 0, 0, "cannot write: " + osReason(ELOOP));
    std::error_code ec;
    const std::filesystem::path link = std::filesystem::read_symlink(at, ec);
    if (ec) throw LoadError(name, 0, 0, "cannot write: " + ec.message());
    at = link.is_absolute() ? link : at.parent_path() / link;
  }
}

}  // namespace

namespace {

// The descriptor a path names when it is one of this process's own: /dev/stdout, /dev/stderr,
// /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N or /proc/PID/fd/N for this PID.
std::optional<int> descriptorNamed(const std::filesystem::path& path) {
  const std::string p = path.lexically_normal().string();
  if (p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  const std::string own = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                    std::string("/proc/thread-self/fd/"), own}) {
    if (p.compare(0, prefix.size(), prefix) != 0 || p.size() == prefix.size() ||
        p.size() - prefix.size() > 9)
      continue;
    int fd = 0;
    for (std::size_t i = prefix.size(); i < p.size(); ++i) {
      if (p[i] < '0' || p[i] > '9') return std::nullopt;
      fd = fd * 10 + (p[i] - '0');
    }
    return fd;
  }
  return std::nullopt;
}

// The process's umask, read without changing it (umask(2) can only be read by setting it, which
// races with other threads creating files): Linux states it in /proc/self/status since 4.7.
mode_t processUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  return 022;
}

}  // namespace

OutputTarget resolveOutputTarget(const std::filesystem::path& path) {
  const std::string name = path.string();
  if (name == "-") return {OutputKind::inheritedDescriptor, path, STDOUT_FILENO};
  if (name.empty()) throw LoadError("(output)", 0, 0, "no file named for the output");
  // One of this process's descriptors, named or linked to: before stat(), which would see
  // through it to a regular file that a rename would then replace.
  {
    std::filesystem::path at = path;
    for (int hops = 0; hops <= kMaxSymlinkHops; ++hops) {
      if (const std::optional<int> fd = descriptorNamed(at))
        return {OutputKind::inheritedDescriptor, path, *fd};
      struct stat st {};
      if (::lstat(at.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) break;
      std::error_code ec;
      const std::filesystem::path link = std::filesystem::read_symlink(at, ec);
      if (ec) break;  // said below, by stat()
      at = link.is_absolute() ? link : at.parent_path() / link;
    }
  }
  struct stat st {};
  if (::stat(name.c_str(), &st) == 0) {
    if (S_ISREG(st.st_mode)) {
      // The real file: its folder takes the temporary file, so the rename stays on one file
      // system and a symlink to it is left a symlink.
      std::unique_ptr<char, decltype(&std::free)> real(::realpath(name.c_str(), nullptr),
                                                       &std::free);
      if (!real) throw LoadError(name, 0, 0, "cannot write: " + osReason(errno));
      return {OutputKind::replaceFile, std::filesystem::path(real.get())};
    }
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
      return {OutputKind::writeThrough, path, -1, S_ISFIFO(st.st_mode)};
    throw LoadError(name, 0, 0,
                    "cannot write: " + fileKindName(st.st_mode) +
                        ", not a regular file (an output goes to a file, a character device, a "
                        "FIFO or - for standard output)");
  }
  const int error = errno;
  if (error != ENOENT) throw LoadError(name, 0, 0, "cannot write: " + osReason(error));
  return {OutputKind::replaceFile, endOfSymlinks(path, name)};
}

OutputFile::OutputFile(const std::filesystem::path& path,
                       std::chrono::milliseconds fifo_reader_wait)
    : name_(path.string()), target_(resolveOutputTarget(path)) {
  switch (target_.kind) {
    case OutputKind::inheritedDescriptor:
      // What was printed before goes first.
      std::cout.flush();
      std::cerr.flush();
      std::fflush(stdout);
      std::fflush(stderr);
      // A duplicate shares the file description: its offset, O_APPEND and all.
      fd_ = ::dup(target_.descriptor);
      if (fd_ < 0) fail("cannot write", errno);
      return;
    case OutputKind::writeThrough:
      openWriteThrough(fifo_reader_wait);
      return;
    case OutputKind::replaceFile: {
      const std::filesystem::path& file = target_.path;
      const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
      temp_ = (dir / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
      fd_ = ::mkstemp(temp_.data());
      if (fd_ < 0) {
        temp_.clear();
        fail("cannot create a temporary file in " + dir.string(), errno);
      }
      // Keep the permissions of the file being replaced; a new file gets what open(O_CREAT)
      // would give it, rw-rw-rw- less the umask (mkstemp makes it rw-------).
      struct stat existing {};
      const mode_t mode = ::stat(file.c_str(), &existing) == 0 ? (existing.st_mode & 07777)
                                                               : (0666 & ~processUmask());
      if (::fchmod(fd_, mode) != 0) fail("cannot set permissions", errno);
      return;
    }
  }
}

void OutputFile::openWriteThrough(std::chrono::milliseconds reader_wait) {
  // No O_TRUNC or O_CREAT: the device or FIFO is there and stays what it is. O_NONBLOCK, because
  // opening a FIFO that no one reads would wait forever: a reader has kFifoReaderWait to come
  // (one started beside the command, `cat FIFO & breakerlab-cli ... -o FIFO`, may be late).
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    fd_ = ::open(name_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd_ >= 0) break;
    // ENXIO: a FIFO without a reader (a device without its hardware says so too: no wait).
    if (errno != ENXIO || !target_.fifo) fail("cannot write", errno);
    if (std::chrono::steady_clock::now() - started >= reader_wait) {
      char waited[32];
      std::snprintf(waited, sizeof waited, "%g", static_cast<double>(reader_wait.count()) / 1000);
      throw LoadError(name_, 0, 0,
                      std::string("cannot write: a FIFO that no one opened for reading within ") +
                          waited + " s (start its reader first)");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  // What was opened is what was looked at: a path replaced by a regular file in between would
  // be written into without being emptied first.
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("cannot write", errno);
  if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw LoadError(
        name_, 0, 0,
        "cannot write: it changed while it was opened (now " + fileKindName(st.st_mode) + ")");
  // Writes wait for a slow reader, as they would to a pipe.
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) != 0) fail("cannot write", errno);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

void OutputFile::fail(const std::string& what, int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
  throw LoadError(name_, 0, 0, what + ": " + osReason(error));
}

void OutputFile::writeAll(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw LoadError(name_, 0, 0, "cannot write: the output was already closed");
  writeAll(bytes.data(), bytes.size());
}

void OutputFile::commit() {
  if (fd_ < 0) throw LoadError(name_, 0, 0, "cannot write: the output was already closed");
  if (target_.kind != OutputKind::replaceFile) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close", errno);
    return;
  }
  if (::fsync(fd_) != 0) fail("cannot flush to disk", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("cannot close", errno);
  // What is there now is what was looked at, or nothing: a device or FIFO made at the path
  // while the output was written is left alone.
  struct stat now {};
  if (::lstat(target_.path.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
    ::unlink(temp_.c_str());
    temp_.clear();
    throw LoadError(
        name_, 0, 0,
        "cannot replace: it became " + fileKindName(now.st_mode) + " while the output was written");
  }
  if (::rename(temp_.c_str(), target_.path.c_str()) != 0) fail("cannot replace", errno);
  temp_.clear();
  // Make the rename itself durable (best effort: not every file system allows it).
  const std::filesystem::path dir =
      target_.path.has_parent_path() ? target_.path.parent_path() : ".";
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void writeOutputFile(const std::filesystem::path& path, std::string_view contents) {
  OutputFile out(path);
  out.write(contents);
  out.commit();
}

}  // namespace breakerlab
