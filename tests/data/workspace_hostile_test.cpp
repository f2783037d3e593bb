// Hostile workspaces: every kind of path that is not a workspace file (FIFO, device, socket,
// directory, symlinks to them, loops, dangling links, and the same as a -wal, -shm or -journal),
// damaged files (the reproducer's bit flips, truncation, header, free list, index and constraint
// damage, damage after opening), and the messages for empty files, read-only folders and
// schema versions that do not match the tables. Each open runs in a child process with an alarm,
// so that a hang fails the test instead of stopping it.
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <thread>

#include "breakerlab/data/workspace.h"
#include "workspace/workspace_schema.h"
#include "workspace_test_support.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;
using test::ScratchFile;
using Access = Workspace::Access;
using Kind = WorkspaceError::Kind;

// What a call did in a child process: returned, threw a WorkspaceError, or hung.
struct Outcome {
  bool hung = false;
  bool threw = false;
  int kind = -1;
  std::string message;  // what() when it threw; what the body returned otherwise
};

// Runs `body` in a child with a `seconds` alarm. The body's returned text (or the error) comes
// back through a pipe.
Outcome inChild(const std::function<std::string()>& body, int seconds = 60) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    ::alarm(static_cast<unsigned>(seconds));
    std::string text;
    try {
      text = "R" + body();
    } catch (const WorkspaceError& e) {
      text = "E" + std::to_string(static_cast<int>(e.kind())) + "|" + e.what();
    } catch (const std::exception& e) {
      text = "X" + std::string(e.what());
    }
    const char* p = text.data();
    std::size_t left = text.size();
    while (left > 0) {
      const ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome out;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    out.hung = true;
    return out;
  }
  if (text.empty()) {
    out.message = "(no answer; status " + std::to_string(status) + ")";
  } else if (text[0] == 'E') {
    out.threw = true;
    const std::size_t bar = text.find('|');
    out.kind = std::stoi(text.substr(1, bar - 1));
    out.message = text.substr(bar + 1);
  } else {
    out.threw = text[0] == 'X';
    out.message = text.substr(1);
  }
  return out;
}

Outcome openOutcome(const fs::path& path, Access access) {
  return inChild([&] {
    const Workspace ws = Workspace::open(path, access);
    return std::string("opened") + (ws.readOnly() ? " read-only" : "");
  });
}

// Opening `path` either way is refused at once with exactly `message` (cannot_open).
void expectRefused(const fs::path& path, const std::string& message,
                   std::initializer_list<Access> accesses = {Access::read_only,
                                                             Access::read_write}) {
  for (const Access access : accesses) {
    const Outcome o = openOutcome(path, access);
    const char* mode = access == Access::read_only ? "read-only" : "read-write";
    ASSERT_FALSE(o.hung) << path << " " << mode << ": hung";
    EXPECT_TRUE(o.threw) << path << " " << mode << ": " << o.message;
    EXPECT_EQ(o.kind, static_cast<int>(Kind::cannot_open)) << mode << ": " << o.message;
    EXPECT_EQ(o.message, message) << mode;
  }
}

std::string bytesOf(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A sound workspace of two incidents and six runs, closed (so its -wal is checkpointed away).
void makeWorkspace(const fs::path& file) {
  Workspace ws = Workspace::open(file);
  const test::Fixture fixture = test::makeFixture(ws, 2);
  for (const NewRun& run : fixture.runs) ws.saveRun(run);
}

// The root page of a table or index, read with the SQLite C API.
int rootPage(const fs::path& file, const std::string& name) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* s = nullptr;
  sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = ?", -1, &s, nullptr);
  sqlite3_bind_text(s, 1, name.c_str(), -1, SQLITE_TRANSIENT);
  const int page = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
  sqlite3_finalize(s);
  sqlite3_close(db);
  return page;
}

// --- Paths that are not a workspace file -------------------------------------------------------

TEST(WorkspacePath, AFifoIsRefusedAtOnceForReadingAndForWriting) {
  ScratchFile file("fifo");
  ASSERT_EQ(::mkfifo(file.path().c_str(), 0644), 0);
  expectRefused(file.path(),
                file.path().string() + ": cannot open the workspace: a FIFO, not a regular file");
}

