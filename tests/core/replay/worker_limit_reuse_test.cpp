// A replay whose every comparison with the worker limit per pod would have come out the same
// under another limit serves that limit too (WorkerLimitRun): on 14 Aug and 8 Sep, each replay
// a map makes in turn through one cache is the fresh replay of its config, bit for bit.
#include <gtest/gtest.h>

#include <string>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "replay/replay_cache.h"
#include "same_result.h"
#include "support/bundled_incident.h"

namespace breakerlab {
namespace {

// Replays `inc` over timeouts x worker limits (limits fastest, as a map does) through one cache,
// each against a fresh replay; returns how many the cache served from a run under another limit.
std::uint64_t limitMapAgainstFreshReplays(const Incident& inc,
                                          std::initializer_list<Micros> timeouts,
                                          std::initializer_list<std::uint32_t> limits) {
  ReplayCache cache;
  const std::uint64_t before = workerLimitReuses();
  for (const Micros timeout : timeouts) {
    for (const std::uint32_t limit : limits) {
      Config config = inc.deployed;
      config.timeout.attempt = timeout;
      config.workers.per_pod = limit;
      Result through_cache = simulate(inc, config, cache);
      Result fresh = simulate(inc, config);
      test::expectIdentical(
          fresh, through_cache,
          inc.id + " timeout " + std::to_string(timeout) + " workers " + std::to_string(limit));
    }
  }
  return workerLimitReuses() - before;
}

TEST(WorkerLimitReuse, MapCellsOf14AugServedByAnotherLimitsRunAreItsFreshReplays) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  const std::uint64_t reused = limitMapAgainstFreshReplays(
      inc, {200 * kMillisecond, 1140 * kMillisecond, 10 * kSecond}, {10, 20, 40, 70, 100});
  // Short timeouts never fill a pod above a few dozen workers: most of their rows are one run.
  EXPECT_GE(reused, 5u);
}

TEST(WorkerLimitReuse, MapCellsOf8SepServedByAnotherLimitsRunAreItsFreshReplays) {
  const Incident inc = test::bundledIncident("inc-2026-0908-pricing");
  const std::uint64_t reused = limitMapAgainstFreshReplays(
      inc, {inc.deployed.timeout.attempt, 3 * inc.deployed.timeout.attempt},
      {2, 8, 32, 128, 512, 1000});
  EXPECT_GE(reused, 1u);
}

TEST(WorkerLimitReuse, NotForAnotherSeedOrAnotherConfig) {
  Incident inc = test::bundledIncident("inc-2026-0814-orders");
  inc.deployed.timeout.attempt = 200 * kMillisecond;
  ReplayCache cache;
  Config config = inc.deployed;
  config.workers.per_pod = 100;
  (void)simulate(inc, config, cache);
  const std::uint64_t before = workerLimitReuses();
  config.workers.per_pod = 90;
  Result reused = simulate(inc, config, cache);
  EXPECT_EQ(workerLimitReuses(), before + 1);
  Result fresh = simulate(inc, config);
  test::expectIdentical(fresh, reused, "workers 90");
  inc.seed += 1;
  Result other_seed = simulate(inc, config, cache);
  EXPECT_EQ(workerLimitReuses(), before + 1) << "another seed";
  Result fresh_seed = simulate(inc, config);
  test::expectIdentical(fresh_seed, other_seed, "another seed");
  config.workers.queue += 1;
  (void)simulate(inc, config, cache);
  config.workers.per_pod = 80;
  config.retry.max_attempts = 2;
  Result other_config = simulate(inc, config, cache);
  EXPECT_EQ(workerLimitReuses(), before + 1) << "another retry policy";
  Result fresh_config = simulate(inc, config);
  test::expectIdentical(fresh_config, other_config, "another retry policy");
}

}  // namespace
}  // namespace breakerlab
