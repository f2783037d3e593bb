#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/values.h"
#include "support/bundled_incident.h"
#include "test_support.h"

namespace breakerlab {
namespace {

TEST(PricingIncident, Metadata) {
  const Incident& inc = test::pricingIncident();
  EXPECT_EQ(inc.id, "INC-2026-0908");
  EXPECT_EQ(inc.title, "Pricing breaker — the 60 seconds of the 8 Sep outage");
  EXPECT_EQ(inc.source, "inc-2026-0908-pricing-postmortem.md");
  EXPECT_FALSE(inc.summary.empty());
  EXPECT_EQ(inc.summary.find('\n'), std::string::npos);  // folded (>-)
  EXPECT_EQ(inc.start, 0);
  EXPECT_EQ(inc.end, 60 * kSecond);
  EXPECT_GT(inc.seed, 1u);
}

// A bundled incident names its document as shipped beside it, the name a report shows: not the
// name the document had where the incident was made (issue #33: "Source document:
// 000_920d58d691c27eb2.txt").
TEST(BundledIncidents, NameTheirSourceDocumentAsShipped) {
  const std::filesystem::path resources(BREAKERLAB_RESOURCES);
  int with_source = 0;
  for (const auto& entry : std::filesystem::directory_iterator(resources / "incidents")) {
    const Incident incident = loadIncident(entry.path());
    if (incident.source.empty()) continue;
    ++with_source;
    EXPECT_TRUE(std::filesystem::is_regular_file(resources / "postmortems" / incident.source))
        << entry.path().filename() << ": source " << incident.source;
  }
  EXPECT_GE(with_source, 4);
}

TEST(PricingIncident, RecordedBreakerLaneIsExact) {
  const Lane* lane = test::pricingIncident().recorded.lane("breaker");
  ASSERT_NE(lane, nullptr);
  const std::vector<LaneInterval> expected = {
      {"closed", 0, 11 * kSecond, ""},
      {"open", 11 * kSecond, 31 * kSecond, ""},
      {"half-open", 31 * kSecond, 33 * kSecond, ""},
      {"open", 33 * kSecond, 53 * kSecond, ""},
      {"half-open", 53 * kSecond, 55 * kSecond, ""},
      {"closed", 55 * kSecond, 60 * kSecond, ""},
  };
  EXPECT_EQ(lane->intervals, expected);
}

TEST(PricingIncident, RecordedCheckoutLaneKeepsLabels) {
  const Lane* lane = test::pricingIncident().recorded.lane("checkout");
  ASSERT_NE(lane, nullptr);
  ASSERT_EQ(lane->intervals.size(), 4u);
  EXPECT_EQ(lane->intervals[1].state, "slow");
  EXPECT_EQ(lane->intervals[1].label, "slow (800 ms waits)");
  EXPECT_EQ(lane->intervals[1].from, 8 * kSecond);
  EXPECT_EQ(lane->intervals[1].to, 11 * kSecond);
  ASSERT_NE(test::pricingIncident().recorded.lane("dependency"), nullptr);
  EXPECT_EQ(test::pricingIncident().recorded.lane("dependency")->intervals.size(), 5u);
}

TEST(PricingIncident, EventsAndBrackets) {
  const Recorded& r = test::pricingIncident().recorded;
  ASSERT_EQ(r.events.size(), 5u);
  EXPECT_EQ(r.events[1].at, 11 * kSecond);
  EXPECT_EQ(r.events[1].label, "10 of last 20 calls failed");
  EXPECT_EQ(r.events[1].lane, "breaker");
  EXPECT_EQ(r.events[2].label, "3 probes: connection refused");
  ASSERT_EQ(r.brackets.size(), 4u);
  EXPECT_EQ(r.brackets[3].from, 41 * kSecond);
  EXPECT_EQ(r.brackets[3].to, 55 * kSecond);
  EXPECT_EQ(r.brackets[3].label, "14 s cached while Pricing healthy");
}

TEST(PricingIncident, DeployedConfig) {
  const Config& c = test::pricingIncident().deployed;
  EXPECT_TRUE(c.breaker.enabled);
  EXPECT_EQ(c.timeout.attempt, 800 * kMillisecond);
  EXPECT_EQ(c.breaker.window_type, WindowType::count);
  EXPECT_EQ(c.breaker.window_size, 20u);
  EXPECT_EQ(c.breaker.min_calls, 20u);
  EXPECT_EQ(c.breaker.failure_rate_pct, 50.0);
  EXPECT_EQ(c.breaker.failures,
            (OutcomeSet{CallOutcome::timeout, CallOutcome::refused, CallOutcome::server_error}));
  EXPECT_EQ(c.breaker.open_interval, 20 * kSecond);
  EXPECT_EQ(c.breaker.backoff_multiplier, 1.0);
  EXPECT_EQ(c.breaker.backoff_max, 20 * kSecond);
  EXPECT_FALSE(c.breaker.early_probe);
  EXPECT_EQ(c.breaker.probes, 3u);
  EXPECT_EQ(c.breaker.probe_spacing, kSecond);
  EXPECT_EQ(c.breaker.close_when, CloseRule::all_succeed);
  EXPECT_FALSE(c.breaker.reopen_on_first_failure);
  EXPECT_TRUE(c.cache.enabled);
  EXPECT_EQ(c.cache.ttl, 60 * kSecond);
}

TEST(PricingIncident, WhatIfsAreTheDeployedConfigWithTheirOverrides) {
  const Incident& inc = test::pricingIncident();
  const WhatIf* early = inc.whatIf("early-probe");
  ASSERT_NE(early, nullptr);
  EXPECT_TRUE(early->config.breaker.early_probe);
  EXPECT_EQ(early->config.breaker.early_probe_poll, 2 * kSecond);
  Config expected = inc.deployed;
  expected.breaker.early_probe = true;
  EXPECT_EQ(early->config, expected);
  EXPECT_FALSE(early->description.empty());
  ASSERT_EQ(early->expect.size(), 3u);
  EXPECT_EQ(early->expect[0].metric, "time_to_close_after_recovery_s");
  EXPECT_EQ(early->expect[0].value, 2.0);
  EXPECT_EQ(early->expect[0].tolerance, 1.0);

  const WhatIf* short_ttl = inc.whatIf("short-ttl");
  ASSERT_NE(short_ttl, nullptr);
  expected = inc.deployed;
  expected.cache.ttl = 20 * kSecond;
  EXPECT_EQ(short_ttl->config, expected);
  ASSERT_EQ(short_ttl->expect.size(), 1u);
  EXPECT_EQ(short_ttl->expect[0].op, CompareOp::gt);
}

TEST(PricingIncident, Traffic) {
  const Traffic& t = test::pricingIncident().traffic;
  EXPECT_EQ(t.arrivals, ArrivalProcess::uniform);
  ASSERT_EQ(t.rate.size(), 1u);
  EXPECT_EQ(t.rate[0].from, 0);
  EXPECT_EQ(t.rate[0].to, 60 * kSecond);
  EXPECT_EQ(t.rate[0].rps_from, 40.0);
  EXPECT_EQ(t.rate[0].rps_to, 40.0);  // no to_rps: flat
  EXPECT_GE(t.keys.count, 1u);
  EXPECT_EQ(t.lead_in, 60 * kSecond);
}

TEST(PricingIncident, DependencySegments) {
  const Dependency& d = test::pricingIncident().dependency;
  EXPECT_EQ(d.name, "Pricing");
  ASSERT_EQ(d.segments.size(), 5u);
  const auto& healthy = d.segments[0];
  EXPECT_EQ(healthy.state, "healthy");
  EXPECT_EQ(healthy.health, Health::green);
  EXPECT_EQ(healthy.latency_start.kind, LatencyModel::Kind::lognormal);
  EXPECT_EQ(healthy.latency_start.p50, 25 * kMillisecond);
  EXPECT_EQ(healthy.latency_start.p99, 120 * kMillisecond);
  EXPECT_EQ(healthy.mix_start.total(), 0.0);
  EXPECT_EQ(healthy.refused_latency, kMillisecond);  // default

  const auto& timing_out = d.segments[1];
  EXPECT_EQ(timing_out.state, "timing out");
  EXPECT_EQ(timing_out.from, 8 * kSecond);
  EXPECT_EQ(timing_out.to, 14 * kSecond);
  EXPECT_EQ(timing_out.health, Health::red);
  EXPECT_GT(timing_out.mix_start.timeout, 0.0);
  EXPECT_EQ(timing_out.mix_end.timeout, 1.0);                 // ramp_to
  EXPECT_EQ(timing_out.latency_end.p99, 120 * kMillisecond);  // kept from the start

  const auto& refused = d.segments[2];
  EXPECT_EQ(refused.mix_start.refused, 1.0);
  EXPECT_EQ(refused.mix_end.refused, 1.0);
  EXPECT_EQ(refused.refused_latency, 2 * kMillisecond);
  EXPECT_EQ(refused.latency_start.kind, LatencyModel::Kind::fixed);  // not given: default
  for (std::size_t i = 1; i < d.segments.size(); ++i)
    EXPECT_EQ(d.segments[i].from, d.segments[i - 1].to);
  EXPECT_EQ(d.segments.back().to, 60 * kSecond);
}

TEST(PricingIncident, HealthIsDerivedFromSegments) {
  const auto& h = test::pricingIncident().dependency.health;
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[0].health, Health::green);
  EXPECT_EQ(h[0].to, 8 * kSecond);
  EXPECT_EQ(h[1].health, Health::red);
  EXPECT_EQ(h[1].from, 8 * kSecond);
  EXPECT_EQ(h[1].to, 41 * kSecond);
  EXPECT_EQ(h[2].health, Health::green);
  EXPECT_EQ(h[2].to, 60 * kSecond);
}

TEST(PricingIncident, ExpectationsKeepTextAndLine) {
  const std::string text = test::pricingText();
  const auto& expect = test::pricingIncident().expect;
  ASSERT_GE(expect.size(), 3u);
  EXPECT_EQ(expect[0].kind, Expectation::Kind::lane);
  EXPECT_EQ(expect[0].lane, "breaker");
  EXPECT_EQ(expect[0].within, 500 * kMillisecond);
  EXPECT_EQ(expect[0].line, test::positionOf(text, "{lane: breaker").line);
  bool found = false;
  for (const auto& e : expect) {
    if (e.text != "cached_window_checkouts == 1760 ± 1%") continue;
    found = true;
    EXPECT_EQ(e.kind, Expectation::Kind::metric);
    EXPECT_EQ(e.op, CompareOp::eq);
    EXPECT_EQ(e.value, 1760.0);
    EXPECT_TRUE(e.tolerance_relative);
    EXPECT_DOUBLE_EQ(e.tolerance, 0.01);
    EXPECT_EQ(e.line, test::positionOf(text, "\"cached_window_checkouts").line);
  }
  EXPECT_TRUE(found);
}

// The bundled incident written as JSON (numbers as numbers) loads to the same incident.
nlohmann::json toJson(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = node.begin(); it != node.end(); ++it)
      out[it->first.Scalar()] = toJson(it->second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (auto it = node.begin(); it != node.end(); ++it) out.push_back(toJson(*it));
    return out;
  }
  if (node.IsNull()) return nullptr;
  const std::string& s = node.Scalar();
  if (s == "true" || s == "false") return s == "true";
  if (node.Tag() != "!") {
    std::int64_t i = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && end == s.data() + s.size()) return i;
    if (auto n = parseNumber(s)) return *n;
  }
  return s;
}