TEST(WorkspacePath, ADirectoryIsRefused) {
  ScratchFile file("dir");
  fs::create_directory(file.path());
  expectRefused(file.path(), file.path().string() +
                                 ": cannot open the workspace: a directory, not a regular file");
}

TEST(WorkspacePath, ASocketIsRefused) {
  ScratchFile file("sock");
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(file.path().string().size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, file.path().c_str());
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  expectRefused(file.path(),
                file.path().string() + ": cannot open the workspace: a socket, not a regular file");
  ::close(fd);
}

// Devices are refused from their stat alone; /dev/zero discards anything written to it, so it
// is safe to name for writing too. A block device is named for reading only.
TEST(WorkspacePath, DevicesAreRefusedWithoutBeingOpened) {
  expectRefused("/dev/zero",
                "/dev/zero: cannot open the workspace: a character device, not a regular file");
  for (const char* device : {"/dev/loop0", "/dev/sda", "/dev/vda", "/dev/nvme0n1"}) {
    struct stat st {};
    if (::stat(device, &st) != 0 || !S_ISBLK(st.st_mode)) continue;
    expectRefused(
        device,
        std::string(device) + ": cannot open the workspace: a block device, not a regular file",
        {Access::read_only});
    break;
  }
}

TEST(WorkspacePath, SymlinksToAFifoOrADeviceAreRefusedAsWhatTheyPointTo) {
  ScratchFile file("link");
  const fs::path fifo = file.directory() / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  fs::create_symlink(fifo, file.path());
  expectRefused(file.path(),
                file.path().string() + ": cannot open the workspace: a FIFO, not a regular file");
  const fs::path zero = file.directory() / "zero.breakerlab";
  fs::create_symlink("/dev/zero", zero);
  expectRefused(
      zero, zero.string() + ": cannot open the workspace: a character device, not a regular file");
}

TEST(WorkspacePath, ASymlinkLoopIsRefused) {
  ScratchFile file("loop");
  fs::create_symlink(file.path(), file.path());
  expectRefused(file.path(),
                file.path().string() + ": cannot open the workspace: " + std::strerror(ELOOP));
}

// SQLite would create the file the link points to; the user meant the file that is gone.
TEST(WorkspacePath, ADanglingSymlinkIsRefusedAndNothingIsCreated) {
  ScratchFile file("dangling");
  const fs::path target = file.directory() / "gone" / "w.breakerlab";
  fs::create_directory(file.directory() / "gone");
  fs::create_symlink(target, file.path());
  expectRefused(file.path(), file.path().string() +
                                 ": cannot open the workspace: a symbolic link to " +
                                 target.string() + ", which does not exist");
  EXPECT_FALSE(fs::exists(target));
}

TEST(WorkspacePath, ASymlinkToAWorkspaceOpensAndItsWalIsBesideTheTarget) {
  ScratchFile file("target");
  makeWorkspace(file.path());
  const fs::path other = file.directory() / "elsewhere";
  fs::create_directory(other);
  const fs::path link = other / "link.breakerlab";
  fs::create_symlink(file.path(), link);
  Workspace ws = Workspace::open(link);
  EXPECT_FALSE(ws.readOnly());
  const std::size_t runs = ws.runs().size();
  const StoredRun run = ws.run(ws.runs().front().id);
  ws.saveRun(run);
  EXPECT_EQ(ws.runs().size(), runs + 1);
  EXPECT_TRUE(fs::exists(file.path().string() + "-wal"));
  EXPECT_FALSE(fs::exists(link.string() + "-wal"));
}

