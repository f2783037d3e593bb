#include <queue>

#include "breakerlab/core/breaker.h"

namespace breakerlab {

BreakerReplay replayBreaker(const BreakerConfig& config, const std::vector<LoggedCall>& calls) {
  // The breaker-only check has no health signal, so an early probe never fires here.
  CircuitBreaker breaker(config, nullptr);
  BreakerReplay out;
  out.permitted.reserve(calls.size());

  struct Pending {
    Micros at;
    std::size_t index;
    CircuitBreaker::Permit permit;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : index > o.index; }
  };
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> pending;

  auto drain = [&](Micros until) {
    for (;;) {
      const Micros completion = pending.empty() ? kNever : pending.top().at;
      const Micros timer = breaker.nextTimer();
      if (completion <= timer) {
        if (completion > until || completion == kNever) return;
        const Pending p = pending.top();
        pending.pop();
        breaker.record(p.at, p.permit, calls[p.index].outcome, calls[p.index].duration);
      } else {
        if (timer > until) return;
        breaker.fireTimer();
      }
    }
  };

  for (std::size_t i = 0; i < calls.size(); ++i) {
    drain(calls[i].start);
    const auto permit = breaker.acquire(calls[i].start);
    out.permitted.push_back(permit.permitted);
    if (permit.permitted) pending.push({calls[i].start + calls[i].duration, i, permit});
  }
  drain(kNever - 1);
  out.transitions = breaker.transitions();
  return out;
}

}  // namespace breakerlab