TEST(PricingIncident, JsonFormIsAccepted) {
  const std::string json = toJson(YAML::Load(test::pricingText())).dump(2);
  ASSERT_NE(json.find("\"rps\": 40"), std::string::npos);
  const Incident inc = parseIncident(json, "pricing.json");
  const Incident& yaml = test::pricingIncident();
  EXPECT_EQ(inc.id, yaml.id);
  EXPECT_EQ(inc.seed, yaml.seed);
  EXPECT_EQ(inc.deployed, yaml.deployed);
  ASSERT_EQ(inc.what_ifs.size(), yaml.what_ifs.size());
  for (std::size_t i = 0; i < inc.what_ifs.size(); ++i)
    EXPECT_EQ(inc.what_ifs[i].config, yaml.what_ifs[i].config);
  ASSERT_EQ(inc.recorded.lanes.size(), yaml.recorded.lanes.size());
  for (const Lane& lane : yaml.recorded.lanes) {  // JSON objects do not keep key order
    ASSERT_NE(inc.recorded.lane(lane.name), nullptr) << lane.name;
    EXPECT_EQ(*inc.recorded.lane(lane.name), lane);
  }
  ASSERT_EQ(inc.dependency.segments.size(), yaml.dependency.segments.size());
  EXPECT_EQ(inc.dependency.segments[1].mix_end.timeout, 1.0);
  ASSERT_EQ(inc.expect.size(), yaml.expect.size());
  for (std::size_t i = 0; i < inc.expect.size(); ++i)
    EXPECT_EQ(inc.expect[i].text, yaml.expect[i].text);
}

