// Timed changes (an operator's action during the incident): each key's documented semantics
// (timedKeys()[...].semantics), the order at equal times, and that a change that changes
// nothing changes nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "breakerlab/core/basics/breaker_state.h"
#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/core/replay/simulate.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::ms;
using test_units::s;

// 60 s at 50 rps of a dependency that fails half its calls with a 500 after 20 ms (or, with
// `hang`, times half of them out); no breaker, no cache.
Incident flaky(bool hang = false) {
  Incident inc;
  inc.end = 60 * s;
  inc.seed = 4242;
  inc.traffic.arrivals = ArrivalProcess::poisson;
  inc.traffic.rate = {{0, inc.end, 50, 50}};
  inc.traffic.lead_in = 0;
  DependencySegment seg;
  seg.state = "flaky";
  seg.from = 0;
  seg.to = inc.end;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, 20 * ms, 20 * ms};
  (hang ? seg.mix_start.timeout : seg.mix_start.server_error) = 0.5;
  seg.mix_end = seg.mix_start;
  inc.dependency.segments = {seg};
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.enabled = false;
  inc.deployed.timeout.attempt = 2 * s;
  inc.deployed.retry.max_attempts = 3;
  inc.deployed.retry.backoff = BackoffKind::fixed;
  inc.deployed.retry.base = 500 * ms;
  inc.deployed.retry.jitter = Jitter::none;
  return inc;
}

TimedChange change(Micros at, TimedKey key, double value, std::string label = {}) {
  return TimedChange{at, {{key, value}}, std::move(label)};
}

Result traced(const Incident& inc, CallTrace& trace) {
  return simulate(inc, inc.deployed, trace);
}

TEST(TimedKeys, EveryKeyHasANameSemanticsAndAGetterThatReadsWhatTheSetterWrote) {
  for (const TimedKeyInfo& k : timedKeys()) {
    EXPECT_EQ(timedKeyInfo(k.key).name, k.name);
    EXPECT_EQ(timedKeyFromString(k.name), k.key);
    EXPECT_FALSE(k.semantics.empty()) << k.name;
    const double value = k.kind == TimedKeyInfo::Kind::toggle       ? 0
                         : k.kind == TimedKeyInfo::Kind::retry_mode ? 1
                         : k.kind == TimedKeyInfo::Kind::number     ? 3.5
                                                                    : 7 * 1000 * 1000;
    // A dependency key is not the client's config: it reads and writes DependencyScales alone.
    EXPECT_EQ(k.onDependency(), k.name.starts_with("dependency.")) << k.name;
    EXPECT_EQ(k.onDependency(), k.get == nullptr && k.set == nullptr) << k.name;
    if (k.onDependency()) {
      DependencyScales d;
      k.set_dependency(d, value);
      EXPECT_EQ(k.get_dependency(d), value) << k.name;
      EXPECT_EQ(k.get_dependency(DependencyScales{}), 1.0) << k.name;  // 1: as the incident says
      EXPECT_EQ(k.min, kFactorMin) << k.name;
      EXPECT_EQ(k.max, kFactorMax) << k.name;
      Config c;
      applyChange(c, TimedChange{0, {{k.key, value}}, ""});
      EXPECT_EQ(c, Config{}) << k.name;
      continue;
    }
    Config c;
    k.set(c, value);
    EXPECT_EQ(k.get(c), value) << k.name;
    DependencyScales d;
    applyChange(d, TimedChange{0, {{k.key, value}}, ""});
    EXPECT_EQ(d, DependencyScales{}) << k.name;
  }
  EXPECT_EQ(timedKeyFromString("breaker.library"), std::nullopt);
  EXPECT_EQ(timedKeyFromString("scenario.capacity.scale"), std::nullopt);
}

