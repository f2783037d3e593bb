// Config -> YAML: the canonical config file, and the tree `--set` edits.
#include <string>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/values.h"
#include "config_yaml.h"
#include "native/library_settings.h"

namespace breakerlab {
namespace data_detail {

namespace {
std::string boolText(bool b) {
  return b ? "true" : "false";
}

YAML::Node flowMap() {
  YAML::Node n(YAML::NodeType::Map);
  n.SetStyle(YAML::EmitterStyle::Flow);
  return n;
}

std::string_view windowTypeName(WindowType t) {
  switch (t) {
    case WindowType::count:
      return "count";
    case WindowType::time:
      return "time";
    case WindowType::consecutive:
      return "consecutive";
  }
  return "count";
}

YAML::Node outcomeList(const OutcomeSet& set) {
  YAML::Node list(YAML::NodeType::Sequence);
  list.SetStyle(YAML::EmitterStyle::Flow);
  for (auto o : {CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error,
                 CallOutcome::client_error, CallOutcome::pool_exhausted}) {
    if (set.contains(o)) list.push_back(std::string(toString(o)));
  }
  return list;
}

std::string_view closeRuleName(CloseRule r) {
  return r == CloseRule::rate ? "rate" : "all_succeed";
}
}  // namespace

YAML::Node toYamlNode(const Config& c, bool every_library) {
  const BreakerConfig& b = c.breaker;
  YAML::Node root(YAML::NodeType::Map);
  root["format"] = std::string(kConfigFormat);

  YAML::Node breaker(YAML::NodeType::Map);
  breaker["enabled"] = boolText(b.enabled);
  breaker["scope"] = std::string(toString(b.scope));
  breaker["library"] = std::string(toString(b.library));
  breaker["placement"] =
      std::string(b.placement == BreakerPlacement::inside_retry ? "inside_retry" : "outside_retry");
  YAML::Node window = flowMap();
  window["type"] = std::string(windowTypeName(b.window_type));
  window["size"] = std::to_string(b.window_size);
  breaker["window"] = window;
  breaker["min_calls"] = std::to_string(b.min_calls);
  breaker["failure_rate"] = formatPercent(b.failure_rate_pct);
  breaker["consecutive_failures"] = std::to_string(b.consecutive_failures);
  YAML::Node slow = flowMap();
  slow["duration"] = formatDuration(b.slow_call_duration);
  slow["rate"] = formatPercent(b.slow_call_rate_pct);
  breaker["slow_call"] = slow;
  breaker["failures"] = outcomeList(b.failures);

  YAML::Node open(YAML::NodeType::Map);
  open["interval"] = formatDuration(b.open_interval);
  YAML::Node backoff = flowMap();
  backoff["multiplier"] = formatNumber(b.backoff_multiplier);
  backoff["max"] = formatDuration(b.backoff_max);
  open["backoff"] = backoff;
  YAML::Node early = flowMap();
  early["enabled"] = boolText(b.early_probe);
  early["poll"] = formatDuration(b.early_probe_poll);
  open["early_probe"] = early;
  breaker["open"] = open;

  YAML::Node half_open = flowMap();
  half_open["probes"] = std::to_string(b.probes);
  half_open["spacing"] = formatDuration(b.probe_spacing);
  half_open["close_when"] = std::string(closeRuleName(b.close_when));
  half_open["reopen_on_first_failure"] = boolText(b.reopen_on_first_failure);
  breaker["half_open"] = half_open;
  root["breaker"] = breaker;

  YAML::Node timeout = flowMap();
  timeout["attempt"] = formatDuration(c.timeout.attempt);
  timeout["total"] = formatDuration(c.timeout.total);
  root["timeout"] = timeout;

  const RetryConfig& r = c.retry;
  YAML::Node retry(YAML::NodeType::Map);
  retry["max_attempts"] = std::to_string(r.max_attempts);
  YAML::Node retry_backoff = flowMap();
  retry_backoff["kind"] = std::string(r.backoff == BackoffKind::none    ? "none"
                                      : r.backoff == BackoffKind::fixed ? "fixed"
                                                                        : "exponential");
  retry_backoff["base"] = formatDuration(r.base);
  retry_backoff["multiplier"] = formatNumber(r.multiplier);
  retry_backoff["max"] = formatDuration(r.max);
  retry["backoff"] = retry_backoff;
  static constexpr const char* kJitter[] = {"none", "full", "equal", "decorrelated"};
  retry["jitter"] = std::string(kJitter[static_cast<int>(r.jitter)]);
  retry["retry_on"] = outcomeList(r.retry_on);
  retry["mode"] = std::string(r.mode == RetryMode::background ? "background" : "in_request");
  YAML::Node budget = flowMap();
  budget["scope"] = std::string(toString(r.budget.scope));
  budget["ratio"] = formatPercent(r.budget.ratio * 100);
  budget["min_per_second"] = formatNumber(r.budget.min_per_second);
  budget["window"] = formatDuration(r.budget.window);
  retry["budget"] = budget;
  YAML::Node bucket = flowMap();
  bucket["capacity"] = formatNumber(r.token_bucket.capacity);
  bucket["cost"] = formatNumber(r.token_bucket.cost);
  bucket["refund"] = formatNumber(r.token_bucket.refund);
  retry["token_bucket"] = bucket;
  YAML::Node throttling = flowMap();
  throttling["max_tokens"] = formatNumber(r.throttling.max_tokens);
  throttling["token_ratio"] = formatNumber(r.throttling.token_ratio);
  retry["throttling"] = throttling;
  YAML::Node concurrency_budget = flowMap();
  concurrency_budget["budget_percent"] = formatPercent(r.concurrency_budget.budget_percent);
  concurrency_budget["min_retry_concurrency"] =
      std::to_string(r.concurrency_budget.min_retry_concurrency);
  retry["concurrency_budget"] = concurrency_budget;
  root["retry"] = retry;

  YAML::Node cache = flowMap();
  cache["enabled"] = boolText(c.cache.enabled);
  cache["scope"] = std::string(toString(c.cache.scope));
  cache["ttl"] = formatDuration(c.cache.ttl);
  YAML::Node fallback(YAML::NodeType::Map);
  fallback["cache"] = cache;
  root["fallback"] = fallback;

  YAML::Node pool = flowMap();
  pool["size"] = std::to_string(c.pool.size);
  pool["max_wait"] = formatDuration(c.pool.max_wait);
  root["pool"] = pool;

  YAML::Node workers = flowMap();
  workers["per_pod"] = std::to_string(c.workers.per_pod);
  workers["queue"] = std::to_string(c.workers.queue);
  workers["call_threads"] = boolText(c.workers.call_threads);
  root["workers"] = workers;

  const HealthCheckConfig& hc = c.load_balancer.health_check;
  YAML::Node health_check = flowMap();
  health_check["enabled"] = boolText(hc.enabled);
  health_check["pool"] = std::string(hc.pool == HealthCheckPool::separate ? "separate" : "shared");
  health_check["interval"] = formatDuration(hc.interval);
  health_check["unhealthy_after"] = std::to_string(hc.unhealthy_after);
  health_check["healthy_after"] = std::to_string(hc.healthy_after);
  YAML::Node load_balancer(YAML::NodeType::Map);
  load_balancer["pods"] = std::to_string(c.load_balancer.pods);
  load_balancer["health_check"] = health_check;
  root["load_balancer"] = load_balancer;

  YAML::Node pricing = flowMap();
  pricing["mode"] =
      std::string(c.pricing.mode == PricingMode::cache_first ? "cache_first" : "sync");
  pricing["refresh_after"] = formatDuration(c.pricing.refresh_after);
  root["pricing"] = pricing;

  YAML::Node client_throttling = flowMap();
  client_throttling["k"] = formatNumber(c.client_throttling.k);
  client_throttling["window"] = formatDuration(c.client_throttling.window);
  root["client_throttling"] = client_throttling;

  // Each library's settings in its own names and units: the section of the chosen library, of
  // one whose settings differ from its defaults, or of every library. The JSON is built only for
  // a section written (most configs write one of six).
  static const NativeBreakers defaults;
  const NativeBreakers& n = c.native;
  auto section = [&](BreakerLibrary library, bool is_default, auto json) {
    if (every_library || b.library == library || !is_default)
      root[std::string(toString(library))] = jsonToYaml(json());
  };
  section(BreakerLibrary::resilience4j, n.resilience4j == defaults.resilience4j,
          [&] { return resilience4jInstanceJson(n.resilience4j); });
  section(BreakerLibrary::gobreaker, n.gobreaker == defaults.gobreaker,
          [&] { return gobreakerSettingsJson(n.gobreaker); });
  section(BreakerLibrary::polly, n.polly == defaults.polly, [&] {
    ordered_json j = pollyOptionsJson(n.polly);
    // The appsettings.json section it was read from, for an export (a native file
    // names it by its key instead).
    if (!n.polly.name.empty()) j["breakerlab"]["section"] = n.polly.name;
    return j;
  });
  section(BreakerLibrary::opossum, n.opossum == defaults.opossum,
          [&] { return opossumOptionsJson(n.opossum); });
  section(BreakerLibrary::cockatiel, n.cockatiel == defaults.cockatiel,
          [&] { return cockatielSettingsJson(n.cockatiel); });
  section(BreakerLibrary::envoy, n.envoy == defaults.envoy,
          [&] { return envoyConfigJson(n.envoy); });
  return root;
}

}  // namespace data_detail

std::string configToYaml(const Config& config) {
  YAML::Emitter out;
  out << data_detail::toYamlNode(config);
  std::string text = out.c_str();
  text += '\n';
  return text;
}

}  // namespace breakerlab
