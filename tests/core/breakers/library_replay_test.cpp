// Library models over call logs, at the edges the case tables and the differential runs do not
// reach: windows emptied across long idle gaps (which the replay skips in one step), opossum's
// semaphore rejection through errorFilter, resilience4j's backoff at a fixed point.
#include <gtest/gtest.h>

#include <vector>

#include "breakerlab/core/replay/call_log_replay.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

BreakerConfig opossumBreaker() {
  BreakerConfig b;
  b.library = BreakerLibrary::opossum;
  return b;
}

LoggedCall loggedCall(Micros start, Micros duration, CallOutcome outcome) {
  LoggedCall c;
  c.start = start;
  c.duration = duration;
  c.outcome = outcome;
  return c;
}

// lib/status.js: a bucket leaves the window at its bucket-count-th rotation, on the timer; a
// call at the same instant comes after the rotation.
TEST(LibraryReplay, OpossumForgetsABucketAtExactlyItsLastRotationAfterAnIdleGap) {
  NativeBreakers n;
  n.opossum.volume_threshold = 3;
  n.opossum.error_threshold_percentage = 50;
  n.opossum.rolling_count_timeout = 10 * s;
  n.opossum.rolling_count_buckets = 10;
  n.opossum.timeout = 0;
  for (const auto& [third, trips] : {std::pair{9999 * ms, true}, std::pair{10 * s, false}}) {
    const BreakerReplay r = replayCallLog(
        opossumBreaker(), n,
        {loggedCall(0, 0, CallOutcome::refused), loggedCall(1 * ms, 0, CallOutcome::refused),
         loggedCall(third, 0, CallOutcome::refused)});
    EXPECT_EQ(!r.transitions.empty(), trips) << third;
    if (trips) {
      EXPECT_EQ(r.transitions[0].at, third);
    }
  }
}

TEST(LibraryReplay, OpossumIdleForDaysWithOneMillisecondBucketsStaysEmpty) {
  NativeBreakers n;
  n.opossum.volume_threshold = 2;
  n.opossum.rolling_count_timeout = 10 * ms;
  n.opossum.rolling_count_buckets = 10;  // 1 ms buckets: ~10^9 rotations between the calls
  n.opossum.timeout = 0;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 20; ++i)
    calls.push_back(loggedCall(i * 10 * 86'400 * s, 0, CallOutcome::refused));
  const BreakerReplay r = replayCallLog(opossumBreaker(), n, calls);
  EXPECT_EQ(r.permitted, std::vector<bool>(20, true));
  EXPECT_TRUE(r.transitions.empty());
  // Two failures inside one bucket still trip it, after the same gap.
  calls.push_back(loggedCall(calls.back().start + 10 * 86'400 * s, 0, CallOutcome::refused));
  calls.push_back(loggedCall(calls.back().start, 0, CallOutcome::refused));
  const BreakerReplay again = replayCallLog(opossumBreaker(), n, calls);
  ASSERT_FALSE(again.transitions.empty());
  EXPECT_EQ(again.transitions[0].to, BreakerState::open);
  EXPECT_EQ(again.transitions[0].at, calls.back().start);
}

// lib/circuit.js: the semaphore's ESEMLOCKED goes through handleError, so errorFilter (the
// classification of pool_exhausted) decides whether it is a failure.
TEST(LibraryReplay, OpossumSemaphoreRejectionIsAFailureUnlessFiltered) {
  NativeBreakers n;
  n.opossum.capacity = 1;
  n.opossum.error_threshold_percentage = 40;
  n.opossum.timeout = 0;
  const std::vector<LoggedCall> calls = {loggedCall(0, 100 * ms, CallOutcome::success),
                                         loggedCall(10 * ms, 5 * ms, CallOutcome::success)};
  const BreakerReplay counted = replayCallLog(opossumBreaker(), n, calls);
  EXPECT_EQ(counted.permitted, (std::vector<bool>{true, false}));
  ASSERT_FALSE(counted.transitions.empty());  // 1 failure in 2 fires: 50% > 40%
  EXPECT_EQ(counted.transitions[0].to, BreakerState::open);
  EXPECT_EQ(counted.transitions[0].at, 10 * ms);

  n.opossum.classification.failures = {CallOutcome::timeout, CallOutcome::refused,
                                       CallOutcome::server_error, CallOutcome::failure};
  const BreakerReplay filtered = replayCallLog(opossumBreaker(), n, calls);
  EXPECT_EQ(filtered.permitted, (std::vector<bool>{true, false}));
  EXPECT_TRUE(filtered.transitions.empty());
}

// IntervalFunction.ofExponentialBackoff truncates every step to whole milliseconds: a multiplier
// below 1 reaches 0 and stays; one that rounds back (1 ms x 1.5 = 1) never grows.
TEST(LibraryReplay, Resilience4jBackoffStopsAtItsFixedPoint) {
  Resilience4jSettings r;
  r.enable_exponential_backoff = true;
  r.wait_duration_in_open_state = 1000 * ms;
  r.exponential_backoff_multiplier = 0.5;
  EXPECT_EQ(r.waitInterval(1), 1000 * ms);
  EXPECT_EQ(r.waitInterval(3), 250 * ms);
  EXPECT_EQ(r.waitInterval(6), 31 * ms);
  EXPECT_EQ(r.waitInterval(4'000'000'000u), 0);
  r.wait_duration_in_open_state = 1 * ms;
  r.exponential_backoff_multiplier = 1.5;
  EXPECT_EQ(r.waitInterval(4'000'000'000u), 1 * ms);
  r.wait_duration_in_open_state = 2 * ms;
  EXPECT_EQ(r.waitInterval(3), 4 * ms);  // 2, 3, 4
}

}  // namespace
}  // namespace breakerlab
