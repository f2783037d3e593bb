// The gate's rules (tolerances, verdicts, key moments) and its Markdown and JSON.
#include "breakerlab/data/gate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/values.h"
#include "support/short_units.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test_units::s;

const MetricInfo& metric(std::string_view name) {
  const MetricInfo* m = findMetric(name);
  EXPECT_NE(m, nullptr) << name;
  return *m;
}

TEST(GateTolerance, OneRulePerKindOfMetric) {
  struct Case {
    std::string_view metric;
    Tolerance expected;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"failed_checkouts", {1, 0.01}, "max(1, 1%)"},
      {"min_pods_in_rotation", {1, 0.01}, "max(1, 1%)"},
      {"failed_pct", {1, 0}, "1 pt"},
      {"cached_while_healthy_s", {0.5, 0.05}, "max(0.5 s, 5%)"},
      {"latency_p99_ms", {50, 0.05}, "max(50 ms, 5%)"},
      {"amplification", {0.05, 0.05}, "max(0.05, 5%)"},
      {"dependency_load_while_unhealthy", {0.05, 0.05}, "max(0.05 /s, 5%)"},
  };
  for (const Case& c : cases) {
    const MetricInfo& m = metric(c.metric);
    EXPECT_EQ(defaultTolerance(m), c.expected) << c.metric;
    EXPECT_EQ(toleranceText(m, defaultTolerance(m)), c.text) << c.metric;
  }
  EXPECT_EQ(toleranceText(metric("latency_p99_ms"), {0, 0.1}), "10%");
  EXPECT_EQ(toleranceText(metric("failed_pct"), {0, 0}), "0 pt");
}

TEST(GateTolerance, TheHeadlineIsTheRegistrysGateListAsTheDocsGiveIt) {
  std::vector<std::string_view> gated;
  for (const MetricInfo* m : gateHeadlineMetrics()) gated.push_back(m->name);
  EXPECT_EQ(std::count(gated.begin(), gated.end(), "time_to_trip_s"), 0)
      << "a later trip after fewer failures is no regression";
  // docs/ci-gate.md's paragraph "The headline metrics (...): `a`, `b`, ..." names them in order.
  const std::string docs = test::readResource("../docs/ci-gate.md");
  const std::size_t from = docs.find("The headline metrics (");
  ASSERT_NE(from, std::string::npos);
  const std::size_t to = docs.find("\n\n", from);
  std::vector<std::string> documented;
  for (std::size_t open = docs.find('`', from); open < to; open = docs.find('`', open)) {
    const std::size_t close = docs.find('`', open + 1);
    const std::string name = docs.substr(open + 1, close - open - 1);
    if (name.find_first_of("(/.") == std::string::npos) documented.push_back(name);
    open = close + 1;
  }
  EXPECT_EQ(documented, std::vector<std::string>(gated.begin(), gated.end()));
}

struct VerdictCase {
  std::string_view metric;
  std::optional<double> base;
  std::optional<double> head;
  MetricVerdict expected;
};

// Sets a metric's field in a Metrics by its registry name (through a value the getter reads).
Metrics with(std::string_view name, std::optional<double> value) {
  Metrics m;
  auto set = [&](auto& field) {
    using Field = std::remove_reference_t<decltype(field)>;
    if constexpr (requires { field.has_value(); }) {
      if (value) field = static_cast<typename Field::value_type>(*value);
    } else {
      field = static_cast<Field>(value.value_or(0));
    }
  };
  if (name == "failed_checkouts") set(m.failed_checkouts);
  if (name == "failed_pct") set(m.failed_pct);
  if (name == "fresh_checkouts") set(m.fresh_checkouts);
  if (name == "cached_checkouts") set(m.cached_checkouts);
  if (name == "cached_while_healthy_s") set(m.cached_while_healthy_s);
  if (name == "time_to_close_after_recovery_s") set(m.time_to_close_after_recovery_s);
  if (name == "latency_p99_ms") set(m.latency_p99_ms);
  if (name == "amplification") set(m.amplification);
  if (name == "min_pods_in_rotation") set(m.min_pods_in_rotation);
  EXPECT_EQ(findMetric(name)->get(m), value) << name;
  return m;
}

