#pragma once
// Two replays that must be the same run (a replay resumed from the lead-in, a repeat of the same
// inputs): every checkout byte for byte, the lanes, the events, the per-second calls and every
// metric.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/replay/simulate.h"

namespace breakerlab::test {

inline void expectSameRun(const Result& a, const Result& b, const std::string& what) {
  ASSERT_EQ(a.checkouts.size(), b.checkouts.size()) << what;
  EXPECT_EQ(std::memcmp(a.checkouts.data(), b.checkouts.data(),
                        a.checkouts.size() * sizeof(CheckoutRecord)),
            0)
      << what;
  EXPECT_EQ(a.breaker, b.breaker) << what;
  EXPECT_EQ(a.checkout, b.checkout) << what;
  EXPECT_EQ(a.events.size(), b.events.size()) << what;
  EXPECT_EQ(a.per_second.dependency_calls, b.per_second.dependency_calls) << what;
  EXPECT_EQ(a.simulated_requests, b.simulated_requests) << what;
  for (const auto& m : metricRegistry())
    EXPECT_EQ(m.get(a.metrics), m.get(b.metrics)) << what << " " << m.name;
}

// expectSameRun and the rest of what a replay returns: every lane, every event and series.
inline void expectIdentical(Result& fresh, Result& reused, const std::string& what) {
  expectSameRun(fresh, reused, what);
  EXPECT_EQ(fresh.dependency, reused.dependency) << what;
  EXPECT_EQ(fresh.health, reused.health) << what;
  EXPECT_EQ(fresh.pods, reused.pods) << what;
  ASSERT_EQ(fresh.events.size(), reused.events.size()) << what;
  for (std::size_t i = 0; i < fresh.events.size(); ++i) {
    EXPECT_EQ(fresh.events[i].at, reused.events[i].at) << what;
    EXPECT_EQ(fresh.events[i].kind, reused.events[i].kind) << what;
    EXPECT_EQ(fresh.events[i].lane, reused.events[i].lane) << what;
    EXPECT_EQ(fresh.events[i].label, reused.events[i].label) << what;
  }
  const auto a = fresh.per_second.all();
  const auto b = reused.per_second.all();
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(*a[i], *b[i]) << what << " series " << i;
  for (const auto& m : metricRegistry()) {
    const std::optional<double> x = m.get(fresh.metrics), y = m.get(reused.metrics);
    ASSERT_EQ(x.has_value(), y.has_value()) << what << " " << m.name;
    if (x) {
      EXPECT_EQ(std::memcmp(&*x, &*y, sizeof(double)), 0) << what << " " << m.name;
    }
  }
}

}  // namespace breakerlab::test
