// The breaker in force as another library's settings. Each library's mapping cites where the
// library decides what the mapped setting means (docs/libraries.md has the sources); the
// exporters in data/src/export/ write the same mapping as the library's file.
#include "breakerlab/core/inputs/library_translation.h"

#include "breakerlab/core/inputs/breaker_rules.h"
#include "breakerlab/core/inputs/work_estimate.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace breakerlab {

namespace {

constexpr Micros kResilience4jDefaultSlowDuration = 60 * kSecond;  // CircuitBreakerConfig
constexpr Micros kGobreakerDefaultTimeout = 60 * kSecond;  // gobreaker.go, NewCircuitBreaker

std::string seconds(Micros d) {
  const double s = static_cast<double>(d) / kSecond;
  std::string out = std::to_string(s);
  out.erase(out.find_last_not_of('0') + 1);
  if (out.back() == '.') out.pop_back();
  return out + " s";
}

std::string number(double v) {
  std::string out = std::to_string(v);
  out.erase(out.find_last_not_of('0') + 1);
  if (out.back() == '.') out.pop_back();
  return out;
}

class Losses {
 public:
  void add(std::string setting, std::string why) {
    list_.push_back({std::move(setting), std::move(why)});
  }
  std::vector<NotCarriedOver> take() { return std::move(list_); }

