// Each library's own knobs, with its names and units: what an engineer running resilience4j,
// gobreaker, Polly, opossum, cockatiel or Envoy would set. Ids are the keys of the library's
// section of a breakerlab-config file (what `--set` takes); an id with ':' edits a part of one.
#include <cmath>
#include <cstdio>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab {

namespace {
using Kind = KnobSpec::Kind;
using L = BreakerLibrary;

std::uint32_t count(double v) {
  return static_cast<std::uint32_t>(std::lround(v));
}
Micros seconds(double v) {
  return fromSeconds(v);
}
Micros millis(double v) {
  return static_cast<Micros>(std::llround(v * kMillisecond));
}
double inMillis(Micros d) {
  return static_cast<double>(d) / kMillisecond;
}

std::string plain(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}
std::string percentAsRatio(double v) {
  return plain(v / 100.0);
}
std::string secondsText(double v) {
  return plain(v) + "s";
}
std::string boolText(double v) {
  return v != 0 ? "true" : "false";
}
// .NET TimeSpan, as Polly's options bind it.
std::string timeSpan(double v) {
  const Micros us = fromSeconds(v);
  const long long whole = us / kSecond;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%02lld:%02lld:%02lld.%06lld", whole / 3600, whole / 60 % 60,
                whole % 60, static_cast<long long>(us % kSecond));
  return buf;
}

KnobSpec number(std::string_view id, std::string_view group, std::string_view label,
                std::string_view unit, double min, double max, double step, int decimals,
                double (*get)(const Config&), void (*set)(Config&, double),
                bool (*applies)(const Config&), std::string_view tip, L library,
                std::string (*text)(double) = plain) {
  KnobSpec k;
  k.id = id;
  k.group = group;
  k.label = label;
  k.kind = Kind::number;
  k.unit = unit;
  k.min = min;
  k.max = max;
  k.step = step;
  k.decimals = decimals;
  k.own_get = get;
  k.own_set = set;
  k.applies = applies;
  k.tip = tip;
  k.library = library;
  k.text = text;
  return k;
}

KnobSpec toggle(std::string_view id, std::string_view group, std::string_view label,
                double (*get)(const Config&), void (*set)(Config&, double),
                bool (*applies)(const Config&), std::string_view tip, L library) {
  KnobSpec k = number(id, group, label, "", 0, 1, 1, 0, get, set, applies, tip, library, boolText);
  k.kind = Kind::toggle;
  return k;
}

KnobSpec choice(std::string_view id, std::string_view group, std::string_view label,
                std::vector<KnobChoice> choices, double (*get)(const Config&),
                void (*set)(Config&, double), bool (*applies)(const Config&), std::string_view tip,
                L library) {
  KnobSpec k = number(id, group, label, "", 0, static_cast<double>(choices.size() - 1), 1, 0, get,
                      set, applies, tip, library, nullptr);
  k.kind = Kind::choice;
  k.choices = std::move(choices);
  return k;
}

// A knob whose range spans decades: the slider runs by ratio. `zero`: what 0 means, if not an
// amount (see KnobSpec::zero).
KnobSpec logScale(KnobSpec k, std::string_view zero = {}) {
  k.scale = KnobSpec::Scale::log;
  k.zero = zero;
  return k;
}
KnobSpec zeroMeans(KnobSpec k, std::string_view zero) {
  k.zero = zero;
  return k;
}

// A failure rate over the completed calls (GobreakerTripRule::completedFailureRate), as
// translateToLibrary writes the generic machine's window: the ratio knobs edit it in its form.
bool overCompletedCalls(const GobreakerTripRule& r) {
  if (r.any_of.size() != 1 || r.any_of[0].size() != 2) return false;
  return r == GobreakerTripRule::completedFailureRate(
                  static_cast<std::uint32_t>(r.any_of[0][0].value), r.any_of[0][1].den_scale);
}

