// `breakerlab-cli breaker`: feed a call log through one breaker, the generic machine or a
// library's own (the check against the real libraries). Streams: a log of any length runs in
// memory bounded by the calls in flight.
#include <deque>
#include <iostream>
#include <ostream>

#include "breakerlab/core/replay/fleet_call_log_replay.h"
#include "breakerlab/data/breaker_report.h"
#include "breakerlab/data/calls_csv.h"
#include "breakerlab/data/config_file.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/native_config.h"
#include "commands.h"

namespace breakerlab::cli {

std::optional<BreakerLibrary> libraryOption(const std::string& library_name) {
  if (library_name.empty()) return std::nullopt;
  const auto library = breakerLibraryFromString(library_name);
  if (!library) {
    std::string names;
    for (const auto& info : kBreakerLibraries)
      names += (names.empty() ? "" : ", ") + std::string(info.key);
    throw UsageError("--library: expected one of " + names + ", got \"" + clipText(library_name) +
                     "\"");
  }
  return library;
}

void printImportNotes(const ConfigFile& file) {
  for (const ImportNote& note : file.native.notes)
    std::cerr << "breakerlab-cli: note: " << formatNote(file.file, note) << '\n';
}

Config loadPolicy(const std::string& policy, const std::string& library_name) {
  const std::optional<BreakerLibrary> library = libraryOption(library_name);
  const ConfigFile file = loadConfigFile(policy, library);
  if (file.breakerlab_format) {
    Config c = parseConfig(file.text, policy);
    if (library) c.breaker.library = *library;
    return c;
  }
  if (!file.native.has_breaker)
    throw LoadError(policy, 0, 0,
                    "resilience4j: no circuitbreaker section (resilience4j.circuitbreaker): a "
                    "policy is a breaker, and this file holds only a time limiter or retry");
  printImportNotes(file);
  if (!file.native.calls.empty())
    std::cerr << "breakerlab-cli: note: " << policy
              << ": the time limiter and retry are not taken by --policy, which replays the "
                 "breaker alone (breakerlab-cli gate lays the whole file over an incident)\n";
  Config c;
  applyNativeConfig(file.native, c);
  return c;
}

int runBreaker(const BreakerOptions& options, std::ostream& out) {
  const Config policy = loadPolicy(options.policy, options.library);
  CallLogReader calls(options.calls);
  // One breaker per pod the log names (one for a log without the pod column).
  FleetCallLogReplay replay(policy.breaker, policy.native);
  BreakerReportWriter report(
      out, options.json ? BreakerReportWriter::Style::json : BreakerReportWriter::Style::text,
      policy.breaker.library);

  // Calls waiting for their decision (a library that holds calls decides them later).
  std::deque<LoggedCall> undecided;
  std::vector<PodTransition> transitions;
  CallDecision decision;
  auto drain = [&] {
    replay.takeTransitions(transitions);
    for (const PodTransition& t : transitions) report.transition(t.transition, t.pod);
    transitions.clear();
    while (replay.popDecision(decision)) {
      report.call(undecided.front(), decision);
      undecided.pop_front();
    }
  };
  LoggedCall call;
  while (calls.next(call)) {
    if (replay.callsAdded() == 0) report.showPods(calls.hasPods());
    undecided.push_back(call);
    replay.add(call);
    drain();
  }
  replay.finish();
  drain();
  report.finish();
  return kExitOk;
}

}  // namespace breakerlab::cli