TEST(WorkspacePath, APathThroughAFileOrIntoAMissingFolderSaysSo) {
  ScratchFile file("plain");
  writeBytes(file.path(), "");
  const fs::path through = file.path() / "w.breakerlab";
  expectRefused(through,
                through.string() + ": cannot open the workspace: " + std::strerror(ENOTDIR));
  const fs::path missing = file.directory() / "no-such-folder" / "w.breakerlab";
  expectRefused(missing, missing.string() + ": cannot open the workspace: no such file",
                {Access::read_only});
  expectRefused(missing,
                missing.string() + ": cannot create the workspace in " +
                    missing.parent_path().string() + ": " + std::strerror(ENOENT),
                {Access::read_write});
  expectRefused("", ": cannot open the workspace: no file name given");
}

// SQLite opens the -wal, -shm and -journal with a blocking open(2) too, and answers a directory
// there with "unable to open database file".
TEST(WorkspacePath, ACompanionThatIsNotAFileIsNamed) {
  ScratchFile file("companions");
  makeWorkspace(file.path());
  const std::string w = file.path().string();
  const std::string before = bytesOf(file.path());

  fs::create_directory(w + "-wal");
  expectRefused(file.path(), w + ": cannot open the workspace: its write-ahead log " + w +
                                 "-wal is a directory, not a regular file");
  fs::remove(w + "-wal");

  ASSERT_EQ(::mkfifo((w + "-shm").c_str(), 0644), 0);
  expectRefused(file.path(), w + ": cannot open the workspace: its shared-memory index " + w +
                                 "-shm is a FIFO, not a regular file");
  fs::remove(w + "-shm");

  ASSERT_EQ(::mkfifo((w + "-journal").c_str(), 0644), 0);
  expectRefused(file.path(), w + ": cannot open the workspace: its rollback journal " + w +
                                 "-journal is a FIFO, not a regular file");
  fs::remove(w + "-journal");

  fs::create_symlink("/dev/zero", w + "-wal");
  expectRefused(file.path(), w + ": cannot open the workspace: its write-ahead log " + w +
                                 "-wal is a character device, not a regular file");
  fs::remove(w + "-wal");

  fs::create_symlink(file.directory() / "nowhere", w + "-wal");
  expectRefused(file.path(), w + ": cannot open the workspace: its write-ahead log " + w +
                                 "-wal is a symbolic link to " +
                                 (file.directory() / "nowhere").string() +
                                 ", which does not exist");
  fs::remove(w + "-wal");
  EXPECT_FALSE(fs::exists(file.directory() / "nowhere"));
  EXPECT_EQ(bytesOf(file.path()), before);

  // Beside a new workspace, and beside the target of a symlink (where SQLite puts them).
  const fs::path fresh = file.directory() / "new.breakerlab";
  fs::create_directory(fresh.string() + "-wal");
  expectRefused(fresh,
                fresh.string() + ": cannot open the workspace: its write-ahead log " +
                    fresh.string() + "-wal is a directory, not a regular file",
                {Access::read_write});
  EXPECT_FALSE(fs::exists(fresh));
  const fs::path link = file.directory() / "link.breakerlab";
  fs::create_symlink(file.path(), link);
  fs::create_directory(w + "-wal");
  expectRefused(link, link.string() + ": cannot open the workspace: its write-ahead log " + w +
                          "-wal is a directory, not a regular file");
}

// --- Damage ------------------------------------------------------------------------------------

const std::string kDamaged = ": the workspace is damaged (";

// Opening `file` either way is refused as damaged, and the file is left as it was.
void expectDamaged(const fs::path& file, const std::string& first_message = {}) {
  const std::string before = bytesOf(file);
  for (const Access access : {Access::read_only, Access::read_write}) {
    const Outcome o = openOutcome(file, access);
    const char* mode = access == Access::read_only ? "read-only" : "read-write";
    ASSERT_FALSE(o.hung) << mode;
    EXPECT_TRUE(o.threw) << mode << ": " << o.message;
    EXPECT_EQ(o.kind, static_cast<int>(Kind::corrupt)) << mode << ": " << o.message;
    EXPECT_EQ(o.message.rfind(file.string() + kDamaged, 0), 0u) << mode << ": " << o.message;
    EXPECT_NE(o.message.find("); open a backup"), std::string::npos) << o.message;
    EXPECT_EQ(o.message.find('\n'), std::string::npos) << o.message;
    if (!first_message.empty()) {
      EXPECT_NE(o.message.find(first_message), std::string::npos) << mode << ": " << o.message;
    }
  }
  EXPECT_EQ(bytesOf(file), before) << "a damaged workspace is not written";
  EXPECT_FALSE(fs::exists(file.string() + "-wal")) << "and nothing is left beside it";
  EXPECT_FALSE(fs::exists(file.string() + "-shm"));
}