constexpr const char* kMinimal = R"(format: breakerlab/1
id: MIN-1
window: {from: 0, to: 10}
traffic:
  arrivals: recorded
  times: [0.5, 1, 1, 2s, 2500ms]
dependency:
  segments:
    - {state: up, from: 0s, to: 10s, latency: {fixed: 5ms}}
)";

TEST(IncidentFile, MinimalIncidentUsesDefaults) {
  const Incident inc = parseIncident(kMinimal, "min.yaml");
  EXPECT_EQ(inc.id, "MIN-1");
  EXPECT_EQ(inc.end, 10 * kSecond);
  EXPECT_EQ(inc.seed, 1u);
  EXPECT_EQ(inc.traffic.arrivals, ArrivalProcess::recorded);
  EXPECT_EQ(inc.traffic.recorded, (std::vector<Micros>{500 * kMillisecond, kSecond, kSecond,
                                                       2 * kSecond, 2500 * kMillisecond}));
  EXPECT_EQ(inc.deployed, Config{});
  EXPECT_TRUE(inc.what_ifs.empty());
  EXPECT_TRUE(inc.expect.empty());
  ASSERT_EQ(inc.dependency.segments.size(), 1u);
  EXPECT_EQ(inc.dependency.name, "dependency");
  EXPECT_EQ(inc.dependency.segments[0].latency_start.kind, LatencyModel::Kind::fixed);
  EXPECT_EQ(inc.dependency.segments[0].latency_start.p50, 5 * kMillisecond);
  ASSERT_EQ(inc.dependency.health.size(), 1u);
  EXPECT_EQ(inc.checkout_lane.bucket, kSecond);
}

