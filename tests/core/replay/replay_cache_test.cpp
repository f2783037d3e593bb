// When the lead-in snapshot may stand in for replaying the lead-in: the lead-in view of a config
// keeps every field but those the lead-in cannot have read.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "replay/replay_cache.h"

namespace breakerlab {
namespace {

struct Edit {
  const char* name;
  std::function<void(Config&)> apply;
};

// Fields a closed lead-in never reads (BreakerLab's model, sync pricing): the view drops them.
const std::vector<Edit>& unreadEdits() {
  static const std::vector<Edit> edits = {
      {"breaker.open.interval", [](Config& c) { c.breaker.open_interval = 7 * kSecond; }},
      {"breaker.open.backoff", [](Config& c) { c.breaker.backoff_multiplier = 2; }},
      {"breaker.open.max", [](Config& c) { c.breaker.backoff_max = 90 * kSecond; }},
      {"breaker.open.early_probe", [](Config& c) { c.breaker.early_probe = true; }},
      {"breaker.open.health_poll", [](Config& c) { c.breaker.early_probe_poll = kSecond; }},
      {"breaker.half_open.probes", [](Config& c) { c.breaker.probes = 1; }},
      {"breaker.half_open.spacing", [](Config& c) { c.breaker.probe_spacing = 0; }},
      {"breaker.half_open.close_when", [](Config& c) { c.breaker.close_when = CloseRule::rate; }},
      {"breaker.half_open.reopen", [](Config& c) { c.breaker.reopen_on_first_failure = true; }},
      {"fallback.cache.ttl", [](Config& c) { c.cache.ttl = 5 * kSecond; }},
      {"fallback.cache.enabled", [](Config& c) { c.cache.enabled = false; }},
  };
  return edits;
}

// Fields the lead-in reads whatever happened in it.
const std::vector<Edit>& readEdits() {
  static const std::vector<Edit> edits = {
      {"breaker.enabled", [](Config& c) { c.breaker.enabled = false; }},
      {"breaker.window.size", [](Config& c) { c.breaker.window_size = 50; }},
      {"breaker.min_calls", [](Config& c) { c.breaker.min_calls = 5; }},
      {"breaker.failure_rate", [](Config& c) { c.breaker.failure_rate_pct = 25; }},
      {"breaker.slow_call.duration", [](Config& c) { c.breaker.slow_call_duration = kSecond; }},
      {"breaker.placement",
       [](Config& c) { c.breaker.placement = BreakerPlacement::inside_retry; }},
      {"breaker.library", [](Config& c) { c.breaker.library = BreakerLibrary::gobreaker; }},
      {"timeout.attempt", [](Config& c) { c.timeout.attempt = 2 * kSecond; }},
      {"timeout.total", [](Config& c) { c.timeout.total = 3 * kSecond; }},
      {"retry.max_attempts", [](Config& c) { c.retry.max_attempts = 3; }},
      {"retry.backoff.base", [](Config& c) { c.retry.base = kSecond; }},
      {"retry.budget.ratio", [](Config& c) { c.retry.budget.ratio = 0.1; }},
      {"pool.size", [](Config& c) { c.pool.size = 10; }},
      {"pool.max_wait", [](Config& c) { c.pool.max_wait = kSecond; }},
      {"workers.per_pod", [](Config& c) { c.workers.per_pod = 8; }},
      {"load_balancer.pods", [](Config& c) { c.load_balancer.pods = 4; }},
      {"load_balancer.health_check.enabled",
       [](Config& c) { c.load_balancer.health_check.enabled = true; }},
      {"pricing.mode", [](Config& c) { c.pricing.mode = PricingMode::cache_first; }},
      {"pricing.refresh_after", [](Config& c) { c.pricing.refresh_after = kSecond; }},
  };
  return edits;
}

TEST(LeadInView, DropsWhatAClosedLeadInCannotReadAndKeepsEverythingElse) {
  const Config base;
  for (const Edit& e : unreadEdits()) {
    Config edited = base;
    e.apply(edited);
    ASSERT_FALSE(edited == base) << e.name << " changes nothing";
    EXPECT_EQ(leadInView(edited, false), leadInView(base, false)) << e.name;
  }
  for (const Edit& e : readEdits()) {
    Config edited = base;
    e.apply(edited);
    ASSERT_FALSE(edited == base) << e.name << " changes nothing";
    EXPECT_FALSE(leadInView(edited, false) == leadInView(base, false)) << e.name;
  }
}

TEST(LeadInView, ABreakerThatMovedInTheLeadInKeepsItsOpenAndHalfOpenRules) {
  const Config base;
  for (const Edit& e : unreadEdits()) {
    if (std::string(e.name).rfind("breaker.", 0) != 0) continue;
    Config edited = base;
    e.apply(edited);
    EXPECT_FALSE(leadInView(edited, true) == leadInView(base, true)) << e.name;
  }
}

TEST(LeadInView, CacheFirstPricingReadsTheCacheInTheLeadIn) {
  Config base;
  base.pricing.mode = PricingMode::cache_first;
  Config edited = base;
  edited.cache.ttl = 5 * kSecond;
  EXPECT_FALSE(leadInView(edited, false) == leadInView(base, false));
}

TEST(LeadInView, AnotherLibrarysRulesAreAllKept) {
  Config base;
  base.breaker.library = BreakerLibrary::gobreaker;
  Config edited = base;
  edited.breaker.open_interval = 7 * kSecond;  // its own options may read the generic ones
  EXPECT_FALSE(leadInView(edited, false) == leadInView(base, false));
  edited = base;
  edited.native.gobreaker.timeout = 7 * kSecond;
  EXPECT_FALSE(leadInView(edited, false) == leadInView(base, false));
}

// With no failed lead-in call and timeouts that outlast every call, the timeouts and the retry
// policy drop out, but the retry budget and token bucket, which every request feeds, stay.
TEST(LeadInView, OutlastedCallsDropTheTimeoutsAndTheRetryPolicyButNotItsBudget) {
  const Config base;
  const std::vector<Edit> dropped = {
      {"timeout.attempt", [](Config& c) { c.timeout.attempt = 2 * kSecond; }},
      {"timeout.total", [](Config& c) { c.timeout.total = 3 * kSecond; }},
      {"retry.max_attempts", [](Config& c) { c.retry.max_attempts = 3; }},
      {"retry.backoff.base", [](Config& c) { c.retry.base = kSecond; }},
      {"retry.mode", [](Config& c) { c.retry.mode = RetryMode::background; }},
      {"retry.on", [](Config& c) { c.retry.retry_on = OutcomeSet{CallOutcome::timeout}; }},
  };
  for (const Edit& e : dropped) {
    Config edited = base;
    e.apply(edited);
    ASSERT_FALSE(edited == base) << e.name;
    EXPECT_EQ(leadInView(edited, false, true), leadInView(base, false, true)) << e.name;
    EXPECT_FALSE(leadInView(edited, false, false) == leadInView(base, false, false)) << e.name;
  }
  Config budget = base;
  budget.retry.budget.ratio = 0.1;
  EXPECT_FALSE(leadInView(budget, false, true) == leadInView(base, false, true));
  Config bucket = base;
  bucket.retry.token_bucket.capacity = 5;
  EXPECT_FALSE(leadInView(bucket, false, true) == leadInView(base, false, true));
}

// A call as long as the timeout times out (latency >= timeout), so it is not outlasted.
TEST(LeadInTimes, TimeoutsOutlastEveryCallStrictly) {
  LeadInTimes t;
  t.longest_attempt = 500 * kMillisecond;
  t.longest_request = 1200 * kMillisecond;  // a request with a retry, or a queued one
  struct Case {
    Micros attempt, total;
    bool outlasted;
  };
  const Case cases[] = {
      {501 * kMillisecond, 0, true},         {500 * kMillisecond, 0, false},
      {499 * kMillisecond, 0, false},        {kSecond, 1201 * kMillisecond, true},
      {kSecond, 1200 * kMillisecond, false}, {kSecond, kSecond, false},
  };
  for (const Case& c : cases)
    EXPECT_EQ(t.outlastedBy({c.attempt, c.total}), c.outlasted) << c.attempt << " " << c.total;
  t.failures = true;
  EXPECT_FALSE(t.outlastedBy({10 * kSecond, 0}));
}

}  // namespace
}  // namespace breakerlab