// The two files of the reproducer: 20 random bit flips in a two-run workspace, which SQLite
// opened and saved into (integrity_check failing before and after).
TEST(WorkspaceDamage, TheReproducersBitFlippedFilesAreRefusedForListingAndSaving) {
  for (const char* name : {"flip-0.breakerlab", "flip-7.breakerlab"}) {
    ScratchFile file(name);
    fs::copy_file(fs::path(BREAKERLAB_DATA_FIXTURES) / "workspace" / name, file.path());
    fs::permissions(file.path(), fs::perms::owner_read | fs::perms::owner_write);
    SCOPED_TRACE(name);
    expectDamaged(file.path(), std::string(name) == "flip-0.breakerlab"
                                   ? "(PRAGMA integrity_check: CHECK constraint failed in "
                                     "run_checks)"
                                   : "(PRAGMA integrity_check: ");
  }
}

class DamagedCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    makeWorkspace(file_.path());
    sound_ = bytesOf(file_.path());
    page_size_ = std::stoi(test::pragma(file_.path(), "page_size"));
  }
  // The workspace with `bytes` written at `offset`.
  void patch(std::size_t offset, const std::string& bytes) {
    std::string damaged = sound_;
    damaged.replace(offset, bytes.size(), bytes);
    writeBytes(file_.path(), damaged);
  }
  std::size_t pageOffset(int page) const {
    return static_cast<std::size_t>(page - 1) * static_cast<std::size_t>(page_size_);
  }
  ScratchFile file_{"damaged"};
  std::string sound_;
  int page_size_ = 4096;
};

TEST_F(DamagedCopy, TruncatedAtAPageOrInsideOne) {
  ASSERT_GT(sound_.size(), static_cast<std::size_t>(4 * page_size_));
  writeBytes(file_.path(), sound_.substr(0, sound_.size() / 2 / page_size_ * page_size_));
  expectDamaged(file_.path());
  // SQLite reads the missing end of the last page as zeros, and finds nothing wrong.
  writeBytes(file_.path(), sound_.substr(0, sound_.size() - 100));
  expectDamaged(file_.path(), "(the file is " + std::to_string(sound_.size() - 100) +
                                  " bytes, not a whole number of " + std::to_string(page_size_) +
                                  "-byte pages: it was cut short)");
}

TEST_F(DamagedCopy, AZeroedTablePage) {
  const int page = rootPage(file_.path(), "runs");
  ASSERT_GT(page, 1);
  patch(pageOffset(page), std::string(static_cast<std::size_t>(page_size_), '\0'));
  expectDamaged(file_.path());
}

TEST_F(DamagedCopy, AnIndexPageWithABadHeader) {
  const int page = rootPage(file_.path(), "incidents_by_hash");
  ASSERT_GT(page, 1);
  // The b-tree page type (byte 0) and the first freeblock and cell count, all nonsense.
  patch(pageOffset(page), std::string(8, '\xff'));
  expectDamaged(file_.path());
}

TEST_F(DamagedCopy, AFreeListPointingOutsideTheFile) {
  // Header bytes 32..39: the first free-list trunk page and the number of free pages.
  patch(32, std::string("\x00\x00\xff\xff\x00\x00\x00\x01", 8));
  expectDamaged(file_.path(), "(PRAGMA integrity_check: Main freelist: invalid page number 65535)");
}

