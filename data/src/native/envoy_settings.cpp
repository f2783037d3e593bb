// Envoy cluster YAML (v3 API): outlier_detection with its proto field names and defaults, the
// hosts of load_assignment, common_lb_config.healthy_panic_threshold and the active health
// checks. A cluster, a clusters list, static_resources, or the outlier_detection map alone.
#include <algorithm>
#include <cmath>

#include "breakerlab/data/values.h"
#include "library_settings.h"

namespace breakerlab::data_detail {

namespace {

// google.protobuf.UInt32Value / Percent: a number, or {value: number}.
YAML::Node unwrapped(const YAML::Node& v) {
  if (v.IsMap() && v["value"]) return v["value"];
  return v;
}

Micros readProtoDuration(SettingsReader& r, const YAML::Node& v, const std::string& path) {
  if (v.IsScalar()) {
    if (auto d = parseDuration(v.Scalar())) return *d;
  }
  failExpected(r.source(), v, path, "a duration such as 10s or 0.5s");
}

// The active health check's fields: health_checks[0] of a cluster, or BreakerLab's
// health_check_* keys beside outlier_detection's.
void readHealthCheckField(SettingsReader& r, const std::string& field, const YAML::Node& v,
                          const std::string& path, EnvoyOutlierSettings& e) {
  if (field == "interval") {
    e.health_check_interval = readProtoDuration(r, v, path);
    if (e.health_check_interval != 0 && e.health_check_interval < kMillisecond)
      failExpected(r.source(), v, path, "at least 0.001s");
  } else if (field == "unhealthy_interval") {
    e.health_check_unhealthy_interval = readProtoDuration(r, v, path);
    if (e.health_check_unhealthy_interval != 0 && e.health_check_unhealthy_interval < kMillisecond)
      failExpected(r.source(), v, path, "at least 0.001s");
  } else if (field == "unhealthy_threshold") {
    e.health_check_unhealthy_threshold = r.whole(unwrapped(v), path, 1, 1'000'000);
  } else if (field == "healthy_threshold") {
    e.health_check_healthy_threshold = r.whole(unwrapped(v), path, 1, 1'000'000);
  }
}

std::uint32_t readEnforcing(SettingsReader& r, const YAML::Node& v, const std::string& path) {
  const std::uint32_t pct = r.whole(unwrapped(v), path, 0, 100);
  if (pct != 0 && pct != 100)
    r.note(v, path + ": " + std::to_string(pct) +
                  "% is a random draw per detection in Envoy; replayed as " +
                  (pct >= 50 ? "always enforced" : "never enforced"));
  return pct >= 50 ? 100 : 0;
}

}  // namespace

std::string protoDurationText(Micros d) {
  // The proto3 JSON form Envoy's YAML takes: seconds with up to 9 decimals and an "s".
  const bool negative = d < 0;
  const Micros a = negative ? -d : d;
  std::string text = std::to_string(a / kSecond);
  if (const Micros frac = a % kSecond; frac != 0) {
    std::string digits = std::to_string(frac);
    digits.insert(0, 6 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return (negative ? "-" : "") + text + "s";
}

void readEnvoyOutlierDetection(SettingsReader& r, const YAML::Node& node, const std::string& path,
                               EnvoyOutlierSettings& e, bool& max_set) {
  const std::vector<std::string_view> known = {"consecutive_5xx",
                                               "consecutive_gateway_failure",
                                               "consecutive_local_origin_failure",
                                               "interval",
                                               "base_ejection_time",
                                               "max_ejection_time",
                                               "max_ejection_time_jitter",
                                               "max_ejection_percent",
                                               "always_eject_one_host",
                                               "enforcing_consecutive_5xx",
                                               "enforcing_consecutive_gateway_failure",
                                               "enforcing_consecutive_local_origin_failure",
                                               "split_external_local_origin_errors",
                                               "successful_active_health_check_uneject_host",
                                               "hosts",
                                               "healthy_panic_threshold",
                                               "health_check_interval",
                                               "health_check_unhealthy_interval",
                                               "health_check_unhealthy_threshold",
                                               "health_check_healthy_threshold",
                                               "cluster_name",
                                               "cluster_type",
                                               "lb_policy",
                                               "connect_timeout"};
  r.forEach(
      node, path, known, [&](const std::string& key, const YAML::Node& v, const std::string& q) {
        if (key == "consecutive_5xx") {
          e.consecutive_5xx = r.whole(unwrapped(v), q, 0, 4'294'967'295u);
        } else if (key == "consecutive_gateway_failure") {
          e.consecutive_gateway_failure = r.whole(unwrapped(v), q, 0, 4'294'967'295u);
        } else if (key == "consecutive_local_origin_failure") {
          e.consecutive_local_origin_failure = r.whole(unwrapped(v), q, 0, 4'294'967'295u);
        } else if (key == "interval") {
          e.interval = readProtoDuration(r, v, q);
          if (e.interval < kMillisecond) failExpected(r.source(), v, q, "at least 1ms");
        } else if (key == "base_ejection_time") {
          e.base_ejection_time = readProtoDuration(r, v, q);
        } else if (key == "max_ejection_time") {
          e.max_ejection_time = readProtoDuration(r, v, q);
          max_set = true;
        } else if (key == "max_ejection_time_jitter") {
          if (readProtoDuration(r, v, q) != 0)
            r.note(v, q + ": a random extra per ejection; replayed as 0s");
        } else if (key == "max_ejection_percent") {
          e.max_ejection_percent = r.whole(unwrapped(v), q, 0, 100);
        } else if (key == "always_eject_one_host") {
          e.always_eject_one_host = r.boolean(unwrapped(v), q);
        } else if (key == "enforcing_consecutive_5xx") {
          e.enforcing_consecutive_5xx = readEnforcing(r, v, q);
        } else if (key == "enforcing_consecutive_gateway_failure") {
          e.enforcing_consecutive_gateway_failure = readEnforcing(r, v, q);
        } else if (key == "enforcing_consecutive_local_origin_failure") {
          e.enforcing_consecutive_local_origin_failure = readEnforcing(r, v, q);
        } else if (key == "split_external_local_origin_errors") {
          e.split_external_local_origin_errors = r.boolean(v, q);
        } else if (key == "successful_active_health_check_uneject_host") {
          e.successful_active_health_check_uneject_host = r.boolean(unwrapped(v), q);
        } else if (key == "hosts") {  // BreakerLab: the cluster's size without load_assignment
          e.hosts = r.whole(v, q, 1, 100'000);
        } else if (key.rfind("health_check_", 0) == 0) {  // BreakerLab: health_checks[0]
          readHealthCheckField(r, key.substr(13), v, q, e);
        } else if (key == "healthy_panic_threshold") {
          e.healthy_panic_threshold = r.number(unwrapped(v), q, 0, 100);
        } else if (key == "cluster_name" || key == "cluster_type" || key == "lb_policy" ||
                   key == "connect_timeout") {
          // BreakerLab's envoy: section only: the cluster's own fields, kept for an export.
          if (!r.strict()) return false;
          if (key == "cluster_name")
            e.name = r.text(v, q);
          else if (key == "cluster_type")
            e.type = r.text(v, q);
          else if (key == "lb_policy")
            e.lb_policy = r.text(v, q);
          else
            e.connect_timeout = readProtoDuration(r, v, q);
        } else if (key.rfind("success_rate", 0) == 0 || key.rfind("failure_percentage", 0) == 0 ||
                   key == "enforcing_success_rate" || key == "enforcing_failure_percentage" ||
                   key == "enforcing_failure_percentage_local_origin" ||
                   key == "enforcing_local_origin_success_rate") {
          if (r.strict()) return false;
          r.note(v, q + ": success-rate and failure-percentage ejection compare hosts with each "
                        "other; BreakerLab's hosts are identical, so it does not model them");
        } else {
          return false;
        }
        return true;
      });
}

ordered_json envoyOutlierJson(const EnvoyOutlierSettings& e) {
  ordered_json j;
  j["consecutive_5xx"] = e.consecutive_5xx;
  j["enforcing_consecutive_5xx"] = e.enforcing_consecutive_5xx;
  j["consecutive_gateway_failure"] = e.consecutive_gateway_failure;
  j["enforcing_consecutive_gateway_failure"] = e.enforcing_consecutive_gateway_failure;
  j["split_external_local_origin_errors"] = e.split_external_local_origin_errors;
  // Written even when not split: Envoy reads them only then, and a round trip keeps them.
  j["consecutive_local_origin_failure"] = e.consecutive_local_origin_failure;
  j["enforcing_consecutive_local_origin_failure"] = e.enforcing_consecutive_local_origin_failure;
  j["interval"] = protoDurationText(e.interval);
  j["base_ejection_time"] = protoDurationText(e.base_ejection_time);
  j["max_ejection_time"] = protoDurationText(e.max_ejection_time);
  j["max_ejection_percent"] = e.max_ejection_percent;
  if (e.always_eject_one_host) j["always_eject_one_host"] = true;
  j["successful_active_health_check_uneject_host"] = e.successful_active_health_check_uneject_host;
  return j;
}

ordered_json envoyConfigJson(const EnvoyOutlierSettings& e) {
  ordered_json j = envoyOutlierJson(e);
  // The cluster's own fields an export writes back, where a cluster file stated them.
  const EnvoyOutlierSettings defaults;
  if (!e.name.empty()) j["cluster_name"] = e.name;
  if (e.type != defaults.type) j["cluster_type"] = e.type;
  if (e.lb_policy != defaults.lb_policy) j["lb_policy"] = e.lb_policy;
  if (e.connect_timeout != defaults.connect_timeout)
    j["connect_timeout"] = protoDurationText(e.connect_timeout);
  j["hosts"] = e.hosts;
  j["healthy_panic_threshold"] = e.healthy_panic_threshold;
  if (e.health_check_interval > 0) {
    j["health_check_interval"] = protoDurationText(e.health_check_interval);
    if (e.health_check_unhealthy_interval > 0)
      j["health_check_unhealthy_interval"] = protoDurationText(e.health_check_unhealthy_interval);
    j["health_check_unhealthy_threshold"] = e.health_check_unhealthy_threshold;
    j["health_check_healthy_threshold"] = e.health_check_healthy_threshold;
  }
  return j;
}

// The whole file: find the cluster and read what the replay needs from it.
// The retry budget of the DEFAULT priority's thresholds (Envoy's defaults when a retry_budget is
// there without them: budget_percent 20, min_retry_concurrency 3); the concurrency limits beside
// it are remarked, not read.
static void readEnvoyRetryBudget(SettingsReader& r, const YAML::Node& breakers,
                                 const std::string& path,
                                 std::optional<RetryConcurrencyBudget>& retry_budget) {
  const YAML::Node thresholds = breakers.IsMap() ? breakers["thresholds"] : YAML::Node();
  bool limits = false;
  if (thresholds && thresholds.IsSequence()) {
    for (std::size_t i = 0; i < thresholds.size(); ++i) {
      const YAML::Node t = thresholds[i];
      if (!t.IsMap()) continue;
      const std::string t_path = indexPath(joinPath(path, "thresholds"), i);
      const YAML::Node priority = t["priority"];
      if (priority && !(priority.IsScalar() && priority.Scalar() == "DEFAULT")) {
        r.remark(t, t_path + ": a priority other than DEFAULT; BreakerLab replays DEFAULT only");
        continue;
      }
      for (const auto& kv : t)
        if (kv.first.IsScalar() && kv.first.Scalar() != "priority" &&
            kv.first.Scalar() != "retry_budget")
          limits = true;
      const YAML::Node budget = t["retry_budget"];
      if (!budget) continue;
      RetryConcurrencyBudget read{20, 3};
      const std::string b_path = joinPath(t_path, "retry_budget");
      if (budget.IsMap()) {
        if (const YAML::Node v = budget["budget_percent"])
          read.budget_percent = r.number(unwrapped(v), joinPath(b_path, "budget_percent"), 0, 100);
        if (const YAML::Node v = budget["min_retry_concurrency"])
          read.min_retry_concurrency =
              r.whole(unwrapped(v), joinPath(b_path, "min_retry_concurrency"), 0, 1'000'000);
      }
      retry_budget = read;
    }
  }
  if (limits || !thresholds)
    r.remark(breakers, path +
                           ": concurrency limits, not the breaker; BreakerLab reads only the "
                           "retry_budget (retry.concurrency_budget); its pool settings are its "
                           "own knobs");
}

void readEnvoyFile(SettingsReader& r, const YAML::Node& root, EnvoyOutlierSettings& e,
                   std::optional<RetryConcurrencyBudget>& retry_budget) {
  const Source& src = r.source();
  YAML::Node cluster = root;
  std::string path;
  if (root.IsMap() && root["static_resources"] && root["static_resources"]["clusters"]) {
    cluster = root["static_resources"]["clusters"];
    path = "static_resources.clusters";
  } else if (root.IsMap() && root["clusters"]) {
    cluster = root["clusters"];
    path = "clusters";
  }
  if (cluster.IsSequence()) {
    YAML::Node chosen;
    std::size_t index = 0;
    for (std::size_t i = 0; i < cluster.size(); ++i)
      if (cluster[i]["outlier_detection"]) {
        chosen = cluster[i];
        index = i;
        break;
      }
    if (!chosen) fail(src, cluster, path + ": no cluster has outlier_detection");
    if (cluster.size() > 1)
      r.remark(chosen, path + ": " + std::to_string(cluster.size()) +
                           " clusters; BreakerLab "
                           "replays the first with outlier_detection");
    cluster = chosen;
    path = indexPath(path, index);
  }
  bool max_set = false;
  if (!cluster.IsMap() || !cluster["outlier_detection"]) {
    // The outlier_detection map on its own (with BreakerLab's hosts / healthy_panic_threshold).
    readEnvoyOutlierDetection(r, root, "", e, max_set);
  } else {
    readEnvoyOutlierDetection(r, cluster["outlier_detection"], joinPath(path, "outlier_detection"),
                              e, max_set);
    std::uint32_t hosts = 0;
    if (const YAML::Node la = cluster["load_assignment"]; la && la["endpoints"]) {
      for (const auto& locality : la["endpoints"])
        if (locality["lb_endpoints"])
          hosts += static_cast<std::uint32_t>(locality["lb_endpoints"].size());
    }
    // The cluster's own fields, kept so that an export writes them back as they were; those it
    // does not state keep what an export writes.
    if (const YAML::Node v = cluster["name"]) e.name = r.text(v, joinPath(path, "name"));
    if (const YAML::Node v = cluster["type"]) e.type = r.text(v, joinPath(path, "type"));
    if (const YAML::Node v = cluster["connect_timeout"]) {
      e.connect_timeout = readProtoDuration(r, v, joinPath(path, "connect_timeout"));
      if (e.connect_timeout <= 0)
        failExpected(r.source(), v, joinPath(path, "connect_timeout"), "a positive duration");
    }
    if (const YAML::Node v = cluster["lb_policy"]) {
      e.lb_policy = r.text(v, joinPath(path, "lb_policy"));
      // source/common/upstream/load_balancer_impl.cc: each policy picks among the healthy
      // hosts; BreakerLab's hosts are identical, so only the order differs, and it picks them
      // round robin. With one host every policy picks it.
      if (e.lb_policy != "ROUND_ROBIN" && hosts > 1)
        r.remark(v, joinPath(path, "lb_policy") + ": " + clipText(e.lb_policy) +
                        " is replayed round robin over the identical hosts; an export writes it "
                        "back");
    }
    // Anything else of the cluster (its filters, TLS, DNS settings) no export writes back.
    for (const auto& kv : cluster) {
      static constexpr std::string_view kRead[] = {"name",
                                                   "type",
                                                   "connect_timeout",
                                                   "lb_policy",
                                                   "load_assignment",
                                                   "common_lb_config",
                                                   "health_checks",
                                                   "circuit_breakers",
                                                   "outlier_detection"};
      const std::string key = kv.first.Scalar();
      if (std::find(std::begin(kRead), std::end(kRead), key) == std::end(kRead))
        r.remark(kv.first, joinPath(path, clipText(key)) +
                               ": not read by BreakerLab; an export does not write it back");
    }
    if (hosts > 0) {
      e.hosts = hosts;
    } else {
      r.remark(cluster, joinPath(path, "load_assignment") +
                            ": no endpoints listed (DNS or EDS); replayed as 1 host: set "
                            "outlier_detection.hosts to the cluster's size");
    }
    if (const YAML::Node lb = cluster["common_lb_config"]; lb && lb["healthy_panic_threshold"])
      e.healthy_panic_threshold =
          r.number(unwrapped(lb["healthy_panic_threshold"]),
                   joinPath(path, "common_lb_config.healthy_panic_threshold"), 0, 100);
    if (const YAML::Node hc = cluster["health_checks"];
        hc && hc.IsSequence() && hc.size() > 0 && hc[0].IsMap()) {
      const std::string hc_path = joinPath(path, "health_checks[0]");
      for (const char* field :
           {"interval", "unhealthy_interval", "unhealthy_threshold", "healthy_threshold"})
        if (const YAML::Node v = hc[0][field])
          readHealthCheckField(r, field, v, joinPath(hc_path, field), e);
      if (hc.size() > 1)
        r.remark(hc, joinPath(path, "health_checks") +
                         ": more than one health check; BreakerLab replays the first");
    }
    if (const YAML::Node breakers = cluster["circuit_breakers"]) {
      const std::string cb_path = joinPath(path, "circuit_breakers");
      readEnvoyRetryBudget(r, breakers, cb_path, retry_budget);
    }
  }
  // max_ejection_time defaults to max(300s, base_ejection_time); smaller than base is invalid.
  if (!max_set) e.max_ejection_time = std::max<Micros>(300 * kSecond, e.base_ejection_time);
  if (e.max_ejection_time < e.base_ejection_time)
    fail(src, cluster,
         "outlier_detection: max_ejection_time cannot be smaller than "
         "base_ejection_time (Envoy refuses the cluster)");
}

}  // namespace breakerlab::data_detail