TEST(TimedChanges, AChangeThatChangesNothingGivesTheSameRunBitForBit) {
  // Every key set to the value it already has, at t = 20 s: the replay is the run without it.
  // The dependency's factors are 1 before any change; with a ceiling (under queueing or
  // sharing) the capacity factor is set too.
  struct Case {
    bool hang;
    std::uint32_t ceiling;
    CapacityDiscipline discipline;
  };
  for (const Case& c :
       {Case{false, 0, CapacityDiscipline::queue}, Case{true, 0, CapacityDiscipline::queue},
        Case{false, 3, CapacityDiscipline::queue}, Case{true, 20, CapacityDiscipline::queue},
        Case{true, 20, CapacityDiscipline::share}}) {
    const bool hang = c.hang;
    Incident inc = flaky(hang);
    inc.deployed.pool.size = 8;
    inc.deployed.load_balancer.pods = 2;
    inc.dependency.capacity.concurrency = c.ceiling;
    inc.dependency.capacity.discipline = c.discipline;
    const Result before = simulate(inc, inc.deployed);
    TimedChange all{20 * s, {}, "no-op"};
    for (const TimedKeyInfo& k : timedKeys()) {
      if (k.key == TimedKey::dependency_capacity_scale && !inc.dependency.capacity.hasCeiling())
        continue;  // refused by validate(): no ceiling to scale
      all.edits.push_back(
          {k.key, k.onDependency() ? k.get_dependency(DependencyScales{}) : k.get(inc.deployed)});
    }
    inc.changes = {all};
    const Result after = simulate(inc, inc.deployed);
    EXPECT_EQ(after.checkouts, before.checkouts) << hang << " " << c.ceiling;
    EXPECT_EQ(after.breaker, before.breaker);
    EXPECT_EQ(after.per_second.pool_busy, before.per_second.pool_busy);
    EXPECT_EQ(after.metrics.dependency_calls, before.metrics.dependency_calls);
    EXPECT_EQ(after.metrics.peak_dependency_utilization_pct,
              before.metrics.peak_dependency_utilization_pct);
    // The change is reported as an event on its own lane, with its label.
    ASSERT_EQ(std::count_if(after.events.begin(), after.events.end(),
                            [](const Event& e) { return e.kind == EventKind::change; }),
              1);
    const auto e = std::find_if(after.events.begin(), after.events.end(),
                                [](const Event& e) { return e.kind == EventKind::change; });
    EXPECT_EQ(e->at, 20 * s);
    EXPECT_EQ(e->label, "no-op");
    EXPECT_TRUE(std::is_sorted(after.events.begin(), after.events.end(),
                               [](const Event& a, const Event& b) { return a.at < b.at; }));
  }
}

TEST(TimedChanges, RetriesSwitchedOffStopNewRetriesAndRetriesAlreadyScheduled) {
  Incident inc = flaky();
  CallTrace before_trace;
  traced(inc, before_trace);
  const Micros off = 30 * s;
  inc.changes = {change(off, TimedKey::retry_max_attempts, 1, "retry flag off")};
  CallTrace trace;
  const Result r = traced(inc, trace);
  std::size_t retries_before = 0, retries_after = 0, scheduled_across = 0;
  for (const TracedCall& c : trace.calls) {
    if (c.attempt == 0) continue;
    (c.start < off ? retries_before : retries_after) += 1;
  }
  // Without the change, retries scheduled before 30 s come due after it (500 ms backoff).
  for (const TracedCall& c : before_trace.calls)
    if (c.attempt > 0 && c.start >= off && c.start < off + 500 * ms && c.request_start < off)
      ++scheduled_across;
  EXPECT_GT(retries_before, 0u);
  EXPECT_GT(scheduled_across, 0u);
  EXPECT_EQ(retries_after, 0u);
  // Those requests end with the failure they were retrying: no checkout is left unanswered.
  for (const CheckoutRecord& c : r.checkouts) EXPECT_GE(c.latency_us, 20 * ms);
  // And the failure share after the change is the dependency's: about half.
  std::size_t after = 0, failed_after = 0;
  for (const CheckoutRecord& c : r.checkouts) {
    if (c.arrival < off + s) continue;
    ++after;
    failed_after += c.outcome == CheckoutOutcome::failed;
  }
  EXPECT_NEAR(static_cast<double>(failed_after) / after, 0.5, 0.06);
}

