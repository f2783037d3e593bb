// `goals:` in an incident: read like `expect:` (text and metric maps, errors with their
// position), never a lane check, and written back the same.
#include <gtest/gtest.h>

#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

using test::positionOf;
using test::replaceFirst;

Incident parseIncidentWithGoals(const std::string& text) {
  return parseIncident(text, "inc.yaml");
}

// The bundled 8 Sep incident with its goals replaced by `goals` (a YAML list's lines).
std::string withGoals(const std::string& goals) {
  const std::string text = test::pricingText();
  const std::size_t at = text.find("\ngoals:\n");
  EXPECT_NE(at, std::string::npos) << "the bundled incident has goals";
  return text.substr(0, at) + "\ngoals:\n" + goals + "\n";
}

TEST(Goals, TheBundledIncidentHasItsGoalsApartFromItsExpectations) {
  const std::string text = test::pricingText();
  const Incident inc = parseIncidentWithGoals(text);
  ASSERT_EQ(inc.goals.size(), 2u);
  EXPECT_EQ(inc.goals[0].text, "failed_checkouts == 0");
  EXPECT_EQ(inc.goals[1].metric, "cached_while_healthy_s");
  EXPECT_EQ(inc.goals[1].op, CompareOp::le);
  EXPECT_EQ(inc.goals[1].value, 3.0);
  EXPECT_EQ(inc.goals[1].line, positionOf(text, "\"cached_while_healthy_s <= 3\"").line);
  for (const Expectation& e : inc.expect)
    EXPECT_NE(e.text, "cached_while_healthy_s <= 3") << "goals are not calibration";
}

TEST(Goals, TextAndMetricMapsWithTolerances) {
  const Incident inc = parseIncidentWithGoals(withGoals(R"(  - "failed_pct < 5%"
  - "time_to_close_after_recovery_s <= 2s ± 500ms"
  - {metric: oldest_cached_price_s, op: "<=", value: 60, tolerance: 1%})"));
  ASSERT_EQ(inc.goals.size(), 3u);
  EXPECT_EQ(inc.goals[0].value, 5.0);
  EXPECT_EQ(inc.goals[1].value, 2.0);
  EXPECT_EQ(inc.goals[1].tolerance, 0.5);
  EXPECT_EQ(inc.goals[2].metric, "oldest_cached_price_s");
  EXPECT_TRUE(inc.goals[2].tolerance_relative);
  EXPECT_EQ(inc.goals[2].text, "oldest_cached_price_s <= 60 ± 1%");
}

TEST(Goals, ALaneCheckIsCalibrationNotAGoal) {
  const std::string text = withGoals(R"(  - "failed_checkouts == 0"
  - {lane: breaker, matches: recorded, within: 0.5s})");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text),
                       positionOf(text, "lane: breaker, matches: recorded, within: 0.5s}", 1),
                       "goals[1]: a lane check is calibration, not a goal: goals compare a metric "
                       "with a value (such as \"failed_checkouts == 0\"); put lane checks under "
                       "expect");
  const auto error = test::loadErrorOf([&] { (void)parseIncidentWithGoals(text); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->file(), "inc.yaml");
}

TEST(Goals, ErrorsNameTheLineColumnAndWhatWasExpected) {
  std::string text = withGoals(R"(  - "failed_checkouts => 0")");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text), positionOf(text, "=> 0"),
                       "goals[0]: expected a comparison (==, !=, <, <=, >, >=)");
  text = withGoals(R"(  - "cached_while_healty_s <= 3")");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text), positionOf(text, "cached_while_healty_s"),
                       "unknown metric 'cached_while_healty_s', did you mean "
                       "cached_while_healthy_s?");
  text = withGoals(R"(  - {metric: failed_pct, op: "<", value: lots})");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text), positionOf(text, "lots"),
                       "goals[0].value: expected a number or a percentage such as 5%");
  text = withGoals(R"(  - [failed_checkouts, 0])");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text), positionOf(text, "[failed_checkouts"),
                       "goals[0]: expected a goal such as \"failed_checkouts == 0\"");
  text = withGoals("  failed_checkouts: 0");
  EXPECT_LOAD_ERROR_AT(parseIncidentWithGoals(text), positionOf(text, "failed_checkouts: 0"),
                       "goals");
}

