#include "breakerlab/core/replay/call_log_replay.h"

#include <algorithm>

namespace breakerlab {

CallLogReplay::CallLogReplay(const BreakerConfig& generic, const NativeBreakers& native)
    // The breaker-only replay has no health signal: the early probe never fires here.
    : breaker_(generic, native, nullptr, 0) {}

void CallLogReplay::advance(Micros until) {
  for (;;) {
    const Micros timer = breaker_.nextTimer();
    const Micros completion = in_flight_.empty() ? kNever : in_flight_.top().at;
    if (timer <= completion) {
      if (timer > until || timer == kNever) return;
      // Timers come before a completion at the same time.
      if (breaker_.skipIdleTimers(std::min(until, completion))) continue;
      breaker_.fireTimer();
      serveReleased(timer);
    } else {
      if (completion > until) return;
      const Pending p = in_flight_.top();
      in_flight_.pop();
      breaker_.record(p.at, p.permit, p.outcome, p.duration);
      serveReleased(p.at);
    }
  }
}

void CallLogReplay::add(const LoggedCall& call) {
  advance(call.start);
  const std::uint64_t index = next_index_++;
  pending_decisions_.emplace_back();
  admit(call.start, index, call, 0, false);
  last_start_ = call.start;
}

void CallLogReplay::admit(Micros now, std::uint64_t index, const LoggedCall& call,
                          std::uint32_t token, bool held_before) {
  if (!held_before && breaker_.holdsCalls()) token = holdToken(index, call);
  const BreakerPermit permit = breaker_.acquire(now, token);
  if (permit.waiting) return;  // decided when the library releases it
  if (breaker_.holdsCalls()) {
    held_[token].active = false;
    free_tokens_.push_back(token);
  }
  decide(index, permit.permitted, held_before, now);
  if (permit.permitted && call.outcome != CallOutcome::refused) breaker_.connected(now, permit);
  if (permit.permitted)
    in_flight_.push({now + call.duration, next_seq_++, index, permit, call.outcome, call.duration});
}

std::uint32_t CallLogReplay::holdToken(std::uint64_t index, const LoggedCall& call) {
  if (!free_tokens_.empty()) {
    const std::uint32_t t = free_tokens_.back();
    free_tokens_.pop_back();
    held_[t] = {index, call, true};
    return t;
  }
  held_.push_back({index, call, true});
  return static_cast<std::uint32_t>(held_.size() - 1);
}

void CallLogReplay::serveReleased(Micros now) {
  std::vector<std::uint32_t>& released = breaker_.released();
  if (released.empty()) return;
  // Asking again may hold some calls anew; those go to a fresh list.
  const std::vector<std::uint32_t> tokens = std::move(released);
  released.clear();
  for (const std::uint32_t token : tokens) {
    const Held h = held_[token];
    admit(now, h.index, h.call, token, true);
  }
}

void CallLogReplay::decide(std::uint64_t index, bool permitted, bool held, Micros at) {
  Slot& slot = pending_decisions_[static_cast<std::size_t>(index - first_undecided_)];
  slot.ready = true;
  slot.decision = {index, permitted, held, at};
}

void CallLogReplay::finish() {
  // Timers matter only while calls are in flight: a library's own clocks (opossum's bucket
  // rotation) would otherwise run for ever.
  while (!in_flight_.empty()) advance(in_flight_.top().at);
  // Then up to the next timer that changes the state, if there is one (a timer-driven
  // half-open after the log's last call).
  if (const Micros t = breaker_.nextStateTimer(); t != kNever) advance(t);
  // A call still held has no trial left to decide it; the library would hold it for ever.
  for (Held& h : held_) {
    if (h.active) decide(h.index, false, true, kNever);
    h.active = false;
  }
}

bool CallLogReplay::popDecision(CallDecision& out) {
  if (pending_decisions_.empty() || !pending_decisions_.front().ready) return false;
  out = pending_decisions_.front().decision;
  pending_decisions_.pop_front();
  ++first_undecided_;
  return true;
}

void CallLogReplay::takeTransitions(std::vector<BreakerTransition>& out) {
  const auto& all = breaker_.transitions();
  out.insert(out.end(), all.begin(), all.end());
  breaker_.forgetTransitions();
}

}  // namespace breakerlab
