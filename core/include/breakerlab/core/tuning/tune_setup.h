#pragma once
// What `breakerlab-cli tune` and the workbench's Tune dock both ask of a search before and after
// it runs (docs/tuning.md): the case each incident becomes, which metrics may be minimised, the
// knobs a library is tuned by when none are named, and the configs a result reports. One place,
// so that the dock finds what the command finds.
#include <span>
#include <string_view>
#include <vector>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/tuning/tune.h"
#include "breakerlab/core/tuning/tuning_objective.h"

namespace breakerlab {

// The case a search replays on `incident`: `base` (the deployed config for the command, A for
// the workbench) with `library`'s breaker chosen, held to `extra_goals` and, with
// `incident_goals`, to the incident's own goals (one written in both is checked once).
TuneCase tuneCaseFor(const Incident& incident, Config base, BreakerLibrary library,
                     std::span<const Expectation> extra_goals, bool incident_goals);

// Whether a search may minimise `metric`: one where higher is better is bounded by a goal.
bool canMinimise(const MetricInfo& metric);

// What a search minimises when nothing is named: the incident's own question (the time cached
// while healthy) when a goal asks it, else the first goal's metric that can be minimised, else
// the share of failed checkouts.
const MetricInfo& defaultObjective(const Incident& incident);

// The knobs `library` is tuned by when none are named: how long its breaker stays open (by
// ratio, half a second to a minute) and how many calls it lets through to probe, where it has
// such a setting. For gobreaker, the docs' 8 Sep search: Timeout=0.5..60:log, MaxRequests=1..10.
std::vector<KnobRange> defaultSearchKnobs(BreakerLibrary library);
// The same for the config in force; with its breaker off (the retry-amplification and metastable
// incidents), whose knobs would move nothing, the call timeout (50 ms..30 s, log) and the
// attempts per request (1..5) instead.
std::vector<KnobRange> defaultSearchKnobs(BreakerLibrary library, const Config& in_force);

// A knob searched that cannot move the metrics on a case's base wherever the other searched
// knobs are (the health poll while the early probe is off), and the switch that would make it
// count (null when no single switch does).
struct IdleKnob {
  std::size_t case_index = 0;
  const KnobSpec* knob = nullptr;
  const KnobSpec* switch_on = nullptr;  // a toggle, off in the base, not searched
};
// What to warn of before a search or a map. A knob another searched knob can bring into play (a
// switch, a second attempt, a pool size) counts: named only when it is idle wherever the others
// are (up to 4,096 combinations of their ends; beyond that, never).
std::vector<IdleKnob> knobsWithoutEffect(std::span<const TuneCase> cases,
                                         std::span<const KnobRange> knobs);

// The configs a search's result stands for, as `tune` reports them: its front (the closest
// config when none met the goals), each with the changes that buy nothing put back to the first
// case's base (withoutNeedlessChanges). Costs a replay per changed knob of each.
std::vector<TunedConfig> reportedConfigs(const Evaluator& evaluator,
                                         std::span<const KnobRange> knobs,
                                         const TuneResult& result);

}  // namespace breakerlab