TEST(Goals, WrittenAndReadBackTheSame) {
  const Incident inc = parseIncidentWithGoals(withGoals(R"(  - "failed_checkouts == 0"
  - {metric: cached_while_healthy_s, op: "<=", value: 3s, tolerance: 0.5})"));
  const std::string yaml = incidentToYaml(inc);
  EXPECT_NE(yaml.find("goals:"), std::string::npos) << yaml;
  const Incident back = parseIncidentWithGoals(yaml);
  ASSERT_EQ(back.goals.size(), inc.goals.size());
  for (std::size_t i = 0; i < inc.goals.size(); ++i) {
    EXPECT_EQ(back.goals[i].text, inc.goals[i].text);
    EXPECT_EQ(back.goals[i].metric, inc.goals[i].metric);
    EXPECT_EQ(back.goals[i].op, inc.goals[i].op);
    EXPECT_EQ(back.goals[i].value, inc.goals[i].value);
    EXPECT_EQ(back.goals[i].tolerance, inc.goals[i].tolerance);
  }
  ASSERT_EQ(back.expect.size(), inc.expect.size()) << "expect: stays apart";
  EXPECT_EQ(incidentToYaml(back), yaml);

  // Without goals, none are written.
  Incident none = inc;
  none.goals.clear();
  EXPECT_EQ(incidentToYaml(none).find("goals:"), std::string::npos);
}

TEST(Goals, EveryBundledIncidentHasGoals) {
  for (const char* name :
       {"inc-2026-0814-orders", "inc-2026-0908-pricing", "inc-2026-0912-payment-timeout",
        "inc-payment-retry-amplification", "teach-metastable-retries"}) {
    const Incident inc =
        loadIncident(test::resourcePath(std::string("incidents/") + name + ".yaml"));
    EXPECT_FALSE(inc.goals.empty()) << name;
    for (const Expectation& g : inc.goals) EXPECT_EQ(g.kind, Expectation::Kind::metric) << name;
  }
}

// The CLI's and the report's goals verdict: a verdict that is not "worse" already names what the
// config regresses (the second walkthrough of issue #33: "better than deployed" while failed
// checkouts doubled); "worse" says enough, and an incident without goals has no verdict.
TEST(Goals, TheVerdictNamesTheRegressionsOfAConfigThatIsNotWorse) {
  using V = GoalComparison::Verdict;
  struct Case {
    GoalComparison goals;
    std::string regressed;
    std::string text;
  };
  const Case cases[] = {
      {{2, 2, 1, V::better}, "", "Goals: 2 of 2 met (deployed: 1 of 2): better than deployed"},
      {{3, 2, 0, V::better},
       "failed checkouts, fresh",
       "Goals: 2 of 3 met (deployed: 0 of 3): better than deployed, but worse on failed "
       "checkouts, fresh"},
      {{2, 1, 1, V::same},
       "failed checkouts",
       "Goals: 1 of 2 met (deployed: 1 of 2): the same as deployed, but worse on failed "
       "checkouts"},
      {{2, 1, 1, V::mixed},
       "fresh",
       "Goals: 1 of 2 met (deployed: 1 of 2): as many as deployed, not the same ones, but worse "
       "on fresh"},
      {{2, 0, 2, V::worse},
       "failed checkouts",
       "Goals: 0 of 2 met (deployed: 2 of 2): worse than deployed"},
      {{0, 0, 0, V::none}, "failed checkouts", "Goals: none in this incident"},
  };
  for (const Case& c : cases) EXPECT_EQ(goalVerdictText(c.goals, c.regressed), c.text);
}

}  // namespace
}  // namespace breakerlab
