// The work estimate bounds what simulate() does, names the keys behind it, and the incident's
// allocation bounds hold in validate().
#include <gtest/gtest.h>

#include <limits>

#include "breakerlab/core/inputs/work_estimate.h"
#include "breakerlab/core/replay/simulate.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

Incident steady(double rps, Micros window = 60 * s) {
  Incident inc;
  inc.start = 0;
  inc.end = window;
  inc.traffic.rate = {{0, window, rps, rps}};
  inc.traffic.keys = {20, 0.0};
  DependencySegment seg;
  seg.state = "timing out";
  seg.from = 0;
  seg.to = window;
  seg.mix_start.timeout = seg.mix_end.timeout = 1;
  inc.dependency.segments = {seg};
  return inc;
}

TEST(WorkEstimate, RateTimesWindowAndLeadIn) {
  const Incident inc = steady(1e8);
  const WorkEstimate w = estimateWork(inc, inc.deployed);
  EXPECT_DOUBLE_EQ(w.window_arrivals, 6e9);
  EXPECT_DOUBLE_EQ(w.lead_in_arrivals, 6e9);
  EXPECT_DOUBLE_EQ(w.simulated_requests, 1.2e10);
  EXPECT_EQ(workLimitProblem(w, kDefaultMaxSimulatedRequests),
            "the replay would simulate 1.2e10 requests, above the limit of 200000000: "
            "traffic.rate[0].rps 1e8 over 60 s = 6e9 requests + traffic.lead_in 60 s at 1e8 rps "
            "= 6e9 requests");
  EXPECT_EQ(workLimitProblem(w, 2e10), "");
}

TEST(WorkEstimate, RampsAreIntegratedAndClippedToTheWindow) {
  Incident inc = steady(0);
  inc.traffic.lead_in = 0;
  inc.traffic.rate = {{-10 * s, 10 * s, 0, 100}, {10 * s, 120 * s, 100, 100}};
  // [0, 10) of the ramp: 50 to 100 rps, 750 requests; [10, 60): 5000.
  const WorkEstimate w = estimateWork(inc, inc.deployed);
  EXPECT_DOUBLE_EQ(w.window_arrivals, 5750);
}

TEST(WorkEstimate, EveryAttemptCounts) {
  Incident inc = steady(40);
  inc.deployed.retry.max_attempts = 100;
  const WorkEstimate w = estimateWork(inc, inc.deployed);
  EXPECT_DOUBLE_EQ(w.simulated_requests, (2400 + 2400) * 100.0);
  EXPECT_NE(w.explain().find("× retry.max_attempts 100 = 480000 attempts"), std::string::npos)
      << w.explain();
}

TEST(WorkEstimate, ManyPiecesGiveOneLine) {
  Incident inc = steady(0);
  inc.traffic.rate.clear();
  for (int i = 0; i < 1000; ++i)
    inc.traffic.rate.push_back({i * 60 * ms, (i + 1) * 60 * ms, 1e6 + i, 1e6 + i});
  const WorkEstimate w = estimateWork(inc, inc.deployed);
  EXPECT_EQ(w.terms.size(), 5u);  // three pieces, the rest, the lead-in
  EXPECT_NE(w.explain().find("traffic.rate[999].rps"), std::string::npos) << w.explain();
  EXPECT_NE(w.explain().find("997 more traffic.rate pieces"), std::string::npos);
  EXPECT_LT(workLimitProblem(w, 1).size(), 400u);
}

TEST(WorkEstimate, HealthChecksAndPollsAreTimerEvents) {
  Incident inc = steady(0, 7 * 24 * 3600 * s);
  inc.traffic.lead_in = 0;
  Config c;
  c.load_balancer.pods = 10'000;
  c.load_balancer.health_check.enabled = true;
  c.load_balancer.health_check.interval = 10 * ms;
  const WorkEstimate w = estimateWork(inc, c);
  EXPECT_GT(w.timer_events, 6e11);
  EXPECT_NE(workLimitProblem(w, kDefaultMaxSimulatedRequests)
                .find("load_balancer.pods 10000 × (window + lead_in) 604800 s / "
                      "load_balancer.health_check.interval 0.01 s"),
            std::string::npos);
  c = Config{};
  c.breaker.early_probe = true;
  c.breaker.early_probe_poll = 1;
  EXPECT_NE(workLimitProblem(estimateWork(inc, c), kDefaultMaxSimulatedRequests)
                .find("breaker.open.early_probe.poll"),
            std::string::npos);
}

TEST(WorkEstimate, IsAnUpperBoundOfTheReplay) {
  for (std::uint32_t attempts : {1u, 3u, 10u}) {
    Incident inc = steady(200, 10 * s);
    inc.traffic.lead_in = 5 * s;
    inc.deployed.breaker.enabled = false;
    inc.deployed.retry.max_attempts = attempts;
    inc.deployed.retry.base = 0;
    const Result r = simulate(inc, inc.deployed);
    const WorkEstimate w = estimateWork(inc, inc.deployed);
    EXPECT_LE(static_cast<double>(r.simulated_requests),
              w.window_arrivals + w.lead_in_arrivals + 1);
    EXPECT_LE(static_cast<double>(r.metrics.dependency_calls), w.simulated_requests) << attempts;
    EXPECT_GE(static_cast<double>(r.metrics.dependency_calls), 0.9 * 2000 * attempts);
  }
}

TEST(WorkEstimate, LargestOfDeployedAndWhatIfs) {
  Incident inc = steady(40);
  WhatIf w;
  w.name = "retry-storm";
  w.config.retry.max_attempts = 50;
  inc.what_ifs = {w};
  std::string label;
  EXPECT_EQ(largestWork(inc, &label).max_attempts, 50u);
  EXPECT_EQ(label, "what-if 'retry-storm'");
}

TEST(IncidentBounds, KeysBucketsAndLeadIn) {
  Incident inc = steady(40);
  EXPECT_EQ(validate(inc), "");
  inc.traffic.keys.count = kMaxKeys + 1;
  EXPECT_EQ(validate(inc), "traffic.keys.count must be at most 10000000");
  inc.traffic.keys.count = kMaxKeys;
  EXPECT_EQ(validate(inc), "");
  inc.traffic.lead_in = kMaxLeadIn + 1;
  EXPECT_EQ(validate(inc), "traffic.lead_in must be at most 7 days");
  inc.traffic.lead_in = 60 * s;
  inc.checkout_lane.bucket = 1;
  EXPECT_EQ(validate(inc), "checkout_lane.bucket: the window would have more than 1000000 buckets");
  inc.checkout_lane.bucket = 60;  // exactly a million
  EXPECT_EQ(validate(inc), "");
  // Bucket ends are start + k × bucket: a bucket of 2^63 µs would overflow them.
  inc.checkout_lane.bucket = std::numeric_limits<Micros>::max();
  EXPECT_EQ(validate(inc), "checkout_lane.bucket must be at most 7 days");
  inc.checkout_lane.bucket = kMaxWindow;
  EXPECT_EQ(validate(inc), "");
}

}  // namespace
}  // namespace breakerlab
