// Every kind of path an output can be given: what is written where, and that the path is left
// what it was (a device stays a device, a FIFO a FIFO, a symlink a symlink).
#include "breakerlab/data/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <future>
#include <string>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/load_error.h"
#include "test_support.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;

class OutputFileTest : public test::ScratchDirTest {
 protected:
  // The entries of the scratch folder: no temporary file may be left in it.
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  static std::string refusal(const fs::path& path) {
    try {
      writeOutputFile(path, "x");
    } catch (const LoadError& e) {
      return e.what();
    }
    return "(written)";
  }
  static bool root() { return ::geteuid() == 0; }
};

// Reads what arrives at the read end of a pipe or FIFO until its writers close it.
std::string drain(int fd) {
  std::string got;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) got.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return got;
}

TEST_F(OutputFileTest, ANewPathAndARegularFileAreWrittenWhole) {
  const fs::path file = dir_ / "out.yaml";
  EXPECT_EQ(resolveOutputTarget(file).kind, OutputKind::replaceFile);
  writeOutputFile(file, "first\n");
  EXPECT_EQ(readTextFile(file), "first\n");
  writeOutputFile(file, "second\n");
  EXPECT_EQ(readTextFile(file), "second\n");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, ANewFileHasThePermissionsTheUmaskGives) {
  const mode_t before = ::umask(027);
  writeOutputFile(dir_ / "new.yaml", "x");
  ::umask(before);
  EXPECT_EQ(fs::status(dir_ / "new.yaml").permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(OutputFileTest, ASymlinkIsFollowedAndStaysALink) {
  fs::create_directories(dir_ / "real");
  const fs::path target = dir_ / "real" / "config.yaml";
  writeOutputFile(target, "old");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink("real/config.yaml", dir_ / "link.yaml");  // relative, as users make them
  const OutputTarget resolved = resolveOutputTarget(dir_ / "link.yaml");
  EXPECT_EQ(resolved.kind, OutputKind::replaceFile);
  EXPECT_EQ(resolved.path, fs::canonical(target));

  writeOutputFile(dir_ / "link.yaml", "new");
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.yaml"));
  EXPECT_EQ(readTextFile(target), "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write);
  // The temporary file was made in the target's folder, and is gone.
  EXPECT_EQ(entries(), 2u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_ / "real"), fs::directory_iterator()), 1);
}

TEST_F(OutputFileTest, AChainOfSymlinksToNothingCreatesItsEnd) {
  fs::create_directories(dir_ / "a");
  fs::create_symlink("../b.yaml", dir_ / "a" / "first");  // a/first -> ../b.yaml -> c.yaml
  fs::create_symlink("c.yaml", dir_ / "b.yaml");
  writeOutputFile(dir_ / "a" / "first", "made");
  EXPECT_TRUE(fs::is_symlink(dir_ / "a" / "first"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "b.yaml"));
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir_ / "c.yaml")));
  EXPECT_EQ(readTextFile(dir_ / "c.yaml"), "made");
}

TEST_F(OutputFileTest, ASymlinkLoopIsRefused) {
  fs::create_symlink("two", dir_ / "one");
  fs::create_symlink("one", dir_ / "two");
  const std::string why = refusal(dir_ / "one");
  EXPECT_NE(why.find("cannot write: Too many levels of symbolic links"), std::string::npos) << why;
  EXPECT_TRUE(fs::is_symlink(dir_ / "one"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "two"));
}

