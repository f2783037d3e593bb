#include "breakerlab/core/tuning/tuning_objective.h"

#include <cmath>
#include <limits>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"

namespace breakerlab {

bool ranksBefore(const Evaluation& a, const Evaluation& b) {
  if (a.feasible != b.feasible) return a.feasible;
  if (!a.feasible && a.shortfall != b.shortfall) return a.shortfall < b.shortfall;
  const std::size_t n = std::min(a.objectives.size(), b.objectives.size());
  for (std::size_t i = 0; i < n; ++i)
    if (a.objectives[i] != b.objectives[i]) return a.objectives[i] < b.objectives[i];
  return false;
}

std::uint64_t derivedSeed(std::uint64_t seed, unsigned index) {
  if (index == 0) return seed;
  // splitmix64 of (seed, index): independent streams, the same on every machine.
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * index;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Evaluator::Scratch::Caches {
  std::vector<std::vector<ReplayCache>> per_case;  // [case][seed]
};

Evaluator::Scratch::Scratch() : caches_(std::make_unique<Caches>()) {}
Evaluator::Scratch::~Scratch() = default;
Evaluator::Scratch::Scratch(Scratch&&) noexcept = default;
Evaluator::Scratch& Evaluator::Scratch::operator=(Scratch&&) noexcept = default;

Evaluator::Evaluator(std::vector<TuneCase> cases, std::vector<const MetricInfo*> minimize,
                     unsigned seeds)
    : cases_(std::move(cases)), minimize_(std::move(minimize)), seeds_(std::max(1u, seeds)) {
  for (const TuneCase& c : cases_) {
    std::vector<Incident> copies;
    for (unsigned s = 1; s < seeds_; ++s) {
      copies.push_back(*c.incident);
      copies.back().seed = derivedSeed(c.incident->seed, s);
    }
    reseeded_.push_back(std::move(copies));
    failures_allowed_.push_back(failedCheckoutsAllowed(c.goals));
  }
  parts_ = reportPartsFor(minimize_);
  for (const TuneCase& c : cases_)
    for (const Expectation& goal : c.goals) {
      const MetricInfo* metric =
          goal.kind == Expectation::Kind::metric ? findMetric(goal.metric) : nullptr;
      parts_ |= metric != nullptr ? metric->needs : ReportParts::whole();
    }
}
Evaluator::~Evaluator() = default;
Evaluator::Evaluator(Evaluator&&) noexcept = default;
Evaluator& Evaluator::operator=(Evaluator&&) noexcept = default;

Evaluator::Scratch Evaluator::scratch() const {
  Scratch s;
  s.caches_->per_case.resize(cases_.size());
  for (auto& seeds : s.caches_->per_case) seeds.resize(seeds_);
  return s;
}

Evaluation Evaluator::evaluateConfigs(std::span<const Config> configs, bool may_give_up,
                                      Scratch& scratch, const std::atomic<bool>* cancelled) const {
  Evaluation e;
  e.feasible = true;
  e.objectives.assign(minimize_.size(), 0.0);
  std::size_t goal_count = 0;
  for (const TuneCase& c : cases_) goal_count += c.goals.size();
  e.goals_met.assign(goal_count, false);
  for (std::size_t i = 0; i < cases_.size(); ++i)
    if (!validate(configs[i]).empty()) {
      e.feasible = false;
      e.invalid = true;
      e.shortfall = std::numeric_limits<double>::infinity();
      e.objectives.assign(minimize_.size(), std::numeric_limits<double>::infinity());
      return e;
    }
  const double runs = static_cast<double>(cases_.size() * seeds_);
  e.goals_met.assign(goal_count, true);
  std::size_t first_goal = 0;  // of case i, in goals_met
  for (std::size_t i = 0; i < cases_.size(); ++i) {
    const TuneCase& c = cases_[i];
    for (unsigned s = 0; s < seeds_; ++s) {
      const Incident& incident = s == 0 ? *c.incident : reseeded_[i][s - 1];
      SimulateOptions options;
      options.cache = &scratch.caches_->per_case[i][s];
      options.report = parts_;
      if (cancelled != nullptr) {
        options.progress = [cancelled](const ReplayProgress&) { return !cancelled->load(); };
        options.progress_every_events = 16384;
      }
      if (may_give_up && failures_allowed_[i])
        options.give_up_after_failed_checkouts = *failures_allowed_[i];
      ++e.replays;
      Result result;
      try {
        result = simulate(incident, configs[i], options);
      } catch (const ReplayGaveUp&) {
        e.feasible = false;
        e.stopped_early = true;
        e.goals_met.assign(goal_count, false);
        e.shortfall = std::numeric_limits<double>::infinity();
        e.objectives.assign(minimize_.size(), std::numeric_limits<double>::infinity());
        return e;
      }
      for (std::size_t g = 0; g < c.goals.size(); ++g) {
        const double miss = shortfall(c.goals[g], incident, result);
        if (miss > 0) {
          e.feasible = false;
          e.goals_met[first_goal + g] = false;
        }
        e.shortfall += miss;
      }
      for (std::size_t m = 0; m < minimize_.size(); ++m) {
        const std::optional<double> v = minimize_[m]->get(result.metrics);
        e.objectives[m] += v ? *v / runs : std::numeric_limits<double>::infinity();
      }
      options.cache->recycle(std::move(result.checkouts));
    }
    first_goal += c.goals.size();
  }
  return e;
}

std::vector<Result> Evaluator::replay(std::span<const Config> configs) const {
  std::vector<Result> results;
  for (std::size_t i = 0; i < cases_.size(); ++i)
    results.push_back(simulate(*cases_[i].incident, configs[i]));
  return results;
}

}  // namespace breakerlab
