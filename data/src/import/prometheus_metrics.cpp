// The Prometheus metric table (see prometheus_metrics.h).
#include "breakerlab/data/prometheus_metrics.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>

#include "../yaml_source.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

using Encoding = PrometheusStateMetric::Encoding;

constexpr std::pair<std::string_view, Encoding> kEncodings[] = {
    {"state_label", Encoding::state_label}, {"code", Encoding::code}, {"events", Encoding::events}};

std::string_view encodingName(Encoding e) {
  for (const auto& [name, value] : kEncodings)
    if (value == e) return name;
  return "state_label";
}

constexpr std::string_view kLaneStates[] = {"closed", "open", "half-open"};

// Glob with `*` only: iterative, linear in practice, no recursion.
bool globMatch(std::string_view p, std::string_view s) {
  std::size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] != '*' && p[pi] == s[si]) {
      ++pi, ++si;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

}  // namespace

bool prometheusMetricPatternMatches(std::string_view pattern, std::string_view name) {
  return globMatch(pattern, name);
}

std::string PrometheusStateMetric::stateOf(std::string_view value) const {
  for (const auto& [from, to] : states)
    if (from == value) return to;
  return {};
}

std::string PrometheusStateMetric::stateOfCode(double value) const {
  for (const auto& [from, to] : codes)
    if (std::abs(from - value) < 1e-9) return to;
  return {};
}

const PrometheusStateMetric* PrometheusMetricTable::match(std::string_view metric_name) const {
  for (const PrometheusStateMetric& row : rows)
    if (globMatch(row.metric, metric_name)) return &row;
  return nullptr;
}

const PrometheusStateMetric* PrometheusMetricTable::matchNamed(std::string_view metric_name) const {
  for (const PrometheusStateMetric& row : rows)
    if (row.metric != "*" && globMatch(row.metric, metric_name)) return &row;
  return nullptr;
}

PrometheusMetricTable PrometheusMetricTable::defaults() {
  PrometheusMetricTable t;
  // Kubernetes' pod name first (the scrape's own `instance` is an address that a restart
  // changes), then OpenTelemetry's and the scrape's.
  t.instance_labels = {"pod", "kubernetes_pod_name", "k8s_pod_name", "service_instance_id",
                       "instance"};
  const std::vector<std::pair<std::string, std::string>> micrometer = {
      {"closed", "closed"},       {"open", "open"},         {"half_open", "half-open"},
      {"forced_open", "open"},    {"disabled", "closed"},   {"metrics_only", "closed"},
      {"half-open", "half-open"}, {"halfopen", "half-open"}};
  {
    // resilience4j-micrometer: resilience4j_circuitbreaker_state{name, state}, 1 for the current
    // state (forced_open is open; disabled and metrics_only let every call through).
    PrometheusStateMetric r;
    r.metric = "resilience4j_circuitbreaker_state";
    r.library = "resilience4j";
    r.states = micrometer;
    t.rows.push_back(r);
  }
  {
    // opossum-prometheus: a counter circuit{name, event} per event the breaker emits; its state
    // is the last transition event's (open, halfOpen, close).
    PrometheusStateMetric r;
    r.metric = "circuit";
    r.library = "opossum";
    r.encoding = Encoding::events;
    r.label = "event";
    r.states = {{"open", "open"}, {"halfOpen", "half-open"}, {"close", "closed"}};
    t.rows.push_back(r);
  }
  {
    // Envoy:
    // envoy_cluster_circuit_breakers_{default,high}_{cx,rq,cx_pool,rq_pending,rq_retry}_open, 1
    // while that threshold is reached, per cluster.
    PrometheusStateMetric r;
    r.metric = "envoy_cluster_circuit_breakers_*_open";
    r.library = "envoy";
    r.encoding = Encoding::code;
    r.label.clear();
    r.codes = {{0, "closed"}, {1, "open"}};
    r.breaker_label = "envoy_cluster_name";
    t.rows.push_back(r);
  }
  {
    // Any other breaker-state gauge (a name containing breaker_state), and a series without a
    // name (an aggregation drops it): one series per `state`, or one gauge 0/1/2.
    PrometheusStateMetric r;
    r.library = "generic";
    r.states = micrometer;
    r.codes = {{0, "closed"}, {1, "open"}, {2, "half-open"}};
    r.metric = "*breaker_state*";
    t.rows.push_back(r);
    r.metric = "*";
    t.rows.push_back(r);
  }
  return t;
}

