#include <gtest/gtest.h>

#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

Expectation parsedExpectation(const std::string& text) {
  return parseExpectation(text, "--expect");
}

TEST(ExpectationText, MetricOpValue) {
  const Expectation e = parsedExpectation("failed_checkouts == 0");
  EXPECT_EQ(e.kind, Expectation::Kind::metric);
  EXPECT_EQ(e.metric, "failed_checkouts");
  EXPECT_EQ(e.op, CompareOp::eq);
  EXPECT_EQ(e.value, 0.0);
  EXPECT_EQ(e.tolerance, 0.0);
  EXPECT_FALSE(e.tolerance_relative);
  EXPECT_EQ(e.text, "failed_checkouts == 0");
}

TEST(ExpectationText, EveryOperator) {
  const std::pair<const char*, CompareOp> cases[] = {{"==", CompareOp::eq}, {"!=", CompareOp::ne},
                                                     {"<", CompareOp::lt},  {"<=", CompareOp::le},
                                                     {">", CompareOp::gt},  {">=", CompareOp::ge}};
  for (const auto& [op, expected] : cases) {
    EXPECT_EQ(parsedExpectation(std::string("trips ") + op + " 1").op, expected) << op;
    EXPECT_EQ(parsedExpectation(std::string("trips") + op + "1").op, expected)
        << op;  // spaces optional
  }
}

TEST(ExpectationText, AbsoluteAndRelativeTolerances) {
  Expectation e = parsedExpectation("time_to_trip_s == 3 ± 0.5");
  EXPECT_EQ(e.value, 3.0);
  EXPECT_EQ(e.tolerance, 0.5);
  EXPECT_FALSE(e.tolerance_relative);
  e = parsedExpectation("cached_window_checkouts == 1760 ± 1%");
  EXPECT_DOUBLE_EQ(e.tolerance, 0.01);
  EXPECT_TRUE(e.tolerance_relative);
  e = parsedExpectation("cached_window_checkouts == 1760 +- 2");
  EXPECT_EQ(e.tolerance, 2.0);
  e = parsedExpectation("cached_window_checkouts == 1760+/-2");
  EXPECT_EQ(e.tolerance, 2.0);
  e = parsedExpectation("cached_window_checkouts == 1760±2");
  EXPECT_EQ(e.tolerance, 2.0);
}

TEST(ExpectationText, UnitsFollowTheMetric) {
  EXPECT_DOUBLE_EQ(parsedExpectation("time_to_trip_s <= 800ms").value, 0.8);
  EXPECT_DOUBLE_EQ(parsedExpectation("time_to_trip_s == 3s ± 500ms").tolerance, 0.5);
  EXPECT_DOUBLE_EQ(parsedExpectation("latency_p99_ms < 1s").value, 1000.0);
  EXPECT_DOUBLE_EQ(parsedExpectation("failed_pct < 5%").value, 5.0);
  EXPECT_DOUBLE_EQ(parsedExpectation("failed_pct < 5").value, 5.0);
}

std::string expectationErrorOf(const std::string& text) {
  const auto e = test::loadErrorOf([&] { parsedExpectation(text); });
  return e ? e->what() : "";
}

TEST(ExpectationText, Errors) {
  EXPECT_EQ(expectationErrorOf("faild_checkouts == 0"),
            "--expect: unknown metric 'faild_checkouts', did you mean failed_checkouts? "
            "(breakerlab-cli replay --list-metrics lists them all) (at character 1 of "
            "\"faild_checkouts == 0\")");
  EXPECT_NE(expectationErrorOf("failed_checkouts = 0")
                .find("expected a comparison (==, !=, <, <=, >, >=)"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts === 0").find("expected a comparison"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts ==").find("expected a value"), std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == zero").find("expected a number, got \"zero\""),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 3s").find("expected a number, got \"3s\""),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 5%").find("not a percentage"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 0 ± ").find("expected a tolerance"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 0 ± -1").find("must not be negative"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 0 please").find("unexpected \"please\""),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("failed_checkouts == 0 ± 1 more").find("after the tolerance"),
            std::string::npos);
  EXPECT_NE(expectationErrorOf("").find("expected a metric name"), std::string::npos);
}