TEST(GateTolerance, AMetricFailsOnlyWhenWorseBeyondItsTolerance) {
  using V = MetricVerdict;
  const std::vector<VerdictCase> cases = {
      // A count may rise by max(1, 1%), and by exactly that.
      {"failed_checkouts", 100, 101, V::within_tolerance},
      {"failed_checkouts", 100, 102, V::regression},
      {"failed_checkouts", 1000, 1010, V::within_tolerance},
      {"failed_checkouts", 1000, 1011, V::regression},
      {"failed_checkouts", 0, 1, V::within_tolerance},
      {"failed_checkouts", 0, 2, V::regression},
      {"failed_checkouts", 5, 3, V::better},
      {"failed_checkouts", 7, 7, V::unchanged},
      // Higher is better: a fall is what counts.
      {"fresh_checkouts", 1000, 990, V::within_tolerance},
      {"fresh_checkouts", 1000, 989, V::regression},
      {"fresh_checkouts", 1000, 5000, V::better},
      {"min_pods_in_rotation", 4, 3, V::within_tolerance},
      {"min_pods_in_rotation", 4, 2, V::regression},
      // A share by one point.
      {"failed_pct", 1.0, 2.0, V::within_tolerance},
      {"failed_pct", 1.0, 2.01, V::regression},
      {"failed_pct", 40, 41.5, V::regression},
      // Seconds by max(0.5 s, 5%), milliseconds by max(50 ms, 5%).
      {"cached_while_healthy_s", 10, 10.5, V::within_tolerance},
      {"cached_while_healthy_s", 10, 10.51, V::regression},
      {"cached_while_healthy_s", 20, 21, V::within_tolerance},
      {"cached_while_healthy_s", 20, 21.01, V::regression},
      {"latency_p99_ms", 100, 150, V::within_tolerance},
      {"latency_p99_ms", 100, 150.1, V::regression},
      {"latency_p99_ms", 2000, 2100, V::within_tolerance},
      {"latency_p99_ms", 2000, 2101, V::regression},
      // Ratios by max(0.05, 5%).
      {"amplification", 1.0, 1.05, V::within_tolerance},
      {"amplification", 1.0, 1.06, V::regression},
      // Neutral: reported, never failing.
      {"cached_checkouts", 100, 5000, V::neutral},
      {"cached_checkouts", 100, 100, V::unchanged},
      // Defined in one run only: reported, never failing.
      {"time_to_close_after_recovery_s", std::nullopt, 5, V::one_sided},
      {"time_to_close_after_recovery_s", 5, std::nullopt, V::one_sided},
      {"time_to_close_after_recovery_s", std::nullopt, std::nullopt, V::unchanged},
  };
  for (const VerdictCase& c : cases) {
    const MetricInfo& m = metric(c.metric);
    const GatedMetric gated{&m, defaultTolerance(m), false};
    const MetricComparison r = compareMetric(gated, with(c.metric, c.base), with(c.metric, c.head));
    EXPECT_EQ(toString(r.verdict), toString(c.expected))
        << c.metric << " " << c.base.value_or(-1) << " -> " << c.head.value_or(-1);
  }
}

TEST(GateTolerance, OverridesInTheMetricsUnitOrRelative) {
  struct Case {
    std::string argument;
    std::string_view metric;
    Tolerance expected;
  };
  const std::vector<Case> cases = {
      {"failed_pct=2", "failed_pct", {2, 0}},
      {"failed_pct=2%", "failed_pct", {0, 0.02}},
      {"latency_p99_ms=100", "latency_p99_ms", {100, 0}},
      {"latency_p99_ms=1s", "latency_p99_ms", {1000, 0}},
      {"time_to_trip_s=1.5s", "time_to_trip_s", {1.5, 0}},
      {"failed_checkouts=0", "failed_checkouts", {0, 0}},
      {"amplification=10%", "amplification", {0, 0.1}},
  };
  for (const Case& c : cases) {
    const ToleranceOverride o = parseToleranceOverride(c.argument);
    EXPECT_EQ(o.metric, findMetric(c.metric)) << c.argument;
    EXPECT_EQ(o.tolerance, c.expected) << c.argument;
  }
}

