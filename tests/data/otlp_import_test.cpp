// OpenTelemetry traces (OTLP JSON) into incidents: client spans to the dependency as the call
// log, server spans as the arrivals, outcomes from the span's attributes; and a replay's calls
// written as traces come back as the same replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/otlp_import.h"
#include "fleet_replay.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using nlohmann::json;

// 2026-09-08T14:02:00Z in nanoseconds.
constexpr std::uint64_t kEpochNs = 1788876120ull * 1'000'000'000ull;

std::string traceId(std::uint64_t n) {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%032llx", static_cast<unsigned long long>(n + 1));
  return buf;
}

// A list of one JSON value is written json::array({x}): `{x}` alone is x itself to clang and a
// list of x to GCC.
json attr(const std::string& key, const std::string& value) {
  return {{"key", key}, {"value", {{"stringValue", value}}}};
}
json intAttr(const std::string& key, std::int64_t value) {
  return {{"key", key}, {"value", {{"intValue", std::to_string(value)}}}};
}

json span(const std::string& trace, int kind, std::uint64_t start_ns, std::uint64_t end_ns,
          json attributes, int status_code = 0) {
  json s = {{"traceId", trace},
            {"spanId", trace.substr(16)},
            {"name", kind == 2 ? "POST /checkout" : "GET /price"},
            {"kind", kind},
            {"startTimeUnixNano", std::to_string(start_ns)},
            {"endTimeUnixNano", std::to_string(end_ns)},
            {"attributes", std::move(attributes)}};
  if (status_code != 0) s["status"] = {{"code", status_code}};
  return s;
}

json request(const std::string& service, json spans) {
  json scope = {{"scope", {{"name", "test"}}}, {"spans", std::move(spans)}};
  json resource = {{"resource", {{"attributes", json::array({attr("service.name", service)})}}},
                   {"scopeSpans", json::array({std::move(scope)})}};
  return {{"resourceSpans", json::array({std::move(resource)})}};
}

// The replay's checkouts as server spans of orders-api and its calls as client spans to
// pricing, one ExportTraceServiceRequest a line, as the collector's file exporter writes them.
std::string tracesOf(const Result& result, const CallTrace& trace) {
  std::string out;
  std::vector<json> per_record(result.checkouts.size(), json::array());
  for (std::size_t i = 0; i < result.checkouts.size(); ++i) {
    const CheckoutRecord& r = result.checkouts[i];
    if (r.arrival < 0) continue;  // the lead-in is not part of the recorded window
    const std::uint64_t start = kEpochNs + static_cast<std::uint64_t>(r.arrival) * 1000;
    per_record[i].push_back(span(traceId(i), 2, start,
                                 start + static_cast<std::uint64_t>(r.latency_us) * 1000,
                                 json::array({attr("http.route", "/checkout")})));
  }
  for (const TracedCall& c : trace.calls) {
    if (c.request_start < 0 || c.outcome == CallOutcome::pool_exhausted) continue;
    const std::uint64_t start = kEpochNs + static_cast<std::uint64_t>(c.start) * 1000;
    const std::uint64_t end = start + static_cast<std::uint64_t>(c.duration) * 1000;
    json attrs = json::array({attr("server.address", "pricing")});
    int status = 0;
    switch (c.outcome) {
      case CallOutcome::timeout:
        attrs.push_back(attr("error.type", "java.net.SocketTimeoutException"));
        status = 2;
        break;
      case CallOutcome::refused:
        attrs.push_back(attr("error.type", "java.net.ConnectException"));
        status = 2;
        break;
      case CallOutcome::server_error:
        attrs.push_back(intAttr("http.response.status_code", 503));
        status = 2;
        break;
      case CallOutcome::client_error:
        attrs.push_back(intAttr("http.response.status_code", 404));
        break;
      default:
        attrs.push_back(intAttr("http.response.status_code", 200));
    }
    per_record[c.record].push_back(span(traceId(c.record), 3, start, end, attrs, status));
  }
  for (json& spans : per_record)
    if (!spans.empty()) out += request("orders-api", spans).dump() + "\n";
  return out;
}

TEST(OtlpImport, AReplaysCallsWrittenAsTracesReplayToTheSameLaneAndFailures) {
  for (const char* name : {"inc-2026-0908-pricing.yaml", "inc-payment-retry-amplification.yaml"}) {
    const Incident incident = loadIncident(test::resourcePath(std::string("incidents/") + name));
    CallTrace trace;
    const Result original = simulate(incident, incident.deployed, trace);
    ImportOptions options;
    options.request_log_config = incident.deployed;
    ImportedIncident imported = importIncident(tracesOf(original, trace), "traces.json", options);
    EXPECT_EQ(imported.source, IncidentSource::otlp_traces);
    EXPECT_EQ(imported.incident.dependency.name, "pricing");
    Incident& again = imported.incident;
    again.seed = incident.seed;
    // Traces carry the calls, not what the operators changed: the same config has them.
    again.changes = incident.changes;
    const Result replayed = simulate(again, again.deployed);
    const LaneComparison lanes = compareLanes(original.breaker, replayed.breaker, kSecond / 2);
    EXPECT_TRUE(lanes.matches) << name << ": " << lanes.explanation;
    const double failed = static_cast<double>(original.metrics.failed_checkouts);
    EXPECT_NEAR(static_cast<double>(replayed.metrics.failed_checkouts), failed, 0.01 * failed)
        << name;
    std::uint64_t in_window = 0;
    for (const CheckoutRecord& r : original.checkouts) in_window += r.arrival >= 0;
    EXPECT_EQ(replayed.metrics.checkouts, original.metrics.checkouts) << name;
    (void)in_window;
  }
}

