#include "breakerlab/core/replay/call_log_replay.h"

namespace breakerlab {

BreakerReplay replayBreaker(const BreakerConfig& config, const std::vector<LoggedCall>& calls) {
  return replayCallLog(config, NativeBreakers{}, calls);
}

BreakerReplay replayCallLog(const BreakerConfig& generic, const NativeBreakers& native,
                            const std::vector<LoggedCall>& calls) {
  CallLogReplay replay(generic, native);
  BreakerReplay out;
  out.permitted.reserve(calls.size());
  CallDecision d;
  for (const LoggedCall& call : calls) {
    replay.add(call);
    while (replay.popDecision(d)) out.permitted.push_back(d.permitted);
  }
  replay.finish();
  while (replay.popDecision(d)) out.permitted.push_back(d.permitted);
  replay.takeTransitions(out.transitions);
  return out;
}

}  // namespace breakerlab
