// Envoy (a cluster with outlier_detection): the library's own settings, or the generic
// BreakerLab machine translated. The early probe is native here: active health checks.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "../native/library_settings.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
ExportedConfig envoyFile(const EnvoyOutlierSettings& e, const std::string& name,
                         std::vector<std::string> notes) {
  YAML::Node cluster;
  cluster["name"] = name;
  cluster["connect_timeout"] = "0.25s";
  cluster["type"] = "STRICT_DNS";
  cluster["lb_policy"] = "ROUND_ROBIN";
  YAML::Node panic(YAML::NodeType::Map);
  panic["value"] = formatNumber(e.healthy_panic_threshold);
  cluster["common_lb_config"]["healthy_panic_threshold"] = panic;
  // As many endpoints as the replay had hosts: their addresses are placeholders.
  YAML::Node endpoints(YAML::NodeType::Sequence);
  for (std::uint32_t i = 0; i < e.hosts; ++i) {
    YAML::Node address;
    address["socket_address"]["address"] = name + "-" + std::to_string(i + 1) + ".example.internal";
    address["socket_address"]["port_value"] = "8080";
    YAML::Node endpoint;
    endpoint["endpoint"]["address"] = address;
    endpoints.push_back(endpoint);
  }
  YAML::Node locality;
  locality["lb_endpoints"] = endpoints;
  cluster["load_assignment"]["cluster_name"] = name;
  cluster["load_assignment"]["endpoints"].push_back(locality);
  cluster["outlier_detection"] = data_detail::jsonToYaml(data_detail::envoyOutlierJson(e));
  if (e.health_check_interval > 0) {
    YAML::Node check;
    check["timeout"] = "1s";
    check["interval"] = data_detail::protoDurationText(e.health_check_interval);
    if (e.health_check_unhealthy_interval > 0)
      check["unhealthy_interval"] =
          data_detail::protoDurationText(e.health_check_unhealthy_interval);
    check["unhealthy_threshold"] = std::to_string(e.health_check_unhealthy_threshold);
    check["healthy_threshold"] = std::to_string(e.health_check_healthy_threshold);
    check["http_health_check"]["path"] = "/healthz";
    cluster["health_checks"].push_back(check);
  }
  YAML::Emitter out;
  out << cluster;
  const std::string body = "# Replace the endpoint addresses with the cluster's " +
                           std::to_string(e.hosts) + (e.hosts == 1 ? " host" : " hosts") +
                           " and the health check path with yours.\n" + out.c_str() + "\n";
  return withHeader("#", ExportTarget::envoy, "Envoy", std::move(notes), body);
}
}  // namespace

ExportedConfig exportEnvoyNative(const Config& c, const std::string& name) {
  return envoyFile(c.native.envoy, name, outsideTheBreaker(c, ExportTarget::envoy));
}

ExportedConfig exportEnvoyFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  EnvoyOutlierSettings e;
  std::vector<std::string> notes;
  // One host ejected from rotation stops traffic like an open breaker only without panic.
  e.hosts = 1;
  e.max_ejection_percent = 100;
  e.healthy_panic_threshold = 0;
  e.interval = kSecond;
  notes.push_back(
      "one host, max_ejection_percent 100 and healthy_panic_threshold 0: ejecting "
      "it stops every call, as an open breaker does; returns come at the 1 s "
      "interval sweep");
  if (b.window_type == WindowType::consecutive) {
    e.consecutive_5xx = std::max(b.consecutive_failures, 1u);
  } else {
    e.consecutive_5xx = std::max<std::uint32_t>(
        1, static_cast<std::uint32_t>(std::ceil(b.min_calls * b.failure_rate_pct / 100.0)));
    notes.push_back("failure rate " + formatPercent(b.failure_rate_pct) + " over " +
                    (b.window_type == WindowType::time ? std::to_string(b.window_size) + " s"
                                                       : callsText(b.window_size)) +
                    ": outlier detection has no per-call rate for one host (failure_percentage "
                    "needs 5 hosts); consecutive_5xx " +
                    std::to_string(e.consecutive_5xx) + " comes closest");
  }
  e.base_ejection_time = b.open_interval;
  e.max_ejection_time = backoffInEffect(b) ? std::max(b.backoff_max, b.open_interval)
                                           : std::max<Micros>(300 * kSecond, b.open_interval);
  if (backoffInEffect(b))
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): Envoy grows the ejection linearly, base x times ejected, up to "
                    "max_ejection_time");
  if (b.early_probe) {
    e.health_check_interval = b.early_probe_poll;
    e.health_check_unhealthy_threshold = 3;
    e.health_check_healthy_threshold = 1;
    notes.push_back("early probe on health green: native, an active health check every " +
                    formatDuration(b.early_probe_poll) +
                    " returns the host at its first pass (a full return, not a probe); while 3 "
                    "checks in a row fail, the check also keeps the host out of rotation");
  }
  if (b.probes > 1 || spacingInEffect(b))
    notes.push_back(std::to_string(b.probes) +
                    " half-open probes: Envoy has no half-open; the host returns fully");
  if (slowRuleOn(b))
    notes.push_back("slow-call rule (" + slowRuleText(b) +
                    "): Envoy counts only 5xx and "
                    "local-origin errors");
  if (b.failures.contains(CallOutcome::client_error))
    notes.push_back("client errors as failures: a 4xx resets Envoy's 5xx streak");
  for (auto& item : outsideTheBreaker(c, ExportTarget::envoy)) notes.push_back(std::move(item));
  return envoyFile(e, name, std::move(notes));
}

}  // namespace breakerlab::export_detail
