// Retries in the request: the published arithmetic, backoff shapes, deadlines, placement.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "breakerlab/core/replay/simulate.h"
#include "replay/parts/retry_governor.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

// A dependency that fails each attempt independently with probability p (5xx), fixed 10 ms.
Incident iidFailures(double p, double rps = 2000, Micros length = 100 * s) {
  Incident inc;
  inc.end = length;
  inc.seed = 4242;
  inc.traffic.rate = {{0, length, rps, rps}};
  inc.traffic.lead_in = 0;
  DependencySegment seg;
  seg.state = "flaky";
  seg.from = 0;
  seg.to = length;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, 10 * ms, 10 * ms};
  seg.mix_start.server_error = seg.mix_end.server_error = p;
  inc.dependency.segments = {seg};
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.enabled = false;
  inc.deployed.retry.max_attempts = 4;
  inc.deployed.retry.backoff = BackoffKind::none;
  inc.deployed.retry.jitter = Jitter::none;
  return inc;
}

TEST(Retries, AttemptsAndSuccessMatchTheGeometricSeries) {
  // With i.i.d. failure p and 3 retries: attempts per request 1+p+p²+p³, success 1-p⁴.
  for (double p : {0.1, 0.3, 0.5}) {
    const Incident inc = iidFailures(p);
    const Metrics m = simulate(inc, inc.deployed).metrics;
    const double attempts =
        static_cast<double>(m.dependency_calls) / static_cast<double>(m.checkouts);
    const double success =
        static_cast<double>(m.fresh_checkouts) / static_cast<double>(m.checkouts);
    EXPECT_NEAR(attempts, 1 + p + p * p + p * p * p, 0.01 * (1 + p + p * p + p * p * p)) << p;
    EXPECT_NEAR(success, 1 - std::pow(p, 4), 0.01 * (1 - std::pow(p, 4))) << p;
    EXPECT_NEAR(m.amplification, attempts, 1e-12);
    EXPECT_EQ(m.retries, m.dependency_calls - m.checkouts);
  }
}

TEST(Retries, CorrelatedRetriesGetTheFirstAttemptsAnswer) {
  // With retry_correlation c, a retry repeats the first attempt's answer with probability c:
  // success = 1 - p * (c + (1 - c) p)^3 for 3 retries.
  for (double c : {0.0, 0.5, 1.0}) {
    Incident inc = iidFailures(0.3);
    inc.dependency.segments[0].retry_correlation = c;
    const Metrics m = simulate(inc, inc.deployed).metrics;
    const double success =
        static_cast<double>(m.fresh_checkouts) / static_cast<double>(m.checkouts);
    const double fail_again = c + (1 - c) * 0.3;
    const double expected = 1 - 0.3 * std::pow(fail_again, 3);
    EXPECT_NEAR(success, expected, 0.01 * expected) << c;
  }
}

TEST(Retries, OnlyRetryableOutcomesAreRetried) {
  Incident inc = iidFailures(0.5);
  inc.deployed.retry.retry_on = OutcomeSet{CallOutcome::timeout};  // 5xx is not retried
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(m.retries, 0u);
  EXPECT_EQ(m.dependency_calls, m.checkouts);
}