// gobreaker's ReadyToTrip as the knobs see it: the library default, N consecutive failures, or
// a failure ratio with a minimum of requests (or of completed calls).
enum class Trip { library_default, consecutive, ratio, custom };
Trip tripForm(const GobreakerTripRule& r) {
  if (r.library_default) return Trip::library_default;
  if (overCompletedCalls(r)) return Trip::ratio;
  if (r.any_of.size() == 1 && r.any_of[0].size() == 1 &&
      r.any_of[0][0].numerator ==
          GobreakerTripRule::consecutiveFailures(Comparison::ge, 1).any_of[0][0].numerator &&
      r.any_of[0][0].op == Comparison::ge && r.any_of[0][0].denominator == 0 &&
      !r.any_of[0][0].negated)
    return Trip::consecutive;
  const GobreakerTripRule ratio = GobreakerTripRule::failureRatio(1, 0.5);
  if (r.any_of.size() == 1 && r.any_of[0].size() == 2 &&
      r.any_of[0][0].numerator == ratio.any_of[0][0].numerator &&
      r.any_of[0][0].op == Comparison::ge &&
      r.any_of[0][1].numerator == ratio.any_of[0][1].numerator &&
      r.any_of[0][1].denominator == ratio.any_of[0][1].denominator &&
      r.any_of[0][1].op == Comparison::ge &&
      r.any_of[0][0] ==
          GobreakerCondition{r.any_of[0][0].numerator, 0, Comparison::ge, r.any_of[0][0].value} &&
      r.any_of[0][1] == GobreakerCondition{r.any_of[0][1].numerator, r.any_of[0][1].denominator,
                                           Comparison::ge, r.any_of[0][1].value})
    return Trip::ratio;
  return Trip::custom;
}
std::uint32_t tripConsecutive(const GobreakerTripRule& r) {
  return tripForm(r) == Trip::consecutive ? count(r.any_of[0][0].value) : 5;
}
std::uint32_t tripMinRequests(const GobreakerTripRule& r) {
  return tripForm(r) == Trip::ratio ? count(r.any_of[0][0].value) : 20;
}
double tripRatio(const GobreakerTripRule& r) {
  if (overCompletedCalls(r)) return r.any_of[0][1].den_scale / 100;
  return tripForm(r) == Trip::ratio ? r.any_of[0][1].value : 0.5;
}
// The ratio form with a new minimum or ratio, over what `r` counted (requests or completed calls).
GobreakerTripRule tripWithRatio(const GobreakerTripRule& r, std::uint32_t min, double ratio) {
  return overCompletedCalls(r) ? GobreakerTripRule::completedFailureRate(min, ratio * 100)
                               : GobreakerTripRule::failureRatio(min, ratio);
}

bool r4jBackoff(const Config& c) {
  return c.native.resilience4j.enable_exponential_backoff;
}
bool goInterval(const Config& c) {
  return c.native.gobreaker.interval > 0;
}
bool goConsecutive(const Config& c) {
  return tripForm(c.native.gobreaker.ready_to_trip) == Trip::consecutive;
}
bool goRatio(const Config& c) {
  return tripForm(c.native.gobreaker.ready_to_trip) == Trip::ratio;
}
bool opossumTimer(const Config& c) {
  return c.native.opossum.enabled;
}
bool cockatielConstant(const Config& c) {
  return c.native.cockatiel.half_open_after.kind == CockatielBackoff::Kind::constant;
}
bool cockatielExponential(const Config& c) {
  return !cockatielConstant(c);
}
bool cockatielConsecutive(const Config& c) {
  return c.native.cockatiel.breaker.kind == CockatielBreakerSpec::Kind::consecutive;
}
bool cockatielCount(const Config& c) {
  return c.native.cockatiel.breaker.kind == CockatielBreakerSpec::Kind::count;
}
bool cockatielSampling(const Config& c) {
  return c.native.cockatiel.breaker.kind == CockatielBreakerSpec::Kind::sampling;
}
bool cockatielRate(const Config& c) {
  return !cockatielConsecutive(c);
}
bool envoySplit(const Config& c) {
  return c.native.envoy.split_external_local_origin_errors;
}
}  // namespace