// Issue 31, item 4: traces whose resources name their pod (k8s.pod.name, or the SDK's
// service.instance.id) bring the recorded fleet in. 8 Sep on 12 pods, each pod's own breaker,
// written as traces: a checkout the breaker rejected is a server span with resilience4j's
// CallNotPermittedException as its exception event. Read back, the 12 pods' breakers are those
// of the replay that wrote them, each boundary within the import's tolerance. (12 Sep's 40 pods
// read back from a request log in request_log_roundtrip_test.cpp; as traces they would be half a
// million spans.)
TEST(OtlpImport, TracesNamingTheirPodsBringEachPodsBreakerIn) {
  const test::FleetReplay fleet = test::perPodFleet("inc-2026-0908-pricing.yaml", nullptr, 12);
  ASSERT_EQ(fleet.result.pod_breakers.size(), 12u);
  const Result& original = fleet.result;
  const CallTrace& trace = fleet.trace;
  std::vector<bool> rejected(original.checkouts.size(), false);
  for (const TracedRejection& r : trace.rejections)
    if (r.attempt == 0) rejected[r.record] = true;
  std::vector<json> per_record(original.checkouts.size(), json::array());
  for (std::size_t i = 0; i < original.checkouts.size(); ++i) {
    const CheckoutRecord& r = original.checkouts[i];
    if (r.arrival < 0) continue;  // the lead-in is not part of the recorded window
    const std::uint64_t start = kEpochNs + static_cast<std::uint64_t>(r.arrival) * 1000;
    json server =
        span(traceId(i), 2, start, start + static_cast<std::uint64_t>(r.latency_us) * 1000,
             json::array({attr("http.route", "/checkout")}));
    if (rejected[i])
      server["events"] = json::array(
          {{{"name", "exception"},
            {"attributes",
             json::array({attr("exception.type",
                               "io.github.resilience4j.circuitbreaker.CallNotPermittedException"),
                          attr("exception.message",
                               "CircuitBreaker 'payment' is OPEN and does not permit further "
                               "calls")})}}});
    per_record[i].push_back(server);
  }
  for (const TracedCall& c : trace.calls) {
    if (c.request_start < 0 || c.outcome == CallOutcome::pool_exhausted) continue;
    const std::uint64_t start = kEpochNs + static_cast<std::uint64_t>(c.start) * 1000;
    json attrs = json::array({attr("server.address", "payment-provider")});
    if (c.outcome == CallOutcome::timeout)
      attrs.push_back(attr("error.type", "java.net.SocketTimeoutException"));
    else
      attrs.push_back(
          intAttr("http.response.status_code", c.outcome == CallOutcome::success ? 200 : 503));
    per_record[c.record].push_back(span(traceId(c.record), 3, start,
                                        start + static_cast<std::uint64_t>(c.duration) * 1000,
                                        attrs, c.outcome == CallOutcome::success ? 0 : 2));
  }
  std::string traces;
  for (std::size_t i = 0; i < per_record.size(); ++i) {
    if (per_record[i].empty()) continue;
    // Even pods by the k8s attributes processor's name, odd ones by the SDK's instance id.
    const std::uint16_t pod = trace.pods[i];
    const std::string name = "checkout-" + std::to_string(pod);
    json scope = {{"scope", {{"name", "test"}}}, {"spans", std::move(per_record[i])}};
    json resource = {
        {"resource",
         {{"attributes",
           json::array({attr("service.name", "checkout"),
                        attr(pod % 2 == 0 ? "k8s.pod.name" : "service.instance.id", name)})}}},
        {"scopeSpans", json::array({std::move(scope)})}};
    traces += json{{"resourceSpans", json::array({std::move(resource)})}}.dump() + "\n";
  }
  ImportOptions options;
  options.request_log_config = fleet.config;
  const ImportedIncident imported = importIncident(traces, "fleet.jsonl", options);
  const Incident& again = imported.incident;
  ASSERT_EQ(again.recorded.pod_breakers.size(), 12u);
  EXPECT_EQ(again.recorded.pod_breakers[9].name, "checkout-9");
  EXPECT_EQ(again.recorded.pod_breakers[10].name, "checkout-10");
  const PodLaneComparison c = test::comparedWithReplay(again, original);
  EXPECT_EQ(c.states_match, 12u) << c.summary();
  EXPECT_TRUE(c.allMatch()) << c.summary();
}

