#pragma once
// How the dependency answers a call started at time t: the outcome class and how long it takes.
#include <cmath>
#include <memory>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "dependency/dependency_answer.h"
#include "dependency/random.h"
#include "dependency/recorded_dependency.h"

namespace breakerlab {

class DependencyModel {
 public:
  // `first_arrival`: with recorded calls, the index of the window's first recorded arrival.
  explicit DependencyModel(const Dependency& dependency, std::size_t first_arrival = 0);

  // Calls arrive in time order, so the segment is found with a cursor that only moves forward.
  // Before the first segment (the lead-in) the first segment's start values apply; after the
  // last, its end values.
  DependencyAnswer answer(Micros t, const CounterRng& rng, Stream stream, std::uint64_t request,
                          std::uint32_t attempt);

  // From now on the latency of every call answered (not a refused connection, not a hang) is
  // multiplied by `factor`, rounded to the microsecond (dependency.latency.scale); calls
  // answered before keep theirs. 1 is the incident's latency.
  void scaleLatency(double factor) { latency_scale_ = factor; }

 private:
  [[gnu::noinline]] Micros scaled(Micros latency) const {
    return static_cast<Micros>(std::llround(static_cast<double>(latency) * latency_scale_));
  }
  struct Segment {
    Micros from, to;
    double inverse_duration;  // 1 / (to - from) in 1/us
    bool ramps;
    // Every threshold is 0 at both ends: every answer is a success, whatever the outcome draw,
    // so it is not drawn.
    bool never_fails;
    // Cumulative thresholds for timeout, refused, server_error, client_error, at start and end.
    double cum_start[4];
    double cum_end[4];
    double cum_flat[4];  // the thresholds when the segment does not ramp (f = 0)
    bool lognormal;
    bool exponential;                                 // mean in fixed_start / fixed_end
    double mu_start, sigma_start, mu_end, sigma_end;  // ln-microseconds; mu = fixed value's ln
    Micros fixed_start, fixed_end;
    Micros refused_latency;
    double retry_correlation;
    // Latency at u = i/4096 when the distribution does not ramp; shared with a per-thread cache.
    std::shared_ptr<const std::vector<double>> quantiles;
    const double* quantile_table;  // quantiles->data(), or nullptr
  };
  // The table's interpolation (inlined into answer()), or the quantile computed: a ramp, or u
  // in the table's outer cells.
  [[gnu::always_inline]] static inline Micros sampleLognormal(const Segment& s, double f, double u);
  [[gnu::noinline]] static Micros sampleLognormalExactly(const Segment& s, double f, double u);
  std::vector<Segment> segments_;
  std::size_t cursor_ = 0;
  double latency_scale_ = 1;
  RecordedDependency recorded_;  // a request log's calls answer instead of the segments
};

// The standard normal quantile function (Acklam's rational approximation, |rel err| < 1.2e-9).
double normalQuantile(double p);

}  // namespace breakerlab