TEST(IncidentFile, RampsExplicitHealthAndCheckoutLane) {
  const std::string text = std::string(kMinimal) + R"(    - state: slow
      from: 10s
      to: 20s
      latency: {p50: 10ms, p99: 100ms}
      outcomes: {server_error: 5%, client_error: 1%}
      ramp_to: {latency: {p99: 2s}, outcomes: {server_error: 50%}}
  health:
    - {from: 0, to: 12, state: green}
    - {from: 12, to: 20, state: red}
checkout_lane: {bucket: 500ms, slow_latency: 1s, slow_share: 20%, failed_share: 5%}
)";
  const std::string fixed = test::replaceFirst(text, "to: 10}", "to: 20}");
  const Incident inc = parseIncident(fixed, "ramp.yaml");
  ASSERT_EQ(inc.dependency.segments.size(), 2u);
  const auto& s = inc.dependency.segments[1];
  EXPECT_EQ(s.latency_end.p50, 10 * kMillisecond);
  EXPECT_EQ(s.latency_end.p99, 2 * kSecond);
  EXPECT_DOUBLE_EQ(s.mix_start.server_error, 0.05);
  EXPECT_DOUBLE_EQ(s.mix_end.server_error, 0.5);
  EXPECT_DOUBLE_EQ(s.mix_end.client_error, 0.01);
  ASSERT_EQ(inc.dependency.health.size(), 2u);
  EXPECT_EQ(inc.dependency.health[1].from, 12 * kSecond);
  EXPECT_EQ(inc.dependency.health[1].health, Health::red);
  EXPECT_EQ(inc.checkout_lane.bucket, 500 * kMillisecond);
  EXPECT_EQ(inc.checkout_lane.slow_latency, kSecond);
  EXPECT_DOUBLE_EQ(inc.checkout_lane.slow_share, 0.2);
  EXPECT_DOUBLE_EQ(inc.checkout_lane.failed_share, 0.05);
}