// SQLite checks the page size when it reads the header: a damaged one is a damaged workspace,
// not "not an SQLite database", since the file starts as SQLite's do.
TEST_F(DamagedCopy, AHeaderWithAnImpossiblePageSize) {
  patch(16, std::string("\x03\x00", 2));
  const Outcome o = openOutcome(file_.path(), Access::read_only);
  EXPECT_EQ(o.kind, static_cast<int>(Kind::corrupt)) << o.message;
  EXPECT_EQ(o.message.rfind(file_.path().string() + ": the workspace is damaged (", 0), 0u)
      << o.message;
  EXPECT_EQ(bytesOf(file_.path()),
            sound_.substr(0, 16) + std::string("\x03\x00", 2) + sound_.substr(18));
}

TEST_F(DamagedCopy, ARowBreakingACheckConstraint) {
  // Read-only, SQLite does not check CHECK constraints (it does not parse them): asked apart.
  test::execSql(file_.path(),
                "PRAGMA ignore_check_constraints = ON; UPDATE run_checks SET passed = 7 WHERE "
                "run_id = (SELECT min(run_id) FROM run_checks) AND position = 0");
  expectDamaged(file_.path(), "(PRAGMA integrity_check: CHECK constraint failed in run_checks)");
  writeBytes(file_.path(), sound_);
  test::execSql(file_.path(),
                "PRAGMA ignore_check_constraints = ON; INSERT INTO notes(incident_id, run_id, "
                "text, written_at) VALUES (1, 1, 'both', 't')");
  expectDamaged(file_.path(), "(PRAGMA integrity_check: CHECK constraint failed in notes)");
}

// Damage that comes after the workspace was opened (a workbench keeps it open for hours) is
// found inside the first save's transaction, before anything is written.
TEST_F(DamagedCopy, DamageAfterOpeningIsFoundBeforeTheFirstSave) {
  Workspace ws = Workspace::open(file_.path());
  const StoredRun run = ws.run(ws.runs().front().id);
  const int page = rootPage(file_.path(), "runs");
  {
    // Written in place, as a failing disk or another program would.
    const int fd = ::open(file_.path().c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    const std::string zeros(static_cast<std::size_t>(page_size_), '\0');
    ASSERT_EQ(::pwrite(fd, zeros.data(), zeros.size(), static_cast<off_t>(pageOffset(page))),
              static_cast<ssize_t>(zeros.size()));
    ::close(fd);
  }
  const std::string damaged = bytesOf(file_.path());
  // A save right after opening trusts the check made at open; this one comes later.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  try {
    ws.saveRun(run);
    FAIL() << "saved into a damaged workspace";
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(e.kind(), Kind::corrupt) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(file_.path().string() + kDamaged, 0), 0u) << e.what();
  }
  EXPECT_EQ(bytesOf(file_.path()), damaged);
}

// The last connection to close copies the -wal into the file: not into a damaged file.
TEST_F(DamagedCopy, ADamagedFileIsNotCheckpointedIntoOnClose) {
  const fs::path copy = file_.directory() / "copy.breakerlab";
  {
    Workspace ws = Workspace::open(file_.path());
    ws.saveRun(ws.run(ws.runs().front().id));
    // While it is open, the last save is in the -wal only.
    fs::copy_file(file_.path(), copy);
    fs::copy_file(file_.path().string() + "-wal", copy.string() + "-wal");
  }
  const int page = rootPage(copy, "incidents_by_hash");
  ASSERT_GT(page, 1);
  std::string damaged = bytesOf(copy);
  damaged.replace(pageOffset(page), 8, std::string(8, '\xff'));
  writeBytes(copy, damaged);
  const std::string wal = bytesOf(copy.string() + "-wal");
  for (const Access access : {Access::read_only, Access::read_write}) {
    const Outcome o = openOutcome(copy, access);
    EXPECT_EQ(o.kind, static_cast<int>(Kind::corrupt)) << o.message;
  }
  EXPECT_EQ(bytesOf(copy), damaged);
  EXPECT_EQ(bytesOf(copy.string() + "-wal"), wal);
}

