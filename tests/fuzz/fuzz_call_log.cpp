// Any bytes as a call log, replayed through a cockatiel breaker (the model with held calls).
#include <cstddef>
#include <cstdint>
#include <string>

#include "breakerlab/core/replay/call_log_replay.h"
#include "breakerlab/data/calls_csv.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const std::vector<LoggedCall> calls = parseCallsCsv(text, "calls.csv");
    Config c;
    c.breaker.library = BreakerLibrary::cockatiel;
    c.native.cockatiel.half_open_calls = 2;
    c.native.cockatiel.half_open_after.delay = kSecond;
    CallLogReplay replay(c.breaker, c.native);
    CallDecision d;
    for (const LoggedCall& call : calls) {
      replay.add(call);
      while (replay.popDecision(d)) {
      }
    }
    replay.finish();
  } catch (const LoadError&) {
  }
  return 0;
}
