#pragma once
// A call log fed through one breaker, streaming: calls go in one at a time in start order,
// decisions come out in log order as soon as they are final, transitions as they happen. Memory
// stays bounded by the calls in flight and the calls a library holds, not by the log's length.
//
// The order at equal times is the contract the differential tests hold the real libraries to:
// library timers first, then completions in the order the calls started (ties in log order),
// then new calls in log order; after every step, anything that came due at or before that
// instant runs before the next new call.
#include <cstdint>
#include <deque>
#include <queue>
#include <vector>

#include "breakerlab/core/breakers/breaker_model.h"

namespace breakerlab {

struct CallDecision {
  std::uint64_t index = 0;  // 0-based position in the log
  bool permitted = false;
  bool held = false;      // the library held the call before deciding (cockatiel)
  Micros decided_at = 0;  // the call's start, or when a held call was run or rejected
};

class CallLogReplay {
 public:
  CallLogReplay(const BreakerConfig& generic, const NativeBreakers& native);

  // The next call of the log; calls must come sorted by start.
  void add(const LoggedCall& call);
  // Runs every call still in flight or held to its end.
  void finish();

  // The next decision in log order, when it is final.
  bool popDecision(CallDecision& out);
  // Moves the transitions reported so far (in time order) into `out`.
  void takeTransitions(std::vector<BreakerTransition>& out);

  const Breaker& breaker() const { return breaker_; }
  std::uint64_t callsAdded() const { return next_index_; }

 private:
  struct Pending {
    Micros at;
    std::uint64_t seq;  // admission order
    std::uint64_t index;
    BreakerPermit permit;
    CallOutcome outcome;
    Micros duration;
    bool operator>(const Pending& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };
  struct Held {
    std::uint64_t index;
    LoggedCall call;
    bool active;
  };
  struct Slot {
    bool ready = false;
    CallDecision decision;
  };

  void advance(Micros until);
  void admit(Micros now, std::uint64_t index, const LoggedCall& call, std::uint32_t token,
             bool held_before);
  void serveReleased(Micros now);
  void decide(std::uint64_t index, bool permitted, bool held, Micros at);
  std::uint32_t holdToken(std::uint64_t index, const LoggedCall& call);

  Breaker breaker_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> in_flight_;
  std::uint64_t next_seq_ = 0;
  std::uint64_t next_index_ = 0;
  std::vector<Held> held_;
  std::vector<std::uint32_t> free_tokens_;
  std::deque<Slot> pending_decisions_;  // front is call `first_undecided_`
  std::uint64_t first_undecided_ = 0;
  Micros last_start_ = kNever;
};

// A whole (sorted) call log through the breaker `generic.library` names, in memory.
BreakerReplay replayCallLog(const BreakerConfig& generic, const NativeBreakers& native,
                            const std::vector<LoggedCall>& calls);

}  // namespace breakerlab