constexpr const char* kIncident = R"(format: breakerlab/1
id: E
window: {from: 0, to: 10}
traffic: {rate: [{from: 0, to: 10, rps: 1}]}
dependency: {segments: [{state: up, from: 0, to: 10}]}
recorded:
  lanes:
    breaker: [{state: closed, from: 0, to: 10}]
expect:
  - "trips == 0"
  - {metric: time_to_trip_s, op: "<=", value: 60, tolerance: 0.5}
  - {metric: cached_window_checkouts, op: ">=", value: 100, tolerance: 5%}
  - {lane: breaker, matches: recorded, within: 0.5s}
  - {lane: breaker, matches: recorded}
)";

TEST(ExpectationMaps, MetricAndLaneForms) {
  const Incident inc = parseIncident(kIncident, "e.yaml");
  ASSERT_EQ(inc.expect.size(), 5u);
  EXPECT_EQ(inc.expect[0].line, 10);
  const Expectation& m = inc.expect[1];
  EXPECT_EQ(m.kind, Expectation::Kind::metric);
  EXPECT_EQ(m.metric, "time_to_trip_s");
  EXPECT_EQ(m.op, CompareOp::le);
  EXPECT_EQ(m.value, 60.0);
  EXPECT_EQ(m.tolerance, 0.5);
  EXPECT_EQ(m.line, 11);
  EXPECT_EQ(m.text, "time_to_trip_s <= 60 ± 0.5");
  EXPECT_TRUE(inc.expect[2].tolerance_relative);
  EXPECT_DOUBLE_EQ(inc.expect[2].tolerance, 0.05);
  const Expectation& lane = inc.expect[3];
  EXPECT_EQ(lane.kind, Expectation::Kind::lane);
  EXPECT_EQ(lane.lane, "breaker");
  EXPECT_EQ(lane.within, 500 * kMillisecond);
  EXPECT_EQ(lane.line, 13);
  EXPECT_EQ(lane.text, "breaker lane matches recorded within 0.5s");
  EXPECT_EQ(inc.expect[4].within, 0);
}

TEST(ExpectationMaps, Errors) {
  const std::string base = kIncident;
  const std::string op = test::replaceFirst(base, "op: \"<=\"", "op: \"=<\"");
  EXPECT_LOAD_ERROR_AT(parseIncident(op, "e.yaml"), test::positionOf(op, "\"=<\""),
                       "expect[1].op: expected one of ==, !=, <, <=, >, >=, got \"=<\"");
  const std::string metric = test::replaceFirst(base, "metric: time_to_trip_s", "metric: ttt");
  EXPECT_LOAD_ERROR_AT(parseIncident(metric, "e.yaml"), test::positionOf(metric, "ttt"),
                       "expect[1].metric: unknown metric 'ttt'");
  const std::string mixed =
      test::replaceFirst(base, "matches: recorded, within", "metric: trips, within");
  EXPECT_LOAD_ERROR_AT(parseIncident(mixed, "e.yaml"), test::positionOf(mixed, "metric: trips"),
                       "unknown key 'metric' under expect[3], expected one of lane, matches, "
                       "within");
  const std::string list = test::replaceFirst(base, "- \"trips == 0\"", "- [trips, 0]");
  EXPECT_LOAD_ERROR_AT(parseIncident(list, "e.yaml"), test::positionOf(list, "[trips"),
                       "expect[0]: expected an expectation such as");
  const std::string missing = test::replaceFirst(base, ", value: 60", "");
  EXPECT_LOAD_ERROR_AT(parseIncident(missing, "e.yaml"),
                       test::positionOf(missing, "{metric: time_to_trip_s"),
                       "expect[1]: missing required key 'value'");
}

}  // namespace
}  // namespace breakerlab
