#include <gtest/gtest.h>

#include "outcome/latency_histogram.h"

namespace breakerlab {
namespace {

TEST(LatencyHistogram, QuantilesWithinOnePointSixPercent) {
  LatencyHistogram h;
  for (int v = 1; v <= 100000; ++v) h.record(v);
  for (double q : {0.5, 0.95, 0.99}) {
    const double exact = q * 100000;
    EXPECT_NEAR(h.quantileMicros(q), exact, exact / 64) << q;
  }
  EXPECT_EQ(h.max(), 100000);
  EXPECT_EQ(h.count(), 100000u);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  LatencyHistogram h;
  for (int i = 0; i < 10; ++i) h.record(i);
  EXPECT_EQ(h.quantileMicros(0.5), 4);
  EXPECT_EQ(h.quantileMicros(1.0), 9);
  LatencyHistogram empty;
  EXPECT_EQ(empty.quantileMicros(0.99), 0);
}

}  // namespace
}  // namespace breakerlab
