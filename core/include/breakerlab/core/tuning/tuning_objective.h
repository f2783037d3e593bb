#pragma once
// What a tuner or a sensitivity map asks of a config: replay it on every incident (and every
// seed), check each incident's goals, and measure the metrics to minimise.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/core/outcome/result.h"

namespace breakerlab {

// One incident a config must do well on, with the goals it must meet there.
struct TuneCase {
  const Incident* incident = nullptr;  // validated; outlives the evaluator
  std::vector<Expectation> goals;
  // What the config is laid over: the incident's deployed config with the tuned library chosen.
  // Each case keeps its own (pods, pools, traffic differ); the tuned knobs are set on each.
  Config base;
};

struct Evaluation {
  bool feasible = false;       // every goal met on every case and seed
  bool stopped_early = false;  // a replay gave up: its failed checkouts broke a goal
  bool invalid = false;        // the knob values make a config validate() refuses
  double shortfall = 0;        // summed over goals, cases and seeds; 0 when feasible
  // Each minimised metric, the mean over cases and seeds (+inf where a run leaves it undefined).
  std::vector<double> objectives;
  std::uint32_t replays = 0;  // replays made (fewer when one gave up)
  // Per goal, the cases' goals in order (case 0's first): met on every seed. A sensitivity map
  // draws each goal's boundary from it. All false when the config is invalid or a replay gave
  // up (the goals were not all measured).
  std::vector<bool> goals_met;
};

// Whether `a` ranks before `b`: feasible before infeasible, then the smaller shortfall (both
// infeasible) or the smaller first objective (both feasible), then the other objectives in order.
bool ranksBefore(const Evaluation& a, const Evaluation& b);

class Evaluator {
 public:
  // `seeds` >= 1: the incidents' own seed, then seeds derived from it.
  Evaluator(std::vector<TuneCase> cases, std::vector<const MetricInfo*> minimize,
            unsigned seeds = 1);
  ~Evaluator();
  Evaluator(Evaluator&&) noexcept;
  Evaluator& operator=(Evaluator&&) noexcept;

  // Replay caches for one thread: each evaluating thread holds its own.
  class Scratch {
   public:
    Scratch();
    ~Scratch();
    Scratch(Scratch&&) noexcept;
    Scratch& operator=(Scratch&&) noexcept;

   private:
    friend class Evaluator;
    struct Caches;
    std::unique_ptr<Caches> caches_;
  };
  Scratch scratch() const;

  // The config made by setting `apply` on each case's base. With `may_give_up`, a replay stops
  // at the first failed checkout that breaks a goal (the evaluation is then infeasible, its
  // objectives unmeasured): for a search that already holds a feasible config. `cancelled`,
  // polled during long replays, makes it throw ReplayCancelled.
  template <typename Apply>
  Evaluation evaluate(Apply&& apply, bool may_give_up, Scratch& scratch,
                      const std::atomic<bool>* cancelled = nullptr) const {
    std::vector<Config> configs;
    configs.reserve(cases_.size());
    for (const TuneCase& c : cases_) {
      configs.push_back(c.base);
      apply(configs.back());
    }
    return evaluateConfigs(configs, may_give_up, scratch, cancelled);
  }
  Evaluation evaluateConfigs(std::span<const Config> configs, bool may_give_up, Scratch& scratch,
                             const std::atomic<bool>* cancelled = nullptr) const;

  // Every case's full replay under its config (the incident's own seed), for reporting.
  std::vector<Result> replay(std::span<const Config> configs) const;

  std::span<const TuneCase> cases() const { return cases_; }
  std::span<const MetricInfo* const> minimized() const { return minimize_; }
  unsigned seeds() const { return seeds_; }
  // What its replays follow: the parts the minimised metrics and the goals read (a lane goal
  // reads the whole report).
  ReportParts reportParts() const { return parts_; }

 private:
  std::vector<TuneCase> cases_;
  std::vector<const MetricInfo*> minimize_;
  unsigned seeds_;
  // Per case, the incident with each seed after its own (seeds_ - 1 of them).
  std::vector<std::vector<Incident>> reseeded_;
  std::vector<std::optional<std::uint64_t>> failures_allowed_;  // per case
  ReportParts parts_;
};

// The seed replay `index` of an incident uses when a config is checked over several: 0 is the
// incident's own.
std::uint64_t derivedSeed(std::uint64_t seed, unsigned index);

}  // namespace breakerlab