TEST(TimedChanges, AChangeAtAnArrivalsTimeAppliesBeforeIt) {
  Incident inc = flaky();
  const Result base = simulate(inc, inc.deployed);
  // The 100th checkout's arrival: with retries off from exactly then, it makes one call.
  const CheckoutRecord& target = base.checkouts[100];
  inc.changes = {change(target.arrival, TimedKey::retry_max_attempts, 1)};
  CallTrace trace;
  traced(inc, trace);
  for (const TracedCall& c : trace.calls)
    if (c.record == 100) {
      EXPECT_EQ(c.attempt, 0);
    }
  // A checkout whose retries were all over before it makes them as it did; one whose retry
  // came due after it does not make that retry (its first attempt it did make).
  CallTrace base_trace;
  inc.changes.clear();
  traced(inc, base_trace);
  auto attempts = [](const CallTrace& t, std::uint32_t record) {
    std::size_t n = 0;
    for (const TracedCall& c : t.calls) n += c.record == record;
    return n;
  };
  std::uint32_t early = 0;
  while (base.checkouts[early + 1].arrival < target.arrival - 2 * s) ++early;
  EXPECT_EQ(attempts(trace, early), attempts(base_trace, early));
  EXPECT_EQ(attempts(trace, 99), 1u);
  EXPECT_EQ(attempts(base_trace, 99), 3u);
}

TEST(TimedChanges, ATimeoutChangeAppliesToCallsSentAfterItAndCallsInFlightKeepTheirs) {
  Incident inc = flaky(true);
  inc.deployed.retry.max_attempts = 1;
  inc.deployed.timeout.attempt = 30 * s;
  const Micros at = 20 * s;
  inc.changes = {change(at, TimedKey::timeout_attempt, 2 * s)};
  CallTrace trace;
  traced(inc, trace);
  std::size_t long_ones = 0, short_ones = 0;
  for (const TracedCall& c : trace.calls) {
    if (c.outcome != CallOutcome::timeout) continue;
    if (c.start < at) {
      EXPECT_EQ(c.duration, 30 * s);
      ++long_ones;
    } else {
      EXPECT_EQ(c.duration, 2 * s);
      ++short_ones;
    }
  }
  EXPECT_GT(long_ones, 100u);
  EXPECT_GT(short_ones, 100u);
  // Completion order: the trace is in completion order even though 2 s timeouts sent after the
  // change finish before 30 s ones sent before it.
  for (std::size_t i = 1; i < trace.calls.size(); ++i)
    ASSERT_LE(trace.calls[i - 1].start + trace.calls[i - 1].duration,
              trace.calls[i].start + trace.calls[i].duration)
        << i;
}

TEST(TimedChanges, ScalingPodsUpAddsThemToRotationAndDownStopsSendingThemWork) {
  Incident inc = flaky();
  inc.deployed.retry.max_attempts = 1;
  inc.deployed.load_balancer.pods = 2;
  inc.deployed.workers.per_pod = 4;
  inc.deployed.workers.queue = 100;
  inc.changes = {change(20 * s, TimedKey::pods, 6, "scale up"),
                 change(40 * s, TimedKey::pods, 3, "scale down")};
  CallTrace trace;
  const Result r = traced(inc, trace);
  std::uint16_t max_before = 0, max_middle = 0, max_after = 0;
  for (std::size_t i = 0; i < r.checkouts.size(); ++i) {
    const Micros t = r.checkouts[i].arrival;
    std::uint16_t& m = t < 20 * s ? max_before : t < 40 * s ? max_middle : max_after;
    m = std::max(m, trace.pods[i]);
  }
  EXPECT_EQ(max_before, 1);
  EXPECT_EQ(max_middle, 5);
  EXPECT_EQ(max_after, 2);
  // And the pods lane counts them: 2, then 6, then 3 in rotation.
  ASSERT_EQ(r.per_second.pods_in_rotation.size(), 60u);
  EXPECT_EQ(r.per_second.pods_in_rotation[10], 2u);
  EXPECT_EQ(r.per_second.pods_in_rotation[30], 6u);
  EXPECT_EQ(r.per_second.pods_in_rotation[50], 3u);
  // Workers over all pods never leak: none is busy when the run is over.
  ASSERT_FALSE(r.per_second.workers_busy.empty());
  for (const std::uint32_t busy : r.per_second.workers_busy) EXPECT_LE(busy, 6u * 4u);
  EXPECT_EQ(r.metrics.failed_checkouts + r.metrics.fresh_checkouts, r.metrics.checkouts);
}

