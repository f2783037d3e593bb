// Config export: BreakerLab YAML, resilience4j (Spring Boot application.yml) and sony/gobreaker
// v2 (Go Settings). The mappings and what each target cannot express are documented in
// docs/formats.md ("Config export"); the library semantics behind them are in the research note
// on breaker libraries (resilience4j 2.4, gobreaker 2.4).
#include "breakerlab/data/config_export.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// The failure classes a config can produce and which of them its breaker counts.
// `pool_exhausted` only happens with a bounded pool and a bounded wait; otherwise whether it is
// counted changes nothing, so it is left out (a neutral knob is never listed).
struct FailureClasses {
  std::vector<CallOutcome> possible;
  OutcomeSet counted;  // the counted classes among `possible`

  bool countsNone() const { return counted.empty(); }
  bool countsEvery() const {
    return std::all_of(possible.begin(), possible.end(),
                       [&](CallOutcome o) { return counted.contains(o); });
  }
  // The classes counted (or not), "a, b, c", or "none".
  std::string list(bool which) const {
    std::vector<std::string> names;
    for (auto o : possible)
      if (counted.contains(o) == which) names.emplace_back(toString(o));
    return names.empty() ? "none" : join(names, ", ");
  }
};

bool poolCanExhaust(const Config& c) {
  return c.pool.size > 0 && c.pool.max_wait > 0;
}

FailureClasses failureClasses(const Config& c) {
  FailureClasses f;
  f.possible = {CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                CallOutcome::client_error};
  if (poolCanExhaust(c)) f.possible.push_back(CallOutcome::pool_exhausted);
  for (auto o : f.possible)
    if (c.breaker.failures.contains(o)) f.counted.insert(o);
  return f;
}