 private:
  std::vector<NotCarriedOver> list_;
};

// What no library but the generic machine has: listed for every target when in effect.
void genericOnly(const BreakerConfig& b, std::string_view lib, Losses& lost) {
  if (b.early_probe)
    lost.add("breaker.open.early_probe",
             std::string(lib) + " has no half-open on health green; code must force it");
  if (b.probes > 1 && b.probe_spacing > 0)
    lost.add("breaker.half_open.spacing",
             std::string(lib) + " lets its half-open calls through as they arrive");
}

// --- generic -> library ---------------------------------------------------------------------

// resilience4j CircuitBreakerStateMachine: ClosedState.checkIfThresholdsExceeded judges the
// window on every result; HalfOpenState applies the same thresholds to the permitted calls once
// min(minimumNumberOfCalls, permitted) are in (CircuitBreakerMetrics.onCallCompleted).
void toResilience4j(const Config& c, Resilience4jSettings& r, Losses& lost) {
  const BreakerConfig& b = c.breaker;
  const bool consecutive = b.window_type == WindowType::consecutive;
  r.sliding_window_type = b.window_type == WindowType::time ? SlidingWindowType::time_based
                                                            : SlidingWindowType::count_based;
  r.sliding_window_size = consecutive ? b.consecutive_failures : b.window_size;
  r.minimum_number_of_calls =
      consecutive ? b.consecutive_failures : std::max<std::uint32_t>(b.min_calls, 1);
  r.failure_rate_threshold = consecutive ? 100.0 : b.failure_rate_pct;
  if (consecutive)
    lost.add("breaker.window",
             std::to_string(b.consecutive_failures) +
                 " consecutive failures become COUNT_BASED over as many calls at 100%");
  if (b.slow_call_duration > 0) {
    r.slow_call_rate_threshold = b.slow_call_rate_pct;
    r.slow_call_duration_threshold = b.slow_call_duration;
    if (consecutive)
      lost.add("breaker.slow_call", "resilience4j also trips the closed window on slow calls");
  } else {
    // Off: a rate of 100% over a duration no call reaches. The default 60 s is beyond any call
    // the TimeLimiter lets run, unless the attempt timeout is longer than that.
    r.slow_call_rate_threshold = 100;
    r.slow_call_duration_threshold = c.timeout.attempt >= kResilience4jDefaultSlowDuration
                                         ? 2 * c.timeout.attempt
                                         : kResilience4jDefaultSlowDuration;
  }
  r.wait_duration_in_open_state = b.open_interval;
  r.enable_exponential_backoff = backoffInEffect(b);
  if (r.enable_exponential_backoff) {
    r.exponential_backoff_multiplier = b.backoff_multiplier;
    r.exponential_max_wait_duration_in_open_state = b.backoff_max;
  }
  r.enable_randomized_wait = false;
  r.permitted_number_of_calls_in_half_open_state = b.probes;
  r.max_wait_duration_in_half_open_state = 0;
  r.transition_to_state_after_wait_duration = BreakerState::open;
  // The generic machine's open -> half-open is a timer, as automatic transition is.
  r.automatic_transition_from_open_to_half_open_enabled = true;
  r.classification.failures = b.failures;
  r.classification.ignored = {};
  genericOnly(b, "resilience4j", lost);
  const std::uint32_t judged = std::min(r.minimum_number_of_calls, b.probes);
  if (judged < b.probes) {
    lost.add("breaker.half_open.close_when", "resilience4j decides after the first " +
                                                 std::to_string(judged) + " of " +
                                                 std::to_string(b.probes) + " half-open calls");
  } else if (probeFailuresTolerated(b) != toleratedBelow(r.failure_rate_threshold, b.probes)) {
    lost.add("breaker.half_open.close_when",
             "resilience4j closes with up to " +
                 std::to_string(toleratedBelow(r.failure_rate_threshold, b.probes)) + " of " +
                 std::to_string(b.probes) + " half-open calls failed (failureRateThreshold " +
                 number(r.failure_rate_threshold) + "%)");
  }
  if (b.probes > 1 && b.reopen_on_first_failure)
    lost.add("breaker.half_open.reopen_on_first_failure",
             "resilience4j waits for the half-open results before it re-opens");
}

// gobreaker.go: ReadyToTrip is asked on a failure in the closed state (onFailure); half-open
// closes after MaxRequests consecutive successes and re-opens on any failure; Timeout is fixed.
// The rate is over the calls that completed (TotalSuccesses + TotalFailures), as the generic
// window counts them: Requests also counts the calls still running.
void toGobreaker(const Config& c, GobreakerSettings& g, Losses& lost, double calls_per_second) {
  const BreakerConfig& b = c.breaker;
  g.max_requests = b.probes;
  g.timeout = b.open_interval;
  // A count window never holds more than its size (CircuitBreaker::recordClosed takes the
  // smaller).
  const std::uint32_t min_requests = std::max<std::uint32_t>(
      b.window_type == WindowType::count ? std::min(b.min_calls, b.window_size) : b.min_calls, 1);
  switch (b.window_type) {
    case WindowType::consecutive:
      g.interval = 0;
      g.bucket_period = 0;
      g.ready_to_trip =
          GobreakerTripRule::consecutiveFailures(Comparison::ge, b.consecutive_failures);
      break;
    case WindowType::count:
      g.ready_to_trip = GobreakerTripRule::completedFailureRate(min_requests, b.failure_rate_pct);
      if (calls_per_second > 0) {
        // gobreaker counts in time only: the last N calls become the calls of the time N calls
        // take at the incident's rate, in whole seconds, rolled in 1 s buckets (BucketPeriod,
        // v2.2+; a 1 s Interval is a tumbling window).
        const double window_s = std::ceil(b.window_size / calls_per_second);
        const auto interval_s = static_cast<Micros>(std::clamp(window_s, 1.0, 3600.0));
        g.interval = interval_s * kSecond;
        g.bucket_period = interval_s >= 2 ? kSecond : 0;
        lost.add("breaker.window",
                 "gobreaker counts calls in time, not the last " + std::to_string(b.window_size) +
                     ": Interval " + seconds(g.interval) + " holds about " +
                     std::to_string(b.window_size) + " calls at the incident's " +
                     number(std::round(calls_per_second * 10) / 10) +
                     " calls a second for one breaker" +
                     (g.bucket_period > 0 ? ", rolled in 1 s buckets (BucketPeriod)" : ""));
        break;
      }
      g.interval = 0;
      g.bucket_period = 0;
      // The note a user needs most: with Interval 0 a long healthy stretch before the outage
      // (an incident's lead-in) dilutes the ratio, and the breaker may never trip.
      lost.add("breaker.window",
               "gobreaker counts every call since the last state change (Interval 0), not the "
               "last " +
                   std::to_string(b.window_size) +
                   ": successes before a failure keep the ratio low, and a long healthy stretch "
                   "can keep it from ever tripping; set Interval (and BucketPeriod, for a "
                   "rolling window) to about the time " +
                   std::to_string(b.window_size) + " calls take");
      break;
    case WindowType::time:
      g.interval = static_cast<Micros>(b.window_size) * kSecond;
      g.bucket_period = kSecond;
      g.ready_to_trip = GobreakerTripRule::completedFailureRate(min_requests, b.failure_rate_pct);
      break;
  }
  if (b.window_type != WindowType::consecutive &&
      (b.min_calls > 1 || b.window_type == WindowType::time))
    lost.add("breaker.failure_rate",
             "gobreaker asks ReadyToTrip only when a call fails, never after a success");
  g.classification.failures = b.failures;
  g.classification.ignored = {};
  if (b.slow_call_duration > 0) lost.add("breaker.slow_call", "gobreaker has no slow-call rule");
  if (backoffInEffect(b))
    lost.add("breaker.open.backoff",
             "gobreaker's Timeout is fixed at the base interval " + seconds(b.open_interval));
  genericOnly(b, "gobreaker", lost);
  if (probeFailuresTolerated(b) > 0)
    lost.add("breaker.half_open.close_when",
             "gobreaker re-opens at the first failed half-open call");
  else if (b.probes > 1 && !b.reopen_on_first_failure)
    lost.add("breaker.half_open.reopen_on_first_failure",
             "gobreaker re-opens at the first failed half-open call, without waiting");
}

// opossum lib/circuit.js: fail() opens when the error percentage of the rolling window exceeds
// errorThresholdPercentage (strictly) once volumeThreshold fires are in; one half-open trial.
void toOpossum(Config& c, OpossumOptions& o, Losses& lost) {
  const BreakerConfig& b = c.breaker;
  o.error_threshold_percentage = b.failure_rate_pct;
  switch (b.window_type) {
    case WindowType::time:
      o.rolling_count_timeout = static_cast<Micros>(b.window_size) * kSecond;
      o.rolling_count_buckets = std::max<std::uint32_t>(b.window_size, 1);
      break;
    case WindowType::count:
      lost.add("breaker.window", "opossum's window is rolling time (rollingCountTimeout " +
                                     seconds(o.rolling_count_timeout) + "), not the last " +
                                     std::to_string(b.window_size) + " calls");
      break;
    case WindowType::consecutive:
      o.error_threshold_percentage = 99;
      lost.add("breaker.window",
               "opossum has no consecutive rule; errorThresholdPercentage 99 "
               "over volumeThreshold " +
                   std::to_string(b.consecutive_failures));
      break;
  }
  lost.add("breaker.failure_rate",
           "opossum opens only above errorThresholdPercentage (strictly), rejected calls counted");
  o.volume_threshold =
      b.window_type == WindowType::consecutive ? b.consecutive_failures : b.min_calls;
  o.reset_timeout = b.open_interval;
  o.timeout = c.timeout.attempt;
  o.classification.failures = b.failures;
  o.classification.ignored = {};
  if (backoffInEffect(b))
    lost.add("breaker.open.backoff", "opossum's resetTimeout is fixed at the base interval");
  if (b.probes > 1)
    lost.add("breaker.half_open.probes",
             "opossum lets one half-open call through, not " + std::to_string(b.probes));
  if (b.slow_call_duration > 0) lost.add("breaker.slow_call", "opossum has no slow-call rule");
  genericOnly(b, "opossum", lost);
}

// cockatiel src/breaker/{ConsecutiveBreaker,CountBreaker,SamplingBreaker}.ts: Count and Sampling
// open when failures exceed threshold * calls (strictly); halfOpenAfter as ConstantBackoff or
// ExponentialBackoff (noJitterGenerator doubles).
void toCockatiel(const Config& c, CockatielSettings& s, Losses& lost) {
  const BreakerConfig& b = c.breaker;
  const double threshold = std::clamp(b.failure_rate_pct / 100.0, 0.01, 0.99);
  switch (b.window_type) {
    case WindowType::consecutive:
      s.breaker.kind = CockatielBreakerSpec::Kind::consecutive;
      s.breaker.consecutive_threshold = std::max(b.consecutive_failures, 1u);
      break;
    case WindowType::count:
      s.breaker.kind = CockatielBreakerSpec::Kind::count;
      s.breaker.threshold = threshold;
      s.breaker.size = std::max(b.window_size, 1u);
      s.breaker.minimum_number_of_calls = std::clamp(b.min_calls, 1u, s.breaker.size);
      lost.add("breaker.failure_rate", "CountBreaker opens only above threshold * calls");
      break;
    case WindowType::time:
      s.breaker.kind = CockatielBreakerSpec::Kind::sampling;
      s.breaker.threshold = threshold;
      s.breaker.duration = static_cast<Micros>(std::max(b.window_size, 1u)) * kSecond;
      s.breaker.minimum_rps =
          static_cast<double>(std::max(b.min_calls, 1u)) / std::max(b.window_size, 1u);
      lost.add("breaker.min_calls",
               "SamplingBreaker takes a rate: minimumRps " + number(s.breaker.minimum_rps));
      break;
  }
  if (b.window_type != WindowType::consecutive && threshold * 100 != b.failure_rate_pct)
    lost.add("breaker.failure_rate",
             "cockatiel's threshold lies between 0.01 and 0.99: " + number(threshold));
  if (backoffInEffect(b) && b.backoff_multiplier == 2.0) {
    s.half_open_after.kind = CockatielBackoff::Kind::exponential;
    s.half_open_after.initial_delay = b.open_interval;
    s.half_open_after.max_delay = b.backoff_max;
  } else {
    s.half_open_after.kind = CockatielBackoff::Kind::constant;
    s.half_open_after.delay = b.open_interval;
    if (backoffInEffect(b))
      lost.add("breaker.open.backoff",
               "cockatiel's ExponentialBackoff doubles; the fixed base interval is kept");
  }
  s.half_open_calls = std::max(b.probes, 1u);
  s.half_open_threshold = b.close_when == CloseRule::rate ? threshold : 0.0;
  s.classification.failures = b.failures;
  s.classification.ignored = {};
  if (b.probes > 1 && !b.reopen_on_first_failure && b.close_when == CloseRule::all_succeed)
    lost.add("breaker.half_open.reopen_on_first_failure",
             "cockatiel re-opens at the first failed trial");
  if (b.slow_call_duration > 0)
    lost.add("breaker.slow_call", "cockatiel has no slow-call rule; wrap a timeout policy");
  genericOnly(b, "cockatiel", lost);
}

// Polly CircuitBreakerResilienceStrategy / AdvancedCircuitBehavior: FailureRatio over
// SamplingDuration once MinimumThroughput calls are in; one trial call.
// CircuitBreakerStrategyOptions: SamplingDuration and BreakDuration are [Range] 0.5 s to 1 day.
Micros pollyDuration(Micros d) {
  return std::clamp<Micros>(d, 500 * kMillisecond, 86400 * kSecond);
}

void toPolly(const Config& c, PollySettings& p, Losses& lost) {
  const BreakerConfig& b = c.breaker;
  const bool consecutive = b.window_type == WindowType::consecutive;
  // K failures in a row: every call of the sample failed, over at least K of them.
  p.failure_ratio = consecutive ? 1.0 : std::clamp(b.failure_rate_pct / 100.0, 0.0, 1.0);
  p.minimum_throughput =
      std::max<std::uint32_t>(consecutive ? b.consecutive_failures : b.min_calls, 2);
  if (!consecutive && b.min_calls < 2)
    lost.add("breaker.min_calls", "Polly's MinimumThroughput is at least 2");
  if (b.window_type == WindowType::time) {
    p.sampling_duration = pollyDuration(static_cast<Micros>(b.window_size) * kSecond);
    if (p.sampling_duration != static_cast<Micros>(b.window_size) * kSecond)
      lost.add("breaker.window", "Polly's SamplingDuration ranges from 0.5 s to 1 day: " +
                                     seconds(p.sampling_duration));
  } else {
    lost.add("breaker.window", "Polly samples over time (SamplingDuration " +
                                   seconds(p.sampling_duration) + "), not calls");
  }
  p.break_duration = pollyDuration(b.open_interval);
  if (p.break_duration != b.open_interval)
    lost.add("breaker.open.interval",
             "Polly's BreakDuration ranges from 0.5 s to 1 day: " + seconds(p.break_duration));
  p.generator = backoffInEffect(b);
  if (p.generator) {
    p.generator_multiplier = b.backoff_multiplier;
    p.generator_max = b.backoff_max;
  }
  p.classification.failures = b.failures;
  p.classification.ignored = {};
  if (b.probes > 1) lost.add("breaker.half_open.probes", "Polly lets one trial call through");
  if (b.slow_call_duration > 0) lost.add("breaker.slow_call", "Polly has no slow-call rule");
  genericOnly(b, "Polly", lost);
}

// Envoy outlier detection (source/common/upstream/outlier_detection_impl.cc): the breaker's
// dependency as one host, ejected as the breaker opens. With max_ejection_percent 100 and
// healthy_panic_threshold 0 an ejected host takes no calls, as an open breaker takes none; it
// returns at the interval's sweep after base_ejection_time * times ejected (up to
// max_ejection_time), fully, without probes. An active health check is the early probe.
void toEnvoy(const Config& c, EnvoyOutlierSettings& e, Losses& lost) {
  const BreakerConfig& b = c.breaker;
  e.hosts = 1;
  e.max_ejection_percent = 100;
  e.healthy_panic_threshold = 0;
  e.interval = kSecond;
  if (b.window_type == WindowType::consecutive) {
    e.consecutive_5xx = std::max(b.consecutive_failures, 1u);
  } else {
    // A rate over one host has no outlier rule (failure_percentage needs 5 hosts): as many
    // failures in a row as the rate needs of min_calls.
    e.consecutive_5xx = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::ceil(b.min_calls * b.failure_rate_pct / 100.0)));
    lost.add("breaker.failure_rate",
             "Envoy's outlier detection has no rate for one host: consecutive_5xx " +
                 std::to_string(e.consecutive_5xx));
  }
  e.base_ejection_time = b.open_interval;
  e.max_ejection_time = backoffInEffect(b) ? std::max(b.backoff_max, b.open_interval)
                                           : std::max<Micros>(300 * kSecond, b.open_interval);
  if (backoffInEffect(b))
    lost.add("breaker.open.backoff",
             "Envoy grows the ejection linearly (base times ejections), up to " +
                 seconds(e.max_ejection_time));
  if (b.early_probe) {
    e.health_check_interval = b.early_probe_poll;
    e.health_check_unhealthy_threshold = 3;
    e.health_check_healthy_threshold = 1;
  } else {
    e.health_check_interval = 0;
  }
  if (b.probes > 1)
    lost.add("breaker.half_open.probes", "Envoy has no half-open: the host returns fully");
  if (b.slow_call_duration > 0)
    lost.add("breaker.slow_call", "Envoy counts only 5xx and local-origin errors");
  if (b.failures.contains(CallOutcome::client_error))
    lost.add("breaker.failures", "a 4xx resets Envoy's 5xx streak");
}

