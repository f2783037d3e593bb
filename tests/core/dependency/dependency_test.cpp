#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "dependency/dependency_model.h"

namespace breakerlab {
namespace {

Dependency dependencyOf(std::vector<DependencySegment> segments) {
  Dependency d;
  d.name = "p";
  d.segments = std::move(segments);
  return d;
}

DependencySegment segment(Micros from, Micros to) {
  DependencySegment s;
  s.state = "test";
  s.from = from;
  s.to = to;
  return s;
}

TEST(Dependency, NormalQuantileKnownValues) {
  EXPECT_NEAR(normalQuantile(0.5), 0.0, 1e-9);
  EXPECT_NEAR(normalQuantile(0.99), 2.3263478740, 1e-8);
  EXPECT_NEAR(normalQuantile(0.001), -3.0902323062, 1e-8);
}

TEST(Dependency, LognormalMatchesItsP50AndP99) {
  DependencySegment s = segment(0, 1000 * kSecond);
  s.latency_start =
      s.latency_end = {LatencyModel::Kind::lognormal, 25 * kMillisecond, 120 * kMillisecond};
  DependencyModel model(dependencyOf({s}));
  const CounterRng rng(3);
  std::vector<Micros> lat;
  for (std::uint64_t r = 0; r < 100000; ++r)
    lat.push_back(model.answer(static_cast<Micros>(r), rng, Stream::window, r, 0).latency);
  std::sort(lat.begin(), lat.end());
  EXPECT_NEAR(static_cast<double>(lat[50000]), 25000, 25000 * 0.02);
  EXPECT_NEAR(static_cast<double>(lat[99000]), 120000, 120000 * 0.04);
}

TEST(Dependency, OutcomeShareRampsLinearlyAcrossTheSegment) {
  // Timeouts from 10% at the start to 100% at the end: 55% on average, ~32.5% in the first
  // half.
  DependencySegment s = segment(0, 100 * kSecond);
  s.mix_start.timeout = 0.1;
  s.mix_end.timeout = 1.0;
  DependencyModel model(dependencyOf({s}));
  const CounterRng rng(11);
  int first_half = 0, total = 0;
  constexpr int n = 100000;
  for (int i = 0; i < n; ++i) {
    const Micros t = static_cast<Micros>(i) * 1000;  // 0..100 s
    const auto a = model.answer(t, rng, Stream::window, static_cast<std::uint64_t>(i), 0);
    if (a.outcome == CallOutcome::timeout) {
      ++total;
      first_half += t < 50 * kSecond;
      EXPECT_EQ(a.latency, kNever) << "a timeout is a hang";
    }
  }
  EXPECT_NEAR(total / double(n), 0.55, 0.01);
  EXPECT_NEAR(first_half / double(n / 2), 0.325, 0.01);
}

TEST(Dependency, RefusedFailsFastAndSegmentsFollowTime) {
  DependencySegment healthy = segment(0, 10 * kSecond);
  healthy.latency_start = healthy.latency_end = {LatencyModel::Kind::fixed, 20 * kMillisecond, 0};
  DependencySegment refused = segment(10 * kSecond, 20 * kSecond);
  refused.mix_start.refused = refused.mix_end.refused = 1.0;
  refused.refused_latency = 2 * kMillisecond;
  DependencyModel model(dependencyOf({healthy, refused}));
  const CounterRng rng(1);
  const auto a = model.answer(5 * kSecond, rng, Stream::window, 0, 0);
  EXPECT_EQ(a.outcome, CallOutcome::success);
  EXPECT_EQ(a.latency, 20 * kMillisecond);
  const auto b = model.answer(15 * kSecond, rng, Stream::window, 1, 0);
  EXPECT_EQ(b.outcome, CallOutcome::refused);
  EXPECT_EQ(b.latency, 2 * kMillisecond);
}

// dependency.latency.scale: every answered call's latency times the factor, rounded to the
// microsecond; the outcome drawn is the same, a refused connection fails as fast, a hang hangs.
TEST(Dependency, ALatencyScaleMultipliesTheLatencyOfAnsweredCallsOnly) {
  const LatencyModel kinds[] = {
      {LatencyModel::Kind::fixed, 20 * kMillisecond, 0},
      {LatencyModel::Kind::lognormal, 20 * kMillisecond, 300 * kMillisecond},
      {LatencyModel::Kind::exponential, 35 * kMillisecond, 0}};
  for (const LatencyModel& latency : kinds) {
    DependencySegment seg = segment(0, 60 * kSecond);
    seg.latency_start = seg.latency_end = latency;
    seg.mix_start = seg.mix_end = {0.1, 0.1, 0.2, 0.1};  // timeout, refused, 5xx, 4xx
    seg.refused_latency = 3 * kMillisecond;
    for (const double factor : {0.01, 0.5, 1.0, 2.5, 100.0}) {
      DependencyModel plain(dependencyOf({seg})), scaled(dependencyOf({seg}));
      scaled.scaleLatency(factor);
      const CounterRng rng(5);
      for (std::uint64_t call = 0; call < 2000; ++call) {
        const Micros t = static_cast<Micros>(call) * 20 * kMillisecond;
        const DependencyAnswer a = plain.answer(t, rng, Stream::window, call, 0);
        const DependencyAnswer b = scaled.answer(t, rng, Stream::window, call, 0);
        ASSERT_EQ(b.outcome, a.outcome);
        if (a.outcome == CallOutcome::refused || a.latency == kNever) {
          EXPECT_EQ(b.latency, a.latency);
        } else {
          EXPECT_EQ(b.latency, std::llround(static_cast<double>(a.latency) * factor))
              << factor << " call " << call;
        }
      }
    }
  }
}

}  // namespace
}  // namespace breakerlab
