#include <gtest/gtest.h>

#include <cmath>

#include "dependency/random.h"

namespace breakerlab {
namespace {

TEST(CounterRng, SameKeySameDraw) {
  const CounterRng a(42), b(42);
  for (std::uint64_t r = 0; r < 1000; ++r)
    EXPECT_EQ(a.bits(Stream::window, r, 0, Purpose::outcome),
              b.bits(Stream::window, r, 0, Purpose::outcome));
}

TEST(CounterRng, KeysAreIndependentStreams) {
  const CounterRng rng(7);
  int same = 0;
  for (std::uint64_t r = 0; r < 10000; ++r) {
    same += rng.bits(Stream::window, r, 0, Purpose::outcome) ==
            rng.bits(Stream::window, r, 0, Purpose::latency);
    same += rng.bits(Stream::window, r, 0, Purpose::key) ==
            rng.bits(Stream::lead_in, r, 0, Purpose::key);
    same += rng.bits(Stream::window, r, 0, Purpose::outcome) ==
            rng.bits(Stream::window, r, 1, Purpose::outcome);
  }
  EXPECT_EQ(same, 0);
  EXPECT_NE(CounterRng(1).bits(Stream::window, 0, 0, Purpose::key),
            CounterRng(2).bits(Stream::window, 0, 0, Purpose::key));
}

TEST(CounterRng, UniformHasTheRightMomentsAndNoLag1Correlation) {
  const CounterRng rng(2026);
  constexpr int n = 200000;
  double sum = 0, sum2 = 0, lag = 0, previous = 0.5;
  for (int i = 0; i < n; ++i) {
    const double u =
        rng.uniform(Stream::window, static_cast<std::uint64_t>(i), 0, Purpose::outcome);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sum2 += u * u;
    lag += (u - 0.5) * (previous - 0.5);
    previous = u;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.003);
  EXPECT_NEAR(sum2 / n - (sum / n) * (sum / n), 1.0 / 12, 0.001);
  EXPECT_NEAR(lag / n, 0.0, 0.001);
}

}  // namespace
}  // namespace breakerlab
