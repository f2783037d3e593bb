#include <gtest/gtest.h>

#include <cmath>

#include "dependency/traffic_model.h"

namespace breakerlab {
namespace {

std::vector<Micros> drain(ArrivalStream& stream) {
  std::vector<Micros> out;
  for (Micros t = stream.next(); t != kNever; t = stream.next()) out.push_back(t);
  return out;
}

TEST(Traffic, UniformArrivalsAreEvenlySpaced) {
  const CounterRng rng(1);
  ArrivalStream stream(ArrivalProcess::uniform, {{0, 60 * kSecond, 40, 40}}, 0, 60 * kSecond, rng,
                       Stream::window);
  const auto t = drain(stream);
  ASSERT_EQ(t.size(), 2400u);
  EXPECT_EQ(t.front(), 12500);  // half a gap in
  EXPECT_EQ(t[1] - t[0], 25000);
  EXPECT_TRUE(std::is_sorted(t.begin(), t.end()));
}

TEST(Traffic, RampCountsTheAreaUnderTheRate) {
  const CounterRng rng(1);
  // 0 -> 100 rps over 10 s: 500 requests, the first half of the time carries a quarter.
  ArrivalStream stream(ArrivalProcess::uniform, {{0, 10 * kSecond, 0, 100}}, 0, 10 * kSecond, rng,
                       Stream::window);
  const auto t = drain(stream);
  EXPECT_EQ(t.size(), 500u);
  const auto first_half =
      std::count_if(t.begin(), t.end(), [](Micros x) { return x < 5 * kSecond; });
  EXPECT_EQ(first_half, 125);
}

TEST(Traffic, PoissonCountMatchesTheMean) {
  const CounterRng rng(99);
  ArrivalStream stream(ArrivalProcess::poisson, {{0, 100 * kSecond, 200, 200}}, 0, 100 * kSecond,
                       rng, Stream::window);
  const auto t = drain(stream);
  EXPECT_NEAR(static_cast<double>(t.size()), 20000.0, 4 * std::sqrt(20000.0));
  // Exponential gaps: the share of gaps above the mean is e^-1.
  int above = 0;
  for (std::size_t i = 1; i < t.size(); ++i) above += (t[i] - t[i - 1]) > 5000;
  EXPECT_NEAR(static_cast<double>(above) / static_cast<double>(t.size() - 1), std::exp(-1.0), 0.01);
}

TEST(Traffic, RecordedArrivalsAreClippedToTheWindow) {
  const std::vector<Micros> times{-5, 0, 10, 20, 60 * kSecond};
  ArrivalStream stream(times, 0, 60 * kSecond);
  EXPECT_EQ(drain(stream), (std::vector<Micros>{0, 10, 20}));
}

TEST(Traffic, LeadInHoldsTheRateAtTheWindowStart) {
  Traffic traffic;
  traffic.rate = {{0, 10 * kSecond, 40, 80}};
  traffic.lead_in = 30 * kSecond;
  const auto lead = leadInRate(traffic, 0, 10 * kSecond);
  ASSERT_EQ(lead.size(), 1u);
  EXPECT_EQ(lead[0].from, -30 * kSecond);
  EXPECT_EQ(lead[0].rps_from, 40);
}

TEST(KeySampler, ZipfFrequenciesFollowTheWeights) {
  const KeySampler keys({10, 1.0});
  const CounterRng rng(5);
  std::vector<int> counts(10);
  constexpr int n = 200000;
  for (int i = 0; i < n; ++i)
    ++counts[keys.sample(
        rng.uniform(Stream::window, static_cast<std::uint64_t>(i), 0, Purpose::key))];
  double harmonic = 0;
  for (int k = 1; k <= 10; ++k) harmonic += 1.0 / k;
  for (int k = 0; k < 10; ++k) {
    const double expected = n / ((k + 1) * harmonic);
    EXPECT_NEAR(counts[k], expected, 5 * std::sqrt(expected)) << "key " << k;
  }
}

}  // namespace
}  // namespace breakerlab