std::vector<KnobSpec> nativeKnobSpecs() {
  constexpr std::string_view r4j = "resilience4j";
  constexpr std::string_view go = "gobreaker";
  constexpr std::string_view polly = "Polly";
  constexpr std::string_view op = "opossum";
  constexpr std::string_view ck = "cockatiel";
  constexpr std::string_view envoy = "Envoy outlier detection";
  return {
      // resilience4j 2.4 (Spring Boot instance properties)
      choice(
          "resilience4j.slidingWindowType", r4j, "slidingWindowType",
          {{"COUNT_BASED", "Count-based (last N calls)"},
           {"TIME_BASED", "Time-based (last N seconds)"}},
          [](const Config& c) {
            return static_cast<double>(c.native.resilience4j.sliding_window_type);
          },
          [](Config& c, double v) {
            c.native.resilience4j.sliding_window_type = static_cast<SlidingWindowType>(count(v));
          },
          nullptr,
          "COUNT_BASED: the last N results; TIME_BASED: the results of the last N epoch seconds",
          L::resilience4j),
      logScale(number(
          "resilience4j.slidingWindowSize", r4j, "slidingWindowSize", "", 1, 500, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.resilience4j.sliding_window_size);
          },
          [](Config& c, double v) { c.native.resilience4j.sliding_window_size = count(v); },
          nullptr, "Calls (COUNT_BASED) or seconds (TIME_BASED)", L::resilience4j)),
      logScale(number(
          "resilience4j.minimumNumberOfCalls", r4j, "minimumNumberOfCalls", "calls", 1, 500, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.resilience4j.minimum_number_of_calls);
          },
          [](Config& c, double v) { c.native.resilience4j.minimum_number_of_calls = count(v); },
          nullptr,
          "No rate is computed below this many results (capped by the window in COUNT_BASED)",
          L::resilience4j)),
      number(
          "resilience4j.failureRateThreshold", r4j, "failureRateThreshold", "%", 1, 100, 1, 0,
          [](const Config& c) { return c.native.resilience4j.failure_rate_threshold; },
          [](Config& c, double v) { c.native.resilience4j.failure_rate_threshold = v; }, nullptr,
          "Opens at or above it, judged after every result, successes included", L::resilience4j),
      number(
          "resilience4j.slowCallRateThreshold", r4j, "slowCallRateThreshold", "%", 1, 100, 1, 0,
          [](const Config& c) { return c.native.resilience4j.slow_call_rate_threshold; },
          [](Config& c, double v) { c.native.resilience4j.slow_call_rate_threshold = v; }, nullptr,
          "Opens when this share of calls is slow", L::resilience4j),
      logScale(number(
          "resilience4j.slowCallDurationThreshold", r4j, "slowCallDurationThreshold", "s", 0.1, 120,
          0.1, 1,
          [](const Config& c) {
            return toSeconds(c.native.resilience4j.slow_call_duration_threshold);
          },
          [](Config& c, double v) {
            c.native.resilience4j.slow_call_duration_threshold = seconds(v);
          },
          nullptr, "A call strictly longer is slow", L::resilience4j, secondsText)),
      logScale(number(
          "resilience4j.waitDurationInOpenState", r4j, "waitDurationInOpenState", "s", 1, 300, 0.5,
          1,
          [](const Config& c) {
            return toSeconds(c.native.resilience4j.wait_duration_in_open_state);
          },
          [](Config& c, double v) {
            c.native.resilience4j.wait_duration_in_open_state = seconds(v);
          },
          nullptr, "Open this long; then the first call (or the timer) goes half-open",
          L::resilience4j, secondsText)),
      toggle(
          "resilience4j.enableExponentialBackoff", r4j, "enableExponentialBackoff",
          [](const Config& c) {
            return c.native.resilience4j.enable_exponential_backoff ? 1.0 : 0.0;
          },
          [](Config& c, double v) { c.native.resilience4j.enable_exponential_backoff = v != 0; },
          nullptr, "Each reopening in a row waits longer", L::resilience4j),
      number(
          "resilience4j.exponentialBackoffMultiplier", r4j, "exponentialBackoffMultiplier", "", 1,
          10, 0.1, 1,
          [](const Config& c) { return c.native.resilience4j.exponential_backoff_multiplier; },
          [](Config& c, double v) { c.native.resilience4j.exponential_backoff_multiplier = v; },
          r4jBackoff, "The wait grows by this factor (truncated to whole ms each time)",
          L::resilience4j),
      logScale(number(
          "resilience4j.exponentialMaxWaitDurationInOpenState", r4j,
          "exponentialMaxWaitDurationInOpenState", "s", 1, 600, 1, 0,
          [](const Config& c) {
            return toSeconds(c.native.resilience4j.exponential_max_wait_duration_in_open_state);
          },
          [](Config& c, double v) {
            c.native.resilience4j.exponential_max_wait_duration_in_open_state = seconds(v);
          },
          r4jBackoff, "The cap of the growing wait", L::resilience4j, secondsText)),
      logScale(number(
          "resilience4j.permittedNumberOfCallsInHalfOpenState", r4j,
          "permittedNumberOfCallsInHalfOpenState", "calls", 1, 50, 1, 0,
          [](const Config& c) {
            return static_cast<double>(
                c.native.resilience4j.permitted_number_of_calls_in_half_open_state);
          },
          [](Config& c, double v) {
            c.native.resilience4j.permitted_number_of_calls_in_half_open_state = count(v);
          },
          nullptr, "Half-open admits this many; the rates over their results decide",
          L::resilience4j)),
      logScale(
          number(
              "resilience4j.maxWaitDurationInHalfOpenState", r4j, "maxWaitDurationInHalfOpenState",
              "s", 0, 120, 1, 0,
              [](const Config& c) {
                return toSeconds(c.native.resilience4j.max_wait_duration_in_half_open_state);
              },
              [](Config& c, double v) {
                c.native.resilience4j.max_wait_duration_in_half_open_state = seconds(v);
              },
              nullptr, "0: half-open waits for its results for ever; else it ends after this long",
              L::resilience4j, secondsText),
          "no limit"),
      choice(
          "resilience4j.transitionToStateAfterWaitDuration", r4j,
          "transitionToStateAfterWaitDuration", {{"OPEN", "Open"}, {"CLOSED", "Closed"}},
          [](const Config& c) {
            return c.native.resilience4j.transition_to_state_after_wait_duration ==
                           BreakerState::closed
                       ? 1.0
                       : 0.0;
          },
          [](Config& c, double v) {
            c.native.resilience4j.transition_to_state_after_wait_duration =
                v != 0 ? BreakerState::closed : BreakerState::open;
          },
          [](const Config& c) {
            return c.native.resilience4j.max_wait_duration_in_half_open_state > 0;
          },
          "Where half-open goes when maxWaitDurationInHalfOpenState ends", L::resilience4j),
      toggle(
          "resilience4j.automaticTransitionFromOpenToHalfOpenEnabled", r4j,
          "automaticTransitionFromOpenToHalfOpenEnabled",
          [](const Config& c) {
            return c.native.resilience4j.automatic_transition_from_open_to_half_open_enabled ? 1.0
                                                                                             : 0.0;
          },
          [](Config& c, double v) {
            c.native.resilience4j.automatic_transition_from_open_to_half_open_enabled = v != 0;
          },
          nullptr, "On: a timer goes half-open; off: the first call after the wait does",
          L::resilience4j),

      // gobreaker v2.4 (Settings)
      zeroMeans(
          number(
              "gobreaker.MaxRequests", go, "MaxRequests", "", 0, 50, 1, 0,
              [](const Config& c) { return static_cast<double>(c.native.gobreaker.max_requests); },
              [](Config& c, double v) { c.native.gobreaker.max_requests = count(v); }, nullptr,
              "Half-open admits this many (0 = 1); as many successes in a row close it",
              L::gobreaker),
          "0 (as 1)"),
      logScale(
          number(
              "gobreaker.Interval", go, "Interval", "s", 0, 600, 1, 0,
              [](const Config& c) { return toSeconds(c.native.gobreaker.interval); },
              [](Config& c, double v) { c.native.gobreaker.interval = seconds(v); }, nullptr,
              "0: the counts are cleared only on state changes; else every Interval while closed",
              L::gobreaker, secondsText),
          "off"),
      logScale(
          number(
              "gobreaker.BucketPeriod", go, "BucketPeriod", "s", 0, 60, 1, 0,
              [](const Config& c) { return toSeconds(c.native.gobreaker.bucket_period); },
              [](Config& c, double v) { c.native.gobreaker.bucket_period = seconds(v); },
              goInterval, "0: a fixed window; else a rolling one of Interval/BucketPeriod buckets",
              L::gobreaker, secondsText),
          "fixed window"),
      logScale(number(
                   "gobreaker.Timeout", go, "Timeout", "s", 0, 300, 0.5, 1,
                   [](const Config& c) { return toSeconds(c.native.gobreaker.timeout); },
                   [](Config& c, double v) { c.native.gobreaker.timeout = seconds(v); }, nullptr,
                   "Open this long (0 = 60 s); the first call strictly after it goes half-open",
                   L::gobreaker, secondsText),
               "0 (as 60 s)"),
      choice(
          "gobreaker.ReadyToTrip:form", go, "ReadyToTrip",
          {{"library default", "Library default (more than 5 in a row)"},
           {"consecutive failures", "Consecutive failures"},
           {"failure ratio", "Failure ratio"}},
          [](const Config& c) {
            // A custom expression from a file fits none of the forms: nothing is selected.
            const Trip form = tripForm(c.native.gobreaker.ready_to_trip);
            return form == Trip::custom ? -1.0 : static_cast<double>(form);
          },
          [](Config& c, double v) {
            GobreakerTripRule& r = c.native.gobreaker.ready_to_trip;
            switch (static_cast<Trip>(count(v))) {
              case Trip::library_default:
                r = {};
                break;
              case Trip::consecutive:
                r = GobreakerTripRule::consecutiveFailures(Comparison::ge, tripConsecutive(r));
                break;
              case Trip::ratio:
                r = tripWithRatio(r, tripMinRequests(r), tripRatio(r));
                break;
              case Trip::custom:
                break;  // kept as the file wrote it
            }
          },
          nullptr,
          "Asked after each failure while closed (blank: a custom expression from the file)",
          L::gobreaker),
      number(
          "gobreaker.ReadyToTrip:consecutive", go, "ConsecutiveFailures >=", "", 1, 50, 1, 0,
          [](const Config& c) {
            return static_cast<double>(tripConsecutive(c.native.gobreaker.ready_to_trip));
          },
          [](Config& c, double v) {
            c.native.gobreaker.ready_to_trip =
                GobreakerTripRule::consecutiveFailures(Comparison::ge, count(v));
          },
          goConsecutive, "c.ConsecutiveFailures >= N", L::gobreaker),
      number(
          "gobreaker.ReadyToTrip:requests", go, "Requests >=", "", 1, 500, 1, 0,
          [](const Config& c) {
            return static_cast<double>(tripMinRequests(c.native.gobreaker.ready_to_trip));
          },
          [](Config& c, double v) {
            GobreakerTripRule& r = c.native.gobreaker.ready_to_trip;
            r = tripWithRatio(r, count(v), tripRatio(r));
          },
          goRatio,
          "c.Requests >= M (admissions, in-flight calls included); translated from BreakerLab's "
          "window: TotalSuccesses + TotalFailures >= M (completed calls)",
          L::gobreaker),
      number(
          "gobreaker.ReadyToTrip:ratio", go, "failure ratio >=", "%", 1, 100, 1, 0,
          [](const Config& c) { return 100 * tripRatio(c.native.gobreaker.ready_to_trip); },
          [](Config& c, double v) {
            GobreakerTripRule& r = c.native.gobreaker.ready_to_trip;
            r = tripWithRatio(r, tripMinRequests(r), v / 100);
          },
          goRatio,
          "float64(c.TotalFailures)/float64(c.Requests) >= R; translated from BreakerLab's "
          "window: over the completed calls",
          L::gobreaker),

      // Polly v8 (CircuitBreakerStrategyOptions)
      number(
          "polly.FailureRatio", polly, "FailureRatio", "%", 0, 100, 1, 0,
          [](const Config& c) { return 100 * c.native.polly.failure_ratio; },
          [](Config& c, double v) { c.native.polly.failure_ratio = v / 100; }, nullptr,
          "Breaks at or above it, checked only on a handled failure", L::polly, percentAsRatio),
      logScale(number(
          "polly.MinimumThroughput", polly, "MinimumThroughput", "calls", 2, 500, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.polly.minimum_throughput); },
          [](Config& c, double v) { c.native.polly.minimum_throughput = count(v); }, nullptr,
          "Results in the sampling window needed before the ratio counts", L::polly)),
      logScale(number(
          "polly.SamplingDuration", polly, "SamplingDuration", "s", 0.5, 600, 0.5, 1,
          [](const Config& c) { return toSeconds(c.native.polly.sampling_duration); },
          [](Config& c, double v) { c.native.polly.sampling_duration = seconds(v); }, nullptr,
          "In 10 sub-windows that start at events", L::polly, timeSpan)),
      logScale(number(
          "polly.BreakDuration", polly, "BreakDuration", "s", 0.5, 600, 0.5, 1,
          [](const Config& c) { return toSeconds(c.native.polly.break_duration); },
          [](Config& c, double v) { c.native.polly.break_duration = seconds(v); }, nullptr,
          "Broken this long; the first call at or after it is the one trial", L::polly, timeSpan)),

      // opossum 10 (options, in ms)
      logScale(
          number(
              "opossum.timeout", op, "timeout", "ms", 0, 60000, 100, 0,
              [](const Config& c) { return inMillis(c.native.opossum.timeout); },
              [](Config& c, double v) { c.native.opossum.timeout = millis(v); }, opossumTimer,
              "opossum's own timer per call (0 = false): a call still running then is a failure",
              L::opossum),
          "off"),
      number(
          "opossum.errorThresholdPercentage", op, "errorThresholdPercentage", "%", 1, 100, 1, 0,
          [](const Config& c) { return c.native.opossum.error_threshold_percentage; },
          [](Config& c, double v) { c.native.opossum.error_threshold_percentage = v; }, nullptr,
          "Opens when failures exceed it (strictly) among every fire(), rejections included",
          L::opossum),
      logScale(number(
          "opossum.resetTimeout", op, "resetTimeout", "ms", 100, 300000, 500, 0,
          [](const Config& c) { return inMillis(c.native.opossum.reset_timeout); },
          [](Config& c, double v) { c.native.opossum.reset_timeout = millis(v); }, nullptr,
          "A timer goes half-open after this long, with or without calls", L::opossum)),
      logScale(number(
          "opossum.rollingCountTimeout", op, "rollingCountTimeout", "ms", 1000, 120000, 1000, 0,
          [](const Config& c) { return inMillis(c.native.opossum.rolling_count_timeout); },
          [](Config& c, double v) { c.native.opossum.rolling_count_timeout = millis(v); }, nullptr,
          "The rolling window; never reset when the breaker closes", L::opossum)),
      logScale(number(
          "opossum.rollingCountBuckets", op, "rollingCountBuckets", "", 1, 100, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.opossum.rolling_count_buckets);
          },
          [](Config& c, double v) { c.native.opossum.rolling_count_buckets = count(v); }, nullptr,
          "Buckets rotated by a timer from the breaker's creation", L::opossum)),
      logScale(number(
          "opossum.volumeThreshold", op, "volumeThreshold", "fires", 0, 500, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.opossum.volume_threshold); },
          [](Config& c, double v) { c.native.opossum.volume_threshold = count(v); }, nullptr,
          "No opening below this many fires in the window", L::opossum)),
      toggle(
          "opossum.allowWarmUp", op, "allowWarmUp",
          [](const Config& c) { return c.native.opossum.allow_warm_up ? 1.0 : 0.0; },
          [](Config& c, double v) { c.native.opossum.allow_warm_up = v != 0; }, nullptr,
          "No opening during the first rollingCountTimeout", L::opossum),

      // cockatiel 4 (circuitBreaker options)
      choice(
          "cockatiel.breaker:type", ck, "breaker",
          {{"ConsecutiveBreaker", "Failures in a row"},
           {"CountBreaker", "Ratio of the last N calls"},
           {"SamplingBreaker", "Ratio over a time window"}},
          [](const Config& c) { return static_cast<double>(c.native.cockatiel.breaker.kind); },
          [](Config& c, double v) {
            const auto kind = static_cast<CockatielBreakerSpec::Kind>(count(v));
            if (kind == c.native.cockatiel.breaker.kind) return;
            c.native.cockatiel.breaker = CockatielBreakerSpec{};
            c.native.cockatiel.breaker.kind = kind;
          },
          nullptr,
          "Consecutive: N in a row; Count: a ratio of the last N; Sampling: a ratio over time",
          L::cockatiel),
      logScale(number(
          "cockatiel.breaker:consecutive", ck, "threshold", "failures", 1, 50, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.cockatiel.breaker.consecutive_threshold);
          },
          [](Config& c, double v) { c.native.cockatiel.breaker.consecutive_threshold = count(v); },
          cockatielConsecutive, "Opens after this many failures in a row", L::cockatiel)),
      number(
          "cockatiel.breaker:threshold", ck, "threshold", "%", 1, 99, 1, 0,
          [](const Config& c) { return 100 * c.native.cockatiel.breaker.threshold; },
          [](Config& c, double v) { c.native.cockatiel.breaker.threshold = v / 100; },
          cockatielRate, "Opens when failures exceed this share (strictly)", L::cockatiel),
      logScale(number(
          "cockatiel.breaker:size", ck, "size", "calls", 1, 500, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.cockatiel.breaker.size); },
          [](Config& c, double v) {
            c.native.cockatiel.breaker.size = count(v);
            auto& min = c.native.cockatiel.breaker.minimum_number_of_calls;
            if (min > count(v)) min = count(v);
          },
          cockatielCount, "The last N results", L::cockatiel)),
      logScale(number(
          "cockatiel.breaker:minimumNumberOfCalls", ck, "minimumNumberOfCalls", "calls", 1, 500, 1,
          0,
          [](const Config& c) {
            const auto& b = c.native.cockatiel.breaker;
            return static_cast<double>(b.minimum_number_of_calls == 0 ? b.size
                                                                      : b.minimum_number_of_calls);
          },
          [](Config& c, double v) {
            auto& b = c.native.cockatiel.breaker;
            b.minimum_number_of_calls = std::min(count(v), b.size);
          },
          cockatielCount, "Results needed before it may open (at most size)", L::cockatiel)),
      logScale(number(
          "cockatiel.breaker:duration", ck, "duration", "ms", 100, 120000, 500, 0,
          [](const Config& c) { return inMillis(c.native.cockatiel.breaker.duration); },
          [](Config& c, double v) { c.native.cockatiel.breaker.duration = millis(v); },
          cockatielSampling, "The sampling window; its slots rotate one per sample", L::cockatiel)),
      number(
          "cockatiel.breaker:minimumRps", ck, "minimumRps", "/s", 0, 100, 0.5, 1,
          [](const Config& c) { return c.native.cockatiel.breaker.minimum_rps; },
          [](Config& c, double v) { c.native.cockatiel.breaker.minimum_rps = v; },
          cockatielSampling, "0: 5 failures a second at the threshold", L::cockatiel),
      logScale(number(
          "cockatiel.halfOpenAfter", ck, "halfOpenAfter", "ms", 100, 120000, 500, 0,
          [](const Config& c) { return inMillis(c.native.cockatiel.half_open_after.delay); },
          [](Config& c, double v) { c.native.cockatiel.half_open_after.delay = millis(v); },
          cockatielConstant, "The first call this long after opening is a trial", L::cockatiel)),
      logScale(number(
          "cockatiel.halfOpenAfter:initialDelay", ck, "ExponentialBackoff initialDelay", "ms", 10,
          60000, 10, 0,
          [](const Config& c) {
            return inMillis(c.native.cockatiel.half_open_after.initial_delay);
          },
          [](Config& c, double v) { c.native.cockatiel.half_open_after.initial_delay = millis(v); },
          cockatielExponential, "Doubles at each reopening in a row (noJitterGenerator)",
          L::cockatiel)),
      logScale(number(
          "cockatiel.halfOpenAfter:maxDelay", ck, "ExponentialBackoff maxDelay", "ms", 10, 600000,
          500, 0,
          [](const Config& c) { return inMillis(c.native.cockatiel.half_open_after.max_delay); },
          [](Config& c, double v) { c.native.cockatiel.half_open_after.max_delay = millis(v); },
          cockatielExponential, "The cap", L::cockatiel)),
      number(
          "cockatiel.halfOpenSampling.calls", ck, "halfOpenSampling.calls", "calls", 1, 20, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.cockatiel.half_open_calls); },
          [](Config& c, double v) { c.native.cockatiel.half_open_calls = count(v); }, nullptr,
          "Trials let through; other callers wait for the verdict", L::cockatiel),
      number(
          "cockatiel.halfOpenSampling.threshold", ck, "halfOpenSampling.threshold", "", 0, 0.95,
          0.05, 2, [](const Config& c) { return c.native.cockatiel.half_open_threshold; },
          [](Config& c, double v) { c.native.cockatiel.half_open_threshold = v; }, nullptr,
          "Reopens once failed trials exceed this share of calls", L::cockatiel),

      // Envoy outlier detection
      logScale(number(
          "envoy.hosts", envoy, "hosts", "", 1, 100, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.envoy.hosts); },
          [](Config& c, double v) { c.native.envoy.hosts = count(v); }, nullptr,
          "Endpoints of the cluster (round robin)", L::envoy)),
      zeroMeans(
          number(
              "envoy.consecutive_5xx", envoy, "consecutive_5xx", "", 0, 50, 1, 0,
              [](const Config& c) { return static_cast<double>(c.native.envoy.consecutive_5xx); },
              [](Config& c, double v) { c.native.envoy.consecutive_5xx = count(v); }, nullptr,
              "Ejects a host at exactly this many 5xx in a row (timeouts 504, refused 503)",
              L::envoy),
          "off"),
      zeroMeans(
          number(
              "envoy.consecutive_gateway_failure", envoy, "consecutive_gateway_failure", "", 0, 50,
              1, 0,
              [](const Config& c) {
                return static_cast<double>(c.native.envoy.consecutive_gateway_failure);
              },
              [](Config& c, double v) { c.native.envoy.consecutive_gateway_failure = count(v); },
              [](const Config& c) {
                return c.native.envoy.enforcing_consecutive_gateway_failure > 0;
              },
              "502, 503, 504 in a row (enforced only with enforcing_consecutive_gateway_failure)",
              L::envoy),
          "off"),
      toggle(
          "envoy.split_external_local_origin_errors", envoy, "split_external_local_origin_errors",
          [](const Config& c) {
            return c.native.envoy.split_external_local_origin_errors ? 1.0 : 0.0;
          },
          [](Config& c, double v) { c.native.envoy.split_external_local_origin_errors = v != 0; },
          nullptr, "Count timeouts and refused connections apart from 5xx answers", L::envoy),
      zeroMeans(number(
                    "envoy.consecutive_local_origin_failure", envoy,
                    "consecutive_local_origin_failure", "", 0, 50, 1, 0,
                    [](const Config& c) {
                      return static_cast<double>(c.native.envoy.consecutive_local_origin_failure);
                    },
                    [](Config& c, double v) {
                      c.native.envoy.consecutive_local_origin_failure = count(v);
                    },
                    envoySplit, "Timeouts and refused connections in a row (split mode)", L::envoy),
                "off"),
      logScale(number(
          "envoy.interval", envoy, "interval", "s", 0.1, 60, 0.1, 1,
          [](const Config& c) { return toSeconds(c.native.envoy.interval); },
          [](Config& c, double v) { c.native.envoy.interval = seconds(v); }, nullptr,
          "The sweep: ejected hosts return only at one", L::envoy, secondsText)),
      logScale(number(
          "envoy.base_ejection_time", envoy, "base_ejection_time", "s", 1, 300, 1, 0,
          [](const Config& c) { return toSeconds(c.native.envoy.base_ejection_time); },
          [](Config& c, double v) {
            c.native.envoy.base_ejection_time = seconds(v);
            if (c.native.envoy.max_ejection_time < seconds(v))
              c.native.envoy.max_ejection_time = seconds(v);
          },
          nullptr, "Times the ejections in a row, up to max_ejection_time", L::envoy, secondsText)),
      logScale(number(
          "envoy.max_ejection_time", envoy, "max_ejection_time", "s", 1, 3600, 5, 0,
          [](const Config& c) { return toSeconds(c.native.envoy.max_ejection_time); },
          [](Config& c, double v) {
            c.native.envoy.max_ejection_time =
                std::max(seconds(v), c.native.envoy.base_ejection_time);
          },
          nullptr, "The cap of an ejection", L::envoy, secondsText)),
      number(
          "envoy.max_ejection_percent", envoy, "max_ejection_percent", "%", 0, 100, 1, 0,
          [](const Config& c) { return static_cast<double>(c.native.envoy.max_ejection_percent); },
          [](Config& c, double v) { c.native.envoy.max_ejection_percent = count(v); }, nullptr,
          "Ejected hosts (this one included) at most this share: 10% never ejects below 10 hosts",
          L::envoy),
      zeroMeans(
          number(
              "envoy.healthy_panic_threshold", envoy, "healthy_panic_threshold", "%", 0, 100, 1, 0,
              [](const Config& c) { return c.native.envoy.healthy_panic_threshold; },
              [](Config& c, double v) { c.native.envoy.healthy_panic_threshold = v; }, nullptr,
              "Below this share of healthy hosts, ejected ones get traffic again (0: never)",
              L::envoy),
          "off"),
      logScale(
          number(
              "envoy.health_check_interval", envoy, "active health check interval", "s", 0, 60, 1,
              0, [](const Config& c) { return toSeconds(c.native.envoy.health_check_interval); },
              [](Config& c, double v) { c.native.envoy.health_check_interval = seconds(v); },
              nullptr,
              "0: none; else a passing check (health green) returns every ejected host, and "
              "failing "
              "checks take the hosts out of the healthy set",
              L::envoy, secondsText),
          "off"),
      number(
          "envoy.health_check_unhealthy_threshold", envoy, "unhealthy_threshold", "", 1, 20, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.envoy.health_check_unhealthy_threshold);
          },
          [](Config& c, double v) { c.native.envoy.health_check_unhealthy_threshold = count(v); },
          [](const Config& c) { return c.native.envoy.health_check_interval > 0; },
          "Failed checks in a row that take the hosts out (panic may route to them anyway)",
          L::envoy),
      number(
          "envoy.health_check_healthy_threshold", envoy, "healthy_threshold", "", 1, 20, 1, 0,
          [](const Config& c) {
            return static_cast<double>(c.native.envoy.health_check_healthy_threshold);
          },
          [](Config& c, double v) { c.native.envoy.health_check_healthy_threshold = count(v); },
          [](const Config& c) { return c.native.envoy.health_check_interval > 0; },
          "Passing checks in a row that bring failed hosts back (the very first check: one)",
          L::envoy),
  };
}

}  // namespace breakerlab