// --- library -> generic ---------------------------------------------------------------------

void fromResilience4j(const Resilience4jSettings& r, BreakerConfig& b, Losses& lost) {
  b.window_type =
      r.sliding_window_type == SlidingWindowType::time_based ? WindowType::time : WindowType::count;
  b.window_size = r.sliding_window_size;
  b.min_calls = r.minimum_number_of_calls;
  b.failure_rate_pct = r.failure_rate_threshold;
  if (r.slow_call_rate_threshold < 100) {
    b.slow_call_duration = r.slow_call_duration_threshold;
    b.slow_call_rate_pct = r.slow_call_rate_threshold;
  } else {
    b.slow_call_duration = 0;
  }
  b.open_interval = r.wait_duration_in_open_state;
  b.backoff_multiplier = 1;
  b.backoff_max = r.wait_duration_in_open_state;
  if (r.enable_exponential_backoff) {
    b.backoff_multiplier = r.exponential_backoff_multiplier;
    if (r.exponential_max_wait_duration_in_open_state > 0) {
      b.backoff_max = r.exponential_max_wait_duration_in_open_state;
    } else {
      b.backoff_max = 1000 * r.wait_duration_in_open_state;
      lost.add("resilience4j.exponentialMaxWaitDurationInOpenState",
               "no cap in resilience4j; capped at 1000 times the interval");
    }
  }
  if (r.enable_randomized_wait)
    lost.add("resilience4j.enableRandomizedWait", "the generic machine waits exactly");
  b.early_probe = false;
  b.probes = std::max<std::uint32_t>(r.permitted_number_of_calls_in_half_open_state, 1);
  b.probe_spacing = 0;
  // HalfOpenState judges its calls by failureRateThreshold, as close_when: rate does.
  b.close_when = CloseRule::rate;
  b.reopen_on_first_failure = false;
  if (r.max_wait_duration_in_half_open_state > 0)
    lost.add("resilience4j.maxWaitDurationInHalfOpenState",
             "the generic machine waits for its probes without a limit");
  if (!r.automatic_transition_from_open_to_half_open_enabled)
    lost.add("resilience4j.automaticTransitionFromOpenToHalfOpenEnabled",
             "false: resilience4j goes half-open at the first call after the wait; the generic "
             "machine at the end of the wait");
  b.failures = r.classification.failures;
  if (!r.classification.ignored.empty())
    lost.add("resilience4j.ignoreExceptions",
             "the generic machine counts ignored calls as "
             "successes");
}