TEST_F(OutputFileTest, AFifoIsWrittenThroughAndStaysAFifo) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(resolveOutputTarget(fifo).kind, OutputKind::writeThrough);
  // The reader opens the FIFO in another thread (opening it waits for the writer, and the
  // writer for it).
  auto reader = std::async(std::launch::async, [&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    return fd < 0 ? std::string("(cannot open)") : drain(fd);
  });
  const std::string big(200'000, 'f');  // more than a pipe holds: the writer must wait
  try {
    writeOutputFile(fifo, big);
  } catch (...) {
    // Let the reader's open return, or the test would hang instead of failing.
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
    reader.wait();
    throw;
  }
  EXPECT_EQ(reader.get(), big);
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, AFifoNoOneReadsIsAnErrorNotAWaitWithoutEnd) {
  const fs::path fifo = dir_ / "unread";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto started = std::chrono::steady_clock::now();
  try {
    OutputFile out(fifo, std::chrono::milliseconds(200));
    FAIL() << "opened a FIFO without a reader";
  } catch (const LoadError& e) {
    EXPECT_EQ(std::string(e.what()),
              fifo.string() +
                  ": cannot write: a FIFO that no one opened for reading within 0.2 s (start its "
                  "reader first)");
  }
  const auto waited = std::chrono::steady_clock::now() - started;
  EXPECT_GE(waited, std::chrono::milliseconds(200));
  struct stat st {};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(OutputFileTest, ASymlinkToAPipeOfThisProcessWritesIntoThePipe) {
  // /proc/self/fd/N names an open pipe: the link's "target" (pipe:[1234]) is no path, and the
  // bytes must go into the pipe, not into a new file beside the link.
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const fs::path link = dir_ / "to-stdout";
  fs::create_symlink("/proc/self/fd/" + std::to_string(ends[1]), link);
  EXPECT_EQ(resolveOutputTarget(link).kind, OutputKind::inheritedDescriptor);
  writeOutputFile(link, "through the pipe");
  ::close(ends[1]);
  EXPECT_EQ(drain(ends[0]), "through the pipe");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(entries(), 1u);
}

TEST_F(OutputFileTest, ADescriptorOfThisProcessIsWrittenThroughNotReplaced) {
  // `cli -o /dev/stdout >> log`: stdout is a regular file opened for appending. Seen through by
  // stat(), it would be replaced by a rename and the log lost; it must be appended to.
  const fs::path log = dir_ / "log.txt";
  writeOutputFile(log, "earlier lines\n");
  struct stat before {};
  ASSERT_EQ(::stat(log.c_str(), &before), 0);
  const int appending = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  ASSERT_GE(appending, 0);
  const std::string fd = std::to_string(appending);
  fs::create_symlink("/proc/self/fd/" + fd, dir_ / "stdout-link");
  for (const std::string& name :
       {"/proc/self/fd/" + fd, "/dev/fd/" + fd, (dir_ / "stdout-link").string(),
        "/proc/" + std::to_string(::getpid()) + "/fd/" + fd}) {
    const OutputTarget target = resolveOutputTarget(name);
    EXPECT_EQ(target.kind, OutputKind::inheritedDescriptor) << name;
    EXPECT_EQ(target.descriptor, appending) << name;
    writeOutputFile(name, "appended\n");
  }
  ::close(appending);
  EXPECT_EQ(readTextFile(log), "earlier lines\nappended\nappended\nappended\nappended\n");
  struct stat after {};
  ASSERT_EQ(::stat(log.c_str(), &after), 0);
  EXPECT_EQ(after.st_ino, before.st_ino) << "the log was replaced";
  EXPECT_TRUE(fs::is_symlink(dir_ / "stdout-link"));
  EXPECT_EQ(resolveOutputTarget("/dev/stdout").descriptor, STDOUT_FILENO);
  EXPECT_EQ(resolveOutputTarget("/dev/stderr").descriptor, STDERR_FILENO);
  EXPECT_EQ(resolveOutputTarget("-").descriptor, STDOUT_FILENO);
  // Not a descriptor: digits are the whole last part.
  EXPECT_NE(resolveOutputTarget(dir_ / "fd" / "1x").kind, OutputKind::inheritedDescriptor);
}

TEST_F(OutputFileTest, ADashIsStandardOutput) {
  int ends[2];
  ASSERT_EQ(::pipe(ends), 0);
  const int saved = ::dup(STDOUT_FILENO);
  ASSERT_GE(saved, 0);
  ASSERT_GE(::dup2(ends[1], STDOUT_FILENO), 0);
  ::close(ends[1]);
  const fs::path before = fs::current_path();
  fs::current_path(dir_);
  std::string error;
  try {
    writeOutputFile("-", "to stdout\n");
  } catch (const std::exception& e) {
    error = e.what();
  }
  fs::current_path(before);
  ::dup2(saved, STDOUT_FILENO);
  ::close(saved);
  EXPECT_EQ(error, "");
  EXPECT_EQ(drain(ends[0]), "to stdout\n");
  EXPECT_EQ(entries(), 0u) << "no file named \"-\"";
}

TEST_F(OutputFileTest, ACharacterDeviceIsWrittenThroughAndStaysADevice) {
  if (!root()) GTEST_SKIP() << "making a device node needs root";
  // A null device and a full one of our own (the machine's are left alone).
  const fs::path null_device = dir_ / "null", full_device = dir_ / "full";
  if (::mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 && errno == EPERM)
    GTEST_SKIP() << "device nodes cannot be made here (a user namespace?)";
  ASSERT_TRUE(fs::exists(null_device));
  ASSERT_EQ(::mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  EXPECT_EQ(resolveOutputTarget(null_device).kind, OutputKind::writeThrough);
  writeOutputFile(null_device, std::string(100'000, 'n'));
  // A symlink to the device: written through too, the link kept.
  fs::create_symlink("null", dir_ / "null-link");
  writeOutputFile(dir_ / "null-link", "x");
  EXPECT_TRUE(fs::is_symlink(dir_ / "null-link"));
  // A full disk is an error with the OS's reason, and the device is left as it was.
  const std::string why = refusal(full_device);
  EXPECT_NE(why.find("full: cannot write: No space left on device"), std::string::npos) << why;
  for (const fs::path& device : {null_device, full_device}) {
    struct stat st {};
    ASSERT_EQ(::lstat(device.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << device;
  }
  EXPECT_EQ(entries(), 3u);
}

TEST_F(OutputFileTest, ADirectoryASocketAndABlockDeviceAreRefused) {
  fs::create_directories(dir_ / "folder");
  EXPECT_NE(refusal(dir_ / "folder").find("folder: cannot write: a directory, not a regular file"),
            std::string::npos)
      << refusal(dir_ / "folder");
  EXPECT_TRUE(fs::is_directory(dir_ / "folder"));

  const fs::path socket_path = dir_ / "sock";
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_NE(refusal(socket_path).find("cannot write: a socket, not a regular file"),
            std::string::npos)
      << refusal(socket_path);
  ::close(fd);
  EXPECT_TRUE(fs::is_socket(socket_path));

  if (root()) {
    const fs::path block = dir_ / "loop";
    ASSERT_EQ(::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)), 0);
    EXPECT_NE(refusal(block).find("cannot write: a block device, not a regular file"),
              std::string::npos)
        << refusal(block);
    EXPECT_TRUE(fs::is_block_file(block));
  }
}

TEST_F(OutputFileTest, APathThroughAFileOrAMissingFolderNamesTheReason) {
  writeOutputFile(dir_ / "file", "a");
  EXPECT_NE(refusal(dir_ / "file" / "x").find("cannot write: Not a directory"), std::string::npos)
      << refusal(dir_ / "file" / "x");
  EXPECT_NE(refusal(dir_ / "none" / "x").find("cannot create a temporary file in"),
            std::string::npos);
  EXPECT_NE(refusal("").find("no file named for the output"), std::string::npos);
}

TEST_F(OutputFileTest, AnOutputLeftUnfinishedLeavesTheTargetAsItWas) {
  const fs::path file = dir_ / "kept.csv";
  writeOutputFile(file, "kept");
  {
    OutputFile out(file);
    out.write("half of a new ");
  }  // dropped without commit(): an error on the way, say
  EXPECT_EQ(readTextFile(file), "kept");
  EXPECT_EQ(entries(), 1u);
  OutputFile out(file);
  out.write("in ");
  out.write("parts");
  out.commit();
  EXPECT_EQ(readTextFile(file), "in parts");
  EXPECT_THROW(out.write("more"), LoadError);
}

}  // namespace
}  // namespace breakerlab
