// One program at a time saves into a workspace (workspace_lock.h): a second process is refused
// with a clear error, even after this process closed a descriptor of the file as a file dialog
// does, which drops SQLite's own POSIX locks; inside one process a file opens as often as asked.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

#include "breakerlab/data/workspace.h"
#include "workspace_test_support.h"

namespace breakerlab {
namespace {

using test::ScratchFile;

// In a child forked before this process opens anything: waits for the go on `go`, opens `file`
// (read-only if asked), and exits 0 when refused as in use with the expected words, 2 when it
// opened, 1 for any other failure.
pid_t openerAfterGo(const std::filesystem::path& file, bool read_only, int go[2]) {
  const pid_t pid = fork();
  if (pid != 0) {
    close(go[0]);
    return pid;
  }
  close(go[1]);
  char byte = 0;
  if (read(go[0], &byte, 1) != 1) _exit(5);
  try {
    const Workspace ws = Workspace::open(
        file, read_only ? Workspace::Access::read_only : Workspace::Access::read_write);
    _exit(2);
  } catch (const WorkspaceError& e) {
    const std::string what = e.what();
    _exit(e.kind() == WorkspaceError::Kind::in_use &&
                  what.find("open in another BreakerLab") != std::string::npos &&
                  what.find("it was not changed") != std::string::npos
              ? 0
              : 1);
  } catch (...) {
    _exit(1);
  }
}

int exitCodeOf(pid_t pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}

TEST(WorkspaceLock, ASecondProcessIsRefusedEvenAfterAFileDialogReadTheFile) {
  ScratchFile file("lock");
  { Workspace::open(file.path()); }  // made, and closed
  for (const bool read_only : {false, true}) {
    int go[2];
    ASSERT_EQ(pipe(go), 0);
    const pid_t child = openerAfterGo(file.path(), read_only, go);
    ASSERT_GT(child, 0);
    Workspace ws = Workspace::open(file.path());
    test::Fixture fixture = test::makeFixture(ws, 1);
    // What a file dialog does to show the file's type: open, read, close. SQLite's POSIX locks
    // of this process are gone after it.
    const int fd = ::open(file.path().c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    char header[16];
    ASSERT_EQ(::read(fd, header, sizeof header), 16);
    ::close(fd);
    ASSERT_EQ(write(go[1], "g", 1), 1);
    close(go[1]);
    EXPECT_EQ(exitCodeOf(child), 0) << (read_only ? "read-only" : "read-write")
                                    << ": the other process was not refused as in use";
    // This process saves on, into a sound file whose -wal is still there.
    ws.saveRun(fixture.runs[0]);
    EXPECT_TRUE(std::filesystem::exists(file.path().string() + "-wal"));
    EXPECT_EQ(ws.integrityCheck(), "ok");
  }
  // Once closed here, another process opens it.
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  const pid_t child = openerAfterGo(file.path(), false, go);
  ASSERT_EQ(write(go[1], "g", 1), 1);
  close(go[1]);
  EXPECT_EQ(exitCodeOf(child), 2) << "a workspace no one holds opens";
}

TEST(WorkspaceLock, OneProcessOpensAFileAsOftenAsItAsks) {
  ScratchFile file("lock-same");
  Workspace writer = Workspace::open(file.path());
  test::Fixture fixture = test::makeFixture(writer, 1);
  const Workspace reader = Workspace::open(file.path(), Workspace::Access::read_only);
  Workspace second = Workspace::open(file.path());
  second.saveRun(fixture.runs[0]);
  EXPECT_EQ(reader.runs().size(), writer.runs().size());
  EXPECT_EQ(writer.integrityCheck(), "ok");
}

}  // namespace
}  // namespace breakerlab