TEST(GateTolerance, ABadOverrideNamesTheArgument) {
  struct Case {
    std::string argument;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"faild_checkouts=1",
       "--tolerance faild_checkouts=1: unknown metric 'faild_checkouts', did you mean "
       "failed_checkouts"},
      {"failed_pct", "--tolerance failed_pct: expected METRIC=VALUE or METRIC=VALUE%"},
      {"failed_pct=-1", "--tolerance failed_pct=-1: expected a tolerance of 0 or more"},
      {"failed_pct=lots", "--tolerance failed_pct=lots: expected a number or a percentage"},
      {"latency_p99_ms=fast", "--tolerance latency_p99_ms=fast: expected a number of milliseconds"},
  };
  for (const Case& c : cases) {
    const auto e = test::loadErrorOf([&] { parseToleranceOverride(c.argument); });
    ASSERT_TRUE(e.has_value()) << c.argument;
    EXPECT_EQ(std::string(e->what()).substr(0, c.message.size()), c.message) << e->what();
  }
}

TEST(GateTolerance, AnOverrideReplacesTheDefaultOrJoinsTheGate) {
  const std::vector<GatedMetric> plain = gatedMetrics({});
  ASSERT_EQ(plain.size(), gateHeadlineMetrics().size());
  EXPECT_EQ(plain[0].metric->name, "failed_checkouts");
  EXPECT_FALSE(plain[0].overridden);

  const std::vector<GatedMetric> g = gatedMetrics({parseToleranceOverride("failed_checkouts=5"),
                                                   parseToleranceOverride("amplification=10%"),
                                                   parseToleranceOverride("failed_checkouts=7")});
  ASSERT_EQ(g.size(), plain.size() + 1);
  EXPECT_EQ(g[0].tolerance, (Tolerance{7, 0}));  // the later one wins
  EXPECT_TRUE(g[0].overridden);
  EXPECT_EQ(g.back().metric->name, "amplification");
  EXPECT_EQ(g.back().tolerance, (Tolerance{0, 0.1}));
}

TEST(GateMoments, ReadOffTheReplay) {
  Incident incident;
  incident.start = 0;
  incident.end = 10 * s;
  Config config;
  config.breaker.enabled = false;
  config.pool.size = 10;
  config.load_balancer.pods = 2;  // 20 connections, 40 from 4.5 s
  TimedChange scale;
  scale.at = 4 * s + s / 2;
  scale.edits = {{TimedKey::pods, 4}};
  incident.changes = {scale};
  Result r;
  r.checkouts = {{-1 * s, 0, CheckoutOutcome::failed},  // the lead-in is not the window
                 {s / 2, 0, CheckoutOutcome::fresh},
                 {3 * s / 2, 0, CheckoutOutcome::failed},
                 {2 * s, 0, CheckoutOutcome::failed}};
  r.events = {{-2 * s, EventKind::trip, "breaker", ""},
              {3 * s, EventKind::half_open, "breaker", ""},
              {6 * s, EventKind::trip, "breaker", ""}};
  r.metrics.trips = 1;
  r.metrics.time_to_trip_s = 4.5;
  // Full at 20 connections before the change, at 40 after; the second of the change has 40.
  r.per_second.pool_busy = {5, 19, 18, 10, 20, 39, 40, 40};
  r.per_second.dependency_busy = {10, 98, 99, 100};
  const KeyMoments k = keyMoments(incident, config, r);
  EXPECT_EQ(k.first_failed_checkout, 3 * s / 2);
  EXPECT_FALSE(k.has_breaker);  // the config has none
  EXPECT_EQ(k.first_trip, 6 * s);
  EXPECT_EQ(k.time_to_trip, 4.5);
  EXPECT_EQ(k.trips, 1u);
  EXPECT_TRUE(k.has_pool);
  EXPECT_EQ(k.pool_first_full, 6 * s);
  EXPECT_TRUE(k.has_ceiling);
  EXPECT_EQ(k.dependency_first_saturated, 2 * s);

  r.per_second.pool_busy = {5, 20};
  EXPECT_EQ(keyMoments(incident, config, r).pool_first_full, 1 * s);
  r.per_second.pool_busy.clear();
  r.per_second.dependency_busy.clear();
  const KeyMoments none = keyMoments(incident, config, r);
  EXPECT_FALSE(none.has_pool);
  EXPECT_FALSE(none.has_ceiling);
  config.breaker.enabled = true;
  EXPECT_TRUE(keyMoments(incident, config, r).has_breaker);
}

