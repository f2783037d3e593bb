#include "breakerlab/core/tuning/tune.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>

#include "breakerlab/core/replay/simulate.h"
#include "tuning/parallel_for.h"

namespace breakerlab {

namespace {

// A restart's share of the budget: enough for its exploration to see the space and its
// pattern search to converge on a few knobs; more restarts for larger budgets, so that more
// of the space's basins are refined.
constexpr std::size_t kBudgetPerRestart = 250;
constexpr std::size_t kMaxRestarts = 64;
constexpr double kExploreShare = 0.3;
constexpr double kFirstStep = 0.25;  // of each knob's range
constexpr double kSmallestStep = 1.0 / 4096;
// Points in a row that were all evaluated before: the space has fewer configs than the budget
// (a toggle has two), and the rest of the budget would never be spent.
constexpr std::size_t kRepeatsWhenExhausted = 4096;

std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// A uniform number in [0, 1) from its coordinates: the same on every machine and thread.
double unitHash(std::uint64_t seed, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  std::uint64_t z = mix(seed + 0x9E3779B97F4A7C15ull);
  z = mix(z ^ (a + 0x632BE59BD9B4E019ull));
  z = mix(z ^ (b + 0x8CB92BA72F3D8DD7ull));
  z = mix(z ^ (c + 0xD6E8FEB86659FD93ull));
  return static_cast<double>(z >> 11) * 0x1.0p-53;
}

// The R2 sequence (Roberts 2018): x_j = frac(shift + j * alpha), alpha_d = phi^-(d+1) where
// phi^(D+1) = phi + 1. Its first n points cover the cube more evenly than n random ones in any
// dimension, and every restart's exploration is a slice of the same sequence.
std::vector<double> r2Alphas(std::size_t dims) {
  double phi = 2;
  for (int i = 0; i < 64; ++i) phi = std::pow(1 + phi, 1.0 / static_cast<double>(dims + 1));
  std::vector<double> alphas(dims);
  for (std::size_t d = 0; d < dims; ++d)
    alphas[d] = std::fmod(std::pow(1 / phi, static_cast<double>(d + 1)), 1.0);
  return alphas;
}

bool discrete(const KnobRange& range) {
  return range.knob != nullptr && range.knob->kind != KnobSpec::Kind::number;
}

struct Shared {
  std::mutex mutex;
  std::size_t evaluated = 0;
  bool have_feasible = false;
  double best = std::numeric_limits<double>::infinity();
  std::vector<double> best_values;
};

struct Stop {};

class Restart {
 public:
  Restart(const Evaluator& evaluator, std::span<const KnobRange> knobs, const TuneOptions& options,
          std::size_t index, std::size_t restarts, std::size_t budget, std::size_t shard_budget,
          Shared& shared)
      : evaluator_(evaluator),
        knobs_(knobs),
        options_(options),
        index_(index),
        restarts_(restarts),
        budget_(budget),
        shard_budget_(shard_budget),
        shared_(shared),
        scratch_(evaluator.scratch()),
        alphas_(r2Alphas(knobs.size())) {
    const std::size_t objectives = evaluator.minimized().size();
    weights_.assign(objectives, objectives > 0 ? 1.0 / static_cast<double>(objectives) : 0);
    if (objectives == 2) {
      // Each restart leans its own way between the two, so that together they cover the front.
      weights_[0] = (static_cast<double>(index) + 0.5) / static_cast<double>(restarts);
      weights_[1] = 1 - weights_[0];
    }
    scales_.assign(objectives, 1.0);
  }

  TuneResult run() {
    TuneResult result;
    try {
      if (options_.method == TuneOptions::Method::random) {
        for (std::size_t k = 0; used_ < budget_ && !exhausted(); ++k) evaluate(randomPoint(k));
      } else {
        search();
      }
    } catch (const Stop&) {
      result.cancelled = true;
    }
    collect(result);
    return result;
  }

 private:
  struct Point {
    std::vector<double> unit;
    std::vector<double> values;
    Evaluation evaluation;
  };

