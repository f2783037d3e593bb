// `breakerlab-cli breaker`: feed a call log through one breaker (the check against other
// implementations of the same policy).
#include <ostream>

#include "breakerlab/core/breaker.h"
#include "breakerlab/data/calls_csv.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/report_json.h"
#include "breakerlab/data/values.h"
#include "commands.h"

namespace breakerlab::cli {

namespace {
void printTransition(std::ostream& out, const BreakerTransition& t) {
  out << formatSeconds(t.at) << ' ' << toString(t.from) << " -> " << toString(t.to) << " ("
      << toString(t.cause) << ")\n";
}
}  // namespace

int runBreaker(const BreakerOptions& options, std::ostream& out) {
  const Config policy = loadConfig(options.policy);
  const std::vector<LoggedCall> calls = loadCallsCsv(options.calls);
  const BreakerReplay replay = replayBreaker(policy.breaker, calls);
  if (options.json) {
    out << breakerReplayToJson(calls, replay).dump(2) << '\n';
    return kExitOk;
  }
  // In time order: a transition at or before a call's start happened before its admission.
  std::size_t next = 0;
  std::size_t rejected = 0;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    while (next < replay.transitions.size() && replay.transitions[next].at <= calls[i].start)
      printTransition(out, replay.transitions[next++]);
    const bool permitted = i < replay.permitted.size() && replay.permitted[i];
    rejected += permitted ? 0 : 1;
    out << i << ' ' << formatSeconds(calls[i].start) << ' '
        << (permitted ? "permitted" : "rejected") << '\n';
  }
  while (next < replay.transitions.size()) printTransition(out, replay.transitions[next++]);
  out << "# " << calls.size() << " calls, " << calls.size() - rejected << " permitted, " << rejected
      << " rejected, " << replay.transitions.size() << " transitions\n";
  return kExitOk;
}

}  // namespace breakerlab::cli