TEST(TimedChanges, APoolShrunkBelowWhatIsInUseClosesConnectionsAsTheyComeBack) {
  Incident inc = flaky(true);
  inc.deployed.retry.max_attempts = 1;
  inc.deployed.timeout.attempt = 5 * s;
  inc.deployed.pool.size = 200;
  const Micros at = 30 * s;
  inc.changes = {change(at, TimedKey::pool_size, 10, "shrink")};
  const Result r = simulate(inc, inc.deployed);
  const auto& pool = r.per_second.pool_busy;
  ASSERT_EQ(pool.size(), 60u);
  // In use before: about 50 rps × (half hang 5 s) = 125 connections.
  EXPECT_GT(pool[29], 60u);
  // Nothing is cut: right after the change the calls in flight still hold theirs.
  EXPECT_GT(pool[30], 60u);
  // Once the hung calls have timed out (5 s), at most the new size is in use.
  for (std::size_t sec = 36; sec < 60; ++sec) EXPECT_LE(pool[sec], 10u) << sec;
  // Growing it back serves the waiters at once.
  inc.changes.push_back(change(50 * s, TimedKey::pool_size, 200, "grow"));
  const Result grown = simulate(inc, inc.deployed);
  EXPECT_GT(grown.per_second.pool_busy[50], 10u);
}

TEST(TimedChanges, ALimitOnAPoolThatWasUnlimitedCountsConnectionsFromTheStart) {
  Incident inc = flaky(true);
  inc.deployed.retry.max_attempts = 1;
  inc.deployed.pool.size = 0;
  inc.changes = {change(30 * s, TimedKey::pool_size, 5)};
  const Result r = simulate(inc, inc.deployed);
  ASSERT_EQ(r.per_second.pool_busy.size(), 60u);
  EXPECT_GT(r.per_second.pool_busy[29], 5u);
  for (std::size_t sec = 33; sec < 60; ++sec) EXPECT_LE(r.per_second.pool_busy[sec], 5u) << sec;
}

TEST(TimedChanges, SwitchingRetryModeWithRetriesPendingKeepsEachRequestsMode) {
  // In-request retries hold the worker; background ones do not. Switching either way with
  // retries pending must neither leak nor double-free a worker.
  for (RetryMode from : {RetryMode::in_request, RetryMode::background}) {
    Incident inc = flaky();
    inc.deployed.retry.mode = from;
    // Enough workers that nobody queues for one: 50 rps × about 1 s of retrying.
    inc.deployed.workers.per_pod = 200;
    inc.deployed.workers.queue = 1000;
    const RetryMode to =
        from == RetryMode::in_request ? RetryMode::background : RetryMode::in_request;
    inc.changes = {change(30 * s, TimedKey::retry_mode, static_cast<int>(to))};
    const Result r = simulate(inc, inc.deployed);
    ASSERT_EQ(r.per_second.workers_busy.size(), 60u);
    for (const std::uint32_t busy : r.per_second.workers_busy) ASSERT_LE(busy, 200u);
    // Background retries hold no worker: far fewer are busy in the background half.
    const auto peak = [&](std::size_t a, std::size_t b) {
      return *std::max_element(r.per_second.workers_busy.begin() + a,
                               r.per_second.workers_busy.begin() + b);
    };
    if (from == RetryMode::in_request) {
      EXPECT_GT(peak(10, 29), 3 * peak(33, 60));
    } else {
      EXPECT_GT(peak(33, 60), 3 * peak(10, 29));
    }
    // In-request: a checkout waits out its retries (>= 500 ms when retried); background: its
    // first attempt answers it (20 ms).
    auto slowest = [&](Micros from_t, Micros to_t) {
      std::int32_t m = 0;
      for (const CheckoutRecord& c : r.checkouts)
        if (c.arrival >= from_t && c.arrival < to_t) m = std::max(m, c.latency_us);
      return m;
    };
    const bool background_first = from == RetryMode::background;
    EXPECT_EQ(slowest(0, 29 * s) < 100 * ms, background_first)
        << static_cast<int>(from) << " " << slowest(0, 29 * s);
    EXPECT_EQ(slowest(31 * s, 59 * s) < 100 * ms, !background_first)
        << static_cast<int>(from) << " " << slowest(31 * s, 59 * s);
  }
}