TEST(OtlpImport, OutcomesComeFromErrorTypeGrpcAndHttpStatus) {
  // One trace per call: a timeout, a refused connection, a gRPC UNAVAILABLE, a 503, a 404 and a
  // success, with kinds as the enum names and times as numbers.
  const std::uint64_t t = kEpochNs;
  const std::uint64_t ms = 1'000'000;
  json spans = json::array();
  auto client = [&](int n, json attrs, int status) {
    attrs.push_back(attr("peer.service", "pricing"));
    json s = span(traceId(static_cast<std::uint64_t>(n)), 3, t + n * 100 * ms,
                  t + n * 100 * ms + 50 * ms, attrs, status);
    s["kind"] = "SPAN_KIND_CLIENT";
    spans.push_back(s);
  };
  client(0, json::array({attr("error.type", "timeout")}), 2);
  client(1, json::array({attr("error.type", "ECONNREFUSED")}), 2);
  client(2, json::array({intAttr("rpc.grpc.status_code", 14)}), 2);
  client(3, json::array({intAttr("http.response.status_code", 503)}), 2);
  client(4, json::array({intAttr("http.status_code", 404)}), 0);
  client(5, json::array({intAttr("http.response.status_code", 200)}), 0);
  const ImportedIncident imported =
      importIncident(request("orders-api", spans).dump(2), "t.json", {});
  const RecordedCalls& calls = *imported.incident.dependency.calls;
  ASSERT_EQ(calls.size(), 6u);
  const CallOutcome expected[] = {CallOutcome::timeout,      CallOutcome::refused,
                                  CallOutcome::refused,      CallOutcome::server_error,
                                  CallOutcome::client_error, CallOutcome::success};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(calls.outcome[i], expected[i]) << i;
  EXPECT_EQ(calls.duration[0], 50'000u);
}

TEST(OtlpImport, TheDependencyIsChosenAndSaidSo) {
  json spans = json::array();
  for (int i = 0; i < 5; ++i)
    spans.push_back(span(traceId(static_cast<std::uint64_t>(i)), 3, kEpochNs + i * 1'000'000'000ull,
                         kEpochNs + i * 1'000'000'000ull + 1000,
                         json::array({attr("server.address", i < 3 ? "pricing" : "inventory")})));
  const std::string text = request("orders-api", spans).dump();
  const ImportedIncident most = importIncident(text, "t.json", {});
  EXPECT_EQ(most.incident.dependency.name, "pricing") << "3 of 5 client spans";
  bool said = false;
  for (const ImportFinding& f : most.report.findings)
    said |= f.what == "dependency" && f.detail.find("inventory (2)") != std::string::npos;
  EXPECT_TRUE(said);
  ImportOptions options;
  options.trace_dependency = "inventory";
  EXPECT_EQ(importIncident(text, "t.json", options).incident.dependency.calls->size(), 2u);
  options.trace_dependency = "payments";
  const auto e = test::loadErrorOf([&] { importIncident(text, "t.json", options); });
  ASSERT_TRUE(e);
  EXPECT_NE(e->message().find("no client spans go to 'payments'; they go to inventory, pricing"),
            std::string::npos)
      << e->message();
}

TEST(OtlpImport, ErrorsSayWhere) {
  // JSON syntax on the second line of a file-exporter file.
  const std::string good = request("a", json::array()).dump();
  const auto syntax = test::loadErrorOf(
      [&] { importIncident(good + "\n{\"resourceSpans\": [,]}\n", "t.jsonl", {}); });
  ASSERT_TRUE(syntax);
  EXPECT_EQ(syntax->line(), 2);
  EXPECT_NE(syntax->message().find("JSON:"), std::string::npos);
  // A span ending before it starts.
  json bad =
      span(traceId(1), 3, kEpochNs + 10, kEpochNs, json::array({attr("server.address", "p")}));
  const auto times = test::loadErrorOf(
      [&] { importIncident(request("a", json::array({bad})).dump(), "t.json", {}); });
  ASSERT_TRUE(times);
  EXPECT_NE(times->message().find("endTimeUnixNano 1788876120000000000 is before "
                                  "startTimeUnixNano 1788876120000000010"),
            std::string::npos)
      << times->what();
  EXPECT_EQ(times->line(), 1) << "at the value, in a one-line file";
  EXPECT_GT(times->column(), 1) << times->what();
  // Nothing names a dependency.
  json anonymous = span(traceId(1), 3, kEpochNs, kEpochNs + 10, json::array());
  const auto none = test::loadErrorOf(
      [&] { importIncident(request("a", json::array({anonymous})).dump(), "t.json", {}); });
  ASSERT_TRUE(none);
  EXPECT_NE(none->message().find("no client spans with server.address"), std::string::npos);
}

}  // namespace
}  // namespace breakerlab
