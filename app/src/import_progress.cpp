#include "import_progress.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>

#include "breakerlab/data/config_io.h"
#include "long_replay.h"

namespace breakerlab::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
void onInterrupt(int) {
  g_interrupted = 1;
}

// SIGINT sets a flag for as long as the import runs; SA_RESETHAND makes a second Ctrl+C kill
// the process as usual.
class InterruptGuard {
 public:
  InterruptGuard() {
    g_interrupted = 0;
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
  }
  ~InterruptGuard() {
    if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

}  // namespace

ImportedIncident openWithProgress(const std::filesystem::path& path, ImportOptions options) {
  using Clock = std::chrono::steady_clock;
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const std::string name = path.filename().string();
  const Clock::time_point started = Clock::now();
  Clock::time_point last_shown{};
  bool shown = false;
  InterruptGuard guard;
  std::function<bool(double)> inner = options.progress;
  options.progress = [&](double done) {
    if (g_interrupted != 0) return false;
    const Clock::time_point now = Clock::now();
    if (terminal && now - started > std::chrono::milliseconds(300) &&
        now - last_shown > std::chrono::milliseconds(100)) {
      std::fprintf(stderr, "\rreading %s: %3.0f%% (Ctrl+C stops)", clipText(name, 60).c_str(),
                   100 * done);
      std::fflush(stderr);
      last_shown = now;
      shown = true;
    }
    return !inner || inner(done);
  };
  auto clear = [&] {
    if (shown) std::fprintf(stderr, "\r\033[K");
  };
  try {
    ImportedIncident imported = openIncidentFile(path, options);
    clear();
    return imported;
  } catch (const ImportCancelled&) {
    clear();
    throw ReplayInterrupted("import of " + path.string() + " cancelled");
  } catch (...) {
    clear();
    throw;
  }
}

void applyRequestLogOptions(ImportOptions& options, const std::string& map,
                            const std::string& config_file) {
  if (!map.empty()) options.request_log_mapping = parseRequestLogMapping(map, "--map");
  if (!config_file.empty()) options.request_log_config = loadConfig(config_file);
}

}  // namespace breakerlab::cli