// A percentage bound for prose, one decimal at most: "33.3" for 100/3, "50" for 50.
std::string approxPercent(double pct) {
  std::array<char, 32> buf{};
  std::snprintf(buf.data(), buf.size(), "%.1f", std::floor(pct * 10) / 10);
  std::string out = buf.data();
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

// The largest number of bad calls among `n` for which bad * 100 < pct * n still holds: how many
// failed (or slow) calls a rate threshold of `pct` tolerates over `n` calls.
std::uint32_t toleratedBelow(double pct, std::uint32_t n) {
  const double limit = pct * n;
  auto below = [&](double bad) { return bad * 100.0 < limit; };
  double f = std::clamp(std::ceil(limit / 100.0) - 1, 0.0, static_cast<double>(n));
  while (f + 1 <= n && below(f + 1)) ++f;
  while (f > 0 && !below(f)) --f;
  return static_cast<std::uint32_t>(f);
}

bool slowRuleOn(const BreakerConfig& b) {
  return b.slow_call_duration > 0;
}
// The multiplier only grows the interval when its cap is above the base interval.
bool backoffInEffect(const BreakerConfig& b) {
  return b.backoff_multiplier > 1.0 && b.backoff_max > b.open_interval;
}
// Spacing and early re-opening only matter with more than one probe.
bool spacingInEffect(const BreakerConfig& b) {
  return b.probes > 1 && b.probe_spacing > 0;
}
bool reopenInEffect(const BreakerConfig& b) {
  return b.probes > 1 && b.reopen_on_first_failure;
}

// How many of the probes BreakerLab lets fail (or be slow) and still close.
std::uint32_t probeFailuresTolerated(const BreakerConfig& b) {
  if (b.reopen_on_first_failure || b.close_when == CloseRule::all_succeed) return 0;
  return toleratedBelow(b.failure_rate_pct, b.probes);
}
std::uint32_t probeSlowTolerated(const BreakerConfig& b) {
  if (b.reopen_on_first_failure || b.close_when == CloseRule::all_succeed) return 0;
  return toleratedBelow(b.slow_call_rate_pct, b.probes);
}

std::string closeRuleText(const BreakerConfig& b) {
  std::string rule = b.close_when == CloseRule::all_succeed
                         ? "all_succeed"
                         : "rate at " + formatPercent(b.failure_rate_pct);
  if (b.reopen_on_first_failure) rule += " with reopen_on_first_failure";
  return rule;
}

// "closes only with no failed probe" / "closes with up to 1 of 3 probes failed".
std::string closesWith(std::uint32_t tolerated, std::uint32_t n, std::string_view bad) {
  if (tolerated == 0) return "closes only with no " + std::string(bad) + " probe";
  return "closes with up to " + std::to_string(tolerated) + " of " + std::to_string(n) +
         " probes " + std::string(bad);
}

std::string callsText(std::uint32_t n) {
  return std::to_string(n) + (n == 1 ? " call" : " calls");
}

std::string slowRuleText(const BreakerConfig& b) {
  return "calls over " + formatDuration(b.slow_call_duration) + " at " +
         formatPercent(b.slow_call_rate_pct);
}

std::string backoffText(const BreakerConfig& b) {
  return "x" + formatNumber(b.backoff_multiplier) + " from " + formatDuration(b.open_interval) +
         " up to " + formatDuration(b.backoff_max);
}

std::string header(std::string_view comment, ExportTarget target, std::string_view target_short,
                   const std::vector<std::string>& not_expressible) {
  std::string out = std::string(comment) + " Exported by BreakerLab as " +
                    std::string(displayName(target)) + ".\n";
  for (const auto& item : not_expressible)
    out += std::string(comment) + " Not expressible in " + std::string(target_short) + ": " + item +
           "\n";
  if (target != ExportTarget::breakerlab_yaml && not_expressible.empty())
    out += std::string(comment) + " Everything in this config is expressible in " +
           std::string(target_short) + ".\n";
  return out;
}

std::string cacheItem(const Config& c, std::string_view how) {
  return "fallback cache (ttl " + formatDuration(c.cache.ttl) + "): application code, " +
         std::string(how) + " a cached price younger than " + formatDuration(c.cache.ttl);
}

void checkInstanceName(const std::string& name) {
  if (name.empty()) throw std::invalid_argument("exportConfig: the instance name is empty");
  for (unsigned char ch : name)
    if (ch < 0x20 || ch == 0x7f)
      throw std::invalid_argument("exportConfig: the instance name has a control character");
}

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

class YamlLines {
 public:
  void line(int indent, std::string_view text, std::string_view comment = {}) {
    out_.append(static_cast<std::size_t>(indent), ' ');
    out_ += text;
    if (!comment.empty()) {
      out_ += "  # ";
      out_ += comment;
    }
    out_ += '\n';
  }
  void comment(int indent, std::string_view text) {
    out_.append(static_cast<std::size_t>(indent), ' ');
    out_ += "# ";
    out_ += text;
    out_ += '\n';
  }
  const std::string& text() const { return out_; }

 private:
  std::string out_;
};

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

// Retries and the request deadline are outside both libraries' circuit breakers: name them so
// that nobody deploys the breaker believing the retry policy came with it.
std::vector<std::string> retryItems(const Config& c, const std::string& where) {
  std::vector<std::string> items;
  const RetryConfig& r = c.retry;
  if (r.max_attempts > 1) {
    static constexpr const char* kKind[] = {"no backoff", "fixed backoff", "exponential backoff"};
    static constexpr const char* kJitter[] = {"no jitter", "full jitter", "equal jitter",
                                              "decorrelated jitter"};
    items.push_back("retries (" + std::to_string(r.max_attempts) + " attempts, " +
                    kKind[static_cast<int>(r.backoff)] + " from " + formatDuration(r.base) + ", " +
                    kJitter[static_cast<int>(r.jitter)] +
                    "): not part of this export; configure them in " + where);
  }
  if (c.timeout.total > 0)
    items.push_back("request deadline " + formatDuration(c.timeout.total) +
                    " (timeout.total): enforce it around the whole retry loop");
  return items;
}

// The pool, the workers, the load balancer, the pricing path and background retries: no breaker
// library has them. Each is listed when it is in effect (a bounded pool or bounded workers, more
// than one pod or health checks, cache-first pricing, retries in the background).
std::vector<std::string> serviceItems(const Config& c, ExportTarget target) {
  const bool go = target == ExportTarget::gobreaker;
  std::vector<std::string> items;
  if (c.pool.size > 0) {
    const std::string size = std::to_string(c.pool.size);
    const bool bounded = c.pool.max_wait > 0;
    const std::string wait = bounded ? formatDuration(c.pool.max_wait) : "unlimited";
    std::string how;
    if (go)
      how = "http.Transport MaxConnsPerHost " + size +
            (bounded ? "; net/http has no pool wait limit, so bound the wait to " + wait +
                           " with a context"
                     : std::string());
    else
      how = "Apache HttpClient PoolingHttpClientConnectionManager maxPerRoute " + size +
            ", RequestConfig connectionRequestTimeout " + (bounded ? wait : std::string("0"));
    items.push_back("connection pool (pool.size " + size + " per pod, max wait " + wait +
                    "): not part of this export; set it on the HTTP client (" + how + ")");
  }
  if (c.workers.per_pod > 0) {
    const std::string workers = std::to_string(c.workers.per_pod);
    const std::string queue = std::to_string(c.workers.queue);
    items.push_back("request workers (workers.per_pod " + workers + ", queue " + queue +
                    "): not part of this export; " +
                    (go ? "limit the requests the server handles at once (e.g. a semaphore of " +
                              workers + " with " + queue + " waiting)"
                        : "size the server's thread pool (e.g. Tomcat server.tomcat.threads.max " +
                              workers + ", server.tomcat.accept-count " + queue + ")"));
  }
  const LoadBalancerConfig& lb = c.load_balancer;
  if (lb.pods > 1 || lb.health_check.enabled) {
    const HealthCheckConfig& hc = lb.health_check;
    std::string what =
        "load balancer (" + std::to_string(lb.pods) + (lb.pods == 1 ? " pod" : " pods");
    if (hc.enabled)
      what += ", health checks every " + formatDuration(hc.interval) + " answered by " +
              (hc.pool == HealthCheckPool::shared ? "the request workers" : "a separate pool") +
              ", out after " + std::to_string(hc.unhealthy_after) + " failed, back after " +
              std::to_string(hc.healthy_after) + " passed";
    else
      what += ", no health checks";
    items.push_back(what +
                    "): a deployment setting, not part of this export; configure the load "
                    "balancer and the service's replicas");
  }
  if (c.pricing.mode == PricingMode::cache_first)
    items.push_back("cache-first pricing (pricing.mode cache_first, refresh after " +
                    formatDuration(c.pricing.refresh_after) +
                    "): application code; answer from a cached price younger than " +
                    formatDuration(c.cache.ttl) + " at once and refresh it in the background");
  if (c.retry.max_attempts > 1 && c.retry.mode == RetryMode::background)
    items.push_back(std::string("background retries (retry.mode background): application code; ") +
                    "answer with the first attempt's outcome and run the retries " +
                    (go ? "from a goroutine or queue" : "from a queue or executor") +
                    " off the request path" +
                    (go ? "" : " (resilience4j's Retry runs in the calling thread)"));
  return items;
}

ExportedConfig exportResilience4j(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  const FailureClasses fc = failureClasses(c);
  const bool consecutive = b.window_type == WindowType::consecutive;
  const bool slow = slowRuleOn(b);
  const std::uint32_t window_size = consecutive ? b.consecutive_failures : b.window_size;
  const std::uint32_t min_calls =
      consecutive ? b.consecutive_failures : std::max<std::uint32_t>(b.min_calls, 1);
  const double failure_threshold = consecutive ? 100.0 : b.failure_rate_pct;
  const double slow_threshold = slow ? b.slow_call_rate_pct : 100.0;
  const bool backoff = backoffInEffect(b);
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
                  (b.window_type == WindowType::time ? "TIME_BASED" : "COUNT_BASED"));
  y.line(kIn, "slidingWindowSize: " + std::to_string(window_size),
         b.window_type == WindowType::time ? "seconds, in 1-second buckets" : "calls");
  y.line(kIn, "minimumNumberOfCalls: " + std::to_string(min_calls));
  y.line(kIn, "failureRateThreshold: " + formatNumber(failure_threshold),
         "percent; trips at or above");
  if (slow) {
    y.line(kIn, "slowCallRateThreshold: " + formatNumber(slow_threshold));
    y.line(kIn, "slowCallDurationThreshold: " + formatDuration(b.slow_call_duration),
           "a call strictly longer is slow");
  } else {
    y.line(kIn, "slowCallRateThreshold: 100", "slow-call rule off in BreakerLab");
    // The default slowCallDurationThreshold (60s) is beyond any call the TimeLimiter lets run,
    // unless the attempt timeout is longer than that.
    if (c.timeout.attempt >= 60 * kSecond)
      y.line(kIn, "slowCallDurationThreshold: " + formatDuration(2 * c.timeout.attempt),
             "longer than any call: the TimeLimiter ends calls at timeoutDuration");
  }
  y.line(kIn, "waitDurationInOpenState: " + formatDuration(b.open_interval));
  if (backoff) {
    y.line(kIn, "enableExponentialBackoff: true");
    y.line(kIn, "exponentialBackoffMultiplier: " + formatNumber(b.backoff_multiplier));
    y.line(kIn, "exponentialMaxWaitDurationInOpenState: " + formatDuration(b.backoff_max));
  } else if (b.backoff_multiplier > 1.0) {
    y.comment(kIn, "No backoff: multiplier " + formatNumber(b.backoff_multiplier) +
                       " with a cap (" + formatDuration(b.backoff_max) +
                       ") not above the interval never grows it.");
  }
  y.line(kIn, "permittedNumberOfCallsInHalfOpenState: " + std::to_string(b.probes));
  y.line(kIn, "automaticTransitionFromOpenToHalfOpenEnabled: true",
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

// ---------------------------------------------------------------------------------------------
// gobreaker

std::string goString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

// "PricingSettings" for "pricing", "OrderPricingV2Settings" for "order-pricing.v2".
std::string goFunctionName(const std::string& name) {
  std::string id;
  bool start = true;
  for (unsigned char ch : name) {
    const bool alnum =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (!alnum) {
      start = true;
      continue;
    }
    id += static_cast<char>(start && ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch);
    start = false;
  }
  if (id.empty() || (id[0] >= '0' && id[0] <= '9')) id = "Breaker" + id;
  return id + "Settings";
}

std::string goDuration(Micros d) {
  if (d == 0) return "0";
  if (d % kSecond == 0) return std::to_string(d / kSecond) + " * time.Second";
  if (d % kMillisecond == 0) return std::to_string(d / kMillisecond) + " * time.Millisecond";
  return std::to_string(d) + " * time.Microsecond";
}

// Lines of Go at one indentation, aligned as gofmt aligns a run of single-line key: value
// elements: values in one column, and trailing comments of consecutive lines in one column.
class GoFields {
 public:
  struct Field {
    std::string key, value, comment;
  };
  void add(std::string key, std::string value, std::string comment = {}) {
    fields_.push_back({std::move(key), std::move(value), std::move(comment)});
  }
  std::string render(std::string_view indent) const {
    std::size_t key_width = 0;
    for (const auto& f : fields_) key_width = std::max(key_width, f.key.size() + 1);
    std::vector<std::string> cells;
    for (const auto& f : fields_)
      cells.push_back(f.key + ":" + std::string(key_width - f.key.size(), ' ') + f.value + ",");
    std::string out;
    for (std::size_t i = 0; i < fields_.size();) {
      // A run of consecutive lines with comments shares one comment column.
      std::size_t end = i + 1;
      std::size_t width = cells[i].size();
      if (!fields_[i].comment.empty()) {
        while (end < fields_.size() && !fields_[end].comment.empty()) {
          width = std::max(width, cells[end].size());
          ++end;
        }
      }
      for (std::size_t j = i; j < end; ++j) {
        out += indent;
        out += cells[j];
        if (!fields_[j].comment.empty())
          out += std::string(width - cells[j].size() + 1, ' ') + "// " + fields_[j].comment;
        out += '\n';
      }
      i = end;
    }
    return out;
  }

 private:
  std::vector<Field> fields_;
};

// `n * 100 >= pct * total` in Go, without uint32 overflow.
std::string goRateCheck(const std::string& bad, double pct) {
  if (pct == std::floor(pct)) return "uint64(" + bad + ")*100 >= " + formatNumber(pct) + "*total";
  return "float64(" + bad + ")*100 >= " + formatNumber(pct) + "*float64(total)";
}

ExportedConfig exportGobreaker(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  const FailureClasses fc = failureClasses(c);
  const bool consecutive = b.window_type == WindowType::consecutive;

  std::vector<std::string> notes;
  if (!b.enabled)
    notes.push_back(
        "breaker disabled (enabled: false): gobreaker has no disabled mode; call the dependency "
        "without the breaker (the settings describe it anyway)");
  if (b.window_type == WindowType::count)
    notes.push_back("sliding count window (last " + callsText(b.window_size) +
                    "): gobreaker's Counts hold every call since the last state change "
                    "(Interval 0), so ReadyToTrip sees a cumulative rate");
  // BreakerLab checks the rate after every recorded call. A success can trip a time window (its
  // record evicts old buckets) or a count window (it completes min_calls); gobreaker asks
  // ReadyToTrip only after a failure.
  if (b.window_type == WindowType::time ||
      (b.window_type == WindowType::count && std::min(b.min_calls, b.window_size) > 1))
    notes.push_back(
        "trip check after a success: gobreaker calls ReadyToTrip only when a call fails; "
        "BreakerLab also trips when a success leaves the window at the threshold");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) +
                    "): gobreaker has no slow-call trigger; return an error for slow calls in "
                    "application code");
  if (backoffInEffect(b))
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): gobreaker's Timeout is fixed (sony/gobreaker#118); exported as the base " +
                    formatDuration(b.open_interval));
  if (b.early_probe)
    notes.push_back("early probe on health green (poll " + formatDuration(b.early_probe_poll) +
                    "): gobreaker has no state-transition API; rebuild the breaker or wrap it");
  if (spacingInEffect(b))
    notes.push_back("half-open probe spacing " + formatDuration(b.probe_spacing) +
                    ": gobreaker lets the " + std::to_string(b.probes) +
                    " half-open requests through as they arrive");
  if (const std::uint32_t tolerated = probeFailuresTolerated(b); tolerated > 0) {
    notes.push_back("half-open close rule " + closeRuleText(b) + " (" +
                    closesWith(tolerated, b.probes, "failed") +
                    "): gobreaker closes only after MaxRequests consecutive successes and "
                    "re-opens on any failure (all_succeed with reopen_on_first_failure)");
  } else if (b.probes > 1 && !b.reopen_on_first_failure) {
    notes.push_back("reopen_on_first_failure: false (the " + std::to_string(b.probes) +
                    " probes judged together): gobreaker re-opens at the first failed probe");
  }
  notes.push_back("per-call timeout " + formatDuration(c.timeout.attempt) +
                  " (timeout.attempt): not a gobreaker setting; run each call under "
                  "context.WithTimeout(ctx, " +
                  goDuration(c.timeout.attempt) + ")");
  if (c.cache.enabled)
    notes.push_back(
        cacheItem(c, "on gobreaker.ErrOpenState, ErrTooManyRequests or a failed call serve"));
  for (auto& item : retryItems(c,
                               "a retry loop around cb.Execute (breaker outside) or inside "
                               "the function it runs (breaker inside)"))
    notes.push_back(std::move(item));
  for (auto& item : serviceItems(c, ExportTarget::gobreaker)) notes.push_back(std::move(item));

  // IsSuccessful: every class BreakerLab does not count is a success.
  std::vector<std::string> success_checks;
  std::vector<std::string> imports = {"time"};
  bool server_placeholder = false;
  bool business_placeholder = false;
  bool pool_placeholder = false;
  for (auto o : fc.possible) {
    if (fc.countsNone() || fc.counted.contains(o)) continue;
    switch (o) {
      case CallOutcome::timeout:
        success_checks.push_back("errors.Is(err, context.DeadlineExceeded)");
        imports.insert(imports.end(), {"context", "errors"});
        break;
      case CallOutcome::refused:
        success_checks.push_back("errors.Is(err, syscall.ECONNREFUSED)");
        imports.insert(imports.end(), {"errors", "syscall"});
        break;
      case CallOutcome::server_error:
        success_checks.push_back("isServerError(err)");
        server_placeholder = true;
        break;
      case CallOutcome::client_error:
        success_checks.push_back("isBusinessError(err)");
        business_placeholder = true;
        break;
      case CallOutcome::pool_exhausted:
        success_checks.push_back("isPoolExhausted(err)");
        pool_placeholder = true;
        break;
      case CallOutcome::success:
      case CallOutcome::failure:
        break;
    }
  }
  std::sort(imports.begin(), imports.end());
  imports.erase(std::unique(imports.begin(), imports.end()), imports.end());

  const std::string function = goFunctionName(name);
  std::string go = "package breakers\n\nimport (\n";
  for (const auto& i : imports) go += "\t\"" + i + "\"\n";
  go += "\n\t\"github.com/sony/gobreaker/v2\"\n)\n\n";
  go += "// " + function + " returns BreakerLab's breaker config as sony/gobreaker v2 Settings:\n";
  go += "//\n//\tcb := gobreaker.NewCircuitBreaker[Price](" + function + "())\n";
  if (b.window_type == WindowType::time) {
    go +=
        "//\n// The time window needs gobreaker v2.2 or later (BucketPeriod). gobreaker files a\n";
    go += "// result under the bucket in which its request started (BreakerLab: where it\n";
    go += "// completed) and drops results whose bucket has rolled out.\n";
  }
  go += "func " + function + "() gobreaker.Settings {\n\treturn gobreaker.Settings{\n";

  GoFields fields;
  fields.add("Name", goString(name));
  fields.add("MaxRequests", std::to_string(b.probes),
             "half-open probes; closes after as many consecutive successes");
  switch (b.window_type) {
    case WindowType::count:
    case WindowType::consecutive:
      fields.add("Interval", "0", "Counts are cleared only on state changes");
      break;
    case WindowType::time:
      fields.add("Interval", goDuration(static_cast<Micros>(b.window_size) * kSecond),
                 "time window of " + std::to_string(b.window_size) + "s, rolling");
      fields.add("BucketPeriod", goDuration(kSecond), "in 1-second buckets");
      break;
  }
  fields.add(
      "Timeout", goDuration(b.open_interval),
      backoffInEffect(b) ? "open interval, fixed (no backoff in gobreaker)" : "open interval");
  go += fields.render("\t\t");

  go += "\t\tReadyToTrip: func(counts gobreaker.Counts) bool {\n";
  if (consecutive) {
    go += "\t\t\t// BreakerLab: trips at " + std::to_string(b.consecutive_failures) +
          " consecutive failures.\n";
    go += "\t\t\treturn counts.ConsecutiveFailures >= " + std::to_string(b.consecutive_failures) +
          "\n";
  } else {
    const std::uint32_t min_calls = std::max<std::uint32_t>(
        b.window_type == WindowType::count ? std::min(b.min_calls, b.window_size) : b.min_calls, 1);
    go += "\t\t\t// BreakerLab: " +
          (b.window_type == WindowType::count ? "count window of " + callsText(b.window_size)
                                              : std::to_string(b.window_size) + "s time window") +
          ", min_calls " + std::to_string(min_calls) + ", trips at failure_rate " +
          formatPercent(b.failure_rate_pct) + ".\n";
    go += "\t\t\ttotal := uint64(counts.TotalSuccesses) + uint64(counts.TotalFailures)\n";
    go += "\t\t\treturn total >= " + std::to_string(min_calls) + " && " +
          goRateCheck("counts.TotalFailures", b.failure_rate_pct) + "\n";
  }
  go += "\t\t},\n";

  if (fc.countsNone()) {
    go += "\t\tIsSuccessful: func(err error) bool {\n";
    go += "\t\t\t// BreakerLab counts no outcome class as a failure.\n";
    go += "\t\t\treturn true\n\t\t},\n";
  } else if (success_checks.empty()) {
    go += "\t\t// IsSuccessful: the default (err == nil) counts every error as a failure, as\n";
    go += "\t\t// BreakerLab counts every outcome class.\n";
  } else {
    const std::string not_counted = fc.list(false);
    go += "\t\tIsSuccessful: func(err error) bool {\n";
    go += "\t\t\t// BreakerLab counts " + fc.list(true) + " as failures; " + not_counted +
          (not_counted.find(',') == std::string::npos ? " counts as a success.\n"
                                                      : " count as successes.\n");
    go += "\t\t\treturn err == nil || " + join(success_checks, " || ") + "\n";
    go += "\t\t},\n";
  }
  go += "\t}\n}\n";
  if (server_placeholder) {
    go += "\n// isServerError reports whether err is a 5xx answer of the dependency, which this\n";
    go += "// config does not count as a failure. Replace it with your client's check.\n";
    go += "func isServerError(err error) bool {\n\treturn false\n}\n";
  }
  if (business_placeholder) {
    go += "\n// isBusinessError reports whether err is a business answer of the dependency (4xx,\n";
    go += "// NotFound, InvalidArgument), which BreakerLab does not count as a failure. Replace\n";
    go += "// it with your client's check.\n";
    go += "func isBusinessError(err error) bool {\n\treturn false\n}\n";
  }
  if (pool_placeholder) {
    go += "\n// isPoolExhausted reports whether err is a timeout waiting for a pooled connection\n";
    go += "// (pool_exhausted), which this config does not count as a failure. Replace it with\n";
    go += "// your client's check.\n";
    go += "func isPoolExhausted(err error) bool {\n\treturn false\n}\n";
  }

  ExportedConfig out;
  out.text = header("//", ExportTarget::gobreaker, "gobreaker", notes) + "\n" + go;
  out.not_expressible = std::move(notes);
  return out;
}

}  // namespace

ExportedConfig exportConfig(const Config& config, ExportTarget target,
                            const std::string& instance_name) {
  checkInstanceName(instance_name);
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return {header("#", target, "BreakerLab YAML", {}) + configToYaml(config), {}};
    case ExportTarget::resilience4j:
      return exportResilience4j(config, instance_name);
    case ExportTarget::gobreaker:
      return exportGobreaker(config, instance_name);
  }
  throw std::invalid_argument("exportConfig: unknown target");
}

std::string_view fileSuffix(ExportTarget target) {
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return ".yaml";
    case ExportTarget::resilience4j:
      return ".yml";
    case ExportTarget::gobreaker:
      return ".go";
  }
  return "";
}

std::string_view displayName(ExportTarget target) {
  switch (target) {
    case ExportTarget::breakerlab_yaml:
      return "BreakerLab YAML";
    case ExportTarget::resilience4j:
      return "resilience4j (Spring Boot application.yml)";
    case ExportTarget::gobreaker:
      return "gobreaker (Go Settings)";
  }
  return "";
}

}  // namespace breakerlab
