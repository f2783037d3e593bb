// A replay asked for some report parts only (SimulateOptions::report, what a map's or a tune's
// replays follow) gives every metric whose parts it followed bit for bit as the whole replay
// does: on every bundled incident, deployed and each what-if, with the what-if's timed changes.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/tuning_objective.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_io.h"
#include "replay/replay_cache.h"
#include "support/bundled_incident.h"
#include "support/sanitizers.h"

namespace breakerlab {
namespace {

const char* const kIncidents[] = {"inc-2026-0814-orders", "inc-2026-0908-pricing",
                                  "inc-2026-0912-payment-timeout",
                                  "inc-payment-retry-amplification", "teach-metastable-retries"};

// Each part a metric can need on its own, and none.
const std::vector<ReportParts> kPartSets = {
    {},
    {ReportPart::latency},
    {ReportPart::worker_levels},
    {ReportPart::pool_levels},
    {ReportPart::pending_retries},
    {ReportPart::calls_in_flight},
    {ReportPart::calls_per_second},
    {ReportPart::dependency_use},
    {ReportPart::checkouts_per_second},
};

Result replayParts(const Incident& inc, const Config& config,
                   const std::vector<TimedChange>& changes, ReportParts parts) {
  SimulateOptions options;
  options.changes = &changes;
  options.report = parts;
  return simulate(inc, config, options);
}

void expectMetricsOfParts(const Incident& inc, const Config& config,
                          const std::vector<TimedChange>& changes, const std::string& what) {
  const Result whole = replayParts(inc, config, changes, ReportParts::whole());
  for (const ReportParts& parts : kPartSets) {
    const Result part = replayParts(inc, config, changes, parts);
    std::size_t compared = 0;
    for (const MetricInfo& m : metricRegistry()) {
      if (!parts.contains(m.needs)) continue;
      ++compared;
      const std::optional<double> x = m.get(whole.metrics), y = m.get(part.metrics);
      ASSERT_EQ(x.has_value(), y.has_value()) << what << " " << m.name;
      if (x) {
        EXPECT_EQ(std::memcmp(&*x, &*y, sizeof(double)), 0) << what << " " << m.name;
      }
    }
    EXPECT_GE(compared, 1u);
    EXPECT_EQ(std::memcmp(whole.checkouts.data(), part.checkouts.data(),
                          whole.checkouts.size() * sizeof(CheckoutRecord)),
              0)
        << what;
    EXPECT_EQ(whole.breaker, part.breaker) << what;
  }
}

// Every incident, deployed and each what-if (under the sanitizers the first what-if only:
// support/sanitizers.h).
TEST(ReportParts, EveryMetricOfTheFollowedPartsIsTheWholeReplays) {
  for (const char* name : kIncidents) {
    const Incident inc = test::bundledIncident(name);
    expectMetricsOfParts(inc, inc.deployed, inc.changes, inc.id + " deployed");
    const std::size_t what_ifs = test::configsUnderTest(inc.what_ifs.size() + 1) - 1;
    for (std::size_t i = 0; i < what_ifs; ++i) {
      const WhatIf& w = inc.what_ifs[i];
      expectMetricsOfParts(inc, w.config, w.changes ? *w.changes : inc.changes,
                           inc.id + " " + w.name);
    }
  }
}

TEST(ReportParts, PartsLeftOutAreNotFollowed) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  const Result whole = replayParts(inc, inc.deployed, inc.changes, ReportParts::whole());
  const Result none = replayParts(inc, inc.deployed, inc.changes, {});
  ASSERT_FALSE(whole.per_second.dependency_calls.empty());
  ASSERT_FALSE(whole.per_second.workers_busy.empty());
  ASSERT_FALSE(whole.per_second.dependency_busy.empty());
  ASSERT_FALSE(whole.events.empty());
  EXPECT_GT(whole.metrics.latency_p99_ms, 0);
  EXPECT_TRUE(none.per_second.dependency_calls.empty());
  EXPECT_TRUE(none.per_second.workers_busy.empty());
  EXPECT_TRUE(none.per_second.dependency_busy.empty());
  EXPECT_TRUE(none.events.empty());
  EXPECT_TRUE(none.per_second.failed.empty());
  EXPECT_TRUE(none.checkout.intervals.empty());
  EXPECT_EQ(none.metrics.latency_p99_ms, 0);
  EXPECT_EQ(none.metrics.failed_pct, whole.metrics.failed_pct);
}

TEST(ReportParts, NoMetricNeedsALaneOrThePodsSeries) {
  // Those two parts are for people (lanes, events, the pods plot); a metric that read them would
  // be wrong in every map and tune.
  for (const MetricInfo& m : metricRegistry()) {
    EXPECT_FALSE(m.needs.has(ReportPart::lanes_and_events)) << m.name;
    EXPECT_FALSE(m.needs.has(ReportPart::pods_in_rotation)) << m.name;
  }
  EXPECT_TRUE(findMetric("latency_p99_ms")->needs.has(ReportPart::latency));
  EXPECT_TRUE(findMetric("dependency_saturated_s")->needs.has(ReportPart::dependency_use));
  EXPECT_TRUE(findMetric("failed_pct")->needs == ReportParts{});
}

TEST(ReportParts, TheEvaluatorFollowsWhatItsMetricsAndGoalsRead) {
  const Incident inc = test::bundledIncident("inc-2026-0814-orders");
  const auto evaluatorWith = [&](std::vector<Expectation> goals, const char* metric) {
    return Evaluator({TuneCase{&inc, std::move(goals), inc.deployed}}, {findMetric(metric)});
  };
  EXPECT_EQ(
      evaluatorWith({parseExpectation("failed_checkouts == 0", "t")}, "failed_pct").reportParts(),
      ReportParts{});
  EXPECT_EQ(evaluatorWith({parseExpectation("dependency_saturated_s <= 10", "t")}, "latency_p99_ms")
                .reportParts(),
            (ReportParts{ReportPart::latency, ReportPart::dependency_use}));
  Expectation lane;
  lane.kind = Expectation::Kind::lane;
  lane.lane = "checkout";
  lane.within = 30 * kSecond;
  EXPECT_TRUE(evaluatorWith({lane}, "failed_pct").reportParts().isWhole());
}

TEST(ReportParts, ARunFollowingLessNeverServesAReplayAskingForMore) {
  Incident inc = test::bundledIncident("inc-2026-0814-orders");
  inc.deployed.timeout.attempt = 200 * kMillisecond;  // rows of one run (WorkerLimitRun)
  const std::vector<TimedChange> none;
  ReplayCache cache;
  SimulateOptions metrics_only;
  metrics_only.cache = &cache;
  metrics_only.changes = &none;
  metrics_only.report = {};
  Config config = inc.deployed;
  config.workers.per_pod = 100;
  (void)simulate(inc, config, metrics_only);
  const std::uint64_t before = workerLimitReuses();
  config.workers.per_pod = 90;
  SimulateOptions whole = metrics_only;
  whole.report = ReportParts::whole();
  const Result through_cache = simulate(inc, config, whole);
  EXPECT_EQ(workerLimitReuses(), before) << "a metrics-only run served a whole replay";
  const Result fresh = simulate(inc, config);
  EXPECT_EQ(through_cache.per_second.workers_busy, fresh.per_second.workers_busy);
  EXPECT_EQ(through_cache.metrics.latency_p99_ms, fresh.metrics.latency_p99_ms);
  EXPECT_EQ(through_cache.events.size(), fresh.events.size());
  // The whole run kept now serves one asking for less.
  config.workers.per_pod = 80;
  const Result less = simulate(inc, config, metrics_only);
  EXPECT_EQ(workerLimitReuses(), before + 1);
  EXPECT_EQ(less.metrics.failed_pct, fresh.metrics.failed_pct);
}

}  // namespace
}  // namespace breakerlab