  void search() {
    const auto explore = std::max<std::size_t>(
        1, static_cast<std::size_t>(std::lround(static_cast<double>(budget_) * kExploreShare)));
    std::size_t k = 0;
    std::optional<Point> best;
    for (; k < explore && used_ < budget_ && !exhausted(); ++k) {
      Point p = evaluate(explorationPoint(k));
      if (!best || better(p.evaluation, best->evaluation)) best = std::move(p);
    }
    if (!best) return;
    setScales();
    // Scales changed what "better" means for two objectives: pick the best again.
    for (const TunedConfig& seen : seen_)
      if (better(seen.evaluation, best->evaluation))
        best = Point{unitsOf(seen.values), seen.values, seen.evaluation};
    Point incumbent = refine(std::move(*best));
    // Budget left after converging: explore on, and refine whatever beats the incumbent.
    while (used_ < budget_ && !exhausted()) {
      Point p = evaluate(explorationPoint(k++));
      if (better(p.evaluation, incumbent.evaluation)) incumbent = refine(std::move(p));
    }
  }

  // Pattern search from `start`: a step up and down each knob in turn, keeping the first that
  // helps; halve the step when none does.
  Point refine(Point incumbent) {
    double step = kFirstStep;
    const std::size_t dims = knobs_.size();
    while (step >= kSmallestStep && used_ < budget_) {
      bool improved = false;
      for (std::size_t i = 0; i < dims && used_ < budget_; ++i) {
        const std::size_t d = (i + index_) % dims;
        const double span =
            discrete(knobs_[d]) ? 1.0 / std::max(1.0, knobs_[d].high - knobs_[d].low) : step;
        for (const double sign : {1.0, -1.0}) {
          std::vector<double> unit = incumbent.unit;
          unit[d] = std::clamp(unit[d] + sign * span, 0.0, 1.0);
          if (unit[d] == incumbent.unit[d]) continue;
          const std::vector<double> values = valuesOf(unit);
          if (values == incumbent.values) continue;
          Point p = evaluate(std::move(unit), values);
          if (better(p.evaluation, incumbent.evaluation)) {
            incumbent = std::move(p);
            improved = true;
            break;
          }
          if (used_ >= budget_) break;
        }
      }
      if (!improved) step /= 2;
    }
    return incumbent;
  }

  std::vector<double> explorationPoint(std::size_t k) const {
    const double j = static_cast<double>(index_ + restarts_ * k + 1);
    std::vector<double> unit(knobs_.size());
    for (std::size_t d = 0; d < unit.size(); ++d) {
      const double shift = unitHash(options_.seed, 0, d, 0);
      unit[d] = std::fmod(shift + j * alphas_[d], 1.0);
    }
    return unit;
  }

  std::vector<double> randomPoint(std::size_t k) const {
    std::vector<double> unit(knobs_.size());
    for (std::size_t d = 0; d < unit.size(); ++d)
      unit[d] = unitHash(options_.seed, 1 + index_, k, d);
    return unit;
  }

  std::vector<double> valuesOf(const std::vector<double>& unit) const {
    std::vector<double> values(unit.size());
    for (std::size_t d = 0; d < unit.size(); ++d) values[d] = valueAt(knobs_[d], unit[d]);
    return values;
  }
  std::vector<double> unitsOf(const std::vector<double>& values) const {
    std::vector<double> unit(values.size());
    for (std::size_t d = 0; d < values.size(); ++d) unit[d] = unitOf(knobs_[d], values[d]);
    return unit;
  }

  Point evaluate(std::vector<double> unit) {
    std::vector<double> values = valuesOf(unit);
    return evaluate(std::move(unit), std::move(values));
  }

  // A repeat (two points on the same knob steps) costs nothing and is not counted.
  Point evaluate(std::vector<double> unit, std::vector<double> values) {
    if (auto it = memo_.find(values); it != memo_.end()) {
      ++repeats_;
      return Point{std::move(unit), std::move(values), it->second};
    }
    repeats_ = 0;
    if (options_.cancel != nullptr && options_.cancel->load()) throw Stop{};
    Evaluation e;
    try {
      e = evaluator_.evaluate(
          [&](Config& c) {
            for (std::size_t d = 0; d < knobs_.size(); ++d) knobs_[d].knob->set(c, values[d]);
          },
          options_.give_up_early && have_feasible_, scratch_, options_.cancel);
    } catch (const ReplayCancelled&) {
      throw Stop{};
    }
    ++used_;
    stats_.evaluated += 1;
    stats_.replays += e.replays;
    stats_.gave_up += e.stopped_early ? 1 : 0;
    if (e.feasible) have_feasible_ = true;
    memo_.emplace(values, e);
    seen_.push_back(TunedConfig{values, e, static_cast<std::uint32_t>(index_),
                                static_cast<std::uint32_t>(seen_.size())});
    report(e, values);
    return Point{std::move(unit), std::move(values), std::move(e)};
  }

