// `breakerlab-cli breaker`: feed a call log through one breaker, the generic machine or a
// library's own (the check against the real libraries). Streams: a log of any length runs in
// memory bounded by the calls in flight.
#include <deque>
#include <iostream>
#include <ostream>

#include "breakerlab/core/call_log_replay.h"
#include "breakerlab/data/breaker_report.h"
#include "breakerlab/data/calls_csv.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/native_config.h"
#include "commands.h"

namespace breakerlab::cli {

Config loadPolicy(const std::string& policy, const std::string& library_name) {
  std::optional<BreakerLibrary> library;
  if (!library_name.empty()) {
    library = breakerLibraryFromString(library_name);
    if (!library) {
      std::string names;
      for (const auto& info : kBreakerLibraries)
        names += (names.empty() ? "" : ", ") + std::string(info.key);
      throw UsageError("--library: expected one of " + names + ", got \"" + clipText(library_name) +
                       "\"");
    }
  }
  const std::string text = readTextFile(policy);
  // A breakerlab-config/1 file may choose a library and hold its settings itself.
  if (text.find(kConfigFormat) != std::string::npos || library == BreakerLibrary::breakerlab) {
    Config c = parseConfig(text, policy);
    if (library) c.breaker.library = *library;
    return c;
  }
  const NativeConfig imported = parseNativeConfig(text, policy, library);
  for (const ImportNote& note : imported.notes)
    std::cerr << "breakerlab-cli: note: " << formatNote(policy, note) << '\n';
  Config c;
  applyNativeConfig(imported, c);
  return c;
}

int runBreaker(const BreakerOptions& options, std::ostream& out) {
  const Config policy = loadPolicy(options.policy, options.library);
  CallLogReader calls(options.calls);
  CallLogReplay replay(policy.breaker, policy.native);
  BreakerReportWriter report(
      out, options.json ? BreakerReportWriter::Style::json : BreakerReportWriter::Style::text,
      policy.breaker.library);

  // Calls waiting for their decision (a library that holds calls decides them later).
  std::deque<LoggedCall> undecided;
  std::vector<BreakerTransition> transitions;
  CallDecision decision;
  auto drain = [&] {
    replay.takeTransitions(transitions);
    for (const BreakerTransition& t : transitions) report.transition(t);
    transitions.clear();
    while (replay.popDecision(decision)) {
      report.call(undecided.front(), decision);
      undecided.pop_front();
    }
  };
  LoggedCall call;
  while (calls.next(call)) {
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