TEST(TimedChanges, ABreakerSwitchedOnStartsClosedAndTheLaneShowsItDisabledBefore) {
  Incident inc = flaky();
  inc.deployed.retry.max_attempts = 1;
  inc.deployed.breaker.enabled = false;
  inc.changes = {change(20 * s, TimedKey::breaker_enabled, 1, "breaker on"),
                 change(45 * s, TimedKey::breaker_enabled, 0, "breaker off")};
  const Result r = simulate(inc, inc.deployed);
  ASSERT_FALSE(r.breaker.intervals.empty());
  EXPECT_EQ(r.breaker.intervals.front().state, "disabled");
  EXPECT_EQ(r.breaker.intervals.front().to, 20 * s);
  EXPECT_EQ(r.breaker.stateAt(20 * s), "closed");
  EXPECT_EQ(r.breaker.intervals.back().state, "disabled");
  EXPECT_EQ(r.breaker.intervals.back().from, 45 * s);
  // Half the calls fail: it trips soon after it is on, and rejects while open.
  bool opened = false;
  for (const LaneInterval& i : r.breaker.intervals)
    opened = opened || (i.state == "open" && i.from >= 20 * s && i.from < 30 * s);
  EXPECT_TRUE(opened);
  std::size_t rejected_before = 0;
  for (const CheckoutRecord& c : r.checkouts)
    rejected_before +=
        c.arrival < 20 * s && c.reason == FailReason::cache_miss && c.latency_us == 0;
  EXPECT_EQ(rejected_before, 0u);
  EXPECT_GT(r.metrics.rejected_calls, 0u);
}

// A breaker that is off for the whole run is drawn as off, not as a breaker that stayed closed;
// its metrics are those of a run without one.
TEST(TimedChanges, ABreakerOffThroughoutIsOneDisabledSpell) {
  Incident inc = flaky();
  inc.deployed.breaker.enabled = false;
  for (const bool unrelated_change : {false, true}) {
    inc.changes.clear();
    if (unrelated_change) inc.changes = {change(10 * s, TimedKey::retry_max_attempts, 1)};
    const Result r = simulate(inc, inc.deployed);
    ASSERT_EQ(r.breaker.intervals.size(), 1u) << unrelated_change;
    EXPECT_EQ(r.breaker.intervals.front().state, kBreakerDisabled);
    EXPECT_EQ(r.breaker.intervals.front().from, inc.start);
    EXPECT_EQ(r.breaker.intervals.front().to, inc.end);
    EXPECT_EQ(r.metrics.trips, 0u);
    EXPECT_EQ(r.metrics.rejected_calls, 0u);
    EXPECT_EQ(r.metrics.cached_window_s, 0.0);
  }
}

TEST(TimedChanges, ADisabledChangeAndAnOverrideListAreHonoured) {
  Incident inc = flaky();
  const Result plain = simulate(inc, inc.deployed);
  inc.changes = {change(10 * s, TimedKey::retry_max_attempts, 1)};
  const Result changed = simulate(inc, inc.deployed);
  EXPECT_NE(changed.metrics.dependency_calls, plain.metrics.dependency_calls);
  inc.changes.front().enabled = false;
  EXPECT_EQ(simulate(inc, inc.deployed).checkouts, plain.checkouts);
  // A what-if's own list instead of the incident's: here, none.
  inc.changes.front().enabled = true;
  const std::vector<TimedChange> none;
  SimulateOptions options;
  options.changes = &none;
  EXPECT_EQ(simulate(inc, inc.deployed, options).checkouts, plain.checkouts);
  // And the same change twice gives the same run (determinism).
  EXPECT_EQ(simulate(inc, inc.deployed).checkouts, changed.checkouts);
}