// The two ReadyToTrip forms the generic machine has: ConsecutiveFailures >= K (or > K-1) and
// Requests >= M && TotalFailures/Requests >= R.
void fromGobreaker(const GobreakerSettings& g, BreakerConfig& b, Losses& lost) {
  const GobreakerTripRule& rule = g.ready_to_trip;
  bool mapped = false;
  if (rule.library_default) {
    b.window_type = WindowType::consecutive;
    b.consecutive_failures = 6;  // the default ReadyToTrip: ConsecutiveFailures > 5
    mapped = true;
  } else if (rule.any_of.size() == 1 && rule.any_of[0].size() == 1) {
    const GobreakerCondition& k = rule.any_of[0][0];
    if (k.numerator == fieldBit(GobreakerField::consecutive_failures) && k.denominator == 0 &&
        !k.negated && !k.product && (k.op == Comparison::ge || k.op == Comparison::gt)) {
      b.window_type = WindowType::consecutive;
      b.consecutive_failures =
          static_cast<std::uint32_t>(std::max(1.0, std::ceil(k.value) + (k.op == Comparison::gt)));
      mapped = true;
    }
  } else if (rule.any_of.size() == 1 && rule.any_of[0].size() == 2) {
    const GobreakerCondition& m = rule.any_of[0][0];
    const GobreakerCondition& r = rule.any_of[0][1];
    const auto min = static_cast<std::uint32_t>(m.value);
    const bool over_requests = rule == GobreakerTripRule::failureRatio(min, r.value);
    if (over_requests || rule == GobreakerTripRule::completedFailureRate(min, r.den_scale)) {
      b.min_calls = std::max<std::uint32_t>(min, 1);
      b.failure_rate_pct = over_requests ? r.value * 100 : r.den_scale;
      if (g.interval > 0 && g.bucket_period > 0) {
        b.window_type = WindowType::time;
        b.window_size = static_cast<std::uint32_t>(std::max<Micros>(g.interval / kSecond, 1));
      } else {
        b.window_type = WindowType::count;
        b.window_size = b.min_calls;
        lost.add("gobreaker.Interval",
                 "gobreaker counts every call since the last state change; the generic "
                 "window holds the last " +
                     std::to_string(b.window_size) + " calls");
      }
      mapped = true;
    }
  }
  if (!mapped)
    lost.add("gobreaker.ReadyToTrip",
             "not ConsecutiveFailures >= K nor a failure ratio; the window in force is kept");
  b.open_interval = g.timeout > 0 ? g.timeout : kGobreakerDefaultTimeout;
  b.backoff_multiplier = 1;
  b.backoff_max = b.open_interval;
  b.early_probe = false;
  b.probes = std::max<std::uint32_t>(g.max_requests, 1);
  b.probe_spacing = 0;
  // onSuccess in half-open closes after MaxRequests successes; onFailure re-opens at once.
  b.close_when = CloseRule::all_succeed;
  b.reopen_on_first_failure = true;
  b.slow_call_duration = 0;
  b.failures = g.classification.failures;
  if (!g.classification.ignored.empty())
    lost.add("gobreaker.IsExcluded", "the generic machine counts excluded calls as successes");
}

