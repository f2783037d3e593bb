// The breaker state machine against the rules of docs/model.md ("Breaker semantics"), driven
// through call logs.
#include <gtest/gtest.h>

#include "breakerlab/core/breakers/breaker.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

LoggedCall call(Micros start, CallOutcome outcome, Micros duration = 10 * ms) {
  return {start, duration, outcome};
}

// Closed -> open transitions. (A replay also reports the open -> half-open move that the open
// interval makes after the last logged call.)
std::size_t trips(const BreakerReplay& replay) {
  return static_cast<std::size_t>(
      std::count_if(replay.transitions.begin(), replay.transitions.end(),
                    [](const BreakerTransition& t) { return t.from == BreakerState::closed; }));
}

BreakerConfig countWindow(std::uint32_t size, double rate) {
  BreakerConfig c;
  c.window_type = WindowType::count;
  c.window_size = size;
  c.min_calls = size;
  c.failure_rate_pct = rate;
  c.open_interval = 10 * s;
  c.backoff_max = 10 * s;
  c.probes = 1;
  c.probe_spacing = 0;
  return c;
}

TEST(Breaker, CountWindowTripsAtThresholdNotBefore) {
  // 20-call window at 50%: 9 failures in 20 stays closed, the 10th trips.
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 11; ++i) calls.push_back(call(i * 100 * ms, CallOutcome::success));
  for (int i = 11; i < 20; ++i) calls.push_back(call(i * 100 * ms, CallOutcome::timeout));
  auto replay = replayBreaker(countWindow(20, 50), calls);
  EXPECT_TRUE(replay.transitions.empty());

  calls.push_back(call(2000 * ms, CallOutcome::timeout));  // 10 of the last 20
  replay = replayBreaker(countWindow(20, 50), calls);
  ASSERT_EQ(trips(replay), 1u);
  EXPECT_EQ(replay.transitions[0].to, BreakerState::open);
  EXPECT_EQ(replay.transitions[0].at, 2010 * ms);  // recorded on completion
  EXPECT_EQ(replay.transitions[0].window_failures, 10u);
  EXPECT_EQ(replay.transitions[0].window_calls, 20u);
}

TEST(Breaker, MinCallsHoldsTheRateBack) {
  BreakerConfig c = countWindow(20, 50);
  c.min_calls = 5;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 4; ++i) calls.push_back(call(i * s, CallOutcome::refused));
  EXPECT_TRUE(replayBreaker(c, calls).transitions.empty()) << "4 calls < min_calls 5";
  calls.push_back(call(4 * s, CallOutcome::refused));
  EXPECT_EQ(trips(replayBreaker(c, calls)), 1u);
}

TEST(Breaker, ClientErrorsNeverCountByDefault) {
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 1000; ++i) calls.push_back(call(i * 10 * ms, CallOutcome::client_error));
  const auto replay = replayBreaker(countWindow(20, 50), calls);
  EXPECT_TRUE(replay.transitions.empty());
  EXPECT_EQ(std::count(replay.permitted.begin(), replay.permitted.end(), true), 1000);
}

TEST(Breaker, OpenRejectsThenHalfOpenAfterInterval) {
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 20; ++i) calls.push_back(call(i * 10 * ms, CallOutcome::refused));
  calls.push_back(call(5 * s, CallOutcome::success));   // open: rejected
  calls.push_back(call(12 * s, CallOutcome::success));  // half-open probe: closes
  calls.push_back(call(13 * s, CallOutcome::refused));  // closed again
  BreakerConfig c = countWindow(20, 50);
  c.min_calls = 20;
  const auto replay = replayBreaker(c, calls);
  EXPECT_FALSE(replay.permitted[20]);
  EXPECT_TRUE(replay.permitted[21]);
  EXPECT_TRUE(replay.permitted[22]);
  ASSERT_EQ(replay.transitions.size(), 3u);
  const Micros opened = replay.transitions[0].at;
  EXPECT_EQ(replay.transitions[1].to, BreakerState::half_open);
  EXPECT_EQ(replay.transitions[1].at, opened + 10 * s);
  EXPECT_EQ(replay.transitions[2].to, BreakerState::closed);
}

TEST(Breaker, ConsecutiveWindowResetsOnSuccess) {
  BreakerConfig c;
  c.window_type = WindowType::consecutive;
  c.consecutive_failures = 5;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 4; ++i) calls.push_back(call(i * s, CallOutcome::server_error));
  calls.push_back(call(4 * s, CallOutcome::success));
  for (int i = 5; i < 9; ++i) calls.push_back(call(i * s, CallOutcome::server_error));
  EXPECT_TRUE(replayBreaker(c, calls).transitions.empty());
  calls.push_back(call(9 * s, CallOutcome::server_error));
  const auto replay = replayBreaker(c, calls);
  ASSERT_EQ(trips(replay), 1u);
  EXPECT_EQ(replay.transitions[0].cause, BreakerTransition::Cause::consecutive);
  EXPECT_EQ(replay.transitions[0].episode_start, 5 * s);
}

