// resilience4j (Spring Boot application.yml): the generic BreakerLab machine translated, with what
// resilience4j cannot express.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
// ---------------------------------------------------------------------------------------------
// resilience4j

// Spring Boot drops every character but letters, digits and '-' from a map key unless the key
// is bracketed ("[pricing.v2]").
std::string springMapKey(const std::string& name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](unsigned char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-';
  });
  YAML::Emitter key;
  key << (plain ? name : "[" + name + "]");
  return key.c_str();
}

std::string_view exampleException(CallOutcome o) {
  switch (o) {
    case CallOutcome::timeout:
      return "java.util.concurrent.TimeoutException  # timeout (thrown by the TimeLimiter)";
    case CallOutcome::refused:
      return "java.net.ConnectException  # refused";
    case CallOutcome::server_error:
      return "org.springframework.web.client.HttpServerErrorException  # server_error (5xx)";
    case CallOutcome::client_error:
      return "org.springframework.web.client.HttpClientErrorException  # client_error (4xx)";
    case CallOutcome::pool_exhausted:
      return "org.apache.http.conn.ConnectionPoolTimeoutException  # pool_exhausted";
    case CallOutcome::success:
    case CallOutcome::failure:
      break;
  }
  return "";
}

}  // namespace

ExportedConfig exportResilience4jFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  const FailureClasses fc = failureClasses(c);
  const bool consecutive = b.window_type == WindowType::consecutive;
  const bool slow = slowRuleOn(b);
  // The values come from the one mapping the library switch also makes; this file writes them
  // with what each means to resilience4j.
  const Resilience4jSettings r =
      translateToLibrary(c, BreakerLibrary::resilience4j).config.native.resilience4j;
  const std::uint32_t window_size = r.sliding_window_size;
  const std::uint32_t min_calls = r.minimum_number_of_calls;
  const double failure_threshold = r.failure_rate_threshold;
  const double slow_threshold = r.slow_call_rate_threshold;
  const bool backoff = r.enable_exponential_backoff;
  // resilience4j judges the half-open calls once min(minimumNumberOfCalls, permitted) are in.
  const std::uint32_t half_open_judged = std::min(min_calls, b.probes);

  std::vector<std::string> notes;
  if (!b.enabled)
    notes.push_back(
        "breaker disabled (enabled: false): the settings describe the breaker anyway; run without "
        "it by not decorating the call, or call transitionToDisabledState() in code");
  if (!consecutive && b.failure_rate_pct < 1)
    notes.push_back("failure_rate " + formatPercent(b.failure_rate_pct) +
                    ": Spring Boot properties accept failureRateThreshold from 1 to 100; set it "
                    "in code with CircuitBreakerConfig");
  if (slow && b.slow_call_rate_pct < 1)
    notes.push_back("slow_call.rate " + formatPercent(b.slow_call_rate_pct) +
                    ": Spring Boot properties accept slowCallRateThreshold from 1 to 100; set it "
                    "in code with CircuitBreakerConfig");
  if (consecutive && slow)
    notes.push_back("slow-call rule (" + slowRuleText(b) +
                    ") with a consecutive window: BreakerLab judges only half-open probes by it; "
                    "resilience4j also trips the closed COUNT_BASED window on "
                    "slowCallRateThreshold");
  if (b.open_interval % kMillisecond != 0 || (backoff && b.backoff_max % kMillisecond != 0))
    notes.push_back("sub-millisecond open interval (" + formatDuration(b.open_interval) +
                    (backoff ? ", cap " + formatDuration(b.backoff_max) : std::string()) +
                    "): resilience4j keeps open-state waits in whole milliseconds");
  if (b.early_probe)
    notes.push_back("early probe on health green (poll " + formatDuration(b.early_probe_poll) +
                    "): no resilience4j property; code must poll the health check every " +
                    formatDuration(b.early_probe_poll) +
                    " while OPEN and call circuitBreaker.transitionToHalfOpenState() on green");
  if (spacingInEffect(b))
    notes.push_back("half-open probe spacing " + formatDuration(b.probe_spacing) +
                    ": resilience4j lets the " + std::to_string(b.probes) +
                    " permitted calls through as they arrive");
  if (reopenInEffect(b))
    notes.push_back("reopen_on_first_failure: resilience4j judges the half-open calls only once " +
                    std::to_string(half_open_judged) + " of them have completed");
  if (half_open_judged < b.probes) {
    notes.push_back("half-open decision after all " + std::to_string(b.probes) +
                    " probes: resilience4j decides after the first " +
                    std::to_string(half_open_judged) + " results (minimumNumberOfCalls " +
                    std::to_string(min_calls) + " also bounds the half-open calls judged)");
  } else {
    const std::uint32_t ours = probeFailuresTolerated(b);
    const std::uint32_t theirs = toleratedBelow(failure_threshold, b.probes);
    if (ours != theirs) {
      std::string item = "half-open close rule " + closeRuleText(b) + " (" +
                         closesWith(ours, b.probes, "failed") +
                         "): resilience4j applies failureRateThreshold " +
                         formatPercent(failure_threshold) + " to the " + std::to_string(b.probes) +
                         " half-open calls and " + closesWith(theirs, b.probes, "failed");
      if (ours == 0 && !consecutive)
        item += "; equivalent only with failureRateThreshold at most " +
                approxPercent(100.0 / b.probes) + "%, which also sets the closed-state threshold";
      notes.push_back(item);
    }
    if (slow) {
      const std::uint32_t ours_slow = probeSlowTolerated(b);
      const std::uint32_t theirs_slow = toleratedBelow(slow_threshold, b.probes);
      if (ours_slow != theirs_slow)
        notes.push_back("half-open slow probes under " + closeRuleText(b) + " (" +
                        closesWith(ours_slow, b.probes, "slow") +
                        "): resilience4j applies slowCallRateThreshold " +
                        formatPercent(slow_threshold) + " to the " + std::to_string(b.probes) +
                        " half-open calls and " + closesWith(theirs_slow, b.probes, "slow"));
    }
  }
  if (fc.countsNone())
    notes.push_back(
        "failure classes (none counted): resilience4j records every exception as a failure "
        "unless recordExceptions names a type the client never throws");
  else if (!fc.countsEvery())
    notes.push_back("failure classes (counted: " + fc.list(true) +
                    "; not counted: " + fc.list(false) +
                    "): resilience4j records every exception as a failure unless "
                    "recordExceptions lists the application's exception types for the counted "
                    "classes (see the comment below)");
  if (c.cache.enabled)
    notes.push_back(cacheItem(c, "e.g. a fallbackMethod on @CircuitBreaker that serves"));
  for (auto& item : retryItems(c,
                               "resilience4j.retry.instances.<name> (maxAttempts, waitDuration, "
                               "enableExponentialBackoff, enableRandomizedWait)"))
    notes.push_back(std::move(item));
  for (auto& item : serviceItems(c, ExportTarget::resilience4j)) notes.push_back(std::move(item));
  if (c.retry.max_attempts > 1 && c.breaker.placement == BreakerPlacement::outside_retry)
    notes.push_back(
        "breaker outside the retry loop: Spring's default aspect order puts Retry "
        "outside CircuitBreaker (every attempt is recorded); give "
        "resilience4j.circuitbreaker.circuitBreakerAspectOrder higher precedence "
        "(a lower value) than resilience4j.retry.retryAspectOrder");

  const std::string key = springMapKey(name);
  YamlLines y;
  y.comment(0, "Merge into application.yml. Property names: resilience4j 2.x Spring Boot");
  y.comment(0, "(resilience4j.circuitbreaker.instances.<name>, resilience4j.timelimiter).");
  y.line(0, "resilience4j:");
  y.line(2, "circuitbreaker:");
  y.line(4, "instances:");
  y.line(6, key + ":");
  constexpr int kIn = 8;
  if (consecutive) {
    const std::string n = std::to_string(b.consecutive_failures);
    y.comment(kIn, "BreakerLab window: " + n + " consecutive failures. COUNT_BASED over the last " +
                       n + " calls");
    y.comment(kIn, "at 100% trips when the " + n + " most recent calls all failed (" + n +
                       " in a row); the 100%");
    y.comment(kIn, "threshold also judges the half-open calls.");
  }
  y.line(kIn, std::string("slidingWindowType: ") +
                  (r.sliding_window_type == SlidingWindowType::time_based ? "TIME_BASED"
                                                                          : "COUNT_BASED"));
  y.line(kIn, "slidingWindowSize: " + std::to_string(window_size),
         b.window_type == WindowType::time ? "seconds, in 1-second buckets" : "calls");
  y.line(kIn, "minimumNumberOfCalls: " + std::to_string(min_calls));
  y.line(kIn, "failureRateThreshold: " + formatNumber(failure_threshold),
         "percent; trips at or above");
  if (slow) {
    y.line(kIn, "slowCallRateThreshold: " + formatNumber(slow_threshold));
    y.line(kIn, "slowCallDurationThreshold: " + formatDuration(r.slow_call_duration_threshold),
           "a call strictly longer is slow");
  } else {
    y.line(kIn, "slowCallRateThreshold: " + formatNumber(slow_threshold),
           "slow-call rule off in BreakerLab");
    // Left out at resilience4j's default (60s), beyond any call the TimeLimiter lets run.
    if (r.slow_call_duration_threshold != Resilience4jSettings{}.slow_call_duration_threshold)
      y.line(kIn, "slowCallDurationThreshold: " + formatDuration(r.slow_call_duration_threshold),
             "longer than any call: the TimeLimiter ends calls at timeoutDuration");
  }
  y.line(kIn, "waitDurationInOpenState: " + formatDuration(r.wait_duration_in_open_state));
  if (backoff) {
    y.line(kIn, "enableExponentialBackoff: true");
    y.line(kIn, "exponentialBackoffMultiplier: " + formatNumber(r.exponential_backoff_multiplier));
    y.line(kIn, "exponentialMaxWaitDurationInOpenState: " +
                    formatDuration(r.exponential_max_wait_duration_in_open_state));
  } else if (b.backoff_multiplier > 1.0) {
    y.comment(kIn, "No backoff: multiplier " + formatNumber(b.backoff_multiplier) +
                       " with a cap (" + formatDuration(b.backoff_max) +
                       ") not above the interval never grows it.");
  }
  y.line(kIn, "permittedNumberOfCallsInHalfOpenState: " +
                  std::to_string(r.permitted_number_of_calls_in_half_open_state));
  y.line(kIn,
         std::string("automaticTransitionFromOpenToHalfOpenEnabled: ") +
             (r.automatic_transition_from_open_to_half_open_enabled ? "true" : "false"),
         "BreakerLab's open -> half-open is timer driven");
  if (fc.countsEvery()) {
    y.comment(kIn, "recordExceptions: not needed; resilience4j records every exception, and");
    y.comment(kIn, "BreakerLab counts every failure class.");
  } else if (fc.countsNone()) {
    y.comment(kIn, "BreakerLab counts no outcome class as a failure: set recordExceptions to an");
    y.comment(kIn, "exception type the client never throws.");
  } else {
    y.comment(kIn, "Failures in BreakerLab: " + fc.list(true) + ".");
    y.comment(kIn, "List your client's exception types for them in recordExceptions; any other");
    y.comment(kIn,
              "exception (" + fc.list(false) + ") then counts as a success, as in BreakerLab.");
    y.comment(kIn, "Not ignoreExceptions: ignored calls count neither way.");
    y.comment(kIn, "recordExceptions:");
    for (auto o : fc.possible)
      if (fc.counted.contains(o)) y.comment(kIn, "  - " + std::string(exampleException(o)));
  }
  if (b.early_probe) {
    y.comment(kIn, "Early probe (no property): while OPEN, poll the health check every " +
                       formatDuration(b.early_probe_poll) + " and on green call");
    y.comment(kIn, "circuitBreakerRegistry.circuitBreaker(\"" + name +
                       "\").transitionToHalfOpenState().");
  }
  y.comment(kIn, "Unlike BreakerLab, resilience4j records calls that complete after a state");
  y.comment(kIn, "change in the new state (BreakerLab and gobreaker drop them).");
  y.line(2, "timelimiter:");
  y.line(4, "instances:");
  y.line(6, key + ":");
  y.comment(kIn,
            "timeout.attempt. The TimeLimiter wraps CompletionStage and reactive calls; for a");
  y.comment(kIn, "blocking client set its read timeout to " + formatDuration(c.timeout.attempt) +
                     " instead.");
  y.line(kIn, "timeoutDuration: " + formatDuration(c.timeout.attempt));

  ExportedConfig out;
  out.text = header("#", ExportTarget::resilience4j, "resilience4j", notes) + "\n" + y.text();
  out.not_expressible = std::move(notes);
  return out;
}

}  // namespace breakerlab::export_detail

