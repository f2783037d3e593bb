// A replay that reads only its records and counters may join, at a quiet second, the tail of an
// earlier run of its config under another worker limit (TailRun): every replay a map makes in
// turn through one cache is still the fresh replay of its config, bit for bit, on every bundled
// incident, and a report that reads levels over time never joins.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/sweep.h"
#include "breakerlab/core/tuning/tuning_objective.h"
#include "breakerlab/data/incident_io.h"
#include "replay/replay_cache.h"
#include "same_result.h"
#include "support/bundled_incident.h"

namespace breakerlab {
namespace {

// What a map of failed checkouts reads, and that with the latency histogram, lanes, events and
// checkouts per second (all built from the records).
const ReportParts kRecordsOnly{};
const ReportParts kFromRecords{ReportPart::latency, ReportPart::lanes_and_events,
                               ReportPart::checkouts_per_second};

Result replay(const Incident& inc, const Config& config, ReportParts parts, ReplayCache* cache) {
  SimulateOptions options;
  options.cache = cache;
  options.report = parts;
  return simulate(inc, config, options);
}

// Replays `base` over timeouts x worker limits (limits fastest, as a map does) through one cache,
// each against a fresh replay; returns how many joined an earlier run's tail.
std::uint64_t mapAgainstFreshReplays(const Incident& inc, const Config& base, ReportParts parts,
                                     const std::vector<Micros>& timeouts,
                                     const std::vector<std::uint32_t>& limits) {
  ReplayCache cache;
  const std::uint64_t before = tailJoins();
  for (const Micros timeout : timeouts) {
    for (const std::uint32_t limit : limits) {
      Config config = base;
      config.timeout.attempt = timeout;
      config.workers.per_pod = limit;
      Result through_cache = replay(inc, config, parts, &cache);
      Result fresh = replay(inc, config, parts, nullptr);
      test::expectIdentical(
          fresh, through_cache,
          inc.id + " timeout " + std::to_string(timeout) + " workers " + std::to_string(limit));
    }
  }
  return tailJoins() - before;
}

const std::vector<std::uint32_t> kLimits{10, 11, 12, 13, 20, 37, 40, 41, 70, 99, 100};

TEST(TailJoin, MapCellsOf14AugThatJoinAnotherRunsTailAreTheirFreshReplays) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  const std::vector<Micros> timeouts{200 * kMillisecond, 2 * kSecond, 5 * kSecond, 10 * kSecond};
  // With long timeouts every limit acts while Pricing is down (no whole run serves another
  // limit), yet the runs settle into the same quiet run once it has recovered.
  EXPECT_GE(mapAgainstFreshReplays(inc, inc.deployed, kRecordsOnly, timeouts, kLimits), 20u);
  EXPECT_GE(mapAgainstFreshReplays(inc, inc.deployed, kFromRecords, {10 * kSecond}, kLimits), 5u);
}

TEST(TailJoin, MapCellsOf14AugWithoutRetriesOrWithASeparateCheckPool) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  Config no_retries = inc.deployed;
  no_retries.retry.max_attempts = 1;
  EXPECT_GE(mapAgainstFreshReplays(inc, no_retries, kRecordsOnly, {5 * kSecond}, kLimits), 1u);
  Config separate = inc.deployed;
  separate.load_balancer.health_check.pool = HealthCheckPool::separate;
  EXPECT_GE(mapAgainstFreshReplays(inc, separate, kRecordsOnly, {5 * kSecond}, kLimits), 1u);
}