  void report(const Evaluation& e, const std::vector<double>& values) {
    const std::lock_guard lock(shared_.mutex);
    ++shared_.evaluated;
    const bool better = e.feasible && !e.objectives.empty() && e.objectives[0] < shared_.best;
    if (better) {
      shared_.best = e.objectives[0];
      shared_.best_values = values;
      shared_.have_feasible = true;
    }
    // Every 200th of the budget, and at once when the best config changes (the workbench shows
    // it as B while the search goes on; a large budget's steps take seconds).
    const std::size_t every = std::max<std::size_t>(1, shard_budget_ / 200);
    if (options_.progress &&
        (better || shared_.evaluated % every == 0 || shared_.evaluated == shard_budget_))
      options_.progress(TuneProgress{shared_.evaluated, shard_budget_, shared_.have_feasible,
                                     shared_.best, shared_.best_values});
  }

  // Two objectives in one sum need a common scale: each one's typical size among the explored
  // configs (meeting the goals, if any did).
  void setScales() {
    for (std::size_t m = 0; m < scales_.size(); ++m) {
      std::vector<double> sizes;
      for (const bool feasible_only : {true, false}) {
        for (const TunedConfig& t : seen_)
          if ((!feasible_only || t.evaluation.feasible) &&
              std::isfinite(t.evaluation.objectives[m]))
            sizes.push_back(std::abs(t.evaluation.objectives[m]));
        if (!sizes.empty()) break;
      }
      if (sizes.empty()) continue;
      std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2),
                       sizes.end());
      const double median = sizes[sizes.size() / 2];
      scales_[m] = median > 1e-9 ? median : 1.0;
    }
  }

  double score(const Evaluation& e) const {
    if (e.objectives.size() == 1) return e.objectives[0];
    double s = 0;
    for (std::size_t m = 0; m < e.objectives.size(); ++m)
      s += weights_[m] * e.objectives[m] / scales_[m];
    return s;
  }

  bool better(const Evaluation& a, const Evaluation& b) const {
    if (a.feasible != b.feasible) return a.feasible;
    if (!a.feasible) return a.shortfall < b.shortfall;
    return score(a) < score(b);
  }

  void collect(TuneResult& result) const {
    result.stats = stats_;
    std::vector<TunedConfig> feasible;
    for (const TunedConfig& t : seen_)
      if (t.evaluation.feasible) feasible.push_back(t);
    TuneResult own;
    own.front = std::move(feasible);
    for (const TunedConfig& t : seen_)
      if (!t.evaluation.feasible &&
          (result.closest.empty() ||
           t.evaluation.shortfall < result.closest[0].evaluation.shortfall))
        result.closest = {t};
    // The restart's own front: what no other of its configs beats.
    const TuneResult parts[] = {std::move(own)};
    result.front = mergeTuneResults(parts).front;
  }

  const Evaluator& evaluator_;
  std::span<const KnobRange> knobs_;
  const TuneOptions& options_;
  std::size_t index_;
  std::size_t restarts_;
  std::size_t budget_;
  std::size_t shard_budget_;
  Shared& shared_;
  Evaluator::Scratch scratch_;
  std::vector<double> alphas_;
  std::vector<double> weights_;
  std::vector<double> scales_;
  std::map<std::vector<double>, Evaluation> memo_;
  std::vector<TunedConfig> seen_;
  std::size_t used_ = 0;
  std::size_t repeats_ = 0;  // memo hits in a row
  bool exhausted() const { return repeats_ >= kRepeatsWhenExhausted; }
  bool have_feasible_ = false;
  TuneStats stats_;
};

// Ties go to the earlier restart and step, so that merging in any order picks the same one.
bool foundBefore(const TunedConfig& a, const TunedConfig& b) {
  if (a.restart != b.restart) return a.restart < b.restart;
  return a.step < b.step;
}

}  // namespace

std::size_t restartsFor(std::size_t budget) {
  return std::clamp<std::size_t>(budget / kBudgetPerRestart, 1, kMaxRestarts);
}

bool dominates(const Evaluation& a, const Evaluation& b) {
  bool strictly = false;
  for (std::size_t m = 0; m < a.objectives.size() && m < b.objectives.size(); ++m) {
    if (a.objectives[m] > b.objectives[m]) return false;
    if (a.objectives[m] < b.objectives[m]) strictly = true;
  }
  return strictly;
}

