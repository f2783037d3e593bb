// Envoy (a cluster with outlier_detection): the library's own settings, or the generic
// BreakerLab machine translated. The early probe is native here: active health checks.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "../native/library_settings.h"
#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/data/values.h"
#include "export_common.h"

namespace breakerlab::export_detail {

namespace {
ExportedConfig envoyFile(const EnvoyOutlierSettings& e, const RetryConfig& retry,
                         const std::string& name, std::vector<std::string> notes) {
  YAML::Node cluster;
  // The cluster's own fields as read; BreakerLab's choice where nothing was read.
  const std::string& cluster_name = e.name.empty() ? name : e.name;
  cluster["name"] = cluster_name;
  cluster["connect_timeout"] = data_detail::protoDurationText(e.connect_timeout);
  cluster["type"] = e.type;
  cluster["lb_policy"] = e.lb_policy;
  YAML::Node panic(YAML::NodeType::Map);
  panic["value"] = formatNumber(e.healthy_panic_threshold);
  cluster["common_lb_config"]["healthy_panic_threshold"] = panic;
  // As many endpoints as the replay had hosts: their addresses are placeholders.
  YAML::Node endpoints(YAML::NodeType::Sequence);
  for (std::uint32_t i = 0; i < e.hosts; ++i) {
    YAML::Node address;
    address["socket_address"]["address"] =
        cluster_name + "-" + std::to_string(i + 1) + ".example.internal";
    address["socket_address"]["port_value"] = "8080";
    YAML::Node endpoint;
    endpoint["endpoint"]["address"] = address;
    endpoints.push_back(endpoint);
  }
  YAML::Node locality;
  locality["lb_endpoints"] = endpoints;
  cluster["load_assignment"]["cluster_name"] = cluster_name;
  cluster["load_assignment"]["endpoints"].push_back(locality);
  cluster["outlier_detection"] = data_detail::jsonToYaml(data_detail::envoyOutlierJson(e));
  // The retry budget is the cluster's (circuit_breakers.thresholds[].retry_budget); the retry
  // policy itself is the route's, listed in the notes.
  if (retry.max_attempts > 1 && retry.concurrency_budget.budget_percent > 0) {
    YAML::Node threshold;
    threshold["priority"] = "DEFAULT";
    threshold["retry_budget"]["budget_percent"]["value"] =
        formatNumber(retry.concurrency_budget.budget_percent);
    threshold["retry_budget"]["min_retry_concurrency"] =
        std::to_string(retry.concurrency_budget.min_retry_concurrency);
    cluster["circuit_breakers"]["thresholds"].push_back(threshold);
  }
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
  return envoyFile(c.native.envoy, c.retry, name, outsideTheBreaker(c, ExportTarget::envoy));
}

ExportedConfig exportEnvoyFromGeneric(const Config& c, const std::string& name) {
  const BreakerConfig& b = c.breaker;
  // The settings come from the one mapping the library switch also makes; the notes say, in
  // Envoy's words, what each approximation means.
  // The cluster's own fields (name, lb_policy, ...) stay as the config holds them.
  const EnvoyOutlierSettings e = translateToLibrary(c, BreakerLibrary::envoy).config.native.envoy;
  std::vector<std::string> notes;
  notes.push_back(
      "one host, max_ejection_percent 100 and healthy_panic_threshold 0: ejecting "
      "it stops every call, as an open breaker does; returns come at the " +
      formatNumber(toSeconds(e.interval)) + " s interval sweep");
  if (b.window_type != WindowType::consecutive)
    notes.push_back("failure rate " + formatPercent(b.failure_rate_pct) + " over " +
                    (b.window_type == WindowType::time ? std::to_string(b.window_size) + " s"
                                                       : callsText(b.window_size)) +
                    ": outlier detection has no per-call rate for one host (failure_percentage "
                    "needs 5 hosts); consecutive_5xx " +
                    std::to_string(e.consecutive_5xx) + " comes closest");
  if (backoffInEffect(b))
    notes.push_back("open-interval backoff (" + backoffText(b) +
                    "): Envoy grows the ejection linearly, base x times ejected, up to "
                    "max_ejection_time");
  if (b.early_probe)
    notes.push_back("early probe on health green: native, an active health check every " +
                    formatDuration(e.health_check_interval) +
                    " returns the host at its first pass (a full return, not a probe); while " +
                    std::to_string(e.health_check_unhealthy_threshold) +
                    " checks in a row fail, the check also keeps the host out of rotation");
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
  return envoyFile(e, c.retry, name, std::move(notes));
}

}  // namespace breakerlab::export_detail