// A dependency of four servers that takes 1 s a call, and four calls: three at T - 0.3 s,
// T - 0.2 s and T - 0.1 s, then the probe at T. The ceiling is halved over [60 s, 90 s).
Incident capacityProbe(Micros probe_at, CapacityDiscipline discipline, Micros queue_timeout) {
  Incident inc;
  inc.end = 120 * s;
  inc.traffic.arrivals = ArrivalProcess::recorded;
  inc.traffic.recorded = {probe_at - 300 * ms, probe_at - 200 * ms, probe_at - 100 * ms, probe_at};
  inc.traffic.lead_in = 0;
  DependencySegment seg;
  seg.state = "healthy";
  seg.from = 0;
  seg.to = inc.end;
  seg.latency_start = seg.latency_end = {LatencyModel::Kind::fixed, 1 * s, 1 * s};
  inc.dependency.segments = {seg};
  inc.dependency.capacity.concurrency = 4;
  inc.dependency.capacity.discipline = discipline;
  inc.dependency.capacity.queue_timeout = queue_timeout;
  inc.deployed.breaker.enabled = false;
  inc.deployed.cache.enabled = false;
  inc.deployed.timeout.attempt = 10 * s;
  inc.deployed.retry.max_attempts = 1;
  inc.changes = {change(60 * s, TimedKey::dependency_capacity_scale, 0.5, "capacity cut"),
                 change(90 * s, TimedKey::dependency_capacity_scale, 1, "capacity back")};
  return inc;
}

TEST(TimedChanges, ACapacityCutMakesCallsOverTheNewCeilingBehaveAsTheCapacityModelSaysDuringIt) {
  // What the probe meets while the ceiling is 2 (4 × 0.5), from the capacity model: with
  // discipline queue it waits until fewer than 2 of the 3 calls ahead are unfinished (the second
  // ends 0.8 s after it arrives, or later when it had to queue) and then takes its 1 s; with a
  // queue timeout of 0.5 s it is answered 503 after 0.5 s instead; with share its work stretches
  // by the 4 calls held (with it) over the 2 servers: twice its 1 s. Under a ceiling of 4 nothing
  // waits and nothing stretches: 1 s.
  struct Expect {
    CapacityDiscipline discipline;
    Micros queue_timeout;
    Micros latency_during;
    CallOutcome outcome_during;
  };
  const Expect expectations[] = {
      {CapacityDiscipline::queue, 0, 1800 * ms, CallOutcome::success},
      {CapacityDiscipline::queue, 500 * ms, 500 * ms, CallOutcome::server_error},
      {CapacityDiscipline::share, 0, 2 * s, CallOutcome::success},
  };
  // Probes before, at the edges of and inside [60 s, 90 s): at exactly 60 s the cut is in force
  // (a change applies before an arrival at its time), at exactly 90 s it is over.
  const Micros probes[] = {30 * s,     60 * s - 1, 60 * s,     60 * s + 1, 75 * s,
                           90 * s - 1, 90 * s,     90 * s + 1, 100 * s};
  for (const Expect& e : expectations) {
    for (const Micros at : probes) {
      const bool during = at >= 60 * s && at < 90 * s;
      Incident inc = capacityProbe(at, e.discipline, e.queue_timeout);
      for (const bool with_changes : {true, false}) {
        if (!with_changes) inc.changes.clear();
        CallTrace trace;
        traced(inc, trace);
        const auto probe = std::find_if(trace.calls.begin(), trace.calls.end(),
                                        [](const TracedCall& c) { return c.record == 3; });
        ASSERT_NE(probe, trace.calls.end());
        const bool cut = with_changes && during;
        EXPECT_EQ(probe->start, at);
        EXPECT_EQ(probe->duration, cut ? e.latency_during : 1 * s)
            << static_cast<int>(e.discipline) << " probe at " << at << " changes " << with_changes;
        EXPECT_EQ(probe->outcome, cut ? e.outcome_during : CallOutcome::success)
            << static_cast<int>(e.discipline) << " probe at " << at;
        // Before the cut, the calls ahead of the probe all ran under the full ceiling: none of
        // them waited or stretched.
        if (at < 60 * s || !with_changes) {
          for (const TracedCall& c : trace.calls) EXPECT_EQ(c.duration, 1 * s) << at;
        }
      }
    }
  }
}

