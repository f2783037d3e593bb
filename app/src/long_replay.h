#pragma once
// The guard rails of `breakerlab-cli replay`: the work estimate checked against --max-requests
// before anything runs, and for what runs, progress on a terminal and Ctrl+C to stop it.
#include <stdexcept>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab::cli {

// The replay stopped on Ctrl+C (SIGINT); main() prints what() and exits kExitInterrupted.
class ReplayInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `--max-requests N`: empty gives kDefaultMaxSimulatedRequests. Throws UsageError on anything
// but a number of at least 1 ("2e9" and "2000000000" alike).
double parseMaxRequests(const std::string& text);

// Throws UsageError("<incident file>: the replay would simulate ... ; raise the limit with
// --max-requests") when the estimate of replaying `incident` with `config` exceeds the limit.
void requireWorkWithin(const Incident& incident, const Config& config, double max_requests,
                       const std::string& incident_file);

// simulate(), with a progress line on stderr when stderr is a terminal and the replay has run for
// more than half a second, and SIGINT (Ctrl+C) stopping it: then throws ReplayInterrupted. A
// second Ctrl+C kills the process as usual.
Result replayWithProgress(const Incident& incident, const Config& config);

// Several replays at once, on up to `threads` threads (the machine's cores when 0), each result
// at its job's index whatever finished first. Ctrl+C stops them all (ReplayInterrupted); an
// exception of a replay is rethrown, the first job's first. No progress line.
struct ReplayJob {
  const Incident* incident = nullptr;
  const Config* config = nullptr;
};
std::vector<Result> replayAll(const std::vector<ReplayJob>& jobs, unsigned threads = 0);

}  // namespace breakerlab::cli