#include "../native/library_settings.h"

namespace breakerlab::export_detail {

namespace {

// resilience4j.retry.instances.NAME as the reader takes it back (readResilience4jRetry):
// maxAttempts counts the first call; a wait of 0 is no backoff; the exponential interval is
// IntervalFunction.ofExponentialBackoff(waitDuration, multiplier, exponentialMaxWaitDuration).
YAML::Node resilience4jRetry(const Config& c) {
  const RetryConfig& r = c.retry;
  YAML::Node props(YAML::NodeType::Map);
  props["maxAttempts"] = std::to_string(r.max_attempts);
  props["waitDuration"] = r.backoff == BackoffKind::none ? "0ms" : formatDuration(r.base);
  if (r.backoff == BackoffKind::exponential) {
    props["enableExponentialBackoff"] = "true";
    props["exponentialBackoffMultiplier"] = formatNumber(r.multiplier);
    if (r.max > 0) props["exponentialMaxWaitDuration"] = formatDuration(r.max);
  }
  return props;
}

// What of the retry the Retry section cannot hold.
std::vector<std::string> resilience4jRetryLosses(const Config& c) {
  const RetryConfig& r = c.retry;
  std::vector<std::string> items;
  static constexpr const char* kJitter[] = {"no jitter", "full jitter", "equal jitter",
                                            "decorrelated jitter"};
  if (r.jitter != Jitter::none)
    items.push_back(std::string("retry jitter (") + kJitter[static_cast<int>(r.jitter)] +
                    "): resilience4j's enableRandomizedWait draws around the interval, not "
                    "below it; written without jitter");
  // A file without retryExceptions reads as the default classes: only others are a loss.
  if (r.retry_on != RetryConfig{}.retry_on) {
    std::string retried;
    for (int i = 0; i < kCallOutcomeCount; ++i) {
      const auto o = static_cast<CallOutcome>(i);
      if (o != CallOutcome::success && o != CallOutcome::failure && r.retry_on.contains(o))
        retried += (retried.empty() ? "" : ", ") + std::string(toString(o));
    }
    items.push_back("which failures are retried (retry.retry_on: " +
                    (retried.empty() ? std::string("none") : retried) +
                    "): resilience4j retries every exception unless retryExceptions lists your "
                    "client's exception types for them");
  }
  if (r.budget.ratio > 0 || r.budget.min_per_second > 0)
    items.push_back("retry budget (retry.budget): resilience4j's Retry has none");
  if (r.token_bucket.capacity > 0)
    items.push_back("retry token bucket (retry.token_bucket): resilience4j's Retry has none");
  return items;
}

}  // namespace

ExportedConfig exportResilience4jNative(const Config& c, const std::string& name) {
  // The instance keeps the name it was read under: the application looks its breaker up by it
  // (circuitBreakerRegistry.circuitBreaker("pricing")), so a renamed instance is a new breaker.
  const std::string& instance =
      c.native.resilience4j.name.empty() ? name : c.native.resilience4j.name;
  checkInstanceName(instance);
  YAML::Node instances(YAML::NodeType::Map);
  instances[springMapKey(instance)] =
      data_detail::jsonToYaml(data_detail::resilience4jInstanceJson(c.native.resilience4j));
  YAML::Node root;
  root["resilience4j"]["circuitbreaker"]["instances"] = instances;
  // The reader takes the TimeLimiter's timeoutDuration as timeout.attempt: written back, the
  // file reads back with the attempt timeout it was read with.
  root["resilience4j"]["timelimiter"]["instances"][springMapKey(instance)]["timeoutDuration"] =
      formatDuration(c.timeout.attempt);
  std::vector<std::string> notes;
  if (c.retry.max_attempts > 1) {
    root["resilience4j"]["retry"]["instances"][springMapKey(instance)] = resilience4jRetry(c);
    notes = resilience4jRetryLosses(c);
    // Spring's default aspect order runs Retry outside CircuitBreaker (the breaker inside the
    // retry loop, every attempt recorded); the other placement needs the orders (lower runs
    // outside), as the reader takes them.
    if (c.breaker.placement == BreakerPlacement::outside_retry) {
      root["resilience4j"]["circuitbreaker"]["circuitBreakerAspectOrder"] = "1";
      root["resilience4j"]["retry"]["retryAspectOrder"] = "2";
    }
  }
  YAML::Emitter out;
  out << root;
  for (auto& item :
       outsideTheBreaker(c, ExportTarget::resilience4j, AttemptTimeout::carried, Retries::written))
    notes.push_back(std::move(item));
  return withHeader("#", ExportTarget::resilience4j, "resilience4j", std::move(notes),
                    std::string(out.c_str()) + "\n");
}

}  // namespace breakerlab::export_detail