TEST(GateIncidentComparison, AGoalLostAndAMetricWorseAreRegressions) {
  const Incident incident = loadIncident(test::resourcePath(test::kPricingIncident));
  Config head = incident.deployed;
  head.cache.enabled = false;  // every checkout the open breaker rejects now fails
  const GateIncident g = compareIncident("inc-2026-0908-pricing", incident, incident.deployed,
                                         simulate(incident, incident.deployed), head,
                                         simulate(incident, head), gatedMetrics({}));
  ASSERT_EQ(g.config_changes.size(), 1u);
  EXPECT_EQ(g.config_changes[0].key, "fallback.cache.enabled");
  EXPECT_EQ(g.config_changes[0].before, "true");
  EXPECT_EQ(g.config_changes[0].after, "false");
  ASSERT_EQ(g.goals.size(), 2u);
  EXPECT_EQ(g.goals[0].text, "failed_checkouts == 0");
  EXPECT_TRUE(g.goals[0].regression());
  EXPECT_FALSE(g.goals[1].regression());  // not met on either
  const auto failed = std::find_if(g.metrics.begin(), g.metrics.end(), [](const auto& m) {
    return m.metric->name == "failed_checkouts";
  });
  ASSERT_NE(failed, g.metrics.end());
  EXPECT_EQ(failed->verdict, MetricVerdict::regression);
  EXPECT_GE(g.regressions(), 2u);

  const GateIncident same =
      compareIncident("x", incident, incident.deployed, simulate(incident, incident.deployed),
                      incident.deployed, simulate(incident, incident.deployed), gatedMetrics({}));
  EXPECT_TRUE(same.config_changes.empty());
  EXPECT_EQ(same.regressions(), 0u);
}

// A report built by hand: the 12 Sep numbers of 2 s -> 30 s.
GateReport timeoutReport() {
  GateReport report;
  report.base = {"base.yaml", "breakerlab-config/1"};
  report.head = {"head.yml", "resilience4j (Spring Boot application.yml)"};
  report.generator = "BreakerLab 9.9.9";
  GateIncident i;
  i.name = "inc-2026-0912-payment-timeout";
  i.id = "INC-2026-0912";
  i.title = "Payment timeout | 2 s \u2192 30 s";
  i.start = 0;
  i.end = 16140 * s;
  i.clock_start = parseUtcTimestamp("2026-09-12T09:02:00Z");
  i.checkouts = 485166;
  i.config_changes = {{"timeout.attempt", "2s", "30s"}};
  const auto row = [](std::string_view name, std::optional<double> b, std::optional<double> h,
                      MetricVerdict v) {
    const MetricInfo& m = metric(name);
    return MetricComparison{&m, b, h, defaultTolerance(m), v};
  };
  i.metrics = {
      row("failed_checkouts", 6019, 113284, MetricVerdict::regression),
      row("failed_pct", 1.2406, 23.3495, MetricVerdict::regression),
      row("latency_p99_ms", 6225.919, 62914.559, MetricVerdict::regression),
      row("fresh_checkouts", 479147, 371882, MetricVerdict::regression),
      row("cached_checkouts", 0, 0, MetricVerdict::unchanged),
      row("dependency_calls", 618023, 504597, MetricVerdict::neutral),
      row("time_to_close_after_recovery_s", std::nullopt, std::nullopt, MetricVerdict::unchanged),
      row("time_to_recover_s", std::nullopt, 12.5, MetricVerdict::one_sided),
      row("cached_while_healthy_s", 1.25, 0.75, MetricVerdict::better)};
  i.goals = {{"peak_pool_utilization_pct < 100", true, false, "6.375", "100"},
             {"failed_pct < 5", false, false, "5.2", "23.3"}};
  i.base_moments.first_failed_checkout = 722 * s + s / 3;
  i.head_moments.first_failed_checkout = 727 * s + 9 * s / 10;
  i.base_moments.has_pool = i.head_moments.has_pool = true;
  i.head_moments.pool_first_full = 2434 * s;
  i.base_moments.has_ceiling = i.head_moments.has_ceiling = true;
  i.head_moments.dependency_first_saturated = 1143 * s;
  report.incidents.push_back(i);
  return report;
}

