// Crash safety: a process killed (SIGKILL) in the middle of a stream of saves, at random
// moments, many times, leaves a sound workspace holding every run whose save returned; a full
// disk fails a save with a clear error and loses nothing saved before.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "breakerlab/data/workspace.h"
#include "workspace_test_support.h"

namespace breakerlab {
namespace {

using test::ScratchFile;

// In the child: saves copies of the fixture's runs forever, writing each id to `fd` once its
// save has returned. Never returns.
[[noreturn]] void saveForever(const std::filesystem::path& file, const test::Fixture& fixture,
                              int fd, int child) {
  try {
    Workspace ws = Workspace::open(file);
    for (std::uint64_t n = 0;; ++n) {
      NewRun run = fixture.runs[n % fixture.runs.size()];
      run.name = "child " + std::to_string(child) + " save " + std::to_string(n);
      const std::int64_t id = ws.saveRun(run);
      if (n % 7 == 3) ws.setNote({NoteTarget::Kind::run, id}, "note " + std::to_string(n));
      // Written once the run (and its note) were saved: "id n".
      const std::string line = std::to_string(id) + " " + std::to_string(n) + "\n";
      if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) _exit(4);
    }
  } catch (...) {
    _exit(3);
  }
}

TEST(WorkspaceCrash, KilledMidSaveManyTimesLosesNoReturnedSaveAndStaysSound) {
  ScratchFile file("kill");
  test::Fixture fixture;
  {
    Workspace ws = Workspace::open(file.path());
    fixture = test::makeFixture(ws, 4);
  }
  ASSERT_EQ(fixture.incidents.size(), 4u);
  ASSERT_EQ(fixture.configs.size(), 12u);

  std::mt19937 random(20261202);
  std::uniform_int_distribution<int> delay_us(500, 60'000);
  // Each saved run's id and the name and note it was saved with: an id that came back with
  // another run's content (a lost save whose id was handed out again) fails as a lost one.
  struct Saved {
    std::string name;
    std::string note;
  };
  std::map<std::int64_t, Saved> returned;
  constexpr int kKills = 40;
  // A loaded machine saves less before each kill: kill again until enough was saved to prove
  // something, rather than fail on the machine's speed.
  constexpr int kMostKills = 400;
  constexpr std::size_t kEnoughRuns = 100;
  int k = 0;
  for (; k < kMostKills && (k < kKills || returned.size() < kEnoughRuns); ++k) {
    int pipe_fds[2];
    ASSERT_EQ(pipe(pipe_fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(pipe_fds[0]);
      saveForever(file.path(), fixture, pipe_fds[1], k);
    }
    close(pipe_fds[1]);
    std::string text;
    char buffer[4096];
    // Three kills in four wait for the child's first returned save and so land a random moment
    // into the stream of saves; timed from the fork alone, a machine whose fsyncs are slow (a
    // sanitizer build beside other tests) killed every child while it still opened the file.
    // The fourth kill keeps hitting the open and the first save.
    if (k % 4 != 3) {
      pollfd first_save{pipe_fds[0], POLLIN, 0};
      std::string failure;
      while (failure.empty() && text.find('\n') == std::string::npos) {
        if (poll(&first_save, 1, 120'000) != 1) {
          failure = "the child saved nothing in 2 minutes";
        } else if (const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer); n > 0) {
          text.append(buffer, n);
        } else {
          failure = "the child ended before its first save";
        }
      }
      if (!failure.empty()) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        close(pipe_fds[0]);
        FAIL() << failure << " (kill " << k << ")";
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(delay_us(random)));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the child stopped by itself with " << WEXITSTATUS(status);
    // Every id the child wrote was written after its save returned.
    for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) text.append(buffer, n);
    close(pipe_fds[0]);
    std::size_t from = 0;
    for (std::size_t end; (end = text.find('\n', from)) != std::string::npos; from = end + 1) {
      std::istringstream line(text.substr(from, end - from));
      std::int64_t id = 0;
      std::uint64_t n = 0;
      line >> id >> n;
      returned[id] = {"child " + std::to_string(k) + " save " + std::to_string(n),
                      n % 7 == 3 ? "note " + std::to_string(n) : std::string()};
    }

    const Workspace ws = Workspace::open(file.path());
    ASSERT_EQ(ws.integrityCheck(), "ok") << "after kill " << k;
    std::set<std::int64_t> present;
    for (const RunSummary& r : ws.runs()) present.insert(r.id);
    for (const auto& [id, saved] : returned) {
      ASSERT_TRUE(present.count(id)) << "run " << id << " was saved and is gone after kill " << k;
      ASSERT_EQ(ws.run(id).name, saved.name) << "after kill " << k;
      ASSERT_EQ(ws.note({NoteTarget::Kind::run, id}), saved.note) << "after kill " << k;
    }
  }
  const Workspace ws = Workspace::open(file.path());
  EXPECT_GE(ws.runs().size(), kEnoughRuns) << "the stream saved too few runs to prove anything";
  // The stored runs are whole: each one reads back with its metrics and checks.
  RunFilter newest;
  newest.limit = 50;
  for (const RunSummary& r : ws.runs(newest)) {
    const StoredRun run = ws.run(r.id);
    EXPECT_FALSE(run.metrics_json.empty());
    EXPECT_FALSE(run.checks.empty());
  }
  std::printf("[          ] %d kills, %zu runs saved and all present\n", k, returned.size());
}

// RLIMIT_FSIZE makes the file system refuse to grow the workspace, as a full disk does.
TEST(WorkspaceCrash, AFullDiskFailsTheSaveClearlyAndKeepsWhatWasSaved) {
  ScratchFile file("full");
  test::Fixture fixture;
  std::size_t before = 0;
  {
    Workspace ws = Workspace::open(file.path());
    fixture = test::makeFixture(ws, 1);
    for (const NewRun& run : fixture.runs) ws.saveRun(run);
    before = ws.runs().size();
  }
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0);
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(pipe_fds[0]);
    signal(SIGXFSZ, SIG_IGN);
    std::string message = "no error";
    int code = 0;
    try {
      Workspace ws = Workspace::open(file.path());
      std::error_code ec;
      const auto size = std::filesystem::file_size(file.path(), ec) +
                        std::filesystem::file_size(file.path().string() + "-wal", ec);
      const rlimit limit{static_cast<rlim_t>(size + 4096), static_cast<rlim_t>(size + 4096)};
      setrlimit(RLIMIT_FSIZE, &limit);
      NewRun big = fixture.runs[0];
      big.name = std::string(1 << 20, 'x');  // a megabyte: more than the file may grow
      ws.saveRun(big);
    } catch (const WorkspaceError& e) {
      message = e.what();
      code = e.kind() == WorkspaceError::Kind::disk_full ? 10 : 11;
    } catch (...) {
      code = 12;
    }
    (void)!write(pipe_fds[1], message.data(), message.size());
    _exit(code);
  }
  close(pipe_fds[1]);
  std::string message;
  char buffer[1024];
  for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
  close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 10) << message;
  EXPECT_NE(message.find("saving the run failed: the disk "), std::string::npos) << message;
  EXPECT_NE(message.find("full"), std::string::npos) << message;

  const Workspace ws = Workspace::open(file.path());
  EXPECT_EQ(ws.integrityCheck(), "ok");
  EXPECT_EQ(ws.runs().size(), before);
}

}  // namespace
}  // namespace breakerlab