TEST(Breaker, TimeWindowForgetsOldSeconds) {
  BreakerConfig c;
  c.window_type = WindowType::time;
  c.window_size = 10;  // seconds
  c.min_calls = 10;
  c.failure_rate_pct = 50;
  // 6 failures at t=0..0.5, then 10 successes from t=11: the failures have left the window.
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 6; ++i) calls.push_back(call(i * 100 * ms, CallOutcome::timeout));
  for (int i = 0; i < 10; ++i) calls.push_back(call(11 * s + i * 10 * ms, CallOutcome::success));
  for (int i = 0; i < 6; ++i) calls.push_back(call(12 * s + i * 10 * ms, CallOutcome::timeout));
  EXPECT_TRUE(replayBreaker(c, calls).transitions.empty()) << "6 of 16 in the last 10 s";
  // Within one window instead: 6 failures of 10 calls trips.
  std::vector<LoggedCall> dense;
  for (int i = 0; i < 4; ++i) dense.push_back(call(i * s, CallOutcome::success));
  for (int i = 4; i < 10; ++i) dense.push_back(call(i * s, CallOutcome::timeout));
  const auto replay = replayBreaker(c, dense);
  ASSERT_EQ(trips(replay), 1u);
  EXPECT_EQ(replay.transitions[0].window_calls, 10u);
}

TEST(Breaker, SlowCallRateTrips) {
  BreakerConfig c = countWindow(10, 50);
  c.slow_call_duration = 500 * ms;
  c.slow_call_rate_pct = 80;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 10; ++i)
    calls.push_back(call(i * s, CallOutcome::success, i < 2 ? 10 * ms : 600 * ms));
  const auto replay = replayBreaker(c, calls);
  ASSERT_EQ(trips(replay), 1u);
  EXPECT_EQ(replay.transitions[0].cause, BreakerTransition::Cause::slow_call_rate);
  // Exactly at the threshold duration is not slow (strictly greater).
  for (auto& lc : calls) lc.duration = 500 * ms;
  EXPECT_TRUE(replayBreaker(c, calls).transitions.empty());
}

TEST(Breaker, ProbesSpacedAndJudgedTogether) {
  // The 8 Sep rule: 3 probes 1 s apart, all must succeed; a failing first probe is judged at
  // the end, not at once.
  BreakerConfig c = countWindow(4, 50);
  c.probes = 3;
  c.probe_spacing = s;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 4; ++i) calls.push_back(call(i * 10 * ms, CallOutcome::refused));
  // Open from 0.04 s (the 4th completion), half-open at 10.04 s.
  for (int i = 0; i < 40; ++i)
    calls.push_back(call(10 * s + i * 100 * ms, CallOutcome::refused, ms));
  const auto replay = replayBreaker(c, calls);
  std::vector<std::size_t> admitted;
  for (std::size_t i = 4; i < calls.size(); ++i)
    if (replay.permitted[i]) admitted.push_back(i);
  ASSERT_EQ(admitted.size(), 3u);
  EXPECT_EQ(calls[admitted[0]].start, 10100 * ms);  // first call at or after 10.04 s
  EXPECT_EQ(calls[admitted[1]].start, 11100 * ms);  // spaced 1 s from the half-open start
  EXPECT_EQ(calls[admitted[2]].start, 12100 * ms);
  ASSERT_EQ(replay.transitions.size(), 4u) << "trip, half-open, reopen, half-open after the log";
  EXPECT_EQ(replay.transitions[2].from, BreakerState::half_open);
  EXPECT_EQ(replay.transitions[2].to, BreakerState::open);
  EXPECT_EQ(replay.transitions[2].at, 12101 * ms) << "decided after the third probe";

  c.reopen_on_first_failure = true;
  const auto eager = replayBreaker(c, calls);
  EXPECT_EQ(eager.transitions[2].at, 10101 * ms) << "decided on the first failure";
}

