// Client-side adaptive throttling (Google's SRE book, "Handling Overload", "Client-side
// throttling"): the book's formula and its consequences, in the throttle alone and in replays.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "breakerlab/core/replay/simulate.h"
#include "replay/parts/adaptive_throttle.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

TEST(AdaptiveThrottle, TheBooksFormulaAtRequestsAndAccepts) {
  // The check: K = 2, R = 5,000 requests, A = 500 accepts in the window:
  // p = max(0, (R - K·A) / (R + 1)) = 4000 / 5001 ≈ 0.80.
  struct Case {
    std::string name;
    double k;
    int requests, accepts;
    double p;
  };
  const std::vector<Case> cases = {
      {"the issue's check", 2, 5000, 500, 4000.0 / 5001},
      {"every request accepted", 2, 1000, 1000, 0},
      {"half accepted: K = 2 throttles nothing yet", 2, 1000, 500, 0},
      {"just under half accepted", 2, 1000, 499, 2.0 / 1001},
      {"nothing accepted", 2, 99, 0, 99.0 / 100},
      {"nothing at all", 2, 0, 0, 0},
      {"K = 1.1, more aggressive", 1.1, 1000, 500, 450.0 / 1001},
      {"K = 3", 3, 1000, 300, 100.0 / 1001},
  };
  for (const Case& c : cases) {
    AdaptiveThrottle throttle(ClientThrottlingConfig{c.k, 120 * s});
    for (int i = 0; i < c.requests; ++i) throttle.onRequest(5 * s);
    for (int i = 0; i < c.accepts; ++i) throttle.onAccept(5 * s);
    EXPECT_NEAR(throttle.rejectProbability(5 * s), c.p, 1e-12) << c.name;
  }
}

TEST(AdaptiveThrottle, CountsLeaveTheWindowSecondBySecond) {
  // A 3 s window of one-second buckets: what was counted in second 0 leaves at second 3.
  AdaptiveThrottle throttle(ClientThrottlingConfig{2, 3 * s});
  for (int i = 0; i < 100; ++i) throttle.onRequest(0);  // second 0: 100 requests, no accepts
  EXPECT_NEAR(throttle.rejectProbability(500 * ms), 100.0 / 101, 1e-12);
  for (int i = 0; i < 10; ++i) throttle.onAccept(2 * s + 999 * ms);  // second 2: 10 accepts
  EXPECT_NEAR(throttle.rejectProbability(2 * s + 999 * ms), 80.0 / 101, 1e-12);
  // Second 3: second 0's requests are gone, second 2's accepts are not.
  EXPECT_DOUBLE_EQ(throttle.rejectProbability(3 * s), 0);
  throttle.onRequest(3 * s);
  EXPECT_DOUBLE_EQ(throttle.rejectProbability(3 * s), 0);
  // Second 5: the accepts are gone too; one request of second 3 is left.
  EXPECT_NEAR(throttle.rejectProbability(5 * s), 1.0 / 2, 1e-12);
  // Idle for longer than the window: nothing is left.
  EXPECT_DOUBLE_EQ(throttle.rejectProbability(60 * s), 0);
}

// 1,000 checkouts a second, each one attempt, to a dependency that serves 10 calls at a time in
// 100 ms (100 a second) and answers the rest with a 5xx after 1 ms of queueing.
Incident overloaded(Micros length) {
  Incident inc;
  inc.end = length;
  inc.seed = 99;
  inc.traffic.rate = {{0, length, 1000, 1000}};
  inc.traffic.lead_in = 0;
  DependencySegment seg;
  seg.state = "saturated";
  seg.from = 0;
  seg.to = length;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, 100 * ms, 100 * ms};
  inc.dependency.segments = {seg};
  inc.dependency.capacity.concurrency = 10;
  inc.dependency.capacity.queue_timeout = 1 * ms;
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.enabled = false;
  inc.deployed.retry.max_attempts = 1;
  return inc;
}

TEST(AdaptiveThrottle, TheDependencySeesAboutKTimesWhatItAccepts) {
  // The book: with K = 2 the backend sees about twice the requests it accepts, whatever the
  // offered load above that. Unthrottled it sees all 1,000 a second and accepts about 100.
  Incident inc = overloaded(300 * s);
  const Metrics open = simulate(inc, inc.deployed).metrics;
  const double open_accepted =
      static_cast<double>(open.dependency_calls - open.dependency_failures);
  EXPECT_NEAR(static_cast<double>(open.dependency_calls) / 300, 1000, 20);
  EXPECT_NEAR(open_accepted / 300, 100, 5);
  EXPECT_EQ(open.client_throttled, 0u);

  for (double k : {2.0, 3.0}) {
    inc.deployed.client_throttling.k = k;
    const Metrics m = simulate(inc, inc.deployed).metrics;
    const double accepted = static_cast<double>(m.dependency_calls - m.dependency_failures);
    // Offered only about K × 100 a second, the 10 servers are not always all busy (Erlang's loss
    // formula: 20 erlangs on 10 servers carry about 9.3), so a little under 100 are accepted.
    EXPECT_GT(accepted / 300, 85) << k;
    EXPECT_LE(accepted / 300, 100) << k;
    EXPECT_NEAR(static_cast<double>(m.dependency_calls) / accepted, k, 0.1 * k) << k;
    // Every checkout was sent or refused by the client.
    EXPECT_EQ(m.dependency_calls + m.client_throttled, m.checkouts) << k;
  }
}

