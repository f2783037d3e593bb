#pragma once
// A call log fed through one breaker per client pod, streaming (CallLogReplay for each pod):
// a call goes to the breaker of its pod (LoggedCall::pod), which sees no other pod's calls, as
// every library keeps its breaker in its process. Every pod's breaker is made at the log's zero
// (the fleet was up when the log began) the first time the log names the pod. Decisions come
// out in log order; transitions with their pod.
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "breakerlab/core/replay/call_log_replay.h"

namespace breakerlab {

struct PodTransition {
  std::uint32_t pod = 0;
  BreakerTransition transition;
};

class FleetCallLogReplay {
 public:
  FleetCallLogReplay(const BreakerConfig& generic, const NativeBreakers& native)
      : generic_(generic), native_(native) {}

  // The next call of the log (sorted by start, whatever its pod).
  void add(const LoggedCall& call);
  // Runs every pod's calls in flight or held to their end.
  void finish();

  // The next decision in log order, when it is final (its index is the call's in the log).
  bool popDecision(CallDecision& out);
  // Moves the transitions reported so far into `out`: each pod's in time order, pod by pod.
  void takeTransitions(std::vector<PodTransition>& out);

  std::size_t pods() const { return pods_.size(); }
  std::uint64_t callsAdded() const { return next_index_; }

 private:
  struct Pod {
    std::unique_ptr<CallLogReplay> replay;
    std::deque<std::uint64_t> log_index;  // the log's index of each of its undecided calls
  };
  struct Slot {
    bool ready = false;
    CallDecision decision;
  };

  Pod& podOf(std::uint32_t pod);
  // The pod's final decisions into their slots in log order.
  void collect(Pod& pod);

  BreakerConfig generic_;
  NativeBreakers native_;
  std::vector<Pod> pods_;
  std::vector<std::uint32_t> touched_;  // pods with transitions not yet taken
  std::vector<std::uint8_t> is_touched_;
  std::deque<Slot> slots_;  // front is call `first_undecided_`
  std::uint64_t first_undecided_ = 0;
  std::uint64_t next_index_ = 0;
};

}  // namespace breakerlab
