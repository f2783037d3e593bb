// Shared parts of the config exporters (export_common.h).
#include "export_common.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

#include "breakerlab/data/values.h"

namespace breakerlab::export_detail {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

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

bool slowRuleOn(const BreakerConfig& b) {
  return b.slow_call_duration > 0;
}
// Spacing and early re-opening only matter with more than one probe.
bool spacingInEffect(const BreakerConfig& b) {
  return b.probes > 1 && b.probe_spacing > 0;
}
bool reopenInEffect(const BreakerConfig& b) {
  return b.probes > 1 && b.reopen_on_first_failure;
}
// How many of the probes BreakerLab lets be slow and still close.
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

// Retries and the request deadline are outside both libraries' circuit breakers: name them so
// that nobody deploys the breaker believing the retry policy came with it.
std::vector<std::string> retryItems(const Config& c, const std::string& where, Retries retries) {
  std::vector<std::string> items;
  const RetryConfig& r = c.retry;
  if (r.max_attempts > 1 && retries == Retries::listed) {
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

// The pool, the workers, the load balancer, the pricing path, background retries and the overload
// controls kept elsewhere (gRPC's retry throttling, Envoy's retry budget, client-side throttling):
// no breaker library has them. Each is listed when it is in effect (a bounded pool or bounded
// workers, more than one pod or health checks, cache-first pricing, retries in the background).
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
    items.push_back(
        std::string("background retries (retry.mode background): application code; ") +
        "answer with the first attempt's outcome and run the retries " +
        (go ? "from a goroutine or queue" : "from a queue or executor") + " off the request path" +
        (target == ExportTarget::resilience4j ? " (resilience4j's Retry runs in the calling thread)"
                                              : ""));
  // The overload controls: each where its own library or proxy keeps it.
  const RetryConfig& r = c.retry;
  if (r.max_attempts > 1 && r.throttling.max_tokens > 0)
    items.push_back("gRPC retry throttling (retry.throttling: max_tokens " +
                    formatNumber(r.throttling.max_tokens) + ", token_ratio " +
                    formatNumber(r.throttling.token_ratio) +
                    "): not part of this export; it is retryThrottling in the gRPC service config");
  if (r.max_attempts > 1 && r.concurrency_budget.budget_percent > 0 &&
      target != ExportTarget::envoy)
    items.push_back("Envoy retry budget (retry.concurrency_budget: " +
                    formatPercent(r.concurrency_budget.budget_percent) + ", at least " +
                    std::to_string(r.concurrency_budget.min_retry_concurrency) +
                    "): not part of this export; it is the cluster's circuit_breakers "
                    "thresholds retry_budget in Envoy");
  if (c.client_throttling.k > 0)
    items.push_back("client-side adaptive throttling (client_throttling: k " +
                    formatNumber(c.client_throttling.k) + ", window " +
                    formatDuration(c.client_throttling.window) +
                    "): not part of this export; configure it in the client (Envoy: the "
                    "admission_control filter)");
  return items;
}

}  // namespace breakerlab::export_detail

namespace breakerlab::export_detail {

std::string attemptTimeoutItem(const Config& c, ExportTarget target) {
  const std::string head = "per-call timeout " + formatDuration(c.timeout.attempt) +
                           " (timeout.attempt): not part of this export; ";
  switch (target) {
    case ExportTarget::gobreaker:
      return head + "run each call under context.WithTimeout";
    case ExportTarget::envoy:
      return head + "set the route's timeout (route.timeout) or the client's";
    case ExportTarget::polly:
      return head + "add a timeout strategy (AddTimeout) as the innermost of the pipeline";
    case ExportTarget::opossum:
      return head +
             "set it on the HTTP client (opossum's own timeout answers the caller but "
             "lets the call run on)";
    case ExportTarget::cockatiel:
      return head + "wrap a timeout policy (timeout(ms, TimeoutStrategy.Aggressive))";
    case ExportTarget::resilience4j:
    case ExportTarget::breakerlab_yaml:
      break;
  }
  return head + "set it on the HTTP client";
}

std::vector<std::string> outsideTheBreaker(const Config& c, ExportTarget target,
                                           AttemptTimeout attempt, Retries retries) {
  std::vector<std::string> notes;
  if (attempt == AttemptTimeout::listed) notes.push_back(attemptTimeoutItem(c, target));
  if (c.cache.enabled) notes.push_back(cacheItem(c, "serving"));
  for (auto& item : retryItems(c, "the client's retry policy", retries))
    notes.push_back(std::move(item));
  for (auto& item : serviceItems(c, target)) notes.push_back(std::move(item));
  return notes;
}

ExportedConfig withHeader(std::string_view comment, ExportTarget target,
                          std::string_view target_short, std::vector<std::string> notes,
                          const std::string& body) {
  ExportedConfig out;
  out.text = comment.empty() ? body : header(comment, target, target_short, notes) + "\n" + body;
  out.not_expressible = std::move(notes);
  return out;
}

}  // namespace breakerlab::export_detail