void fromOpossum(const OpossumOptions& o, Config& c, Losses& lost) {
  BreakerConfig& b = c.breaker;
  b.window_type = WindowType::time;
  b.window_size = static_cast<std::uint32_t>(
      std::max<Micros>((o.rolling_count_timeout + kSecond / 2) / kSecond, 1));
  if (o.rolling_count_timeout % kSecond != 0)
    lost.add("opossum.rollingCountTimeout",
             "the generic window is whole seconds: " + std::to_string(b.window_size) + " s");
  b.min_calls = o.volume_threshold;
  b.failure_rate_pct = o.error_threshold_percentage;
  lost.add("opossum.errorThresholdPercentage",
           "opossum opens above it (strictly), the generic machine at it");
  b.slow_call_duration = 0;
  b.open_interval = o.reset_timeout;
  b.backoff_multiplier = 1;
  b.backoff_max = o.reset_timeout;
  b.early_probe = false;
  b.probes = 1;
  b.probe_spacing = 0;
  b.close_when = CloseRule::all_succeed;
  b.reopen_on_first_failure = true;
  b.failures = o.classification.failures;
  if (o.timeout > 0)
    c.timeout.attempt = o.timeout;
  else
    lost.add("opossum.timeout",
             "false: the generic machine keeps timeout.attempt " + seconds(c.timeout.attempt));
  if (o.allow_warm_up) lost.add("opossum.allowWarmUp", "the generic machine has no warm-up");
  if (o.capacity < (1ull << 53) - 1)
    lost.add("opossum.capacity", "the generic machine does not limit calls in flight");
  if (!o.enabled) lost.add("opossum.enabled", "false: breaker.enabled stays as it was");
}