TEST(IncidentFile, RateRamps) {
  const std::string text =
      test::replaceFirst(kMinimal, "  arrivals: recorded\n  times: [0.5, 1, 1, 2s, 2500ms]\n",
                         "  arrivals: poisson\n  rate:\n    - {from: 0, to: 5, rps: 10, to_rps: "
                         "20}\n    - {from: 5s, to: 10s, rps: 20}\n");
  const Incident inc = parseIncident(text, "rate.yaml");
  EXPECT_EQ(inc.traffic.arrivals, ArrivalProcess::poisson);
  ASSERT_EQ(inc.traffic.rate.size(), 2u);
  EXPECT_EQ(inc.traffic.rate[0].rps_from, 10.0);
  EXPECT_EQ(inc.traffic.rate[0].rps_to, 20.0);
  EXPECT_EQ(inc.traffic.rate[1].from, 5 * kSecond);
}

TEST(IncidentFile, MissingFileGivesTheOsReason) {
  const auto e = test::loadErrorOf([] { loadIncident("/nonexistent/inc.yaml"); });
  ASSERT_TRUE(e);
  EXPECT_STREQ(e->what(), "/nonexistent/inc.yaml: cannot read: No such file or directory");
  const auto dir = test::loadErrorOf([] { loadIncident(BREAKERLAB_RESOURCES); });
  ASSERT_TRUE(dir);
  EXPECT_EQ(dir->message(), "cannot read: Is a directory");
}

TEST(IncidentFile, DependencyCapacityAndExponentialLatency) {
  const std::string text = test::replaceFirst(
      test::replaceFirst(kMinimal, "to: 10}", "to: 20}"), "dependency:\n",
      "dependency:\n  capacity: {concurrency: 40, queue_timeout: 10s, keeps_working: false}\n");
  const std::string more = text + R"(    - state: saturated
      from: 10s
      to: 20s
      latency: {mean: 50ms}
      ramp_to: {latency: {mean: 2s}}
)";
  const Incident inc = parseIncident(more, "capacity.yaml");
  EXPECT_EQ(inc.dependency.capacity.concurrency, 40u);
  EXPECT_EQ(inc.dependency.capacity.queue_timeout, 10 * kSecond);
  EXPECT_FALSE(inc.dependency.capacity.keeps_working);
  ASSERT_EQ(inc.dependency.segments.size(), 2u);
  const DependencySegment& s = inc.dependency.segments[1];
  EXPECT_EQ(s.latency_start.kind, LatencyModel::Kind::exponential);
  EXPECT_EQ(s.latency_start.p50, 50 * kMillisecond);  // the mean
  EXPECT_EQ(s.latency_end.kind, LatencyModel::Kind::exponential);
  EXPECT_EQ(s.latency_end.p50, 2 * kSecond);

  // Every capacity key is optional; without the section the dependency is unlimited.
  const Incident partial = parseIncident(
      test::replaceFirst(kMinimal, "dependency:\n", "dependency:\n  capacity: {concurrency: 8}\n"),
      "partial.yaml");
  EXPECT_EQ(partial.dependency.capacity.concurrency, 8u);
  EXPECT_EQ(partial.dependency.capacity.queue_timeout, 0);
  EXPECT_TRUE(partial.dependency.capacity.keeps_working);
  const Incident none = parseIncident(kMinimal, "min.yaml");
  EXPECT_EQ(none.dependency.capacity.concurrency, 0u);
  EXPECT_TRUE(none.dependency.capacity.keeps_working);
}

TEST(IncidentFile, DeployedConfigWithResourceKeys) {
  const std::string text = std::string(kMinimal) + R"(config:
  pool: {size: 20, max_wait: 1s}
  load_balancer: {pods: 4, health_check: {enabled: true}}
what_ifs:
  - name: separate-checks
    set: {load_balancer.health_check.pool: separate, pricing.mode: cache_first}
)";
  const Incident inc = parseIncident(text, "lb.yaml");
  EXPECT_EQ(inc.deployed.pool.size, 20u);
  EXPECT_EQ(inc.deployed.load_balancer.pods, 4u);
  ASSERT_EQ(inc.what_ifs.size(), 1u);
  const Config& w = inc.what_ifs[0].config;
  EXPECT_EQ(w.load_balancer.health_check.pool, HealthCheckPool::separate);
  EXPECT_TRUE(w.load_balancer.health_check.enabled);  // kept from the deployed config
  EXPECT_EQ(w.pool.max_wait, kSecond);
  EXPECT_EQ(w.pricing.mode, PricingMode::cache_first);
}

}  // namespace
}  // namespace breakerlab
