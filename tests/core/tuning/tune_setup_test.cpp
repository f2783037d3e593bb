// What `breakerlab-cli tune` and the Tune dock share before and after a search: the case an
// incident becomes, the default knobs of each library, the metrics a search may minimise, the
// progress that carries the best config, and the configs a result reports.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/tuning/tune_setup.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/tuning_text.h"
#include "support/bundled_incident.h"

namespace breakerlab {
namespace {

TEST(TuneSetup, ACaseHoldsTheGoalsGivenThenTheIncidentsOwnEachOnceUnderTheLibraryChosen) {
  const Incident& inc = test::pricingIncident();
  ASSERT_FALSE(inc.goals.empty());
  const std::vector<Expectation> given = {inc.goals.front(),
                                          parseExpectation("failed_pct <= 1", "test")};
  const TuneCase c = tuneCaseFor(inc, inc.deployed, BreakerLibrary::gobreaker, given, true);
  EXPECT_EQ(c.incident, &inc);
  ASSERT_EQ(c.goals.size(), inc.goals.size() + 1) << "the goal given and written is checked once";
  EXPECT_EQ(c.goals[0].text, inc.goals.front().text);
  EXPECT_EQ(c.goals[1].text, "failed_pct <= 1");
  for (std::size_t i = 1; i < inc.goals.size(); ++i)
    EXPECT_EQ(c.goals[i + 1].text, inc.goals[i].text);
  EXPECT_EQ(c.base.breaker.library, BreakerLibrary::gobreaker);
  Config same = c.base;
  same.breaker.library = inc.deployed.breaker.library;
  EXPECT_EQ(same, inc.deployed) << "only the library is chosen; the rest is the base";

  const TuneCase without = tuneCaseFor(inc, inc.deployed, BreakerLibrary::breakerlab, given, false);
  EXPECT_EQ(without.goals.size(), given.size());
}

// The walkthrough of issue #33: Tune offered the breaker's open interval and probes on incidents
// whose breaker is off, where they move nothing. There the call timeout and the attempts.
TEST(TuneSetup, WithTheBreakerOffTheDefaultKnobsAreTheTimeoutAndTheAttempts) {
  Config off;
  off.breaker.enabled = false;
  for (const auto& info : kBreakerLibraries) {
    const std::vector<KnobRange> knobs = defaultSearchKnobs(info.id, off);
    ASSERT_EQ(knobs.size(), 2u) << info.key;
    EXPECT_EQ(knobs[0].knob->id, "timeout.attempt");
    EXPECT_EQ(knobs[1].knob->id, "retry.max_attempts");
    for (const KnobRange& r : knobs) {
      EXPECT_EQ(rangeProblem(r), "") << r.knob->id;
      EXPECT_GE(r.low, r.knob->min) << r.knob->id;
      EXPECT_LE(r.high, r.knob->max) << r.knob->id;
      EXPECT_TRUE(r.knob->applies == nullptr || r.knob->applies(off)) << r.knob->id;
    }
  }
  // A breaker on keeps its library's.
  EXPECT_EQ(defaultSearchKnobs(BreakerLibrary::gobreaker, Config{}).front().knob->id,
            "gobreaker.Timeout");
}

TEST(TuneSetup, EachLibrarysDefaultKnobsAreItsOwnAndTheirRangesAreValid) {
  for (const auto& info : kBreakerLibraries) {
    const std::vector<KnobRange> knobs = defaultSearchKnobs(info.id);
    EXPECT_FALSE(knobs.empty()) << info.key;
    for (const KnobRange& r : knobs) {
      ASSERT_NE(r.knob, nullptr);
      EXPECT_TRUE(r.knob->editable()) << r.knob->id;
      EXPECT_TRUE(!r.knob->library || *r.knob->library == info.id) << r.knob->id;
      EXPECT_EQ(rangeProblem(r), "") << r.knob->id;
      EXPECT_GE(r.low, r.knob->min) << r.knob->id;
      EXPECT_LE(r.high, r.knob->max) << r.knob->id;
    }
  }
  // gobreaker's are the docs' 8 Sep search, as --knob reads it.
  const std::vector<KnobRange> go = defaultSearchKnobs(BreakerLibrary::gobreaker);
  const char* docs[] = {"gobreaker.Timeout=0.5..60:log", "gobreaker.MaxRequests=1..10"};
  ASSERT_EQ(go.size(), 2u);
  for (std::size_t i = 0; i < go.size(); ++i) {
    const KnobRange parsed = parseKnobRange(docs[i], "docs");
    EXPECT_EQ(go[i].knob, parsed.knob);
    EXPECT_EQ(go[i].low, parsed.low);
    EXPECT_EQ(go[i].high, parsed.high);
    EXPECT_EQ(go[i].log, parsed.log);
  }
}

TEST(TuneSetup, AKnobAloneIsItsWholeRangeOnThePanelsScale) {
  for (const KnobSpec& k : knobSpecs()) {
    if (!k.editable() || k.kind != KnobSpec::Kind::number) continue;
    const KnobRange whole = wholeRange(k);
    const KnobRange parsed = parseKnobRange(k.id, "test");
    EXPECT_EQ(whole.low, parsed.low) << k.id;
    EXPECT_EQ(whole.high, parsed.high) << k.id;
    EXPECT_EQ(whole.log, parsed.log) << k.id;
    EXPECT_EQ(rangeProblem(whole), "") << k.id;
  }
}

TEST(TuneSetup, OnlyMetricsWhereHigherIsNotBetterAreMinimisedAndTheDefaultIsTheIncidentsQuestion) {
  for (const MetricInfo& m : metricRegistry())
    EXPECT_EQ(canMinimise(m), m.direction != MetricDirection::higher_is_better) << m.name;
  EXPECT_EQ(defaultObjective(test::pricingIncident()).name, "cached_while_healthy_s");
  Incident no_goals = test::pricingIncident();
  no_goals.goals.clear();
  EXPECT_EQ(defaultObjective(no_goals).name, "failed_pct");
}

TEST(TuneSetup, ProgressCarriesTheBestConfigsValuesAndTheReportedConfigMeetsTheGoals) {
  const Incident& inc = test::pricingIncident();
  const std::vector<Expectation> goals = {parseExpectation("failed_checkouts == 0", "test")};
  const Evaluator evaluator(
      {tuneCaseFor(inc, inc.deployed, BreakerLibrary::gobreaker, goals, true)},
      {findMetric("cached_while_healthy_s")});
  const std::vector<KnobRange> knobs = defaultSearchKnobs(BreakerLibrary::gobreaker);
  TuneOptions options;
  options.budget = 120;
  options.threads = 2;
  std::mutex mutex;
  std::vector<TuneProgress> steps;
  options.progress = [&](const TuneProgress& p) {
    const std::lock_guard lock(mutex);
    steps.push_back(p);
  };
  const TuneResult result = tune(evaluator, knobs, options);
  ASSERT_FALSE(result.front.empty());
  ASSERT_FALSE(steps.empty());
  // Each step's best values are a config whose objective is the step's best, and the last is
  // the result's.
  for (const TuneProgress& p : steps) {
    ASSERT_EQ(p.best_values.empty(), !p.have_feasible);
    if (p.best_values.empty()) continue;
    Evaluator::Scratch scratch = evaluator.scratch();
    const Evaluation e = evaluator.evaluate(
        [&](Config& c) {
          for (std::size_t d = 0; d < knobs.size(); ++d) knobs[d].knob->set(c, p.best_values[d]);
        },
        false, scratch);
    EXPECT_TRUE(e.feasible);
    EXPECT_EQ(e.objectives[0], p.best_objective);
  }
  EXPECT_EQ(steps.back().best_objective, result.front[0].evaluation.objectives[0]);

  const std::vector<TunedConfig> reported = reportedConfigs(evaluator, knobs, result);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_TRUE(reported[0].evaluation.feasible);
  EXPECT_LE(reported[0].evaluation.objectives[0], result.front[0].evaluation.objectives[0]);
}

}  // namespace
}  // namespace breakerlab