// Every other bundled incident, with what keeps a run from sharing its tail switched off (the
// breaker, the fallback cache, a connection pool): whether or not its runs join, each is its
// fresh replay.
TEST(TailJoin, EveryBundledIncidentsMapCellsAreTheirFreshReplays) {
  for (const char* name : {"inc-2026-0908-pricing", "inc-2026-0912-payment-timeout",
                           "inc-payment-retry-amplification", "teach-metastable-retries"}) {
    const Incident inc = test::bundledIncident(name);
    Config base = inc.deployed;
    base.breaker.enabled = false;
    base.cache.enabled = false;
    base.pricing.mode = PricingMode::sync;
    base.pool.size = 0;
    const Micros timeout = inc.deployed.timeout.attempt;
    mapAgainstFreshReplays(inc, base, kRecordsOnly, {timeout, 3 * timeout}, {1, 2, 4, 8, 30, 100});
    mapAgainstFreshReplays(inc, inc.deployed, kRecordsOnly, {timeout}, {2, 8, 30});
  }
}

// Two pods whose health checks on the shared worker pool eject a pod at its first failed check:
// while the dependency is slow, which pods leave rotation when depends on the limit, and with it
// where the round robin stands once the dependency is fast again.
// `capacity`: the dependency's, as a line of the file (none: unlimited).
Incident twoPods(std::uint64_t seed, const std::string& capacity = "", double rps = 4,
                 const std::string& check_pool = "shared") {
  return parseIncident(R"(format: breakerlab/1
id: two-pods
title: Two pods, checks on the shared pool
start: 2026-01-01T00:00:00Z
window: {from: 0s, to: 10m}
seed: )" + std::to_string(seed) +
                           R"(
traffic:
  arrivals: poisson
  rate:
    - {from: 0s, to: 10m, rps: )" +
                           std::to_string(rps) + R"(}
  keys: {count: 10}
  lead_in: 10s
dependency:
  name: Slow
)" + capacity + R"(
  segments:
    - {state: fast, from: 0s, to: 2m, health: green, latency: {p50: 400ms, p99: 400ms}}
    - {state: slow, from: 2m, to: 4m, health: red, latency: {p50: 3s, p99: 3s}}
    - {state: fast, from: 4m, to: 10m, health: green, latency: {p50: 400ms, p99: 400ms}}
config:
  format: breakerlab-config/1
  breaker: {enabled: false}
  timeout: {attempt: 10s, total: 0s}
  retry: {max_attempts: 1}
  workers: {per_pod: 4, queue: 0}
  load_balancer:
    pods: 2
    health_check: {enabled: true, pool: )" +
                           check_pool + R"(, interval: 300ms, unhealthy_after: 1, healthy_after: 1}
  fallback:
    cache: {enabled: false, ttl: 60s}
  pricing: {mode: sync}
)",
                       "two-pods.yaml");
}

// A run joins only under a limit above the busiest pod of the rest of the reference run: at that
// many busy workers a check in the joining run, on whichever pod the round robin filled, would
// fail. Limits from the highest down, so that each joins a run under a higher one.
TEST(TailJoin, OnlyUnderALimitAboveTheBusiestPodOfTheRest) {
  std::uint64_t joins = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Incident inc = twoPods(seed);
    joins +=
        mapAgainstFreshReplays(inc, inc.deployed, kRecordsOnly, {10 * kSecond}, {6, 5, 4, 3, 2});
  }
  EXPECT_GE(joins, 30u);
}

// With checks of their own pool, a limit as high as the busiest pod gives every arrival a worker.
TEST(TailJoin, WithChecksOnASeparatePoolALimitAsHighAsTheBusiestPod) {
  std::uint64_t joins = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Incident inc = twoPods(seed, "", 4, "separate");
    joins +=
        mapAgainstFreshReplays(inc, inc.deployed, kRecordsOnly, {10 * kSecond}, {6, 5, 4, 3, 2, 1});
  }
  EXPECT_GE(joins, 30u);
}

// A dependency that goes on working on calls its client gave up on: a run is quiet only once
// its servers are idle too, or the next calls would queue behind work the other run never had.
TEST(TailJoin, OnlyWhenTheDependencysServersAreIdle) {
  std::uint64_t joins = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const Incident inc = twoPods(seed, "  capacity: {concurrency: 2, keeps_working: true}", 1.5);
    joins += mapAgainstFreshReplays(inc, inc.deployed, kRecordsOnly,
                                    {500 * kMillisecond, 1 * kSecond}, {6, 5, 4, 3, 2});
  }
  EXPECT_GE(joins, 30u);
}

