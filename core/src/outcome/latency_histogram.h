#pragma once
// Log-linear latency histogram (HDR style): O(1) record, percentiles to within 1/64 (1.6%)
// relative error, without keeping or sorting every sample.
#include <array>
#include <cstdint>

namespace breakerlab {

class LatencyHistogram {
 public:
  void record(std::int64_t micros);
  std::uint64_t count() const { return count_; }
  std::int64_t max() const { return max_; }
  // The smallest recorded-bucket upper bound below which `quantile` of the samples fall.
  double quantileMicros(double quantile) const;

 private:
  static constexpr int kSubBits = 6;  // 64 sub-buckets per power of two
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kBuckets = (64 - kSubBits + 1) * kSub;
  static int indexOf(std::uint64_t v);
  static double upperBound(int index);

  std::array<std::uint64_t, kBuckets> counts_{};
  std::uint64_t count_ = 0;
  std::int64_t max_ = 0;
};

}  // namespace breakerlab
