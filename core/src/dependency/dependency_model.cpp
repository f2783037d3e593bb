#include "dependency/dependency_model.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace breakerlab {

namespace {
constexpr double kZ99 = 2.3263478740408408;  // normalQuantile(0.99)

void cumulative(const OutcomeMix& mix, double out[4]) {
  out[0] = mix.timeout;
  out[1] = out[0] + mix.refused;
  out[2] = out[1] + mix.server_error;
  out[3] = out[2] + mix.client_error;
}

void lognormalParameters(const LatencyModel& m, double& mu, double& sigma) {
  mu = std::log(static_cast<double>(std::max<Micros>(m.p50, 1)));
  const double ln99 = std::log(static_cast<double>(std::max<Micros>(m.p99, 1)));
  sigma = std::max(0.0, (ln99 - mu) / kZ99);
}
}  // namespace

double normalQuantile(double p) {
  static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                 -2.759285104469687e+02, 1.383577518672690e+02,
                                 -3.066479806614716e+01, 2.506628277459239e+00};
  static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                 -1.556989798598866e+02, 6.680131188771972e+01,
                                 -1.328068155288572e+01};
  static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                 -2.400758277161838e+00, -2.549732539343734e+00,
                                 4.374664141464968e+00,  2.938163982698783e+00};
  static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                 2.445134137142996e+00, 3.754408661907416e+00};
  constexpr double low = 0.02425;
  p = std::clamp(p, 1e-300, 1.0 - 1e-16);
  if (p < low) {
    const double q = std::sqrt(-2 * std::log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - low) {
    const double q = std::sqrt(-2 * std::log1p(-p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double q = p - 0.5;
  const double r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

namespace {
// Standard normal quantiles at u = i / kZTableSize, built once per process: interpolating it
// replaces the rational approximation on the hot path. The outer 1/kZTableSize on each side is
// computed exactly, where linear interpolation of the convex tail would be too coarse.
constexpr std::size_t kZTableSize = 4096;
const std::vector<double>& zTable() {
  static const std::vector<double> table = [] {
    std::vector<double> t(kZTableSize + 1);
    for (std::size_t i = 0; i <= kZTableSize; ++i)
      t[i] = normalQuantile(static_cast<double>(i) / kZTableSize);
    return t;
  }();
  return table;
}

double standardNormal(double u) {
  constexpr double kEdge = 1.0 / kZTableSize;
  if (u < kEdge || u >= 1 - kEdge) return normalQuantile(u);
  const std::vector<double>& t = zTable();
  const double x = u * kZTableSize;
  const auto i = static_cast<std::size_t>(x);
  return t[i] + (x - static_cast<double>(i)) * (t[i + 1] - t[i]);
}

// exp(mu + sigma * z) at u = i / kZTableSize: a pure function of (mu, sigma), so every run
// uses the table whether or not it was cached. The per-thread cache only saves rebuilding it
// when an incident is re-run (every slider tick); evicted tables live on in the models using them.
std::shared_ptr<const std::vector<double>> latencyQuantiles(double mu, double sigma) {
  struct Entry {
    double mu, sigma;
    std::shared_ptr<const std::vector<double>> table;
  };
  thread_local std::vector<Entry> cache;
  for (const auto& e : cache)
    if (e.mu == mu && e.sigma == sigma) return e.table;
  const std::vector<double>& z = zTable();
  auto table = std::make_shared<std::vector<double>>(kZTableSize + 1);
  for (std::size_t i = 0; i <= kZTableSize; ++i)
    (*table)[i] = std::min(std::exp(mu + sigma * z[i]), 1e15);
  if (cache.size() >= 64) cache.erase(cache.begin());
  cache.push_back({mu, sigma, table});
  return table;
}
}  // namespace

DependencyModel::DependencyModel(const Dependency& dependency, std::size_t first_arrival)
    : recorded_(dependency.calls, first_arrival, dependency.segments) {
  for (const auto& s : dependency.segments) {
    Segment seg{};
    seg.from = s.from;
    seg.to = s.to;
    seg.inverse_duration = s.to > s.from ? 1.0 / static_cast<double>(s.to - s.from) : 0.0;
    cumulative(s.mix_start, seg.cum_start);
    cumulative(s.mix_end, seg.cum_end);
    seg.lognormal = s.latency_start.kind == LatencyModel::Kind::lognormal;
    seg.exponential = s.latency_start.kind == LatencyModel::Kind::exponential;
    lognormalParameters(s.latency_start, seg.mu_start, seg.sigma_start);
    lognormalParameters(s.latency_end, seg.mu_end, seg.sigma_end);
    seg.fixed_start = s.latency_start.p50;
    seg.fixed_end = s.latency_end.p50;
    seg.never_fails =
        std::all_of(seg.cum_start, seg.cum_start + 4, [](double c) { return c == 0; }) &&
        std::all_of(seg.cum_end, seg.cum_end + 4, [](double c) { return c == 0; });
    seg.ramps = !std::equal(seg.cum_start, seg.cum_start + 4, seg.cum_end) ||
                seg.mu_start != seg.mu_end || seg.sigma_start != seg.sigma_end ||
                seg.fixed_start != seg.fixed_end;
    // Without a ramp f is always 0: the thresholds are these, computed as answer() would.
    constexpr double kNoRamp = 0.0;
    for (int i = 0; i < 4; ++i)
      seg.cum_flat[i] = seg.cum_start[i] + kNoRamp * (seg.cum_end[i] - seg.cum_start[i]);
    seg.refused_latency = s.refused_latency;
    seg.retry_correlation = s.retry_correlation;
    seg.quantiles = seg.lognormal && seg.mu_start == seg.mu_end && seg.sigma_start == seg.sigma_end
                        ? latencyQuantiles(seg.mu_start, seg.sigma_start)
                        : nullptr;
    seg.quantile_table = seg.quantiles != nullptr ? seg.quantiles->data() : nullptr;
    segments_.push_back(seg);
  }
}

DependencyAnswer DependencyModel::answer(Micros t, const CounterRng& rng, Stream stream,
                                         std::uint64_t request, std::uint32_t attempt) {
  if (recorded_.active()) [[unlikely]] {
    DependencyAnswer recorded = recorded_.answer(t, rng, stream, request, attempt);
    if (latency_scale_ != 1 && recorded.outcome != CallOutcome::refused &&
        recorded.latency != kNever)
      recorded.latency = scaled(recorded.latency);
    return recorded;
  }
  if (segments_.empty()) return {CallOutcome::success, 0};
  while (cursor_ + 1 < segments_.size() && t >= segments_[cursor_].to) ++cursor_;
  const Segment& s = segments_[cursor_];
  double f = 0;
  if (s.ramps) f = std::clamp(static_cast<double>(t - s.from) * s.inverse_duration, 0.0, 1.0);

  // A correlated retry replays the first attempt's draws (at this segment's current values).
  if (attempt > 0 && s.retry_correlation > 0 &&
      rng.uniform(stream, request, attempt, Purpose::correlation) < s.retry_correlation)
    attempt = 0;
  CallOutcome outcome = CallOutcome::success;
  if (!s.never_fails) {
    const double u = rng.uniform(stream, request, attempt, Purpose::outcome);
    auto threshold = [&](int i) {
      return s.ramps ? s.cum_start[i] + f * (s.cum_end[i] - s.cum_start[i]) : s.cum_flat[i];
    };
    if (u < threshold(0)) return {CallOutcome::timeout, kNever};
    if (u < threshold(1)) return {CallOutcome::refused, s.refused_latency};
    if (u < threshold(2)) {
      outcome = CallOutcome::server_error;
    } else if (u < threshold(3)) {
      outcome = CallOutcome::client_error;
    }
  }
  Micros latency;
  if (s.lognormal) {
    latency = sampleLognormal(s, f, rng.uniform(stream, request, attempt, Purpose::latency));
  } else if (s.exponential) {
    const double mean =
        static_cast<double>(s.fixed_start) + f * static_cast<double>(s.fixed_end - s.fixed_start);
    const double u2 = rng.uniform(stream, request, attempt, Purpose::latency);
    latency = static_cast<Micros>(-mean * std::log1p(-u2) + 0.5);
  } else {
    latency = s.fixed_start +
              static_cast<Micros>(f * static_cast<double>(s.fixed_end - s.fixed_start) + 0.5);
  }
  if (latency_scale_ != 1) [[unlikely]]
    latency = scaled(latency);
  return {outcome, latency};
}

Micros DependencyModel::sampleLognormal(const Segment& s, double f, double u) {
  constexpr double kEdge = 1.0 / kZTableSize;
  if (s.quantile_table != nullptr && u >= kEdge && u < 1 - kEdge) [[likely]] {
    const double* t = s.quantile_table;
    const double x = u * kZTableSize;
    const auto i = static_cast<std::size_t>(x);
    return static_cast<Micros>(t[i] + (x - static_cast<double>(i)) * (t[i + 1] - t[i]) + 0.5);
  }
  return sampleLognormalExactly(s, f, u);
}

Micros DependencyModel::sampleLognormalExactly(const Segment& s, double f, double u) {
  const double mu = s.mu_start + f * (s.mu_end - s.mu_start);
  const double sigma = s.sigma_start + f * (s.sigma_end - s.sigma_start);
  return static_cast<Micros>(std::min(std::exp(mu + sigma * standardNormal(u)), 1e15) + 0.5);
}

}  // namespace breakerlab