TEST(TimedChanges, ALatencyScaleAppliesToCallsSentFromTheChangeOnAndCallsInServiceKeepTheirs) {
  Incident inc = flaky();
  inc.traffic.arrivals = ArrivalProcess::recorded;
  // Calls sent before, across and inside [60 s, 90 s); 59.95 s and 89.95 s are in service at the
  // changes.
  const Micros sent[] = {30 * s, 59'950 * ms, 60 * s, 75 * s, 89'950 * ms, 90 * s, 100 * s};
  inc.traffic.recorded.assign(std::begin(sent), std::end(sent));
  inc.end = 120 * s;
  inc.dependency.segments.front().to = inc.end;
  inc.dependency.segments.front().mix_start = inc.dependency.segments.front().mix_end = {};
  inc.dependency.segments.front().latency_start =
      inc.dependency.segments.front().latency_end = {LatencyModel::Kind::fixed, 100 * ms, 100 * ms};
  inc.changes = {change(60 * s, TimedKey::dependency_latency_scale, 2.5, "slow"),
                 change(90 * s, TimedKey::dependency_latency_scale, 1, "back")};
  CallTrace trace;
  traced(inc, trace);
  ASSERT_EQ(trace.calls.size(), std::size(sent));
  for (const TracedCall& c : trace.calls) {
    const bool during = c.start >= 60 * s && c.start < 90 * s;
    EXPECT_EQ(c.duration, during ? 250 * ms : 100 * ms) << c.start;
  }
}

TEST(TimedChanges, ValidationNamesTheProblem) {
  const Incident inc = flaky();
  EXPECT_EQ(validateChanges({change(70 * s, TimedKey::pods, 2)}, inc.deployed, 0, 60 * s),
            "changes[0].at must be within the window");
  EXPECT_EQ(
      validateChanges({change(10 * s, TimedKey::retry_max_attempts, 0)}, inc.deployed, 0, 60 * s),
      "after the change at 1 in time order: retry.max_attempts must be 1 to 100");
  EXPECT_EQ(validateChanges({TimedChange{10 * s, {}, ""}}, inc.deployed, 0, 60 * s),
            "changes[0].set must set at least one key");
  // The dependency's factors: within 0.01 to 100, never clamped.
  for (const TimedKey key :
       {TimedKey::dependency_capacity_scale, TimedKey::dependency_latency_scale}) {
    const std::string name(timedKeyInfo(key).name);
    for (const double ok : {0.01, 0.5, 1.0, 100.0})
      EXPECT_EQ(validateChanges({change(10 * s, key, ok)}, inc.deployed, 0, 60 * s), "") << ok;
    EXPECT_EQ(validateChanges({change(10 * s, key, 0)}, inc.deployed, 0, 60 * s),
              "changes[0].set: " + name + " must be a factor from 0.01 to 100, got 0");
    EXPECT_EQ(validateChanges({change(10 * s, key, -2)}, inc.deployed, 0, 60 * s),
              "changes[0].set: " + name + " must be a factor from 0.01 to 100, got -2");
    EXPECT_EQ(validateChanges({change(10 * s, key, 100.5)}, inc.deployed, 0, 60 * s),
              "changes[0].set: " + name + " must be a factor from 0.01 to 100, got 100.5");
    EXPECT_EQ(validateChanges({change(10 * s, key, std::nan(""))}, inc.deployed, 0, 60 * s),
              "changes[0].set has a value that is not a number");
  }
  // A capacity factor needs a ceiling: the incident's check.
  Incident uncapped = flaky();
  uncapped.changes = {change(10 * s, TimedKey::dependency_capacity_scale, 0.5)};
  EXPECT_NE(validate(uncapped).find("dependency.capacity.scale needs a concurrency ceiling"),
            std::string::npos)
      << validate(uncapped);
  Incident capped = uncapped;
  capped.dependency.capacity.concurrency = 10;
  EXPECT_EQ(validate(capped), "");
  capped.dependency.capacity.discipline = CapacityDiscipline::load;
  capped.dependency.capacity.per_call = 10 * ms;
  EXPECT_NE(validate(capped), "");
}

}  // namespace
}  // namespace breakerlab