TEST(Breaker, RateRuleClosesWhenProbeFailuresAreUnderThreshold) {
  BreakerConfig c = countWindow(4, 50);
  c.probes = 4;
  c.close_when = CloseRule::rate;
  std::vector<LoggedCall> calls;
  for (int i = 0; i < 4; ++i) calls.push_back(call(i * 10 * ms, CallOutcome::refused));
  calls.push_back(call(11 * s, CallOutcome::refused));
  for (int i = 1; i < 4; ++i) calls.push_back(call(11 * s + i * 10 * ms, CallOutcome::success));
  auto replay = replayBreaker(c, calls);
  ASSERT_EQ(replay.transitions.size(), 3u);
  EXPECT_EQ(replay.transitions[2].to, BreakerState::closed) << "1 of 4 failed: 25% < 50%";
  c.close_when = CloseRule::all_succeed;
  replay = replayBreaker(c, calls);
  EXPECT_EQ(replay.transitions[2].to, BreakerState::open);
}

TEST(Breaker, BackoffGrowsOpenIntervalUpToItsCap) {
  BreakerConfig c = countWindow(1, 100);
  c.open_interval = 2 * s;
  c.backoff_multiplier = 2.0;
  c.backoff_max = 5 * s;
  std::vector<LoggedCall> calls{call(0, CallOutcome::refused, 0)};
  // Probe at each half-open instant, all failing: intervals 2, 4, 5 (cap), 5.
  Micros t = 0;
  for (Micros interval : {2 * s, 4 * s, 5 * s, 5 * s}) {
    t += interval;
    calls.push_back(call(t, CallOutcome::refused, 0));
  }
  const auto replay = replayBreaker(c, calls);
  std::vector<Micros> open_lengths;
  Micros opened = 0;
  for (const auto& tr : replay.transitions) {
    if (tr.to == BreakerState::open) opened = tr.at;
    if (tr.to == BreakerState::half_open) open_lengths.push_back(tr.at - opened);
  }
  ASSERT_GE(open_lengths.size(), 4u);
  open_lengths.resize(4);
  EXPECT_EQ(open_lengths, (std::vector<Micros>{2 * s, 4 * s, 5 * s, 5 * s}));
}

TEST(Breaker, LateResultsFromAnOlderStateAreIgnored) {
  // A slow call admitted while closed completes after the breaker reopened and went
  // half-open; it must not count as a probe.
  BreakerConfig c = countWindow(2, 50);
  c.probes = 1;
  std::vector<LoggedCall> calls{call(0, CallOutcome::success, 30 * s),
                                call(1 * s, CallOutcome::refused, 0),
                                call(2 * s, CallOutcome::refused, 0)};
  // Tripped at 2 s, half-open at 12 s; the probe hangs until 32.5 s and then fails, while the
  // closed-state call succeeds at 30 s in between.
  calls.push_back(call(12 * s + 500 * ms, CallOutcome::refused, 20 * s));
  const auto replay = replayBreaker(c, calls);
  ASSERT_EQ(replay.transitions.size(), 4u);
  EXPECT_EQ(replay.transitions[1].to, BreakerState::half_open);
  EXPECT_EQ(replay.transitions[2].to, BreakerState::open) << "the stale success did not close it";
  EXPECT_EQ(replay.transitions[2].at, 32500 * ms);
}

class FakeHealth : public HealthSignal {
 public:
  explicit FakeHealth(Micros green_from) : green_from_(green_from) {}
  bool greenAt(Micros t) const override { return t >= green_from_; }

 private:
  Micros green_from_;
};

TEST(Breaker, EarlyProbeGoesHalfOpenOnFirstGreenPollButNeverAfterTheCap) {
  BreakerConfig c = countWindow(1, 100);
  c.open_interval = 20 * s;
  c.early_probe = true;
  c.early_probe_poll = 2 * s;
  FakeHealth health(7 * s);
  CircuitBreaker breaker(c, &health);
  const auto permit = breaker.acquire(0);
  breaker.record(0, permit, CallOutcome::refused, 0);
  ASSERT_EQ(breaker.state(), BreakerState::open);
  EXPECT_EQ(breaker.nextTimer(), 2 * s);
  while (breaker.state() == BreakerState::open) breaker.fireTimer();
  EXPECT_EQ(breaker.transitions().back().at, 8 * s) << "polls at 2, 4, 6 red; 8 green";
  EXPECT_EQ(breaker.transitions().back().cause, BreakerTransition::Cause::health_green);

  FakeHealth never(kNever);
  CircuitBreaker capped(c, &never);
  capped.record(0, capped.acquire(0), CallOutcome::refused, 0);
  while (capped.state() == BreakerState::open) capped.fireTimer();
  EXPECT_EQ(capped.transitions().back().at, 20 * s);
  EXPECT_EQ(capped.transitions().back().cause, BreakerTransition::Cause::interval_elapsed);
}

}  // namespace
}  // namespace breakerlab
