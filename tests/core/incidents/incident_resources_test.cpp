// The three incidents made by retries, pools, workers and the load balancer (seed documents
// 001, 002 and 004), replayed from their bundled files with the numbers and claims the
// documents make. Every number comes out of the model; the files describe traffic, the
// dependency's behaviour and the deployed config, with their calibration stated in comments.
#include <gtest/gtest.h>

#include <numeric>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_io.h"
#include "support/bundled_incident.h"
#include "support/what_if_replay.h"

namespace breakerlab {
namespace {

const Incident& orders0814() {
  static const Incident inc = test::bundledIncident("inc-2026-0814-orders.yaml");
  return inc;
}
const Incident& payment001() {
  static const Incident inc = test::bundledIncident("inc-payment-retry-amplification.yaml");
  return inc;
}
const Incident& payment0912() {
  static const Incident inc = test::bundledIncident("inc-2026-0912-payment-timeout.yaml");
  return inc;
}

const Incident& teachMetastable() {
  static const Incident inc = test::bundledIncident("teach-metastable-retries.yaml");
  return inc;
}

// A what-if's replay: its config, with its own timed changes when it has them.
// The share of checkouts that failed among those arriving in [from, to) seconds.
double failedShare(const Result& r, double from, double to) {
  std::uint64_t failed = 0, all = 0;
  for (auto s = static_cast<std::size_t>(from); s < static_cast<std::size_t>(to); ++s) {
    failed += r.per_second.failed[s];
    all += r.per_second.checkouts[s];
  }
  return 100.0 * static_cast<double>(failed) / static_cast<double>(std::max<std::uint64_t>(all, 1));
}

Metrics run(const Incident& inc, const std::string& what_if = {}) {
  const WhatIf* w = what_if.empty() ? nullptr : inc.whatIf(what_if);
  if (!what_if.empty() && w == nullptr) ADD_FAILURE() << "no what-if " << what_if;
  return (w ? test::whatIfReplay(inc, *w) : simulate(inc, inc.deployed)).metrics;
}

// Every expectation written in each file holds, for the deployed config and every what-if.
TEST(IncidentFiles, EveryExpectationInTheFilesHolds) {
  for (const Incident* inc : {&orders0814(), &payment001(), &payment0912(), &teachMetastable()}) {
    const Result deployed = simulate(*inc, inc->deployed);
    ASSERT_FALSE(inc->expect.empty()) << inc->id;
    for (const auto& r : evaluate(inc->expect, *inc, deployed))
      EXPECT_TRUE(r.passed) << inc->id << ": " << r.expectation->text << " (actual " << r.actual
                            << ")";
    ASSERT_GE(inc->what_ifs.size(), 2u) << inc->id;
    for (const WhatIf& w : inc->what_ifs) {
      const Result tuned = test::whatIfReplay(*inc, w);
      for (const auto& r : evaluate(w.expect, *inc, tuned))
        EXPECT_TRUE(r.passed) << inc->id << " / " << w.name << ": " << r.expectation->text
                              << " (actual " << r.actual << ")";
    }
  }
}

TEST(Incident0814, FourPricingCallsPerFailingCheckoutPoolExhaustionAndEjections) {
  const Result r = simulate(orders0814(), orders0814().deployed);
  const Metrics& m = r.metrics;
  EXPECT_NEAR(*m.calls_per_failed_checkout, 4.0, 0.05);  // "4 Pricing calls per checkout"
  EXPECT_GE(*m.dependency_saturated_s, 20 * 60.0);       // "Pricing pool at 100% for 20 minutes"
  EXPECT_GT(m.pod_ejections, 0u);                        // the health-check cascade
  EXPECT_LE(*m.min_pods_in_rotation, 2u);                // "6 of 8 Orders pods unhealthy"
  // Failed checkouts for most of the window: most seconds have failures at or above the lane's
  // threshold.
  const auto& s = r.per_second;
  int failing = 0;
  for (std::size_t i = 0; i < s.checkouts.size(); ++i)
    failing += s.checkouts[i] > 0 && s.failed[i] >= 0.1 * s.checkouts[i] ? 1 : 0;
  EXPECT_GT(failing, static_cast<int>(s.checkouts.size()) / 2);
}

TEST(Incident0814, TheDocumentsCurveFailingUntil1014PodsBackWithinThreeMinutesPoolBy1020) {
  // t = 0 is 09:38. The document: checkout failing for most of 09:46-10:14; the flag to 0% at
  // 10:14 (the price-check-v2 query stops: the dependency's segments); "Orders pods returned
  // to rotation within 3 minutes"; "the Pricing connection pool drained by 10:20".
  const Incident& inc = orders0814();
  ASSERT_TRUE(inc.clock_start.has_value());
  const auto at = [](int hh, int mm) {
    return static_cast<std::size_t>((hh * 60 + mm - 578) * 60);
  };
  const Result r = simulate(inc, inc.deployed);
  int failing_minutes = 0;
  for (std::size_t m = at(9, 46); m < at(10, 14); m += 60)
    failing_minutes += failedShare(r, static_cast<double>(m), static_cast<double>(m + 60)) > 50;
  EXPECT_GE(failing_minutes, 28 * 3 / 4);  // "most of" the 28 minutes
  const auto& pods = r.per_second.pods_in_rotation;
  ASSERT_FALSE(pods.empty());
  EXPECT_LT(*std::min_element(pods.begin() + at(10, 0), pods.begin() + at(10, 14)), 8u);
  for (std::size_t t = at(10, 17); t < at(10, 30); ++t) ASSERT_EQ(pods[t], 8u) << t;
  const auto& busy = r.per_second.dependency_busy;
  ASSERT_FALSE(busy.empty());
  EXPECT_EQ(busy[at(10, 10)], 100u);  // saturated while the flag is on
  for (std::size_t t = at(10, 20); t < at(10, 30); ++t) ASSERT_LT(busy[t], 100u) << t;
  // And checkout recovers with it: under 1% failed from 10:17.
  EXPECT_LT(failedShare(r, static_cast<double>(at(10, 17)), static_cast<double>(at(10, 30))), 1.0);
}

TEST(Incident0814, WithoutTheRetryStormThePoolDegradesGracefully) {
  const Metrics deployed = run(orders0814());
  const Metrics no_retries = run(orders0814(), "no-retries");
  EXPECT_LT(no_retries.failed_pct, deployed.failed_pct / 4);
  EXPECT_EQ(no_retries.pod_ejections, 0u);
}

TEST(Incident0814, TheRemediationCutsFailedCheckoutsByAtLeast90Percent) {
  const Metrics deployed = run(orders0814());
  const Metrics fixed = run(orders0814(), "remediation");
  EXPECT_LE(fixed.failed_checkouts, deployed.failed_checkouts / 10);
  EXPECT_GT(deployed.failed_checkouts, 10'000u);  // a real outage to cut, not an empty check
}

TEST(Incident001, SynchronousRetriesSaturateWorkersAndFailAbout18Point6Percent) {
  const Metrics m = run(payment001());
  EXPECT_NEAR(m.failed_pct, 18.6, 3.0);
  EXPECT_EQ(*m.peak_worker_utilization_pct, 100.0);
  EXPECT_GT(m.worker_rejections, m.failed_checkouts / 2);  // local queue saturation
  // "retried three times inside the original request": four calls per failed checkout while
  // the flag was on.
  EXPECT_NEAR(*run(payment001(), "flag-left-on").calls_per_failed_checkout, 4.0, 0.25);
}

TEST(Incident001, TheRetryFlagOffAt1011BringsCheckoutBelowOnePercentBy1017) {
  // The document: 18.6% of attempts failed over 09:46-10:17; retries disabled at 10:11 (t = 25
  // min), "error rate begins falling immediately"; below 1% failures by 10:17.
  const Incident& inc = payment001();
  ASSERT_EQ(inc.changes.size(), 1u);
  EXPECT_EQ(inc.changes.front().at, 25 * 60 * kSecond);
  const Result r = simulate(inc, inc.deployed);
  EXPECT_NEAR(failedShare(r, 0, 31 * 60), 18.6, 3.0);
  // Every minute from 10:14 to 10:17 below 1%.
  for (int minute = 28; minute < 31; ++minute)
    EXPECT_LT(failedShare(r, minute * 60, (minute + 1) * 60), 1.0) << minute;
  // Falling immediately: 10:11-10:14 fail far less than with the flag left on.
  const WhatIf* on = inc.whatIf("flag-left-on");
  ASSERT_NE(on, nullptr);
  const Result left_on = test::whatIfReplay(inc, *on);
  EXPECT_LT(failedShare(r, 25 * 60, 28 * 60), failedShare(left_on, 25 * 60, 28 * 60) / 2);
  // Checkouts that were over before the change are the same in both runs (those still
  // retrying or queued at 10:11 are not: their retries after it are not made).
  EXPECT_EQ(failedShare(r, 0, 23 * 60), failedShare(left_on, 0, 23 * 60));
  EXPECT_NE(failedShare(r, 0, 25 * 60), failedShare(left_on, 0, 25 * 60));
}

TEST(Incident001, BackgroundRetriesCappedAtTwoRestoreCheckout) {
  const Metrics deployed = run(payment001());
  const Metrics fixed = run(payment001(), "background-retries");
  EXPECT_LT(fixed.failed_pct, 5.0);
  EXPECT_LT(fixed.failed_pct, deployed.failed_pct / 3);
  EXPECT_LT(*fixed.mean_workers_busy, *deployed.mean_workers_busy);
  EXPECT_LE(*fixed.calls_per_failed_checkout, 2.0);
}

TEST(Incident001, ABreakerSettingOpensBeforeWorkerUtilizationReaches75Percent) {
  const Metrics m = run(payment001(), "breaker-before-saturation");
  ASSERT_TRUE(m.time_to_trip_s.has_value());
  ASSERT_TRUE(m.worker_utilization_at_trip_pct.has_value());
  EXPECT_LT(*m.worker_utilization_at_trip_pct, 75.0);
}

// Research note V10: a pool of c connections whose calls all hang for the timeout T completes
// c / T calls per second. The incident's ceiling of 200 with 10 pods x 20 connections (no call
// queues at the provider), every call stuck, and enough traffic to keep the pool full (the
// incident's 30/s with 3 attempts offers only 90 calls/s, below the 100/s ceiling at 2 s).
TEST(Incident0912, PoolThroughputAtTheCeilingIsCapacityOverHoldTime) {
  Incident inc = payment0912();
  inc.end = 20 * 60 * kSecond;
  inc.traffic.rate = {{0, inc.end, 150, 150}};
  for (auto& seg : inc.dependency.segments) {
    seg.mix_start = seg.mix_end = OutcomeMix{};
    seg.mix_start.timeout = seg.mix_end.timeout = 1.0;
  }
  for (const auto& [timeout, expected] : {std::pair{"2s", 100.0}, std::pair{"30s", 200.0 / 30}}) {
    const Config c = applyOverrides(
        inc.deployed, {std::string("timeout.attempt=") + timeout, "load_balancer.pods=10"});
    const Result r = simulate(inc, c);
    const auto& calls = r.per_second.dependency_calls;
    const std::size_t from = 120;  // after the first timeouts
    const double sent = std::accumulate(calls.begin() + from, calls.end(), 0.0);
    EXPECT_NEAR(sent / static_cast<double>(calls.size() - from), expected, 0.02 * expected)
        << timeout;
  }
}

TEST(Incident0912, ThirtySecondsFailsALargeShareWhereTwoSecondsFailsFew) {
  const Metrics thirty = run(payment0912());
  const Metrics two = run(payment0912(), "timeout-2s");
  EXPECT_GT(thirty.failed_pct, 20.0);
  EXPECT_LT(two.failed_pct, 5.0);
  EXPECT_EQ(*thirty.peak_pool_utilization_pct, 100.0);
  EXPECT_LT(*two.peak_pool_utilization_pct, 50.0);
}

// Seconds from the incident's t = 0 (09:02 UTC) to a clock time on 12 Sep.
constexpr double at0912(int hour, int minute) {
  return ((hour - 9) * 60 + minute - 2) * 60.0;
}

// The highest failed share over any `width`-second span starting on a minute in [from, to).
double peakShare(const Result& r, double from, double to, double width) {
  double peak = 0;
  for (double t = from; t + width <= to; t += 60)
    peak = std::max(peak, failedShare(r, t, t + width));
  return peak;
}

TEST(Incident0912, TheOperatorsTimelineIsTheIncidentsOwn) {
  const Incident& inc = payment0912();
  ASSERT_EQ(inc.changes.size(), 2u);
  EXPECT_EQ(inc.changes[0].at, static_cast<Micros>(at0912(10, 26)) * kSecond);
  EXPECT_EQ(inc.changes[1].at, static_cast<Micros>(at0912(13, 1)) * kSecond);
  EXPECT_EQ(inc.end, static_cast<Micros>(at0912(13, 31)) * kSecond);
  const Result r = simulate(inc, inc.deployed);
  ASSERT_FALSE(r.per_second.pods_in_rotation.empty());
  EXPECT_EQ(r.per_second.pods_in_rotation[static_cast<std::size_t>(at0912(10, 26)) - 1], 12u);
  EXPECT_EQ(r.per_second.pods_in_rotation[static_cast<std::size_t>(at0912(10, 26)) + 1], 40u);
}

// The document's curve: "detected 09:47 at 6%", "the failure rate climbs from 28% to 41%" with the
// scale-out at 10:26, "peak 52%", and "success rate returns above 99%" with the rollback at 13:01.
TEST(Incident0912, TheReplayFollowsTheDocumentsCurve) {
  const Result r = simulate(payment0912(), payment0912().deployed);
  EXPECT_LT(failedShare(r, 0, at0912(9, 14)), 0.5);
  EXPECT_NEAR(failedShare(r, at0912(9, 45), at0912(9, 50)), 6, 3);
  EXPECT_NEAR(failedShare(r, at0912(10, 11), at0912(10, 26)), 28, 4);
  EXPECT_NEAR(failedShare(r, at0912(10, 26), at0912(12, 0)), 41, 4);
  // The peak over a quarter of an hour; minute by minute the 40-pod fleet runs away for a few
  // minutes at a time (see the file's calibration notes).
  EXPECT_NEAR(peakShare(r, at0912(10, 26), at0912(13, 1), 15 * 60), 52, 8);
  EXPECT_LT(failedShare(r, at0912(13, 3), at0912(13, 31)), 1.0);
}

TEST(Incident0912, WithoutTheScaleOutFewerCheckoutsFailAfter1026) {
  const Result deployed = simulate(payment0912(), payment0912().deployed);
  const Result twelve = test::whatIfReplay(payment0912(), *payment0912().whatIf("no-scale-up"));
  const double with_scale_out = failedShare(deployed, at0912(10, 26), at0912(13, 1));
  const double without = failedShare(twelve, at0912(10, 26), at0912(13, 1));
  EXPECT_GT(with_scale_out, without + 8);
  // Before the change the two runs are the same run.
  EXPECT_EQ(failedShare(deployed, 0, at0912(10, 25)), failedShare(twelve, 0, at0912(10, 25)));
}

TEST(Incident0912, WithoutTheRollbackThe30sTimeoutKeepsFailingCheckouts) {
  Incident inc = payment0912();
  inc.changes[1].enabled = false;
  const Result no_rollback = simulate(inc, inc.deployed);
  EXPECT_GT(failedShare(no_rollback, at0912(13, 3), at0912(13, 31)), 3.0);
}

TEST(Incident0912, TheBreakerLowersFailedCheckoutsOnTheScaledOutFleet) {
  const Metrics forty = run(payment0912(), "scale-to-40-pods");
  const Metrics breaker = run(payment0912(), "breaker-at-40-pods");
  EXPECT_LT(breaker.failed_checkouts, forty.failed_checkouts);
  EXPECT_GT(breaker.trips, 0u);
  // AI-2's breaker in place when the provider slowed, with the operators' timeline.
  const Metrics timeline = run(payment0912());
  const Metrics early = run(payment0912(), "breaker-from-09:14");
  EXPECT_LT(early.failed_checkouts, timeline.failed_checkouts);
  EXPECT_GT(early.trips, 0u);
}

// The workbench's preview replays the window cut short: it must be the whole replay's beginning,
// second by second, short of the requests still under way at the cut (here at most 3 attempts
// of 30 s). With the operators' changes, the one after the cut not made.
TEST(Incident0912, AWindowCutShortReplaysTheWholeReplaysBeginning) {
  const Incident& inc = payment0912();
  Incident cut = inc;
  cut.end = static_cast<Micros>(at0912(10, 40)) * kSecond;  // after the 10:26 scale-out
  const Result whole = simulate(inc, inc.deployed);
  const Result beginning = simulate(cut, cut.deployed);
  const auto seconds = static_cast<std::size_t>(at0912(10, 40)) - 120;
  ASSERT_GE(beginning.per_second.checkouts.size(), seconds);
  for (std::size_t s = 0; s < seconds; ++s) {
    ASSERT_EQ(beginning.per_second.checkouts[s], whole.per_second.checkouts[s]) << s;
    ASSERT_EQ(beginning.per_second.failed[s], whole.per_second.failed[s]) << s;
    ASSERT_EQ(beginning.per_second.dependency_calls[s], whole.per_second.dependency_calls[s]) << s;
  }
}

// The teaching incident: Brooker's minimal metastable failure. Goodput is the share of the
// checkouts arriving in [from, to) that got an answer.
double goodput(const Result& r, double from, double to) {
  return 100.0 - failedShare(r, from, to);
}

Result teachReplay(const std::string& what_if, std::uint64_t seed) {
  Incident inc = teachMetastable();
  inc.seed = seed;
  const WhatIf* w = what_if.empty() ? nullptr : inc.whatIf(what_if);
  return w ? test::whatIfReplay(inc, *w) : simulate(inc, inc.deployed);
}

TEST(TeachMetastable, TheBurstTipsItAndGoodputNeverReturnsWithoutBackoff) {
  const Result r = teachReplay("", teachMetastable().seed);
  EXPECT_GT(goodput(r, 0, 30), 99.0);
  // Long after the burst (30-35 s) has passed, nothing gets through.
  EXPECT_LT(goodput(r, 60, 180), 5.0);
  EXPECT_LT(goodput(r, 150, 180), 1.0);
  // The retries offer three calls per checkout, above the 100 a second the server can finish.
  const auto& calls = r.per_second.dependency_calls;
  EXPECT_GT(std::accumulate(calls.begin() + 120, calls.end(), 0.0) / 60, 100.0);
}

TEST(TeachMetastable, WithBackoffAndFullJitterGoodputReturnsToTheOfferedLoad) {
  const Result r = teachReplay("backoff-and-jitter", teachMetastable().seed);
  EXPECT_GT(goodput(r, 60, 180), 99.0);
  const auto& calls = r.per_second.dependency_calls;
  EXPECT_LT(std::accumulate(calls.begin() + 120, calls.end(), 0.0) / 60, 50.0);
}

TEST(TeachMetastable, TheBurstIsTheWholeTrigger) {
  Incident inc = teachMetastable();
  inc.traffic.rate = {{inc.start, inc.end, 40, 40}};
  const Result r = simulate(inc, inc.deployed);
  EXPECT_GT(goodput(r, 60, 180), 99.0);
}

// Near the edge the tipping is chance; backoff moves every seed of ten to the safe side.
TEST(TeachMetastable, OverTenSeedsMostCollapseWithoutBackoffAndNoneWithIt) {
  int collapsed_without = 0, collapsed_with = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    collapsed_without += goodput(teachReplay("", seed), 60, 180) < 50;
    collapsed_with += goodput(teachReplay("backoff-and-jitter", seed), 60, 180) < 50;
  }
  EXPECT_GE(collapsed_without, 6);
  EXPECT_EQ(collapsed_with, 0);
}

}  // namespace
}  // namespace breakerlab
