// The progress hook of simulate(): it hears how far a long replay is, can stop it, and changes
// nothing in the result.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "breakerlab/core/replay/simulate.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::s;

// 400 000 checkouts in the window and 200 000 in the lead-in, every call timing out three times.
Incident busy() {
  Incident inc;
  inc.start = 0;
  inc.end = 40 * s;
  inc.traffic.rate = {{0, 40 * s, 10'000, 10'000}};
  inc.traffic.lead_in = 20 * s;
  DependencySegment seg;
  seg.state = "timing out";
  seg.from = 0;
  seg.to = 40 * s;
  seg.mix_start.timeout = seg.mix_end.timeout = 1;
  inc.dependency.segments = {seg};
  inc.deployed.breaker.enabled = false;
  inc.deployed.retry.max_attempts = 3;
  return inc;
}

TEST(SimulateProgress, ReportsRisingShareAndEvents) {
  const Incident inc = busy();
  std::vector<ReplayProgress> seen;
  SimulateOptions options;
  options.progress = [&](const ReplayProgress& p) {
    seen.push_back(p);
    return true;
  };
  (void)simulate(inc, inc.deployed, options);
  ASSERT_GE(seen.size(), 10u);
  for (std::size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].done, seen[i - 1].done);
    EXPECT_EQ(seen[i].events, seen[i - 1].events + kProgressEveryEvents);
  }
  EXPECT_GE(seen.front().done, 0.0);
  EXPECT_LE(seen.back().done, 1.0);
  EXPECT_GT(seen.back().done, 0.9);
}

TEST(SimulateProgress, ReturningFalseCancels) {
  const Incident inc = busy();
  int calls = 0;
  SimulateOptions options;
  options.progress = [&](const ReplayProgress& p) {
    ++calls;
    return p.done < 0.5;
  };
  EXPECT_THROW((void)simulate(inc, inc.deployed, options), ReplayCancelled);
  EXPECT_GE(calls, 2);
}

TEST(SimulateProgress, CancelledRunLeavesTheCacheUsable) {
  const Incident inc = busy();
  ReplayCache cache;
  SimulateOptions options;
  options.cache = &cache;
  options.progress = [](const ReplayProgress& p) { return p.done < 0.6; };  // in the window
  EXPECT_THROW((void)simulate(inc, inc.deployed, options), ReplayCancelled);
  const Result cached = simulate(inc, inc.deployed, cache);
  const Result fresh = simulate(inc, inc.deployed);
  ASSERT_EQ(cached.checkouts.size(), fresh.checkouts.size());
  EXPECT_EQ(std::memcmp(cached.checkouts.data(), fresh.checkouts.data(),
                        fresh.checkouts.size() * sizeof(CheckoutRecord)),
            0);
}

TEST(SimulateProgress, HookChangesNothing) {
  Incident inc = busy();
  inc.deployed.breaker.enabled = true;
  inc.deployed.load_balancer.pods = 3;
  inc.deployed.workers.per_pod = 50;
  SimulateOptions options;
  options.progress = [](const ReplayProgress&) { return true; };
  const Result with = simulate(inc, inc.deployed, options);
  const Result without = simulate(inc, inc.deployed);
  ASSERT_EQ(with.checkouts.size(), without.checkouts.size());
  EXPECT_EQ(std::memcmp(with.checkouts.data(), without.checkouts.data(),
                        with.checkouts.size() * sizeof(CheckoutRecord)),
            0);
  EXPECT_EQ(with.breaker, without.breaker);
  EXPECT_EQ(with.simulated_requests, without.simulated_requests);
}

}  // namespace
}  // namespace breakerlab