TuneResult mergeTuneResults(std::span<const TuneResult> parts) {
  TuneResult merged;
  std::vector<TunedConfig> candidates;
  for (const TuneResult& part : parts) {
    merged.stats.evaluated += part.stats.evaluated;
    merged.stats.replays += part.stats.replays;
    merged.stats.gave_up += part.stats.gave_up;
    merged.stats.restarts += part.stats.restarts;
    merged.restarts = std::max(merged.restarts, part.restarts);
    merged.cancelled = merged.cancelled || part.cancelled;
    candidates.insert(candidates.end(), part.front.begin(), part.front.end());
  }
  for (const TunedConfig& c : candidates) {
    bool kept = true;
    for (const TunedConfig& other : candidates) {
      if (&other == &c) continue;
      if (dominates(other.evaluation, c.evaluation) ||
          (other.evaluation.objectives == c.evaluation.objectives && foundBefore(other, c))) {
        kept = false;
        break;
      }
    }
    if (kept) merged.front.push_back(c);
  }
  std::sort(merged.front.begin(), merged.front.end(), [](const auto& a, const auto& b) {
    if (a.evaluation.objectives != b.evaluation.objectives)
      return a.evaluation.objectives < b.evaluation.objectives;
    return foundBefore(a, b);
  });
  if (merged.front.empty()) {
    for (const TuneResult& part : parts)
      for (const TunedConfig& c : part.closest) {
        if (merged.closest.empty()) {
          merged.closest = {c};
          continue;
        }
        const TunedConfig& held = merged.closest[0];
        const bool before = c.evaluation.shortfall != held.evaluation.shortfall
                                ? c.evaluation.shortfall < held.evaluation.shortfall
                                : (c.evaluation.objectives != held.evaluation.objectives
                                       ? c.evaluation.objectives < held.evaluation.objectives
                                       : foundBefore(c, held));
        if (before) merged.closest = {c};
      }
  }
  return merged;
}

TunedConfig withoutNeedlessChanges(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                                   std::span<const double> deployed, TunedConfig tuned) {
  Evaluator::Scratch scratch = evaluator.scratch();
  for (std::size_t d = 0; d < knobs.size() && d < deployed.size(); ++d) {
    if (tuned.values[d] == deployed[d]) continue;
    std::vector<double> values = tuned.values;
    values[d] = deployed[d];
    const Evaluation e = evaluator.evaluate(
        [&](Config& c) {
          for (std::size_t k = 0; k < knobs.size(); ++k) knobs[k].knob->set(c, values[k]);
        },
        false, scratch);
    const bool no_worse =
        (e.feasible || !tuned.evaluation.feasible) &&
        (e.feasible || e.shortfall <= tuned.evaluation.shortfall) &&
        !dominates(tuned.evaluation, e) &&
        std::equal(e.objectives.begin(), e.objectives.end(), tuned.evaluation.objectives.begin(),
                   [](double a, double b) { return a <= b; });
    if (no_worse) {
      tuned.values = std::move(values);
      tuned.evaluation = e;
    }
  }
  return tuned;
}

TuneResult tune(const Evaluator& evaluator, std::span<const KnobRange> knobs,
                const TuneOptions& options) {
  const std::size_t shards = std::max<std::size_t>(1, options.shards);
  const std::size_t restarts = restartsFor(options.budget);
  std::vector<std::size_t> mine;
  std::size_t shard_budget = 0;
  auto budgetOf = [&](std::size_t r) {
    return options.budget / restarts + (r < options.budget % restarts ? 1 : 0);
  };
  for (std::size_t r = options.shard; r < restarts; r += shards) {
    mine.push_back(r);
    shard_budget += budgetOf(r);
  }
  Shared shared;
  std::vector<TuneResult> parts(mine.size());
  if (!knobs.empty())
    parallelFor(mine.size(), options.threads, [&](std::size_t i, unsigned) {
      Restart restart(evaluator, knobs, options, mine[i], restarts, budgetOf(mine[i]), shard_budget,
                      shared);
      parts[i] = restart.run();
      parts[i].stats.restarts = 1;
    });
  TuneResult result = mergeTuneResults(parts);
  result.restarts = restarts;
  return result;
}

}  // namespace breakerlab