TEST(AdaptiveThrottle, LittleIsThrottledWhileMoreThanOneInKIsAccepted) {
  // 30% of the calls fail with a 5xx: with 70% accepted, above 1/K = 50%, p = 0 is where the
  // formula settles (a small p gives (R − 1.4 R (1 − p)) / R < 0). Answers in 1 ms, so the
  // accepts keep up with the requests.
  Incident inc = overloaded(60 * s);
  inc.dependency.capacity = {};
  inc.dependency.segments[0].latency_start = {LatencyModel::Kind::fixed, 1 * ms, 1 * ms};
  inc.dependency.segments[0].latency_end = inc.dependency.segments[0].latency_start;
  inc.dependency.segments[0].mix_start.server_error = 0.3;
  inc.dependency.segments[0].mix_end.server_error = 0.3;
  inc.deployed.client_throttling.k = 2;
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_LT(static_cast<double>(m.client_throttled), 0.001 * static_cast<double>(m.checkouts));
}

TEST(AdaptiveThrottle, AColdStartWithSlowAnswersThrottlesForMinutes) {
  // The book's formula has no floor on the request rate: a client that starts at 1,000 requests
  // a second to a dependency answering in 100 ms has made 100 requests and seen no accept when
  // the first answer comes, so p is near 1 at once. Thereafter the share it sends grows only as
  // (requests)^(K·a − 1), a the share accepted (0.7 here: 0.4), so after a minute most requests
  // are still refused though 70% would be accepted. (Envoy's admission_control has
  // rps_threshold and max_rejection_probability against this; the book's throttle has neither.)
  Incident inc = overloaded(60 * s);
  inc.dependency.capacity = {};
  inc.dependency.segments[0].mix_start.server_error = 0.3;
  inc.dependency.segments[0].mix_end.server_error = 0.3;
  inc.deployed.client_throttling.k = 2;
  const Metrics slow = simulate(inc, inc.deployed).metrics;
  EXPECT_GT(slow.client_throttled, slow.checkouts / 2);
  // With answers in 1 ms the same client barely throttles (the test above).
}

TEST(AdaptiveThrottle, ATotalOutageLetsATrickleThrough) {
  // Nothing accepted: the n-th request of the window goes out with probability 1 / n (p = n/(n+1)
  // before it is counted), so over N requests about ln N + 1 reach the dependency.
  Incident inc = overloaded(60 * s);
  inc.dependency.capacity = {};
  inc.dependency.segments[0].mix_start.server_error = 1;
  inc.dependency.segments[0].mix_end.server_error = 1;
  inc.deployed.client_throttling.k = 2;
  const Metrics m = simulate(inc, inc.deployed).metrics;
  const double expected = std::log(static_cast<double>(m.checkouts)) + 1;  // ≈ 12
  EXPECT_LT(static_cast<double>(m.dependency_calls), 3 * expected);
  EXPECT_GE(m.dependency_calls, 1u);
  EXPECT_EQ(m.dependency_calls + m.client_throttled, m.checkouts);
}

TEST(AdaptiveThrottle, ARefusedAttemptIsAFailureTheBreakerAndTheRetriesSee) {
  // Refused by the client, the attempt fails at once as `refused`: a breaker that counts refusals
  // trips on them, and a retry policy that retries them makes more attempts (each throttled or
  // sent in turn).
  Incident inc = overloaded(60 * s);
  inc.dependency.capacity = {};
  inc.dependency.segments[0].mix_start.server_error = 1;
  inc.dependency.segments[0].mix_end.server_error = 1;
  inc.deployed.client_throttling.k = 2;
  inc.deployed.retry.max_attempts = 2;
  inc.deployed.retry.backoff = BackoffKind::none;
  inc.deployed.retry.jitter = Jitter::none;
  const Metrics retried = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(retried.dependency_calls + retried.client_throttled, 2 * retried.checkouts);

  inc.deployed.retry.max_attempts = 1;
  inc.deployed.breaker.enabled = true;
  inc.deployed.breaker.failures = OutcomeSet{CallOutcome::refused};  // only the client's refusals
  const Metrics broken = simulate(inc, inc.deployed).metrics;
  EXPECT_GE(broken.trips, 1u);
  EXPECT_GT(broken.rejected_calls, 0u);
}

}  // namespace
}  // namespace breakerlab
