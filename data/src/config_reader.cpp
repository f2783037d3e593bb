// Reads breakerlab-config/1 maps into Config.
#include <limits>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "config_yaml.h"
#include "native/library_settings.h"

namespace breakerlab {
namespace data_detail {

namespace {

void readWindow(const Source& src, const YAML::Node& node, const std::string& path,
                BreakerConfig& b) {
  const MapReader m(src, node, path, {"type", "size"});
  if (auto* v = m.find("type"))
    b.window_type = readEnum<WindowType>(src, *v, m.path("type"),
                                         {{"count", WindowType::count},
                                          {"time", WindowType::time},
                                          {"consecutive", WindowType::consecutive}});
  if (auto* v = m.find("size")) b.window_size = readUint32(src, *v, m.path("size"));
}

OutcomeSet readOutcomeSet(const Source& src, const YAML::Node& node, const std::string& path) {
  requireList(src, node, path);
  OutcomeSet set;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const YAML::Node item = node[i];
    const std::string item_path = indexPath(path, i);
    const CallOutcome o = readEnum<CallOutcome>(src, item, item_path,
                                                {{"timeout", CallOutcome::timeout},
                                                 {"refused", CallOutcome::refused},
                                                 {"server_error", CallOutcome::server_error},
                                                 {"client_error", CallOutcome::client_error},
                                                 {"pool_exhausted", CallOutcome::pool_exhausted}});
    if (set.contains(o)) fail(src, item, item_path + ": " + item.Scalar() + " is listed twice");
    set.insert(o);
  }
  return set;
}

RetryConfig readRetry(const Source& src, const YAML::Node& node, const std::string& path) {
  RetryConfig r;
  const MapReader m(src, node, path,
                    {"max_attempts", "backoff", "jitter", "retry_on", "mode", "budget",
                     "token_bucket", "throttling", "concurrency_budget"});
  if (auto* v = m.find("max_attempts"))
    r.max_attempts = readUint32(src, *v, m.path("max_attempts"), 1);
  if (auto* v = m.find("backoff")) {
    const MapReader bo(src, *v, m.path("backoff"), {"kind", "base", "multiplier", "max"});
    if (auto* x = bo.find("kind"))
      r.backoff = readEnum<BackoffKind>(src, *x, bo.path("kind"),
                                        {{"none", BackoffKind::none},
                                         {"fixed", BackoffKind::fixed},
                                         {"exponential", BackoffKind::exponential}});
    if (auto* x = bo.find("base")) r.base = readDuration(src, *x, bo.path("base"));
    if (auto* x = bo.find("multiplier"))
      r.multiplier = readNumber(src, *x, bo.path("multiplier"), 1.0, 100.0);
    if (auto* x = bo.find("max")) r.max = readDuration(src, *x, bo.path("max"));
  }
  if (auto* v = m.find("jitter"))
    r.jitter = readEnum<Jitter>(src, *v, m.path("jitter"),
                                {{"none", Jitter::none},
                                 {"full", Jitter::full},
                                 {"equal", Jitter::equal},
                                 {"decorrelated", Jitter::decorrelated}});
  if (auto* v = m.find("retry_on")) r.retry_on = readOutcomeSet(src, *v, m.path("retry_on"));
  if (auto* v = m.find("mode"))
    r.mode = readEnum<RetryMode>(
        src, *v, m.path("mode"),
        {{"in_request", RetryMode::in_request}, {"background", RetryMode::background}});
  if (auto* v = m.find("budget")) {
    const MapReader b(src, *v, m.path("budget"), {"scope", "ratio", "min_per_second", "window"});
    if (auto* x = b.find("scope"))
      r.budget.scope = readEnum(src, *x, b.path("scope"), kStateScopeNames);
    if (auto* x = b.find("ratio")) r.budget.ratio = readPercent(src, *x, b.path("ratio")) / 100;
    if (auto* x = b.find("min_per_second"))
      r.budget.min_per_second = readNumber(src, *x, b.path("min_per_second"), 0.0, 1e9);
    if (auto* x = b.find("window")) r.budget.window = readDuration(src, *x, b.path("window"));
  }
  if (auto* v = m.find("token_bucket")) {
    const MapReader t(src, *v, m.path("token_bucket"), {"capacity", "cost", "refund"});
    if (auto* x = t.find("capacity"))
      r.token_bucket.capacity = readNumber(src, *x, t.path("capacity"), 0.0, 1e12);
    if (auto* x = t.find("cost"))
      r.token_bucket.cost = readNumber(src, *x, t.path("cost"), 0.0, 1e12);
    if (auto* x = t.find("refund"))
      r.token_bucket.refund = readNumber(src, *x, t.path("refund"), 0.0, 1e12);
  }
  if (auto* v = m.find("throttling")) {
    const MapReader t(src, *v, m.path("throttling"), {"max_tokens", "token_ratio"});
    if (auto* x = t.find("max_tokens"))
      r.throttling.max_tokens = readNumber(src, *x, t.path("max_tokens"), 0.0, 1000.0);
    if (auto* x = t.find("token_ratio"))
      r.throttling.token_ratio = readNumber(src, *x, t.path("token_ratio"), 0.001, 1000.0);
  }
  if (auto* v = m.find("concurrency_budget")) {
    const MapReader b(src, *v, m.path("concurrency_budget"),
                      {"budget_percent", "min_retry_concurrency"});
    if (auto* x = b.find("budget_percent"))
      r.concurrency_budget.budget_percent = readPercent(src, *x, b.path("budget_percent"));
    if (auto* x = b.find("min_retry_concurrency"))
      r.concurrency_budget.min_retry_concurrency =
          readUint32(src, *x, b.path("min_retry_concurrency"), 0);
  }
  return r;
}

void readOpen(const Source& src, const YAML::Node& node, const std::string& path,
              BreakerConfig& b) {
  const MapReader m(src, node, path, {"interval", "backoff", "early_probe"});
  if (auto* v = m.find("interval")) b.open_interval = readDuration(src, *v, m.path("interval"));
  if (auto* v = m.find("backoff")) {
    const MapReader bo(src, *v, m.path("backoff"), {"multiplier", "max"});
    if (auto* x = bo.find("multiplier"))
      b.backoff_multiplier = readNumber(src, *x, bo.path("multiplier"), 1.0, 100.0);
    if (auto* x = bo.find("max")) b.backoff_max = readDuration(src, *x, bo.path("max"));
  }
  if (auto* v = m.find("early_probe")) {
    const MapReader ep(src, *v, m.path("early_probe"), {"enabled", "poll"});
    if (auto* x = ep.find("enabled")) b.early_probe = readBool(src, *x, ep.path("enabled"));
    if (auto* x = ep.find("poll")) b.early_probe_poll = readDuration(src, *x, ep.path("poll"));
  }
}

void readHalfOpen(const Source& src, const YAML::Node& node, const std::string& path,
                  BreakerConfig& b) {
  const MapReader m(src, node, path,
                    {"probes", "spacing", "close_when", "reopen_on_first_failure"});
  if (auto* v = m.find("probes")) b.probes = readUint32(src, *v, m.path("probes"), 1);
  if (auto* v = m.find("spacing")) b.probe_spacing = readDuration(src, *v, m.path("spacing"));
  if (auto* v = m.find("close_when"))
    b.close_when =
        readEnum<CloseRule>(src, *v, m.path("close_when"),
                            {{"all_succeed", CloseRule::all_succeed}, {"rate", CloseRule::rate}});
  if (auto* v = m.find("reopen_on_first_failure"))
    b.reopen_on_first_failure = readBool(src, *v, m.path("reopen_on_first_failure"));
}

BreakerConfig readBreaker(const Source& src, const YAML::Node& node, const std::string& path) {
  BreakerConfig b;
  const MapReader m(
      src, node, path,
      {"enabled", "scope", "library", "placement", "window", "min_calls", "failure_rate",
       "consecutive_failures", "slow_call", "failures", "open", "half_open"});
  if (auto* v = m.find("enabled")) b.enabled = readBool(src, *v, m.path("enabled"));
  if (auto* v = m.find("scope")) b.scope = readEnum(src, *v, m.path("scope"), kStateScopeNames);
  if (auto* v = m.find("library")) {
    const auto library = v->IsScalar() ? breakerLibraryFromString(v->Scalar()) : std::nullopt;
    std::vector<std::string_view> names;
    for (const auto& info : kBreakerLibraries) names.push_back(info.key);
    if (!library) failExpected(src, *v, m.path("library"), "one of " + joinNames(names));
    b.library = *library;
  }
  if (auto* v = m.find("placement"))
    b.placement = readEnum<BreakerPlacement>(src, *v, m.path("placement"),
                                             {{"outside_retry", BreakerPlacement::outside_retry},
                                              {"inside_retry", BreakerPlacement::inside_retry}});
  if (auto* v = m.find("window")) readWindow(src, *v, m.path("window"), b);
  if (auto* v = m.find("min_calls")) b.min_calls = readUint32(src, *v, m.path("min_calls"));
  if (auto* v = m.find("failure_rate"))
    b.failure_rate_pct = readPercent(src, *v, m.path("failure_rate"));
  if (auto* v = m.find("consecutive_failures"))
    b.consecutive_failures = readUint32(src, *v, m.path("consecutive_failures"), 1);
  if (auto* v = m.find("slow_call")) {
    const MapReader sc(src, *v, m.path("slow_call"), {"duration", "rate"});
    if (auto* x = sc.find("duration"))
      b.slow_call_duration = readDuration(src, *x, sc.path("duration"));
    if (auto* x = sc.find("rate")) b.slow_call_rate_pct = readPercent(src, *x, sc.path("rate"));
  }
  if (auto* v = m.find("failures")) b.failures = readOutcomeSet(src, *v, m.path("failures"));
  if (auto* v = m.find("open")) readOpen(src, *v, m.path("open"), b);
  if (auto* v = m.find("half_open")) readHalfOpen(src, *v, m.path("half_open"), b);
  return b;
}

PoolConfig readPool(const Source& src, const YAML::Node& node, const std::string& path) {
  PoolConfig p;
  const MapReader m(src, node, path, {"size", "max_wait"});
  if (auto* v = m.find("size")) p.size = readUint32(src, *v, m.path("size"));
  if (auto* v = m.find("max_wait")) p.max_wait = readDuration(src, *v, m.path("max_wait"));
  return p;
}

WorkerConfig readWorkers(const Source& src, const YAML::Node& node, const std::string& path) {
  WorkerConfig w;
  const MapReader m(src, node, path, {"per_pod", "queue", "call_threads"});
  if (auto* v = m.find("per_pod")) w.per_pod = readUint32(src, *v, m.path("per_pod"));
  if (auto* v = m.find("queue")) w.queue = readUint32(src, *v, m.path("queue"));
  if (auto* v = m.find("call_threads")) w.call_threads = readBool(src, *v, m.path("call_threads"));
  return w;
}

HealthCheckConfig readHealthCheck(const Source& src, const YAML::Node& node,
                                  const std::string& path) {
  // unhealthy_after and healthy_after may be 0 while the checks are off; validate() decides.
  HealthCheckConfig h;
  const MapReader m(src, node, path,
                    {"enabled", "pool", "interval", "unhealthy_after", "healthy_after"});
  if (auto* v = m.find("enabled")) h.enabled = readBool(src, *v, m.path("enabled"));
  if (auto* v = m.find("pool"))
    h.pool = readEnum<HealthCheckPool>(
        src, *v, m.path("pool"),
        {{"shared", HealthCheckPool::shared}, {"separate", HealthCheckPool::separate}});
  if (auto* v = m.find("interval")) h.interval = readDuration(src, *v, m.path("interval"));
  if (auto* v = m.find("unhealthy_after"))
    h.unhealthy_after = readUint32(src, *v, m.path("unhealthy_after"));
  if (auto* v = m.find("healthy_after"))
    h.healthy_after = readUint32(src, *v, m.path("healthy_after"));
  return h;
}

LoadBalancerConfig readLoadBalancer(const Source& src, const YAML::Node& node,
                                    const std::string& path) {
  LoadBalancerConfig lb;
  const MapReader m(src, node, path, {"pods", "health_check"});
  if (auto* v = m.find("pods")) lb.pods = readUint32(src, *v, m.path("pods"), 1);
  if (auto* v = m.find("health_check"))
    lb.health_check = readHealthCheck(src, *v, m.path("health_check"));
  return lb;
}

PricingConfig readPricing(const Source& src, const YAML::Node& node, const std::string& path) {
  PricingConfig p;
  const MapReader m(src, node, path, {"mode", "refresh_after"});
  if (auto* v = m.find("mode"))
    p.mode = readEnum<PricingMode>(
        src, *v, m.path("mode"),
        {{"sync", PricingMode::sync}, {"cache_first", PricingMode::cache_first}});
  if (auto* v = m.find("refresh_after"))
    p.refresh_after = readDuration(src, *v, m.path("refresh_after"));
  return p;
}

}  // namespace

Config readConfigNode(const Source& src, const YAML::Node& node, const std::string& path,
                      bool require_format) {
  Config c;
  // The format first: a file of another kind fails with that, not with its first unknown key.
  for (const auto& entry : mapEntries(src, node, path)) {
    if (entry.key == "format" && (!entry.value.IsScalar() || entry.value.Scalar() != kConfigFormat))
      failExpected(src, entry.value, joinPath(path, "format"), data_detail::quoted(kConfigFormat));
  }
  const MapReader m(src, node, path,
                    {"format", "breaker", "timeout", "retry", "fallback", "pool", "workers",
                     "load_balancer", "pricing", "client_throttling", "resilience4j", "gobreaker",
                     "polly", "opossum", "cockatiel", "envoy"});
  if (require_format) m.require("format");
  if (auto* v = m.find("breaker")) c.breaker = readBreaker(src, *v, m.path("breaker"));
  if (auto* v = m.find("timeout")) {
    const MapReader t(src, *v, m.path("timeout"), {"attempt", "total"});
    if (auto* x = t.find("attempt")) c.timeout.attempt = readDuration(src, *x, t.path("attempt"));
    if (auto* x = t.find("total")) c.timeout.total = readDuration(src, *x, t.path("total"));
  }
  if (auto* v = m.find("retry")) c.retry = readRetry(src, *v, m.path("retry"));
  if (auto* v = m.find("fallback")) {
    const MapReader fb(src, *v, m.path("fallback"), {"cache"});
    if (auto* x = fb.find("cache")) {
      const MapReader cache(src, *x, fb.path("cache"), {"enabled", "scope", "ttl"});
      if (auto* y = cache.find("scope"))
        c.cache.scope = readEnum(src, *y, cache.path("scope"), kStateScopeNames);
      if (auto* y = cache.find("enabled"))
        c.cache.enabled = readBool(src, *y, cache.path("enabled"));
      if (auto* y = cache.find("ttl")) c.cache.ttl = readDuration(src, *y, cache.path("ttl"));
    }
  }
  if (auto* v = m.find("pool")) c.pool = readPool(src, *v, m.path("pool"));
  if (auto* v = m.find("workers")) c.workers = readWorkers(src, *v, m.path("workers"));
  if (auto* v = m.find("load_balancer"))
    c.load_balancer = readLoadBalancer(src, *v, m.path("load_balancer"));
  if (auto* v = m.find("pricing")) c.pricing = readPricing(src, *v, m.path("pricing"));
  if (auto* v = m.find("client_throttling")) {
    const MapReader t(src, *v, m.path("client_throttling"), {"k", "window"});
    if (auto* x = t.find("k")) c.client_throttling.k = readNumber(src, *x, t.path("k"), 0.0, 100.0);
    if (auto* x = t.find("window"))
      c.client_throttling.window = readDuration(src, *x, t.path("window"));
  }
  // Each library's settings, in its own names (strict: an unknown name is an error here).
  SettingsReader native(src, nullptr);
  if (auto* v = m.find("resilience4j"))
    readResilience4jInstance(native, *v, m.path("resilience4j"), c.native.resilience4j);
  if (auto* v = m.find("gobreaker"))
    readGobreakerSettings(native, *v, m.path("gobreaker"), c.native.gobreaker);
  if (auto* v = m.find("polly")) readPollyOptions(native, *v, m.path("polly"), c.native.polly);
  if (auto* v = m.find("opossum"))
    readOpossumOptions(native, *v, m.path("opossum"), c.native.opossum);
  if (auto* v = m.find("cockatiel"))
    readCockatielSettings(native, *v, m.path("cockatiel"), c.native.cockatiel);
  if (auto* v = m.find("envoy")) {
    bool max_set = false;
    readEnvoyOutlierDetection(native, *v, m.path("envoy"), c.native.envoy, max_set);
    if (!max_set)
      c.native.envoy.max_ejection_time =
          std::max<Micros>(300 * kSecond, c.native.envoy.base_ejection_time);
  }
  return c;
}

void validateConfigAt(const Source& src, const YAML::Node& at, const Config& config) {
  if (std::string problem = validate(config); !problem.empty()) fail(src, at, problem);
}

}  // namespace data_detail

Config parseConfig(std::string_view text, const std::string& file_name) {
  using namespace data_detail;
  try {
    const YAML::Node root = parseYaml(text, file_name);
    const Source src{file_name, text};
    const Config c = readConfigNode(src, root, "", true);
    validateConfigAt(src, root, c);
    return c;
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(file_name, 0, 0, std::string("cannot read the config: ") + e.what());
  }
}

Config loadConfig(const std::filesystem::path& path) {
  return parseConfig(readTextFile(path), path.string());
}

}  // namespace breakerlab