bool contains(const std::string& text, const std::string& line) {
  return text.find(line) != std::string::npos;
}

TEST(GateMarkdown, TheReportOfARegression) {
  const std::string md = gateMarkdown(timeoutReport());
  const std::vector<std::string> lines = {
      "<!-- breakerlab-gate -->\n## \u274c BreakerLab gate: **FAIL** \u00b7 1 incident \u00b7 5 "
      "regressions\n",
      "- Base: `base.yaml` \u00b7 breakerlab-config/1\n",
      "- Head: `head.yml` \u00b7 resilience4j (Spring Boot application.yml)\n",
      "### What changed\n\n| Key | Base | Head |\n|---|---|---|\n| `timeout.attempt` | `2s` | "
      "`30s` |\n",
      // A | of the title is escaped as in a cell.
      "### \u2717 INC-2026-0912 \u00b7 Payment timeout \\| 2 s \u2192 30 s\n",
      "`inc-2026-0912-payment-timeout` \u00b7 09:02\u201313:31 UTC \u00b7 485,166 checkouts "
      "\u00b7 5 regressions\n",
      "| Metric | Base | Head | \u0394 | Tolerance | |\n|---|--:|--:|--:|--:|:-:|\n",
      "| Failed checkouts | 6,019 | 113,284 | +107,265 | max(1, 1%) | \u2717 |\n",
      "| Failed share | 1.24% | 23.35% | +22.11 pp | 1 pt | \u2717 |\n",
      "| Latency p99 | 6,225.92 ms | 62,914.56 ms | +56,688.64 ms | max(50 ms, 5%) | \u2717 |\n",
      "| Fresh | 479,147 | 371,882 | \u2212107,265 | max(1, 1%) | \u2717 |\n",
      "| Cached | 0 | 0 | 0 | reported | \u00b7 |\n",
      "| Calls to the dependency | 618,023 | 504,597 | \u2212113,426 | reported | \u00b7 |\n",
      "| Time to recover | \u2014 | 12.5 s |  | max(0.5 s, 5%) | \u00b7 |\n",
      "| Cached while healthy | 1.25 s | 0.75 s | \u22120.5 s | max(0.5 s, 5%) | \u2713 |\n",
      "**Goals**: 0 of 2 met on head (base: 1)\n",
      "| `peak_pool_utilization_pct < 100` | met (6.375) | **not met** (100) | \u2717 |\n",
      "| `failed_pct < 5` | **not met** (5.2) | **not met** (23.3) | \u00b7 |\n",
      "| First failed checkout | 09:14:02 (+722.3 s) | 09:14:07 (+727.9 s) |\n",
      "| Connection pool first full | never | 09:42:34 (+2,434 s) |\n",
      "| Dependency first saturated (99% of its ceiling) | never | 09:21:03 (+1,143 s) |\n",
      "\u00b7 BreakerLab 9.9.9</sub>\n",
  };
  for (const std::string& line : lines) EXPECT_TRUE(contains(md, line)) << line << "\n---\n" << md;
  // A metric neither run defines is left out; a run without a breaker has no breaker row.
  EXPECT_FALSE(contains(md, "Time to close after recovery")) << md;
  EXPECT_FALSE(contains(md, "Breaker first opened")) << md;
  EXPECT_FALSE(contains(md, "<details>")) << md;
}