TEST(TailJoin, NotWhenTheReportReadsLevelsOverTime) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  for (const ReportParts parts :
       {ReportParts::whole(), ReportParts{ReportPart::worker_levels},
        ReportParts{ReportPart::pool_levels}, ReportParts{ReportPart::pending_retries},
        ReportParts{ReportPart::calls_in_flight}, ReportParts{ReportPart::pods_in_rotation},
        ReportParts{ReportPart::calls_per_second}, ReportParts{ReportPart::dependency_use}}) {
    EXPECT_EQ(mapAgainstFreshReplays(inc, inc.deployed, parts, {10 * kSecond}, {40, 41}), 0u);
  }
}

TEST(TailJoin, NotAcrossConfigsOrSeeds) {
  Incident inc = test::bundledIncident("inc-2026-0814-orders");
  inc.deployed.timeout.attempt = 10 * kSecond;
  ReplayCache cache;
  Config config = inc.deployed;
  config.workers.per_pod = 40;
  (void)replay(inc, config, kRecordsOnly, &cache);
  const std::uint64_t before = tailJoins();
  config.workers.per_pod = 41;
  Result joined = replay(inc, config, kRecordsOnly, &cache);
  EXPECT_EQ(tailJoins(), before + 1);
  Result fresh = replay(inc, config, kRecordsOnly, nullptr);
  test::expectIdentical(fresh, joined, "workers 41");
  // Another timeout (the reference is still the run of 40 workers: a run that joined is not kept).
  config.timeout.attempt = 9 * kSecond;
  config.workers.per_pod = 42;
  (void)replay(inc, config, kRecordsOnly, &cache);
  EXPECT_EQ(tailJoins(), before + 1) << "another timeout";
  // Another seed.
  inc.seed += 1;
  config.workers.per_pod = 43;
  Result other_seed = replay(inc, config, kRecordsOnly, &cache);
  EXPECT_EQ(tailJoins(), before + 1) << "another seed";
  Result fresh_seed = replay(inc, config, kRecordsOnly, nullptr);
  test::expectIdentical(fresh_seed, other_seed, "another seed");
}

// A map as the workbench and `breakerlab-cli sweep` make it, on two threads that each keep their
// own references: every cell is the fresh evaluation of its config.
TEST(TailJoin, ATwoThreadMapOf14AugIsEachCellsFreshEvaluation) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  const Evaluator evaluator({TuneCase{&inc, inc.goals, inc.deployed}}, {findMetric("failed_pct")});
  const KnobRange knobs[] = {{findKnob("timeout.attempt"), 2000, 10000, true},
                             {findKnob("workers.per_pod"), 10, 100, false}};
  const std::size_t points[] = {8, 6};  // rows enough for the threads to take whole rows
  SweepOptions options;
  options.threads = 2;
  const SweepResult map = sweep(evaluator, knobs, points, options);
  ASSERT_EQ(map.cells.size(), 48u);
  for (const SweepCell& cell : map.cells) {
    Evaluator::Scratch fresh = evaluator.scratch();
    const Evaluation alone = evaluator.evaluate(
        [&](Config& c) {
          for (std::size_t d = 0; d < 2; ++d) knobs[d].knob->set(c, cell.values[d]);
        },
        false, fresh);
    const std::string what = "cell " + std::to_string(cell.index);
    EXPECT_EQ(alone.objectives, cell.evaluation.objectives) << what;
    EXPECT_EQ(alone.goals_met, cell.evaluation.goals_met) << what;
    EXPECT_EQ(alone.shortfall, cell.evaluation.shortfall) << what;
    EXPECT_EQ(alone.feasible, cell.evaluation.feasible) << what;
  }
}

}  // namespace
}  // namespace breakerlab
