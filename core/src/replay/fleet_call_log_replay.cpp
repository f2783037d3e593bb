#include "breakerlab/core/replay/fleet_call_log_replay.h"

namespace breakerlab {

FleetCallLogReplay::Pod& FleetCallLogReplay::podOf(std::uint32_t pod) {
  if (pod >= pods_.size()) {
    pods_.resize(pod + 1);
    is_touched_.resize(pod + 1, 0);
  }
  Pod& p = pods_[pod];
  if (p.replay == nullptr) p.replay = std::make_unique<CallLogReplay>(generic_, native_);
  if (!is_touched_[pod]) {
    is_touched_[pod] = 1;
    touched_.push_back(pod);
  }
  return p;
}

void FleetCallLogReplay::add(const LoggedCall& call) {
  Pod& pod = podOf(call.pod);
  slots_.emplace_back();
  pod.log_index.push_back(next_index_++);
  pod.replay->add(call);
  collect(pod);
}

void FleetCallLogReplay::finish() {
  for (std::uint32_t i = 0; i < pods_.size(); ++i) {
    if (pods_[i].replay == nullptr) continue;
    Pod& pod = podOf(i);
    pod.replay->finish();
    collect(pod);
  }
}

void FleetCallLogReplay::collect(Pod& pod) {
  CallDecision d;
  while (pod.replay->popDecision(d)) {
    const std::uint64_t index = pod.log_index.front();
    pod.log_index.pop_front();
    d.index = index;
    Slot& slot = slots_[static_cast<std::size_t>(index - first_undecided_)];
    slot.ready = true;
    slot.decision = d;
  }
}

bool FleetCallLogReplay::popDecision(CallDecision& out) {
  if (slots_.empty() || !slots_.front().ready) return false;
  out = slots_.front().decision;
  slots_.pop_front();
  ++first_undecided_;
  return true;
}

void FleetCallLogReplay::takeTransitions(std::vector<PodTransition>& out) {
  std::vector<BreakerTransition> taken;
  for (const std::uint32_t pod : touched_) {
    is_touched_[pod] = 0;
    taken.clear();
    pods_[pod].replay->takeTransitions(taken);
    for (const BreakerTransition& t : taken) out.push_back({pod, t});
  }
  touched_.clear();
}

}  // namespace breakerlab
