// The recorded fleet from Prometheus: breaker-state series with a pod label become one recorded
// lane per pod (sorted by the label's value) and the fleet lane from them, read by the metric
// table (resilience4j, opossum, Envoy, a user's own); the errors that say what was expected; the
// pod lanes through breakerlab/1 and back; and the metric table's own file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../test_support.h"
#include "breakerlab/core/outcome/fleet.h"
#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/prometheus_import.h"
#include "breakerlab/data/prometheus_metrics.h"
#include "support/short_units.h"

namespace breakerlab {
namespace {

using test_units::s;
const char* kHead = R"({"status":"success","data":{"resultType":"matrix","result":[)";

// A series sampled every 10 s from epoch 1000: `values[i]` at 1000 + 10 i.
std::string series(const std::string& labels, const std::vector<double>& values) {
  std::string out = "{\"metric\":{" + labels + "},\"values\":[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + std::string("[") + std::to_string(1000 + 10 * i) + ",\"" +
           std::to_string(values[i]) + "\"]";
  return out + "]}";
}

std::string response(const std::vector<std::string>& list) {
  std::string out = kHead;
  for (std::size_t i = 0; i < list.size(); ++i) out += (i ? "," : "") + list[i];
  return out + "]}}";
}

// resilience4j's gauge for one pod: a series per state, 1 where `states[i]` is it.
std::vector<std::string> r4jPod(const std::string& pod_labels,
                                const std::vector<std::string>& states) {
  std::vector<std::string> out;
  for (const char* state : {"closed", "open", "half_open"}) {
    std::vector<double> v;
    for (const std::string& x : states) v.push_back(x == state ? 1 : 0);
    out.push_back(series(R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing",)" +
                             pod_labels + R"(,"state":")" + state + "\"",
                         v));
  }
  return out;
}

std::vector<std::string> join(std::vector<std::vector<std::string>> parts) {
  std::vector<std::string> out;
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// "closed 0 open 20 ..." as a lane ending at 70 s.
Lane lane(std::string name, std::vector<std::pair<std::string, Micros>> steps) {
  Lane l;
  l.name = std::move(name);
  for (std::size_t i = 0; i < steps.size(); ++i)
    l.append(steps[i].first, steps[i].second, i + 1 < steps.size() ? steps[i + 1].second : 70 * s);
  return l;
}

const std::vector<std::string> kPodA = {"closed",    "closed", "open",  "open",
                                        "half_open", "closed", "closed"};
const std::vector<std::string> kPodB = {"closed", "closed", "closed", "open",
                                        "open",   "open",   "closed"};
const std::vector<std::string> kPodC(7, "closed");

std::string threeInstances() {
  return response(join({r4jPod(R"("instance":"10.0.0.7:8080")", kPodA),
                        r4jPod(R"("instance":"10.0.0.9:8080")", kPodB),
                        r4jPod(R"("instance":"10.0.0.10:8080")", kPodC)}));
}

ImportedIncident importText(const std::string& text, const PrometheusMetricTable& table =
                                                         PrometheusMetricTable::defaults()) {
  ImportOptions options;
  options.prometheus_metrics = table;
  return importIncident(text, "q.json", options);
}

std::string fleetErrorOf(const std::string& text,
                         const PrometheusMetricTable& table = PrometheusMetricTable::defaults()) {
  const auto e = test::loadErrorOf([&] { importText(text, table); });
  return e ? std::string(e->what()) : std::string();
}

struct FleetCase {
  const char* what;
  std::string text;
  std::vector<Lane> pods;
  Lane fleet;
};

TEST(PrometheusFleet, EachPodsSeriesBecomeItsRecordedLane) {
  const Lane a =
      lane("", {{"closed", 0}, {"open", 20 * s}, {"half-open", 40 * s}, {"closed", 50 * s}});
  const Lane b = lane("", {{"closed", 0}, {"open", 30 * s}, {"closed", 60 * s}});
  const Lane c = lane("", {{"closed", 0}});
  auto named = [](Lane l, std::string name) {
    l.name = std::move(name);
    return l;
  };
  // opossum's counters: pod a opens at 20 s, half-opens at 40 s, closes at 50 s; pod b opens
  // and half-opens within one step (30 s), closes at 60 s. `fire` is not a transition.
  const std::string opossum = response({
      series(R"("__name__":"circuit","name":"pricing","event":"fire","pod":"checkout-a")",
             {5, 9, 14, 20, 30, 31, 40}),
      series(R"("__name__":"circuit","name":"pricing","event":"open","pod":"checkout-a")",
             {2, 2, 3, 3, 3, 3, 3}),
      series(R"("__name__":"circuit","name":"pricing","event":"halfOpen","pod":"checkout-a")",
             {1, 1, 1, 1, 2, 2, 2}),
      series(R"("__name__":"circuit","name":"pricing","event":"close","pod":"checkout-a")",
             {1, 1, 1, 1, 1, 2, 2}),
      series(R"("__name__":"circuit","name":"pricing","event":"open","pod":"checkout-b")",
             {0, 0, 0, 1, 1, 1, 1}),
      series(R"("__name__":"circuit","name":"pricing","event":"halfOpen","pod":"checkout-b")",
             {0, 0, 0, 1, 1, 1, 1}),
      series(R"("__name__":"circuit","name":"pricing","event":"close","pod":"checkout-b")",
             {0, 0, 0, 0, 0, 0, 1}),
  });
  // Envoy's threshold gauge, 1 while reached; the pod label wins over the scrape's instance.
  const std::string envoy = response({
      series(
          R"("__name__":"envoy_cluster_circuit_breakers_default_rq_open","envoy_cluster_name":"pricing","pod":"checkout-2","instance":"10.0.0.1:9901")",
          {0, 0, 1, 1, 0, 0, 0}),
      series(
          R"("__name__":"envoy_cluster_circuit_breakers_default_rq_open","envoy_cluster_name":"pricing","pod":"checkout-1","instance":"10.0.0.2:9901")",
          {0, 0, 0, 0, 0, 0, 0}),
  });
  const FleetCase cases[] = {
      {"resilience4j, three instances, sorted by the label with its numbers by value",
       threeInstances(),
       {named(a, "10.0.0.7:8080"), named(b, "10.0.0.9:8080"), named(c, "10.0.0.10:8080")},
       lane("breaker", {{"closed", 0}, {"open", 20 * s}, {"closed", 60 * s}})},
      {"resilience4j on Kubernetes: kubernetes_pod_name",
       response(join({r4jPod(R"("kubernetes_pod_name":"checkout-7f9c-x2")", kPodB),
                      r4jPod(R"("kubernetes_pod_name":"checkout-7f9c-a1")", kPodA)})),
       {named(a, "checkout-7f9c-a1"), named(b, "checkout-7f9c-x2")},
       lane("breaker", {{"closed", 0}, {"open", 20 * s}, {"closed", 60 * s}})},
      {"opossum's transition counters",
       opossum,
       {named(a, "checkout-a"),
        lane("checkout-b", {{"closed", 0}, {"half-open", 30 * s}, {"closed", 60 * s}})},
       lane("breaker",
            {{"closed", 0}, {"open", 20 * s}, {"half-open", 40 * s}, {"closed", 60 * s}})},
      {"Envoy's open gauge",
       envoy,
       {lane("checkout-1", {{"closed", 0}}),
        lane("checkout-2", {{"closed", 0}, {"open", 20 * s}, {"closed", 40 * s}})},
       lane("breaker", {{"closed", 0}, {"open", 20 * s}, {"closed", 40 * s}})},
  };
  for (const FleetCase& k : cases) {
    const ImportedIncident imported = importText(k.text);
    const Incident& inc = imported.incident;
    EXPECT_EQ(inc.recorded.pod_breakers, k.pods) << k.what;
    ASSERT_NE(inc.recorded.lane("breaker"), nullptr) << k.what;
    EXPECT_EQ(*inc.recorded.lane("breaker"), k.fleet) << k.what;
    EXPECT_EQ(inc.deployed.load_balancer.pods, k.pods.size()) << k.what;
    EXPECT_EQ(inc.dependency.name, "pricing") << k.what;
    ASSERT_EQ(inc.expect.size(), 2u) << k.what;
    EXPECT_EQ(inc.expect[1].lane, kEveryPodLane) << k.what;
    EXPECT_EQ(inc.expect[1].within, 10 * s) << k.what;
  }
}

TEST(PrometheusFleet, TheReportSaysHowThePodsWereRead) {
  const ImportedIncident imported = importText(threeInstances());
  std::string pods, lb;
  for (const ImportFinding& f : imported.report.findings) {
    if (f.what == "pod lanes") pods = f.detail;
    if (f.what == "load_balancer.pods") lb = f.detail;
  }
  EXPECT_NE(pods.find("3 pods by the label 'instance' (10.0.0.7:8080, 10.0.0.9:8080, "
                      "10.0.0.10:8080), sorted by it"),
            std::string::npos)
      << pods;
  EXPECT_NE(pods.find("(resilience4j, resilience4j_circuitbreaker_state)"), std::string::npos)
      << pods;
  EXPECT_EQ(lb, "3: one client pod per recorded instance");
}

TEST(PrometheusFleet, OneInstanceIsTheBreakerLaneAlone) {
  const ImportedIncident imported =
      importText(response(r4jPod(R"("instance":"10.0.0.7:8080")", kPodA)));
  EXPECT_TRUE(imported.incident.recorded.pod_breakers.empty());
  ASSERT_NE(imported.incident.recorded.lane("breaker"), nullptr);
  EXPECT_EQ(imported.incident.recorded.lane("breaker")->intervals.size(), 4u);
  EXPECT_EQ(imported.incident.deployed.load_balancer.pods, 1u);
}

TEST(PrometheusFleet, APodThatComesLateOrLeavesIsOutOfService) {
  // Pod b's series start at 20 s (a scale-out) and pod a's end at 40 s (a scale-in).
  std::string late = series(
      R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","pod":"b","state":"closed")",
      {1, 1, 1, 1, 1, 1, 1});
  late.replace(late.find("[1000,\"1.000000\"],[1010,\"1.000000\"],"), 36, "");
  std::string early = series(
      R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","pod":"a","state":"closed")",
      {1, 1, 1, 1, 1, 1, 1});
  early.replace(early.find(",[1050,\"1.000000\"],[1060,\"1.000000\"]"), 36, "");
  const Incident inc = importText(response({early, late})).incident;
  ASSERT_EQ(inc.recorded.pod_breakers.size(), 2u);
  EXPECT_EQ(inc.recorded.pod_breakers[0],
            lane("a", {{"closed", 0}, {std::string(kPodOutOfService), 50 * s}}));
  EXPECT_EQ(inc.recorded.pod_breakers[1],
            lane("b", {{std::string(kPodOutOfService), 0}, {"closed", 20 * s}}));
}

struct FleetErrorCase {
  const char* what;
  std::string text;
  PrometheusMetricTable table;
  std::vector<std::string> says;
};

TEST(PrometheusFleet, ErrorsSayWhatWasExpected) {
  PrometheusMetricTable only_r4j = PrometheusMetricTable::defaults();
  only_r4j.rows.resize(1);
  const std::string envoy_series = series(
      R"("__name__":"envoy_cluster_circuit_breakers_default_cx_open","envoy_cluster_name":"pricing","instance":"b")",
      {0, 1, 0});
  const FleetErrorCase cases[] = {
      {"a name the table does not know",
       response({series(R"("__name__":"payments_breaker_state","instance":"a")", {0, 1, 0})}),
       only_r4j,
       {"/data/result/0: the series payments_breaker_state{instance=\"a\"} matches no "
        "breaker-state metric of the metric table (expected resilience4j_circuitbreaker_state)",
        "add a row for it (import --prometheus-metrics FILE)"}},
      {"mixed metrics",
       response(join({r4jPod(R"("instance":"a")", {"closed", "open", "closed"}), {envoy_series}})),
       PrometheusMetricTable::defaults(),
       {"/data/result/3: mixed breaker-state metrics: "
        "envoy_cluster_circuit_breakers_default_cx_open{envoy_cluster_name=\"pricing\",instance="
        "\"b\"} is envoy's 'envoy_cluster_circuit_breakers_*_open', /data/result/0",
        "is resilience4j's 'resilience4j_circuitbreaker_state'; query one breaker metric"}},
      {"a series without the pod label",
       response(join(
           {r4jPod(R"("instance":"a")", {"closed", "open", "closed"}),
            {series(
                R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","state":"open")",
                {0, 0, 0})}})),
       PrometheusMetricTable::defaults(),
       {"/data/result/3: the series resilience4j_circuitbreaker_state{name=\"pricing\",state="
        "\"open\"} has no 'instance' label while others of breaker 'pricing' do"}},
      {"a state the row does not know",
       response({series(
           R"("__name__":"resilience4j_circuitbreaker_state","name":"pricing","instance":"a","state":"tripped")",
           {1, 1, 1})}),
       PrometheusMetricTable::defaults(),
       {"/data/result/0: state \"tripped\" of the series",
        "is not a state of the metric table's row 'resilience4j_circuitbreaker_state' "
        "(resilience4j; expected one of closed, open, half_open, forced_open, disabled, "
        "metrics_only, half-open, halfopen): add it to the row's states"}},
      {"a label set that matches nothing",
       response({}),
       PrometheusMetricTable::defaults(),
       {"no samples: the query matched no series"}},
  };
  for (const FleetErrorCase& k : cases) {
    const std::string error = fleetErrorOf(k.text, k.table);
    for (const std::string& says : k.says)
      EXPECT_NE(error.find(says), std::string::npos) << k.what << ": " << error;
  }
}

TEST(PrometheusFleet, PodLanesGoThroughTheIncidentFileAndBack) {
  const Incident imported = importText(threeInstances()).incident;
  const std::string yaml = incidentToYaml(imported);
  EXPECT_NE(yaml.find("pod_breakers:"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("every pod"), std::string::npos) << yaml;
  const Incident read = parseIncident(yaml, "fleet.yaml");
  EXPECT_EQ(read.recorded.pod_breakers, imported.recorded.pod_breakers);
  EXPECT_EQ(read.recorded.lanes, imported.recorded.lanes);
  ASSERT_EQ(read.expect.size(), 2u);
  EXPECT_EQ(read.expect[1].lane, kEveryPodLane);
  EXPECT_EQ(incidentToYaml(read), yaml);
}

TEST(PrometheusFleet, PodLaneChecksNameRecordedPods) {
  const std::string yaml = incidentToYaml(importText(threeInstances()).incident);
  const std::string one =
      test::replaceFirst(yaml, "lane: every pod", "lane: \"pod:10.0.0.9:8080\"");
  const Incident inc = parseIncident(one, "fleet.yaml");
  EXPECT_EQ(inc.expect[1].lane, "pod:10.0.0.9:8080");
  auto error = [&](const std::string& text) {
    const auto e = test::loadErrorOf([&] { parseIncident(text, "fleet.yaml"); });
    return e ? std::string(e->what()) : std::string();
  };
  EXPECT_NE(error(test::replaceFirst(yaml, "lane: every pod", "lane: \"pod:10.0.0.8:8080\""))
                .find("there is no recorded pod lane '10.0.0.8:8080' (recorded.pod_breakers has "
                      "10.0.0.7:8080, 10.0.0.9:8080, 10.0.0.10:8080)"),
            std::string::npos);
  // Without recorded pod lanes, `every pod` has nothing to compare with.
  const std::string no_pods = test::replaceFirst(yaml, "pod_breakers:", "other_pods:");
  EXPECT_NE(error(no_pods).find("other_pods"), std::string::npos);
}

TEST(PrometheusMetricTable, TheDefaultsGoThroughTheFileAndBack) {
  const PrometheusMetricTable defaults = PrometheusMetricTable::defaults();
  const std::string yaml = prometheusMetricTableToYaml(defaults);
  const PrometheusMetricTable read = parsePrometheusMetricTable(yaml, "metrics.yaml");
  EXPECT_EQ(prometheusMetricTableToYaml(read), yaml);
  EXPECT_EQ(read.instance_labels, defaults.instance_labels);
  ASSERT_EQ(read.rows.size(), defaults.rows.size());
  EXPECT_EQ(read.match("resilience4j_circuitbreaker_state")->library, "resilience4j");
  EXPECT_EQ(read.match("circuit")->library, "opossum");
  EXPECT_EQ(read.match("envoy_cluster_circuit_breakers_high_rq_pending_open")->library, "envoy");
  EXPECT_EQ(read.match("gobreaker_breaker_state")->library, "generic");
  EXPECT_EQ(read.matchNamed("http_requests_total"), nullptr);
  EXPECT_NE(read.match(""), nullptr) << "a series an aggregation left without a name";
}

TEST(PrometheusMetricTable, AUsersRowReadsTheirExporter) {
  const PrometheusMetricTable table = parsePrometheusMetricTable(
      "format: breakerlab-prometheus-metrics/1\n"
      "instance_labels: [host]\n"
      "breaker_state:\n"
      "  - {metric: 'payments_cb_*', encoding: code, codes: {0: closed, 1: half-open, 2: open},"
      " breaker_label: target}\n",
      "mine.yaml");
  const std::string text = response({
      series(R"("__name__":"payments_cb_status","target":"pricing","host":"h2")",
             {0, 2, 2, 1, 0, 0, 0}),
      series(R"("__name__":"payments_cb_status","target":"pricing","host":"h1")",
             {0, 0, 0, 0, 0, 0, 0}),
  });
  const Incident inc = importText(text, table).incident;
  ASSERT_EQ(inc.recorded.pod_breakers.size(), 2u);
  EXPECT_EQ(
      inc.recorded.pod_breakers[1],
      lane("h2", {{"closed", 0}, {"open", 10 * s}, {"half-open", 30 * s}, {"closed", 40 * s}}));
}

TEST(PrometheusMetricTable, ErrorsSayWhereAndWhatWasExpected) {
  auto error = [](const std::string& text) {
    const auto e = test::loadErrorOf([&] { parsePrometheusMetricTable(text, "m.yaml"); });
    return e ? std::string(e->what()) : std::string();
  };
  const std::string head = "format: breakerlab-prometheus-metrics/1\nbreaker_state:\n";
  EXPECT_NE(error("format: breakerlab-states/1\nbreaker_state: []\n")
                .find("\"breakerlab-prometheus-metrics/1\""),
            std::string::npos);
  EXPECT_NE(error(head + "  - {metric: x, states: {tripped: opened}}\n").find("m.yaml:3:"),
            std::string::npos);
  EXPECT_NE(error(head + "  - {metric: x, states: {tripped: opened}}\n")
                .find("closed, open or half-open"),
            std::string::npos);
  EXPECT_NE(error(head + "  - {metric: x, encoding: code}\n").find("needs codes"),
            std::string::npos);
  EXPECT_NE(error(head + "  - {metric: x, encoding: events, label: event}\n").find("needs states"),
            std::string::npos);
  EXPECT_NE(error(head + "  - {metric: x, encoding: gauge, states: {a: open}}\n")
                .find("one of state_label, code, events"),
            std::string::npos);
}

}  // namespace
}  // namespace breakerlab
