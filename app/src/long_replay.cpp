#include "long_replay.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <thread>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/load_error.h"
#include "commands.h"
#include "interrupt_flag.h"
#include "status_line.h"

namespace breakerlab::cli {

namespace {

// "\rbreakerlab-cli: replaying 42% (12.3 M events; Ctrl+C stops)", from half a second in.
class ProgressLine {
 public:
  void update(const ReplayProgress& p) {
    done_ = p.done;
    if (!line_.due()) return;
    char text[96];
    std::snprintf(text, sizeof text,
                  "breakerlab-cli: replaying %3.0f%% (%.1f M events; Ctrl+C stops)", 100 * p.done,
                  static_cast<double>(p.events) / 1e6);
    line_.show(text);
  }
  double done() const { return done_; }

 private:
  StatusLine line_{std::chrono::milliseconds(500)};
  double done_ = 0;
};

}  // namespace

double parseMaxRequests(const std::string& text) {
  if (text.empty()) return kDefaultMaxSimulatedRequests;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value) || value < 1)
    throw UsageError("--max-requests: expected a number of at least 1 (200000000, 2e9), got \"" +
                     clipText(text) + "\"");
  return value;
}

void requireWorkWithin(const Incident& incident, const Config& config, double max_requests,
                       const std::string& incident_file) {
  const std::string problem = workLimitProblem(estimateWork(incident, config), max_requests);
  if (problem.empty()) return;
  throw UsageError(incident_file + ": " + problem + "; raise the limit with --max-requests");
}

Result replayWithProgress(const Incident& incident, const Config& config) {
  const InterruptFlag interrupt;
  ProgressLine line;
  SimulateOptions options;
  options.progress = [&](const ReplayProgress& p) {
    line.update(p);
    return !interrupt.raised();
  };
  try {
    return simulate(incident, config, options);
  } catch (const ReplayCancelled&) {
    char done[16];
    std::snprintf(done, sizeof done, "%.0f%%", 100 * line.done());
    throw ReplayInterrupted(std::string("replay cancelled (Ctrl+C) at ") + done +
                            " of the simulated time; no report");
  }
}

std::vector<Result> replayAll(const std::vector<ReplayJob>& jobs, unsigned threads) {
  const InterruptFlag interrupt;
  std::vector<Result> results(jobs.size());
  std::vector<std::exception_ptr> errors(jobs.size());
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  const auto work = [&] {
    SimulateOptions options;
    options.progress = [&](const ReplayProgress&) {
      return !interrupt.raised() && !failed.load(std::memory_order_relaxed);
    };
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      try {
        results[i] = simulate(*jobs[i].incident, *jobs[i].config, options);
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, jobs.size()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (interrupt.raised()) throw ReplayInterrupted("replay cancelled (Ctrl+C); no report");
  // A replay stopped because another failed is not the error to report.
  for (const std::exception_ptr& e : errors) {
    if (!e) continue;
    try {
      std::rethrow_exception(e);
    } catch (const ReplayCancelled&) {
      continue;
    }
  }
  return results;
}

}  // namespace breakerlab::cli