void fromCockatiel(const CockatielSettings& s, BreakerConfig& b, Losses& lost) {
  const CockatielBreakerSpec& k = s.breaker;
  switch (k.kind) {
    case CockatielBreakerSpec::Kind::consecutive:
      b.window_type = WindowType::consecutive;
      b.consecutive_failures = k.consecutive_threshold;
      break;
    case CockatielBreakerSpec::Kind::count:
      b.window_type = WindowType::count;
      b.window_size = k.size;
      b.min_calls = k.minimum_number_of_calls > 0 ? k.minimum_number_of_calls : k.size;
      b.failure_rate_pct = k.threshold * 100;
      lost.add("cockatiel.breaker.threshold",
               "cockatiel opens above it (strictly), the generic machine at it");
      break;
    case CockatielBreakerSpec::Kind::sampling: {
      b.window_type = WindowType::time;
      b.window_size = static_cast<std::uint32_t>(std::max<Micros>(k.duration / kSecond, 1));
      const double rps = k.minimum_rps > 0 ? k.minimum_rps : 5 / k.threshold;
      b.min_calls = static_cast<std::uint32_t>(std::ceil(rps * b.window_size));
      b.failure_rate_pct = k.threshold * 100;
      lost.add(
          "cockatiel.breaker.minimumRps",
          "a rate; the generic machine counts calls: min_calls " + std::to_string(b.min_calls));
      break;
    }
  }
  b.backoff_multiplier = 1;
  if (s.half_open_after.kind == CockatielBackoff::Kind::exponential) {
    b.open_interval = s.half_open_after.initial_delay;
    b.backoff_multiplier = 2;
    b.backoff_max = s.half_open_after.max_delay;
  } else {
    b.open_interval = s.half_open_after.delay;
    b.backoff_max = b.open_interval;
  }
  b.slow_call_duration = 0;
  b.early_probe = false;
  b.probes = std::max<std::uint32_t>(s.half_open_calls, 1);
  b.probe_spacing = 0;
  if (s.half_open_threshold > 0) {
    b.close_when = CloseRule::rate;
    b.reopen_on_first_failure = false;
    if (b.window_type == WindowType::consecutive ||
        s.half_open_threshold * 100 != b.failure_rate_pct)
      lost.add("cockatiel.halfOpenSampling.threshold",
               "the generic machine judges probes by breaker.failure_rate " +
                   number(b.failure_rate_pct) + "%");
  } else {
    b.close_when = CloseRule::all_succeed;
    b.reopen_on_first_failure = true;
  }
  b.failures = s.classification.failures;
  if (!s.classification.ignored.empty())
    lost.add("cockatiel.handleWhen", "the generic machine counts unhandled errors as successes");
}