std::string prometheusMetricTableToYaml(const PrometheusMetricTable& table) {
  YAML::Node root(YAML::NodeType::Map);
  root["format"] = std::string(kPrometheusMetricTableFormat);
  YAML::Node labels(YAML::NodeType::Sequence);
  labels.SetStyle(YAML::EmitterStyle::Flow);
  for (const std::string& l : table.instance_labels) labels.push_back(l);
  root["instance_labels"] = labels;
  YAML::Node rows(YAML::NodeType::Sequence);
  for (const PrometheusStateMetric& r : table.rows) {
    YAML::Node n(YAML::NodeType::Map);
    n["metric"] = r.metric;
    if (!r.library.empty()) n["library"] = r.library;
    n["encoding"] = std::string(encodingName(r.encoding));
    if (!r.label.empty()) n["label"] = r.label;
    if (!r.states.empty()) {
      YAML::Node states(YAML::NodeType::Map);
      states.SetStyle(YAML::EmitterStyle::Flow);
      for (const auto& [from, to] : r.states) states[from] = to;
      n["states"] = states;
    }
    if (!r.codes.empty()) {
      YAML::Node codes(YAML::NodeType::Map);
      codes.SetStyle(YAML::EmitterStyle::Flow);
      for (const auto& [from, to] : r.codes) codes[formatNumber(from)] = to;
      n["codes"] = codes;
    }
    n["breaker_label"] = r.breaker_label;
    rows.push_back(n);
  }
  root["breaker_state"] = rows;
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

PrometheusMetricTable parsePrometheusMetricTable(std::string_view text,
                                                 const std::string& file_name) {
  using namespace data_detail;
  const YAML::Node root = parseYaml(text, file_name);
  const Source src{file_name, text};
  const MapReader top(src, root, "", {"format", "instance_labels", "breaker_state"});
  const YAML::Node& format = top.require("format");
  if (!format.IsScalar() || format.Scalar() != kPrometheusMetricTableFormat)
    failExpected(src, format, "format", "\"" + std::string(kPrometheusMetricTableFormat) + "\"");
  PrometheusMetricTable table;
  if (auto* v = top.find("instance_labels")) {
    requireList(src, *v, "instance_labels");
    if (v->size() > kMaxPrometheusMetricRows)
      fail(src, *v, "instance_labels: more than " + std::to_string(kMaxPrometheusMetricRows));
    std::size_t k = 0;
    for (auto it = v->begin(); it != v->end(); ++it, ++k) {
      const std::string path = indexPath("instance_labels", k);
      std::string label = readString(src, *it, path);
      if (label.empty()) fail(src, *it, path + ": a label name, not empty");
      table.instance_labels.push_back(std::move(label));
    }
  }
  const YAML::Node& list = top.require("breaker_state");
  requireList(src, list, "breaker_state");
  if (list.size() > kMaxPrometheusMetricRows)
    fail(src, list,
         "breaker_state: more than " + std::to_string(kMaxPrometheusMetricRows) + " rows");
  std::size_t i = 0;
  for (auto it = list.begin(); it != list.end(); ++it, ++i) {
    const std::string path = indexPath("breaker_state", i);
    const MapReader m(
        src, *it, path,
        {"metric", "library", "encoding", "label", "states", "codes", "breaker_label"});
    PrometheusStateMetric r;
    r.metric = readString(src, m.require("metric"), m.path("metric"));
    if (r.metric.empty())
      fail(src, m.require("metric"), m.path("metric") + ": a metric name (`*` for any text)");
    if (auto* v = m.find("library")) r.library = readString(src, *v, m.path("library"));
    if (auto* v = m.find("encoding"))
      r.encoding = readEnum<Encoding>(src, *v, m.path("encoding"),
                                      {{"state_label", Encoding::state_label},
                                       {"code", Encoding::code},
                                       {"events", Encoding::events}});
    r.label = r.encoding == Encoding::code ? "" : "state";
    if (r.encoding == Encoding::events) r.label = "event";
    if (auto* v = m.find("label")) r.label = readString(src, *v, m.path("label"));
    if (auto* v = m.find("breaker_label"))
      r.breaker_label = readString(src, *v, m.path("breaker_label"));
    auto laneState = [&](const YAML::Node& node, const std::string& at) {
      std::string s = readString(src, node, at);
      if (std::find(std::begin(kLaneStates), std::end(kLaneStates), s) == std::end(kLaneStates))
        failExpected(src, node, at, "closed, open or half-open");
      return s;
    };
    if (auto* v = m.find("states")) {
      const auto entries = mapEntries(src, *v, m.path("states"));
      if (entries.size() > kMaxPrometheusRowStates)
        fail(src, *v, m.path("states") + ": more than " + std::to_string(kMaxPrometheusRowStates));
      for (const auto& e : entries)
        r.states.emplace_back(e.key, laneState(e.value, joinPath(m.path("states"), e.key)));
    }
    if (auto* v = m.find("codes")) {
      const auto entries = mapEntries(src, *v, m.path("codes"));
      if (entries.size() > kMaxPrometheusRowStates)
        fail(src, *v, m.path("codes") + ": more than " + std::to_string(kMaxPrometheusRowStates));
      for (const auto& e : entries) {
        const std::string at = joinPath(m.path("codes"), e.key);
        const double code = readNumber(src, e.key_node, at, -1e9, 1e9);
        if (!r.stateOfCode(code).empty())
          fail(src, e.key_node, at + ": the code " + formatNumber(code) + " twice");
        r.codes.emplace_back(code, laneState(e.value, at));
      }
    }
    if (r.encoding != Encoding::code && r.label.empty())
      fail(src, *it,
           path + ": encoding " + std::string(encodingName(r.encoding)) +
               " needs a label (the one that names the state or event)");
    if (r.encoding == Encoding::code && r.codes.empty())
      fail(src, *it, path + ": encoding code needs codes ({0: closed, 1: open, 2: half-open})");
    if (r.encoding != Encoding::code && r.states.empty())
      fail(src, *it,
           path + ": encoding " + std::string(encodingName(r.encoding)) +
               " needs states (label value: closed, open or half-open)");
    table.rows.push_back(std::move(r));
  }
  return table;
}

}  // namespace breakerlab
