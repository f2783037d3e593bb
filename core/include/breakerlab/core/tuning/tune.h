#pragma once
// Searching the knob space for the config that meets every goal with the least of what is
// minimised (docs/tuning.md). The search is a set of independent restarts: each explores its
// share of a low-discrepancy sequence over the space, then refines its best point by pattern
// search (a step along each knob in turn, halved when no step helps). Restarts depend only on
// their number and the seed, so the result is the same on any number of threads or shards.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/core/tuning/tuning_objective.h"

namespace breakerlab {

struct TuneProgress {
  std::size_t evaluated = 0;  // configs evaluated so far (this shard)
  std::size_t budget = 0;     // configs this shard will evaluate at most
  bool have_feasible = false;
  double best_objective = 0;  // the first objective of the best feasible config so far
  // That config's knob values (in the knobs' order), for the workbench to show while the search
  // goes on; empty until a config meets the goals.
  std::vector<double> best_values;
};

struct TuneOptions {
  enum class Method { pattern, random };
  Method method = Method::pattern;  // random: the same restarts, each evaluating random points
  std::size_t budget = 2000;        // configs evaluated over all shards
  std::uint64_t seed = 1;
  unsigned threads = 0;  // 0: every core
  std::size_t shard = 0;
  std::size_t shards = 1;
  // Stop a replay at the failed checkout that breaks a goal, once the restart holds a config
  // that meets every goal (which an infeasible one can no longer beat).
  bool give_up_early = true;
  const std::atomic<bool>* cancel = nullptr;  // stops the search; what was found is returned
  // Called from a searching thread (never two at once) every 200th of the budget and whenever
  // the best config changes.
  std::function<void(const TuneProgress&)> progress;
};

struct TunedConfig {
  std::vector<double> values;  // per knob, in the knobs' order and units
  Evaluation evaluation;
  std::uint32_t restart = 0;  // which restart found it, and at which of its evaluations: the
  std::uint32_t step = 0;     // tie-break that keeps results independent of sharding
};

struct TuneStats {
  std::size_t evaluated = 0;  // configs evaluated (memoised repeats not counted)
  std::size_t replays = 0;
  std::size_t gave_up = 0;  // evaluations cut short by a failed checkout
  std::size_t restarts = 0;
};

struct TuneResult {
  // The configs meeting every goal that no other beats on every objective, by the first
  // objective (one config when one metric is minimised). Empty when none met the goals.
  std::vector<TunedConfig> front;
  // The config closest to meeting the goals, when none met them.
  std::vector<TunedConfig> closest;
  TuneStats stats;
  std::size_t restarts = 0;  // in the whole search (every shard)
  bool cancelled = false;
};

// The restarts of a search with this budget (shared by every shard).
std::size_t restartsFor(std::size_t budget);

TuneResult tune(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                const TuneOptions& options);

// Combines the results of the shards of one search into the result of the whole: the same
// front whatever the sharding.
TuneResult mergeTuneResults(std::span<const TuneResult> parts);

// `tuned` with every knob that does not earn its change put back to its value in `deployed`
// (per knob, in order: kept back when the config then ranks no worse, on each objective, than
// with the change), so that a tuned config changes only what matters. Costs a replay per
// changed knob; the result meets every goal `tuned` meets.
TunedConfig withoutNeedlessChanges(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                                   std::span<const double> deployed, TunedConfig tuned);

// Whether `a` is at least as good as `b` on every objective and better on one.
bool dominates(const Evaluation& a, const Evaluation& b);

}  // namespace breakerlab