TEST(Retries, ChangingTheBackoffBaseChangesNothingBeforeTheFirstRetry) {
  Incident inc = iidFailures(0.2, 50, 20 * s);
  inc.deployed.retry.backoff = BackoffKind::exponential;
  inc.deployed.retry.jitter = Jitter::full;
  Config longer = inc.deployed;
  longer.retry.base = 900 * ms;
  const Result a = simulate(inc, inc.deployed);
  const Result b = simulate(inc, longer);
  // Requests whose first attempt succeeded are the same in both; the others differ only in
  // when their retries ran.
  int identical = 0, differing = 0;
  for (std::size_t i = 0; i < a.checkouts.size(); ++i) {
    if (a.checkouts[i].latency_us == 10'000) {  // answered by the first attempt
      EXPECT_EQ(b.checkouts[i].latency_us, 10'000) << i;
      EXPECT_EQ(b.checkouts[i].outcome, a.checkouts[i].outcome) << i;
      ++identical;
    } else {
      differing += a.checkouts[i].latency_us != b.checkouts[i].latency_us;
    }
  }
  EXPECT_GT(identical, 500);
  EXPECT_GT(differing, 50) << "the retried requests did wait differently";
}

TEST(Retries, BackoffShapes) {
  RetryConfig r;
  r.base = 100 * ms;
  r.multiplier = 2;
  r.max = 1 * s;
  r.jitter = Jitter::none;
  auto one = [](std::uint32_t) { return 1.0 - 1e-12; };
  auto half = [](std::uint32_t) { return 0.5; };
  r.backoff = BackoffKind::exponential;
  EXPECT_EQ(retryDelay(r, 1, one), 100 * ms);
  EXPECT_EQ(retryDelay(r, 2, one), 200 * ms);
  EXPECT_EQ(retryDelay(r, 4, one), 800 * ms);
  EXPECT_EQ(retryDelay(r, 5, one), 1 * s) << "capped";
  r.backoff = BackoffKind::fixed;
  EXPECT_EQ(retryDelay(r, 5, one), 100 * ms);
  r.backoff = BackoffKind::none;
  EXPECT_EQ(retryDelay(r, 3, one), 0);
  r.backoff = BackoffKind::exponential;
  r.jitter = Jitter::full;
  EXPECT_EQ(retryDelay(r, 3, half), 200 * ms);  // U(0, 400 ms) at 0.5
  r.jitter = Jitter::equal;
  EXPECT_EQ(retryDelay(r, 3, half), 300 * ms);  // 200 + U(0, 200) at 0.5
  r.jitter = Jitter::decorrelated;
  // sleep1 = 100 + 0.5 * (300 - 100) = 200; sleep2 = 100 + 0.5 * (600 - 100) = 350.
  EXPECT_EQ(retryDelay(r, 2, half), 350 * ms);
}

TEST(Retries, TheTotalDeadlineBoundsEveryCheckout) {
  Incident inc = iidFailures(0.9, 200, 20 * s);
  inc.dependency.segments[0].latency_start =
      inc.dependency.segments[0].latency_end = {LatencyModel::Kind::fixed, 300 * ms, 300 * ms};
  inc.deployed.retry.max_attempts = 10;
  inc.deployed.retry.backoff = BackoffKind::fixed;
  inc.deployed.retry.base = 100 * ms;
  inc.deployed.timeout.total = 1 * s;
  const Result r = simulate(inc, inc.deployed);
  EXPECT_LE(r.metrics.latency_max_ms, 1000.0);
  // 300 ms + 100 ms backoff per attempt: at most three attempts fit in one second.
  EXPECT_LE(r.metrics.amplification, 3.0);
  EXPECT_GT(r.metrics.amplification, 2.0);
}

TEST(Retries, InsideTheRetryLoopTheBreakerCountsEveryAttempt) {
  // A hard outage: with the breaker outside, a request of 4 failing attempts is one failure;
  // inside, it is four, so the window fills four times as fast and the breaker trips sooner.
  Incident inc = iidFailures(1.0, 20, 30 * s);
  inc.deployed.breaker.enabled = true;
  inc.deployed.breaker.window_size = 20;
  inc.deployed.breaker.min_calls = 20;
  inc.deployed.cache.enabled = true;
  Config inside = inc.deployed;
  inside.breaker.placement = BreakerPlacement::inside_retry;
  const Result out = simulate(inc, inc.deployed);
  const Result in = simulate(inc, inside);
  ASSERT_GE(out.breaker.intervals.size(), 2u);
  ASSERT_GE(in.breaker.intervals.size(), 2u);
  EXPECT_LT(in.breaker.intervals[0].to, out.breaker.intervals[0].to);
  EXPECT_EQ(out.events[0].label, "20 of last 20 calls failed");
  // Outside: 20 requests × 4 attempts reached the dependency before the trip.
  EXPECT_GE(out.metrics.dependency_calls, 80u);
  EXPECT_LT(in.metrics.dependency_calls, out.metrics.dependency_calls);
}

TEST(RetryBudget, TenPercentHoldsAnOutageAtOnePointOneTimesTheLoad) {
  // SRE book, "Handling Overload": with 3 attempts per request a failing backend sees just
  // under 3x the load; a per-client budget of 10% retries reduces that to 1.1x.
  Incident inc = iidFailures(1.0, 1000, 60 * s);
  inc.deployed.retry.max_attempts = 3;
  const Metrics unbounded = simulate(inc, inc.deployed).metrics;
  EXPECT_NEAR(unbounded.amplification, 3.0, 1e-9);
  Config budgeted = inc.deployed;
  budgeted.retry.budget.ratio = 0.10;
  const Metrics m = simulate(inc, budgeted).metrics;
  EXPECT_NEAR(m.amplification, 1.1, 0.01);
  EXPECT_GT(m.retries_refused, 0u);
}

TEST(RetryBudget, TheFloorAllowsRetriesAtLowTraffic) {
  Incident inc = iidFailures(1.0, 2, 60 * s);  // 2 requests/s: 10% would allow almost nothing
  inc.deployed.retry.max_attempts = 2;
  inc.deployed.retry.budget.ratio = 0.10;
  inc.deployed.retry.budget.min_per_second = 1;  // 10 retries per 10 s window
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_NEAR(static_cast<double>(m.retries) / 60.0, 1.0, 0.1) << "about one retry a second";
}

TEST(RetryTokenBucket, AFullBucketAllowsAHundredRetriesInATotalOutage) {
  // AWS SDK standard mode: 500 tokens, 5 per retry: about 100 retries when everything fails.
  Incident inc = iidFailures(1.0, 100, 30 * s);
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.token_bucket = {500, 5, 1};
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(m.retries, 100u);
  // The first 50 requests spend the tokens on two retries each; every later request is refused
  // its first retry.
  EXPECT_EQ(m.retries_refused, m.checkouts - 50);
}

// gRPC retry throttling, case by case from grpc-js 1.14 src/retrying-call.ts: `RetryThrottler`
// (the constructor starts at maxTokens; addCallSucceeded adds tokenRatio up to maxTokens;
// addCallFailed takes 1 down to 0; canRetryCall is tokens > maxTokens / 2).
TEST(RetryThrottling, TheTokensFollowGrpcJsRetryThrottler) {
  struct Step {
    char event;  // 's': an attempt succeeded, 'f': failed with a retryable status
    double tokens_after;
    bool retry_allowed_after;
  };
  struct Case {
    std::string name;
    double max_tokens, token_ratio;
    std::vector<Step> steps;
  };
  const std::vector<Case> cases = {
      // The check: 10 tokens, ratio 0.1: retries stop at or below half the tokens.
      {"stops at half",
       10,
       0.1,
       {{'f', 9, true}, {'f', 8, true}, {'f', 7, true}, {'f', 6, true}, {'f', 5, false}}},
      // One success past half lets retries out again: 5 + 0.1 > 5.
      {"a success past half",
       10,
       0.1,
       {{'f', 9, true},
        {'f', 8, true},
        {'f', 7, true},
        {'f', 6, true},
        {'f', 5, false},
        {'s', 5.1, true}}},
      // Successes never carry the tokens above maxTokens.
      {"capped at max", 10, 0.1, {{'s', 10, true}, {'f', 9, true}, {'s', 9.1, true}}},
      {"capped at max from near it", 3, 0.7, {{'f', 2, true}, {'s', 2.7, true}, {'s', 3, true}}},
      // Failures never take the tokens below 0.
      {"floored at 0", 1, 1, {{'f', 0, false}, {'f', 0, false}, {'s', 1, true}}},
      // gRPC core's test (test/core/client_channel/retry_throttle_test.cc): max 4, ratio 1.6,
      // the threshold at 2.
      {"grpc core's case",
       4,
       1.6,
       {{'f', 3, true}, {'f', 2, false}, {'s', 3.6, true}, {'s', 4, true}}},
      // maxTokens odd: half is 1.5; 2 tokens allow, 1 does not.
      {"odd max", 3, 0.5, {{'f', 2, true}, {'f', 1, false}, {'s', 1.5, false}, {'s', 2, true}}},
  };
  for (const Case& c : cases) {
    RetryConfig r;
    r.throttling = {c.max_tokens, c.token_ratio};
    RetryGovernor governor(r);
    EXPECT_DOUBLE_EQ(governor.throttleTokens(), c.max_tokens) << c.name;
    EXPECT_TRUE(governor.throttleAllowsRetry()) << c.name;
    for (std::size_t i = 0; i < c.steps.size(); ++i) {
      const Step& step = c.steps[i];
      if (step.event == 's')
        governor.onAttemptSucceeded();
      else
        governor.onAttemptFailedRetryably();
      EXPECT_NEAR(governor.throttleTokens(), step.tokens_after, 1e-12) << c.name << " step " << i;
      EXPECT_EQ(governor.throttleAllowsRetry(), step.retry_allowed_after)
          << c.name << " step " << i;
    }
  }
}

TEST(RetryThrottling, ATotalOutageStopsRetriesOnceHalfTheTokensAreGone) {
  // 10 tokens, ratio 0.1, 3 attempts, every attempt failing, one request at a time: request 1
  // fails thrice (9, 8, 7 tokens left, both retries allowed), request 2 fails (6: its retry is
  // allowed) and fails again (5: its second retry is not), and every later request is refused its
  // first retry. Failures past the last attempt count too (grpc-js takes the token before it asks
  // whether to retry).
  Incident inc = iidFailures(1.0, 1, 60 * s);
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.throttling = {10, 0.1};
  const Metrics m = simulate(inc, inc.deployed).metrics;
  ASSERT_GT(m.checkouts, 20u);
  EXPECT_EQ(m.retries, 3u);
  EXPECT_EQ(m.retries_refused, m.checkouts - 1);
  EXPECT_EQ(m.dependency_calls, m.checkouts + 3);
}

TEST(RetryThrottling, TheThrottleDecidesWhenTheBackoffEndsNotWhenTheFailureCame) {
  // grpc-js asks canRetryCall in maybeRetryCall's timer, after the backoff. 4 tokens (half: 2),
  // 100 requests a second all failing, 500 ms backoff: the first failure leaves 3 tokens, enough
  // had the throttle been asked then; by the time its retry would start some 50 more failures
  // have taken every token, so no retry is ever made.
  Incident inc = iidFailures(1.0, 100, 10 * s);
  inc.deployed.retry.max_attempts = 2;
  inc.deployed.retry.backoff = BackoffKind::fixed;
  inc.deployed.retry.base = 500 * ms;
  inc.deployed.retry.throttling = {4, 0.1};
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(m.retries, 0u);
  // Every request's retry was refused, but those whose backoff outlasts the replay's end.
  EXPECT_GE(m.retries_refused, m.checkouts - 60);
  EXPECT_EQ(m.dependency_calls, m.checkouts);
}

TEST(RetryThrottling, RetriesFlowBelowTheFailureShareTheRatioPaysForAndStopAboveIt) {
  // A success pays back token_ratio, a failure costs 1: while fewer than ratio / (1 + ratio) of
  // the attempts fail (9.1% at 0.1) the tokens stay near the top and retries go out; above it
  // they drain to 0 and retries stop. Unthrottled, 3 attempts at p make 1 + p + p² calls a
  // request.
  Incident inc = iidFailures(0.02, 200, 60 * s);
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.throttling = {10, 0.1};
  const Metrics low = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(low.retries_refused, 0u);
  EXPECT_NEAR(low.amplification, 1 + 0.02 + 0.0004, 0.005);

  inc = iidFailures(0.3, 200, 60 * s);
  inc.deployed.retry.max_attempts = 3;
  const Metrics unthrottled = simulate(inc, inc.deployed).metrics;
  EXPECT_NEAR(unthrottled.amplification, 1 + 0.3 + 0.09, 0.02);
  inc.deployed.retry.throttling = {10, 0.1};
  const Metrics high = simulate(inc, inc.deployed).metrics;
  EXPECT_LT(high.retries, 20u) << "the tokens drain within the first few dozen requests";
  EXPECT_LT(high.amplification, 1.002);
}

TEST(RetryThrottling, EachPodKeepsItsOwnTokensUnlessTheScopeIsShared) {
  // grpc-js keeps one throttler per channel target in a process: with 4 pods each drains its own
  // 10 tokens, so a total outage gets 4 pods' worth of retries before they stop; shared, one.
  Incident inc = iidFailures(1.0, 4, 60 * s);
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.throttling = {10, 0.1};
  inc.deployed.load_balancer.pods = 4;
  const Metrics per_pod = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(per_pod.retries, 12u);
  inc.deployed.retry.budget.scope = StateScope::shared;
  const Metrics shared = simulate(inc, inc.deployed).metrics;
  EXPECT_EQ(shared.retries, 3u);
}

// Envoy's retry budget, case by case from RetryBudgetImpl (source/common/upstream/
// resource_manager_impl.h): canCreate() is count() < max(), max() is
// std::max<uint64_t>(budget_percent / 100.0 * (active + pending requests), min_retry_concurrency).
TEST(RetryConcurrencyBudget, TheLimitFollowsEnvoysRetryBudgetImpl) {
  struct Case {
    double budget_percent;
    std::uint32_t min_retry_concurrency;
    std::uint64_t active_requests;
    std::uint64_t retries_allowed;  // the count() at which canCreate() turns false
  };
  const std::vector<Case> cases = {
      {20, 3, 25, 5},    // the check: 20% of 25 active requests is 5
      {20, 3, 26, 5},    // 5.2, cast down
      {20, 3, 30, 6},    // 6
      {20, 3, 10, 3},    // 2 < the minimum 3
      {20, 3, 0, 3},     // nothing under way: the minimum
      {20, 0, 0, 0},     // no minimum: no retry at all
      {50, 1, 7, 3},     // 3.5 cast down
      {100, 3, 40, 40},  // every request may retry at once
  };
  for (const Case& c : cases) {
    RetryConfig r;
    r.concurrency_budget = {c.budget_percent, c.min_retry_concurrency};
    RetryGovernor governor(r);
    for (std::uint64_t i = 0; i < c.active_requests; ++i) governor.onAttemptActive();
    for (std::uint64_t i = 0; i < c.retries_allowed; ++i) {
      EXPECT_TRUE(governor.concurrencyAllowsRetry())
          << c.budget_percent << "% of " << c.active_requests << ", retry " << i;
      governor.takeRetryPlace();
    }
    EXPECT_FALSE(governor.concurrencyAllowsRetry())
        << c.budget_percent << "% of " << c.active_requests;
    // Giving one place back allows one more retry; with no place taken there is none to give.
    if (c.retries_allowed > 0) {
      governor.releaseRetryPlace();
      EXPECT_TRUE(governor.concurrencyAllowsRetry());
    }
    EXPECT_EQ(governor.activeRetries(), c.retries_allowed > 0 ? c.retries_allowed - 1 : 0);
  }
}

TEST(RetryConcurrencyBudget, TwentyPercentHoldsATotalOutageToAQuarterMoreCalls) {
  // Every attempt fails in 10 ms, 10,000 requests a second, 3 attempts, no backoff. A retry holds
  // its place for its 10 ms attempt, so by Little's law retries under way are R × 10 ms and all
  // attempts (10,000 + R) × 10 ms, about 100, far above the minimum of 3: R ≤ 20% × (10,000 + R)
  // gives R ≤ 2,500 a second, 1.25 calls a request at most (unbudgeted: 3).
  Incident inc = iidFailures(1.0, 10000, 10 * s);
  inc.deployed.retry.max_attempts = 3;
  const Metrics unbudgeted = simulate(inc, inc.deployed).metrics;
  EXPECT_NEAR(unbudgeted.amplification, 3.0, 1e-9);
  inc.deployed.retry.concurrency_budget = {20, 3};
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_LE(m.amplification, 1.25);
  EXPECT_GT(m.amplification, 1.15);
  EXPECT_GT(m.retries_refused, 0u);
}

TEST(RetryConcurrencyBudget, ARetryHoldsItsPlaceThroughItsBackoff) {
  // The same outage with a 1 s backoff: each retry holds its place for 1.01 s, while the attempts
  // under way stay about 10 (1,000 a second for 10 ms), so the minimum of 3 places is what allows
  // retries: about 3 a second.
  Incident inc = iidFailures(1.0, 1000, 30 * s);
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.backoff = BackoffKind::fixed;
  inc.deployed.retry.base = 1 * s;
  inc.deployed.retry.jitter = Jitter::none;
  inc.deployed.retry.concurrency_budget = {20, 3};
  const Metrics m = simulate(inc, inc.deployed).metrics;
  EXPECT_NEAR(static_cast<double>(m.retries) / 30, 3, 0.5);
}

}  // namespace
}  // namespace breakerlab
