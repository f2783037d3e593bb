#include "breakerlab/core/tuning/tune_setup.h"

#include <algorithm>
#include <cmath>

#include "breakerlab/core/knobs/knob_specs.h"

namespace breakerlab {

namespace {

bool sameGoal(const Expectation& a, const Expectation& b) {
  return a.kind == b.kind && a.metric == b.metric && a.op == b.op && a.value == b.value &&
         a.tolerance == b.tolerance && a.tolerance_relative == b.tolerance_relative &&
         a.lane == b.lane && a.within == b.within;
}

struct DefaultKnob {
  BreakerLibrary library;
  std::string_view id;
  double low, high;  // in the knob's unit
  bool log;
};

// Per library: how long the breaker stays open, then how many calls probe it (polly, opossum
// and envoy probe with one call, or eject a host, and have no such count).
constexpr DefaultKnob kDefaultKnobs[] = {
    {BreakerLibrary::breakerlab, "breaker.open.interval", 0.5, 60, true},
    {BreakerLibrary::breakerlab, "breaker.half_open.probes", 1, 10, false},
    {BreakerLibrary::resilience4j, "resilience4j.waitDurationInOpenState", 1, 60, true},
    {BreakerLibrary::resilience4j, "resilience4j.permittedNumberOfCallsInHalfOpenState", 1, 10,
     false},
    {BreakerLibrary::gobreaker, "gobreaker.Timeout", 0.5, 60, true},
    {BreakerLibrary::gobreaker, "gobreaker.MaxRequests", 1, 10, false},
    {BreakerLibrary::polly, "polly.BreakDuration", 0.5, 60, true},
    {BreakerLibrary::opossum, "opossum.resetTimeout", 500, 60000, true},
    {BreakerLibrary::cockatiel, "cockatiel.halfOpenAfter", 500, 60000, true},
    {BreakerLibrary::envoy, "envoy.base_ejection_time", 1, 60, true},
};

// `base` at every combination of the ends of the tuned knobs but `skipped` (low and high; each
// value of a choice), or nothing when there would be more than `limit`.
std::vector<Config> otherKnobsEnds(const Config& base, std::span<const KnobRange> knobs,
                                   const KnobSpec* skipped, std::size_t limit) {
  std::vector<Config> ends{base};
  for (const KnobRange& r : knobs) {
    if (r.knob == skipped) continue;
    std::vector<double> values{r.low};
    if (r.knob->kind == KnobSpec::Kind::choice) {
      for (double v = std::floor(r.low) + 1; v <= r.high; ++v) values.push_back(v);
    } else if (r.high != r.low) {
      values.push_back(r.high);
    }
    if (ends.size() * values.size() > limit) return {};
    std::vector<Config> next;
    for (const Config& c : ends)
      for (const double v : values) {
        Config with = c;
        r.knob->set(with, v);
        next.push_back(std::move(with));
      }
    ends = std::move(next);
  }
  return ends;
}

}  // namespace

TuneCase tuneCaseFor(const Incident& incident, Config base, BreakerLibrary library,
                     std::span<const Expectation> extra_goals, bool incident_goals) {
  TuneCase c;
  c.incident = &incident;
  c.goals.assign(extra_goals.begin(), extra_goals.end());
  if (incident_goals)
    for (const Expectation& goal : incident.goals)
      if (std::none_of(extra_goals.begin(), extra_goals.end(),
                       [&](const Expectation& e) { return sameGoal(e, goal); }))
        c.goals.push_back(goal);
  c.base = std::move(base);
  c.base.breaker.library = library;
  return c;
}

bool canMinimise(const MetricInfo& metric) {
  return metric.direction != MetricDirection::higher_is_better;
}

const MetricInfo& defaultObjective(const Incident& incident) {
  for (const Expectation& goal : incident.goals)
    if (goal.kind == Expectation::Kind::metric && goal.metric == "cached_while_healthy_s")
      return *findMetric(goal.metric);
  for (const Expectation& goal : incident.goals)
    if (const MetricInfo* m = findMetric(goal.metric);
        goal.kind == Expectation::Kind::metric && m != nullptr && canMinimise(*m))
      return *m;
  return *findMetric("failed_pct");
}

// With the breaker off, the knobs of an overload (retries saturating workers, a long timeout
// saturating a pool): how long a call may take and how many a request makes.
constexpr DefaultKnob kBreakerOffKnobs[] = {
    {BreakerLibrary::breakerlab, "timeout.attempt", 50, 30000, true},
    {BreakerLibrary::breakerlab, "retry.max_attempts", 1, 5, false},
};

std::vector<KnobRange> defaultSearchKnobs(BreakerLibrary library) {
  std::vector<KnobRange> knobs;
  for (const DefaultKnob& k : kDefaultKnobs)
    if (k.library == library)
      if (const KnobSpec* spec = findKnob(k.id); spec != nullptr && spec->editable())
        knobs.push_back({spec, k.low, k.high, k.log});
  return knobs;
}

std::vector<KnobRange> defaultSearchKnobs(BreakerLibrary library, const Config& in_force) {
  if (in_force.breaker.enabled) return defaultSearchKnobs(library);
  std::vector<KnobRange> knobs;
  for (const DefaultKnob& k : kBreakerOffKnobs)
    if (const KnobSpec* spec = findKnob(k.id); spec != nullptr && spec->editable())
      knobs.push_back({spec, k.low, k.high, k.log});
  return knobs;
}

std::vector<IdleKnob> knobsWithoutEffect(std::span<const TuneCase> cases,
                                         std::span<const KnobRange> knobs) {
  constexpr std::size_t kMaxCombinations = 4096;
  std::vector<IdleKnob> idle;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Config& base = cases[i].base;
    for (const KnobRange& r : knobs) {
      if (r.knob->applies == nullptr) continue;
      const std::vector<Config> ends = otherKnobsEnds(base, knobs, r.knob, kMaxCombinations);
      if (ends.empty() || std::any_of(ends.begin(), ends.end(), r.knob->applies)) continue;
      IdleKnob found{i, r.knob, nullptr};
      for (const KnobSpec& toggle : knobSpecs()) {
        const bool searched = std::any_of(knobs.begin(), knobs.end(),
                                          [&](const KnobRange& k) { return k.knob == &toggle; });
        if (searched || toggle.kind != KnobSpec::Kind::toggle || toggle.get(base) != 0 ||
            (toggle.library && *toggle.library != base.breaker.library))
          continue;
        Config with = base;
        toggle.set(with, 1);
        if (r.knob->applies(with)) {
          found.switch_on = &toggle;
          break;
        }
      }
      idle.push_back(found);
    }
  }
  return idle;
}

std::vector<TunedConfig> reportedConfigs(const Evaluator& evaluator,
                                         std::span<const KnobRange> knobs,
                                         const TuneResult& result) {
  std::vector<double> base_values;
  if (!evaluator.cases().empty())
    for (const KnobRange& k : knobs) base_values.push_back(k.knob->get(evaluator.cases()[0].base));
  std::vector<TunedConfig> shown;
  for (const TunedConfig& t : result.front.empty() ? result.closest : result.front)
    shown.push_back(withoutNeedlessChanges(evaluator, knobs, base_values, t));
  return shown;
}

}  // namespace breakerlab
