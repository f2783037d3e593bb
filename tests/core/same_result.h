#pragma once
// Two replays that must be the same run (a replay resumed from the lead-in, a repeat of the same
// inputs): every checkout byte for byte, the lanes, the events, the per-second calls and every
// metric.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "breakerlab/core/metrics.h"
#include "breakerlab/core/simulate.h"

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

}  // namespace breakerlab::test