// Random bit flips like the reproducer's: each file is refused, or is sound by integrity_check
// (a flip inside a stored text changes the text; SQLite has no checksums to see that). Flips
// that leave an index well formed but out of order pass quick_check: hence integrity_check.
TEST_F(DamagedCopy, RandomBitFlipsAreRefusedOrLeaveASoundFile) {
  std::mt19937 random(20261206);
  int refused = 0, sound = 0;
  for (int round = 0; round < 40; ++round) {
    std::string damaged = sound_;
    std::uniform_int_distribution<std::size_t> at(0, damaged.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    for (int flip = 0; flip < 20; ++flip)
      damaged[at(random)] ^= static_cast<char>(1 << bit(random));
    writeBytes(file_.path(), damaged);
    const Outcome o = openOutcome(file_.path(), Access::read_write);
    ASSERT_FALSE(o.hung) << round;
    if (o.threw) {
      ++refused;
      EXPECT_EQ(bytesOf(file_.path()), damaged) << round << ": written although refused";
      continue;
    }
    ++sound;
    EXPECT_EQ(test::pragma(file_.path(), "integrity_check"), "ok")
        << round << ": opened a file integrity_check finds damaged";
  }
  std::printf("20 bit flips, 40 times: %d refused, %d sound by integrity_check\n", refused, sound);
  EXPECT_GT(refused, 0);
}

// --- Messages that name the real cause ---------------------------------------------------------

TEST(WorkspaceMessages, AnEmptyFileIsANewEmptyWorkspaceNotAReadOnlyOne) {
  ScratchFile file("empty");
  writeBytes(file.path(), "");
  {
    const Workspace ws = Workspace::open(file.path(), Access::read_only);
    EXPECT_TRUE(ws.runs().empty());
    EXPECT_TRUE(ws.incidents().empty());
    EXPECT_EQ(ws.schemaVersion(), kWorkspaceSchemaVersion);
  }
  EXPECT_EQ(fs::file_size(file.path()), 0u) << "listing does not write";
  {
    const Workspace ws = Workspace::open(file.path());
    EXPECT_FALSE(ws.readOnly());
  }
  EXPECT_EQ(test::pragma(file.path(), "user_version"), std::to_string(kWorkspaceSchemaVersion));

  // An SQLite file with no tables yet reads the same way.
  ScratchFile blank("blank");
  test::execSql(blank.path(), "CREATE TABLE t(x); DROP TABLE t;");
  const Workspace ws = Workspace::open(blank.path(), Access::read_only);
  EXPECT_TRUE(ws.runs().empty());
}

std::string versionMessage(const fs::path& file, int says, const std::string& holds,
                           const char* can) {
  return file.string() + ": the workspace says schema version " + std::to_string(says) + " but " +
         holds + ": not a workspace this version can " + can +
         " (was PRAGMA user_version changed by hand?); it was not changed";
}

void expectVersionRefused(const fs::path& file, const std::string& message) {
  const std::string before = bytesOf(file);
  for (const Access access : {Access::read_only, Access::read_write}) {
    const Outcome o = openOutcome(file, access);
    EXPECT_EQ(o.kind, static_cast<int>(Kind::not_a_workspace)) << o.message;
    EXPECT_EQ(o.message, message);
  }
  EXPECT_EQ(bytesOf(file), before);
}

TEST(WorkspaceMessages, AUserVersionThatIsNotTheTablesVersionIsNamed) {
  ScratchFile zero("v0");
  makeWorkspace(zero.path());
  test::execSql(zero.path(), "PRAGMA user_version = 0");
  expectVersionRefused(zero.path(),
                       versionMessage(zero.path(), 0, "it holds tables of schema 2", "upgrade"));

  ScratchFile one("v1-of-2");
  makeWorkspace(one.path());
  test::execSql(one.path(), "PRAGMA user_version = 1");
  expectVersionRefused(one.path(),
                       versionMessage(one.path(), 1, "it holds tables of schema 2", "upgrade"));

  ScratchFile two("v2-of-1");
  test::execSql(two.path(),
                std::string(workspace_detail::schemaScript(1)) + "PRAGMA application_id = " +
                    std::to_string(kWorkspaceApplicationId) + "; PRAGMA user_version = 2;");
  expectVersionRefused(two.path(),
                       versionMessage(two.path(), 2, "it holds tables of schema 1", "read"));

  ScratchFile dropped("dropped");
  makeWorkspace(dropped.path());
  test::execSql(dropped.path(), "DROP TABLE notes");
  expectVersionRefused(dropped.path(),
                       versionMessage(dropped.path(), 2, "it has no table notes", "read"));
}

// --- Permissions: as an unprivileged user (nobody, when the tests run as root) -----------------

// Runs `body` as a user without root's overrides: in a child that drops to nobody when this
// process is root. nullopt when that is not possible here (no CAP_SETUID, or a folder above
// `reach` that it cannot enter).
std::optional<Outcome> unprivileged(const fs::path& reach,
                                    const std::function<std::string()>& body) {
  if (::geteuid() != 0) return inChild(body);
  // Also whether that user reaches the test's folder (a private TMPDIR would hide it).
  Outcome probe = inChild([&] {
    if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
        ::setresuid(65534, 65534, 65534) != 0)
      return std::string("cannot drop privileges");
    return std::string(::access(reach.c_str(), X_OK) == 0 ? "ok" : "cannot reach the folder");
  });
  if (probe.message != "ok") return std::nullopt;
  return inChild([&] {
    if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
        ::setresuid(65534, 65534, 65534) != 0)
      throw std::runtime_error("cannot drop privileges");
    return body();
  });
}