TEST(GateMarkdown, NoConfigChangePasses) {
  GateReport report = timeoutReport();
  GateIncident& i = report.incidents[0];
  i.config_changes.clear();
  for (MetricComparison& m : i.metrics) {
    m.head = m.base;
    m.verdict = MetricVerdict::unchanged;
  }
  for (GoalRow& g : i.goals) g.head_met = g.base_met;
  i.head_moments = i.base_moments;
  const std::string md = gateMarkdown(report);
  EXPECT_TRUE(contains(md,
                       "## \u2705 BreakerLab gate: **PASS** \u00b7 1 incident \u00b7 0 "
                       "regressions \u00b7 no config change\n"))
      << md;
  EXPECT_TRUE(contains(md, "No config change: base and head give every incident the same config"))
      << md;
  EXPECT_TRUE(contains(md, "### \u2713 INC-2026-0912")) << md;
  EXPECT_TRUE(contains(md, "\u00b7 no regression\n")) << md;
}

TEST(GateMarkdown, ChangesThatDifferByIncidentAreListedUnderEach) {
  GateReport report = timeoutReport();
  GateIncident other = report.incidents[0];
  other.id = "INC-2026-0908";
  other.clock_start.reset();
  other.config_changes = {{"pool.size", "20", "50"}};
  other.base_moments.has_breaker = other.head_moments.has_breaker = true;
  other.head_moments.first_trip = 11 * s + s / 5;
  other.head_moments.time_to_trip = 3.4;
  other.head_moments.trips = 2;
  report.incidents.push_back(other);
  report.notes = {"head.yml:3:7: a note | with a pipe"};
  const std::string md = gateMarkdown(report);
  EXPECT_TRUE(contains(md, "The change differs by incident")) << md;
  EXPECT_TRUE(contains(md, "| `pool.size` | `20` | `50` |")) << md;
  EXPECT_TRUE(contains(md, "| `timeout.attempt` | `2s` | `30s` |")) << md;
  EXPECT_TRUE(contains(md, "2 incidents \u00b7 10 regressions")) << md;
  // Without a wall clock, times are offsets from the window's start.
  EXPECT_TRUE(contains(md, "| First failed checkout | +722.3 s | +727.9 s |")) << md;
  EXPECT_TRUE(contains(md,
                       "| Breaker first opened | never | +11.2 s, 3.4 s after the first "
                       "failed call; 2 trips |"))
      << md;
  EXPECT_TRUE(contains(md,
                       "<details><summary>What the config files' import noted (1)</summary>"
                       "\n\n- head.yml:3:7: a note \\| with a pipe\n"))
      << md;
}

TEST(GateJson, TheSameReportForMachines) {
  const nlohmann::ordered_json j = gateToJson(timeoutReport());
  EXPECT_EQ(j["format"], "breakerlab-gate/1");
  EXPECT_EQ(j["passed"], false);
  EXPECT_EQ(j["regressions"], 5);
  EXPECT_EQ(j["config_changed"], true);
  EXPECT_EQ(j["head"]["format"], "resilience4j (Spring Boot application.yml)");
  const auto& incident = j["incidents"][0];
  EXPECT_EQ(incident["config_changes"][0]["key"], "timeout.attempt");
  EXPECT_EQ(incident["config_changes"][0]["head"], "30s");
  EXPECT_EQ(incident["metrics"][0]["name"], "failed_checkouts");
  EXPECT_EQ(incident["metrics"][0]["verdict"], "regression");
  EXPECT_EQ(incident["metrics"][0]["delta"], 113284.0 - 6019.0);
  EXPECT_EQ(incident["metrics"][0]["tolerance"]["relative"], 0.01);
  EXPECT_TRUE(incident["metrics"][7]["base"].is_null());
  EXPECT_EQ(incident["goals"][0]["regression"], true);
  EXPECT_EQ(incident["moments"]["head"]["pool_first_full_s"], 2434.0);
  EXPECT_TRUE(incident["moments"]["base"]["pool_first_full_s"].is_null());
}

}  // namespace
}  // namespace breakerlab
