#include "outcome/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace breakerlab {

int LatencyHistogram::indexOf(std::uint64_t v) {
  if (v < kSub) return static_cast<int>(v);
  const int magnitude = 63 - std::countl_zero(v);  // >= kSubBits
  const int shift = magnitude - kSubBits;
  const int sub = static_cast<int>((v >> shift) & (kSub - 1));
  return (shift + 1) * kSub + sub;
}

double LatencyHistogram::upperBound(int index) {
  if (index < kSub) return index;
  const int shift = index / kSub - 1;
  const std::uint64_t sub = static_cast<std::uint64_t>(index % kSub) | kSub;
  return std::ldexp(static_cast<double>(sub + 1), shift) - 1;
}

void LatencyHistogram::record(std::int64_t micros) {
  const std::uint64_t v = micros < 0 ? 0 : static_cast<std::uint64_t>(micros);
  ++counts_[static_cast<std::size_t>(indexOf(v))];
  ++count_;
  max_ = std::max<std::int64_t>(max_, static_cast<std::int64_t>(v));
}

double LatencyHistogram::quantileMicros(double quantile) const {
  if (count_ == 0) return 0;
  const auto rank = static_cast<std::uint64_t>(std::ceil(quantile * static_cast<double>(count_)));
  const std::uint64_t target = std::max<std::uint64_t>(rank, 1);
  std::uint64_t seen = 0;
  for (int i = 0; i < kBuckets; ++i) {
    seen += counts_[static_cast<std::size_t>(i)];
    if (seen >= target) return std::min(upperBound(i), static_cast<double>(max_));
  }
  return static_cast<double>(max_);
}

}  // namespace breakerlab