void fromPolly(const PollySettings& p, BreakerConfig& b, Losses& lost) {
  b.window_type = WindowType::time;
  b.window_size = static_cast<std::uint32_t>(std::max<Micros>(p.sampling_duration / kSecond, 1));
  b.min_calls = p.minimum_throughput;
  b.failure_rate_pct = p.failure_ratio * 100;
  b.slow_call_duration = 0;
  b.open_interval = p.break_duration;
  b.backoff_multiplier = p.generator ? p.generator_multiplier : 1;
  b.backoff_max = p.generator && p.generator_max > 0 ? p.generator_max : p.break_duration;
  if (p.generator && p.generator_max == 0)
    lost.add("polly.BreakDurationGenerator.Max", "no cap; the generic backoff stops at the base");
  b.early_probe = false;
  b.probes = 1;
  b.probe_spacing = 0;
  b.close_when = CloseRule::all_succeed;
  b.reopen_on_first_failure = true;
  b.failures = p.classification.failures;
}

}  // namespace

LibraryTranslation translateToLibrary(const Config& config, BreakerLibrary target,
                                      double breaker_calls_per_second) {
  LibraryTranslation out{config, {}};
  Config& c = out.config;
  Losses lost;
  const BreakerLibrary from = config.breaker.library;
  if (from == target) return out;
  // First to the generic machine, where a library's breaker came from one.
  switch (from) {
    case BreakerLibrary::breakerlab:
      break;
    case BreakerLibrary::resilience4j:
      fromResilience4j(config.native.resilience4j, c.breaker, lost);
      break;
    case BreakerLibrary::gobreaker:
      fromGobreaker(config.native.gobreaker, c.breaker, lost);
      break;
    case BreakerLibrary::opossum:
      fromOpossum(config.native.opossum, c, lost);
      break;
    case BreakerLibrary::cockatiel:
      fromCockatiel(config.native.cockatiel, c.breaker, lost);
      break;
    case BreakerLibrary::polly:
      fromPolly(config.native.polly, c.breaker, lost);
      break;
    case BreakerLibrary::envoy:
      lost.add("envoy.outlier_detection",
               "Envoy ejects hosts; nothing maps to a breaker's window, so the breaker in the "
               "generic machine's settings is kept as it was");
      break;
  }
  c.breaker.library = BreakerLibrary::breakerlab;
  switch (target) {
    case BreakerLibrary::breakerlab:
      break;
    case BreakerLibrary::resilience4j:
      toResilience4j(c, c.native.resilience4j, lost);
      break;
    case BreakerLibrary::gobreaker:
      toGobreaker(c, c.native.gobreaker, lost, breaker_calls_per_second);
      break;
    case BreakerLibrary::opossum:
      toOpossum(c, c.native.opossum, lost);
      break;
    case BreakerLibrary::cockatiel:
      toCockatiel(c, c.native.cockatiel, lost);
      break;
    case BreakerLibrary::polly:
      toPolly(c, c.native.polly, lost);
      break;
    case BreakerLibrary::envoy:
      toEnvoy(c, c.native.envoy, lost);
      break;
  }
  c.breaker.library = target;
  out.not_carried = lost.take();
  return out;
}

double fleetCallsPerSecond(const Incident& incident) {
  const double window_s = static_cast<double>(incident.end - incident.start) / kSecond;
  if (!(window_s > 0)) return 0;
  return estimateWork(incident, incident.deployed).window_arrivals / window_s;
}

double breakerCallsPerSecond(double fleet_calls_per_second, const Config& config) {
  if (config.breaker.scope == StateScope::shared) return fleet_calls_per_second;
  return fleet_calls_per_second / std::max(config.load_balancer.pods, 1u);
}

}  // namespace breakerlab
