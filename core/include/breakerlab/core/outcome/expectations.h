#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/metric_compare.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab {

struct ExpectationResult {
  const Expectation* expectation = nullptr;
  bool passed = false;
  std::string actual;  // the measured value or lane difference, human readable
  // A check the incident does not write but calibration makes (evaluateCalibration): it owns
  // the expectation `expectation` points to, so the result can be copied and kept.
  std::shared_ptr<const Expectation> implied;
};

std::vector<ExpectationResult> evaluate(const std::vector<Expectation>& expectations,
                                        const Incident& incident, const Result& result);

// The calibration of the deployed config's replay: `expect` (the incident's), then the checkout
// lane the workbench draws against the recorded one when the record has it and no `expect:`
// checks it (an incident's numbers can all agree while the lane they come from does not). That
// check passes when the states come in the same order with every edge within one bucket of the
// checkout lane (the replayed lane's resolution); either way its `actual` says how far off the
// replay is (LaneAgreement::summary). A lane check of `expect:` says it too.
std::vector<ExpectationResult> evaluateCalibration(const std::vector<Expectation>& expect,
                                                   const Incident& incident, const Result& result);

bool allPassed(const std::vector<ExpectationResult>& results);

// How far a run is from meeting `expectation`, for a search that must tell two misses apart:
// 0 when met; else the distance to the bound over max(|bound|, 1) (a strict bound missed by
// nothing counts 1e-9), and 1 for a lane, an undefined metric or a missed `!=`.
double shortfall(const Expectation& expectation, const Incident& incident, const Result& result);

// The most failed checkouts that can still meet every one of `goals` ("failed_checkouts == 0"
// allows none, "<= 3" three), or nullopt when no goal bounds them: a replay may stop at the
// next failure (SimulateOptions::give_up_after_failed_checkouts).
std::optional<std::uint64_t> failedCheckoutsAllowed(const std::vector<Expectation>& goals);

// Two runs held to the same goals: how many each meets, and which is better. `better`: more
// goals met than the baseline; `worse`: fewer; `same`: the same goals met; `mixed`: as many,
// but not the same ones. `none`: there are no goals.
struct GoalComparison {
  enum class Verdict : std::uint8_t { none, better, same, mixed, worse };
  std::size_t total = 0;
  std::size_t met = 0;
  std::size_t baseline_met = 0;
  Verdict verdict = Verdict::none;
};
// `current` and `baseline` are the same goals evaluated on the two runs, in the same order.
GoalComparison compareGoals(const std::vector<ExpectationResult>& current,
                            const std::vector<ExpectationResult>& baseline);
std::string_view toString(GoalComparison::Verdict verdict);

// Every check of a replay, in its groups (docs/formats.md, "Calibration and goals").
struct Checks {
  // The incident's `expect:`, on the deployed config's replay of the incident as opened: they
  // calibrate the model against the record and do not move while a config is tuned.
  std::vector<ExpectationResult> calibration;
  // The incident's `goals:`, on the replay of the config being tuned, and on the deployed
  // config's replay that it is compared with (the metrics' baseline).
  std::vector<ExpectationResult> goals;
  std::vector<ExpectationResult> baseline_goals;
  // The gate's headline metrics this config's replay regresses against that deployed replay
  // (headlineRegressions): meeting more goals while one of these got worse is not simply
  // "better" (issue #33). Set beside the goals.
  std::vector<MetricComparison> regressions;
  // The checks of this config: the what-if's own `expect:` when the config is a what-if (and,
  // in the CLI, every --expect), on the current replay. `checks_of` names them.
  std::vector<ExpectationResult> checks;
  std::string checks_of;

  GoalComparison goalComparison() const { return compareGoals(goals, baseline_goals); }
};

std::string_view toString(CompareOp op);

}  // namespace breakerlab