// Folders the unprivileged user can enter; files it can read, or write when `owned`.
class UnwritableFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::permissions(scratch_.directory(), fs::perms(0755));
    folder_ = scratch_.directory() / "ro";
    fs::create_directory(folder_);
    file_ = folder_ / "w.breakerlab";
    makeWorkspace(file_);
    fs::permissions(file_, fs::perms(0644));
    fs::permissions(folder_, fs::perms(0755));
  }
  void TearDown() override { fs::permissions(folder_, fs::perms(0755)); }
  // The file belongs to the unprivileged user (when this process can give it away).
  void own(const fs::path& path) {
    if (::geteuid() == 0) {
      ASSERT_EQ(::chown(path.c_str(), 65534, 65534), 0);
    }
  }
  // Not root: the folder itself is made unwritable (root ignores the mode, nobody does not).
  void lockFolder() {
    if (::geteuid() != 0) fs::permissions(folder_, fs::perms(0555));
  }
  ScratchFile scratch_{"scratch"};
  fs::path folder_, file_;
};

TEST_F(UnwritableFolder, AReadableWorkspaceIsListed) {
  lockFolder();
  const auto o = unprivileged(folder_, [&] {
    const Workspace ws = Workspace::open(file_, Access::read_only);
    return std::to_string(ws.runs().size()) + " runs" + (ws.readOnly() ? " read-only" : "");
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_FALSE(o->threw) << o->message;
  EXPECT_EQ(o->message, "6 runs read-only");
  EXPECT_FALSE(fs::exists(file_.string() + "-shm"));
}

TEST_F(UnwritableFolder, ASaveSaysTheFolderIsNotWritable) {
  own(file_);
  lockFolder();
  const auto o = unprivileged(folder_, [&] {
    Workspace ws = Workspace::open(file_);
    // Said at open (the workbench shows it, and switches saving off) and by a save.
    std::string out = std::to_string(ws.runs().size()) + " runs; " + ws.readOnlyReason() + "; ";
    try {
      ws.saveRun(ws.run(ws.runs().front().id));
      out += "saved";
    } catch (const WorkspaceError& e) {
      out += std::to_string(static_cast<int>(e.kind())) + " " + e.what();
    }
    return out;
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  const std::string reason = "cannot create " + file_.string() + "-wal in " + folder_.string() +
                             ": Permission denied (the folder is not writable)";
  EXPECT_EQ(o->message, "6 runs; " + reason + "; " +
                            std::to_string(static_cast<int>(Kind::read_only)) + " " +
                            file_.string() + ": cannot save into the workspace: " + reason +
                            "; nothing was saved");
}

TEST_F(UnwritableFolder, ASaveIntoAFileNotWritableSaysSo) {
  const fs::path writable = scratch_.directory() / "open";
  fs::create_directory(writable);
  fs::permissions(writable, fs::perms(0777));
  const fs::path file = writable / "w.breakerlab";
  fs::copy_file(file_, file);
  fs::permissions(file, fs::perms(0444));
  const auto o = unprivileged(folder_, [&] {
    Workspace ws = Workspace::open(file);
    ws.saveRun(ws.run(ws.runs().front().id));
    return std::string("saved");
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_EQ(o->kind, static_cast<int>(Kind::read_only)) << o->message;
  EXPECT_EQ(o->message, file.string() + ": cannot save into the workspace: cannot write " +
                            file.string() +
                            ": Permission denied (the file is not writable); nothing was saved");
}

TEST_F(UnwritableFolder, ANewWorkspaceThereNamesTheFolder) {
  lockFolder();
  const fs::path fresh = folder_ / "new.breakerlab";
  const auto o = unprivileged(folder_, [&] {
    (void)Workspace::open(fresh);
    return std::string("created");
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_EQ(o->kind, static_cast<int>(Kind::cannot_open)) << o->message;
  EXPECT_EQ(o->message, fresh.string() + ": cannot create the workspace in " + folder_.string() +
                            ": Permission denied (the folder is not writable)");
  EXPECT_FALSE(fs::exists(fresh));
}

TEST_F(UnwritableFolder, AnEmptyFileThereIsAnEmptyWorkspace) {
  const fs::path empty = folder_ / "empty.breakerlab";
  writeBytes(empty, "");
  fs::permissions(empty, fs::perms(0644));
  lockFolder();
  const auto o = unprivileged(folder_, [&] {
    const Workspace ws = Workspace::open(empty);
    return std::to_string(ws.runs().size()) + " runs" + (ws.readOnly() ? " read-only" : "");
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_EQ(o->message, "0 runs read-only");
}

TEST_F(UnwritableFolder, AFileThatCannotBeReadSaysSo) {
  fs::permissions(file_, fs::perms(0600));
  if (::geteuid() != 0) fs::permissions(file_, fs::perms(0200));
  const auto o = unprivileged(folder_, [&] {
    (void)Workspace::open(file_, Access::read_only);
    return std::string("opened");
  });
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_EQ(o->message, file_.string() + ": cannot open the workspace: Permission denied");
  fs::permissions(file_, fs::perms(0644));
}

// Saves still in the -wal would be missed by reading the file alone: refused, not listed short.
TEST_F(UnwritableFolder, AWalWithSavesThatCannotBeReadIsRefusedNotIgnored) {
  fs::permissions(folder_, fs::perms(0755));
  const fs::path copy = scratch_.directory() / "copy";
  fs::create_directory(copy);
  {
    Workspace ws = Workspace::open(file_);
    ws.saveRun(ws.run(ws.runs().front().id));
    // While it is open, the last save is in the -wal only.
    fs::copy_file(file_, copy / "w.breakerlab");
    fs::copy_file(file_.string() + "-wal", copy / "w.breakerlab-wal");
  }
  fs::permissions(copy / "w.breakerlab", fs::perms(0644));
  fs::permissions(copy / "w.breakerlab-wal", fs::perms(0644));
  fs::permissions(copy, fs::perms(::geteuid() == 0 ? 0755 : 0555));
  const fs::path file = copy / "w.breakerlab";
  const auto o = unprivileged(folder_, [&] {
    const Workspace ws = Workspace::open(file, Access::read_only);
    return std::to_string(ws.runs().size()) + " runs";
  });
  fs::permissions(copy, fs::perms(0755));
  if (!o) GTEST_SKIP() << "cannot act as an unprivileged user here";
  EXPECT_EQ(o->kind, static_cast<int>(Kind::cannot_open)) << o->message;
  EXPECT_EQ(o->message.rfind(file.string() + ": cannot read the workspace: its write-ahead log " +
                                 file.string() + "-wal holds saves",
                             0),
            0u)
      << o->message;
}

}  // namespace
}  // namespace breakerlab
