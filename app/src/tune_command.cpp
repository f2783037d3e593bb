// `breakerlab-cli tune` and `merge`: search the knob space for the config that meets every goal
// with the least of what is minimised, on one machine or as shards.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/core/tuning/tune.h"
#include "breakerlab/core/tuning/tune_setup.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/report_json.h"
#include "breakerlab/data/tune_partial.h"
#include "breakerlab/data/tuning_text.h"
#include "breakerlab/data/values.h"
#include "commands.h"
#include "interrupt_flag.h"
#include "search_record.h"
#include "status_line.h"
#include "sweep_command.h"
#include "text_report.h"
#include "tuning_commands.h"

namespace breakerlab::cli {

namespace {

using json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

constexpr std::size_t kMaxBudget = 100'000'000;

std::vector<const MetricInfo*> minimisedMetrics(const std::vector<std::string>& names) {
  if (names.empty())
    throw UsageError("--minimize METRIC: name what to minimise (`replay --list-metrics`)");
  if (names.size() > 2)
    throw UsageError("--minimize: at most two metrics (their Pareto front); got " +
                     std::to_string(names.size()));
  std::vector<const MetricInfo*> metrics;
  for (const std::string& name : names) {
    const MetricInfo* info = findMetric(name);
    if (info == nullptr)
      throw UsageError("--minimize: unknown metric \"" + clipText(name) +
                       "\" (`breakerlab-cli replay --list-metrics` lists them)");
    if (!canMinimise(*info))
      throw UsageError("--minimize " + name + ": higher is better for this metric; minimise one " +
                       "where lower is better, or bound it with --goal \"" + name + " >= ...\"");
    metrics.push_back(info);
  }
  return metrics;
}

TuneOptions::Method methodNamed(const std::string& name) {
  if (name == "pattern") return TuneOptions::Method::pattern;
  if (name == "random") return TuneOptions::Method::random;
  throw UsageError("--method: expected pattern or random, got \"" + clipText(name) + "\"");
}

// The search's arguments with the incidents' content: the parts of one search carry the same,
// and merge opens the search again from them.
json searchJson(const TuneArguments& a, const SearchSetup& setup) {
  json search = searchRecord(a.search, setup);
  search["minimize"] = a.minimize;
  search["budget"] = a.budget;
  search["seed"] = a.seed;
  search["method"] = a.method;
  search["give_up"] = !a.no_give_up;
  search["against"] = a.against;
  return search;
}

// "\rtune: 4,200 of 10,000 configs; best cached_while_healthy_s 2.05 (Ctrl+C stops)".
class TuneProgressLine {
 public:
  explicit TuneProgressLine(std::string metric) : metric_(std::move(metric)) {}
  void clear() { line_.clear(); }

  void update(const TuneProgress& p) {
    if (!line_.due(p.evaluated >= p.budget)) return;
    std::string best =
        p.have_feasible
            ? "best " + metric_ + " " + formatNumber(std::round(p.best_objective * 1000) / 1000)
            : "no config meets the goals yet";
    line_.show("tune: " + std::to_string(p.evaluated) + " of " + std::to_string(p.budget) +
               " configs; " + best + " (Ctrl+C stops)");
  }

 private:
  StatusLine line_;
  std::string metric_;
};

std::string knobsChanged(const std::vector<KnobRange>& knobs, const std::vector<double>& values,
                         const Config& deployed) {
  std::size_t n = 0;
  for (std::size_t d = 0; d < knobs.size(); ++d)
    n += knobs[d].knob->get(deployed) != values[d] ? 1 : 0;
  return std::to_string(n);
}

// How many of the panel's knobs a what-if changes from the deployed config.
std::size_t knobsChangedBy(const Config& what_if, const Config& deployed) {
  std::size_t n = 0;
  for (const KnobSpec& k : knobSpecs())
    if (k.editable() && knobShown(k, what_if) && k.get(what_if) != k.get(deployed)) ++n;
  return n;
}

// A table cell: "—" for a metric the run leaves undefined, not the report's sentence.
std::string cellText(const MetricInfo& info, const std::optional<double>& value) {
  return value ? metricText(info, value) : "—";
}

std::string pad(std::string s, std::size_t width) {
  std::size_t chars = 0;
  for (const char c : s) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  if (chars < width) s.append(width - chars, ' ');
  return s;
}

std::vector<const MetricInfo*> tableMetrics(const SearchSetup& setup,
                                            const std::vector<const MetricInfo*>& minimised) {
  std::vector<const MetricInfo*> metrics = minimised;
  auto add = [&](const MetricInfo* m) {
    if (m != nullptr && std::find(metrics.begin(), metrics.end(), m) == metrics.end())
      metrics.push_back(m);
  };
  for (const TuneCase& c : setup.cases)
    for (const Expectation& g : c.goals)
      if (g.kind == Expectation::Kind::metric) add(findMetric(g.metric));
  // Then the metrics a tuned config's table always shows.
  for (const MetricInfo* m : metricsIn(MetricList::tune_summary)) add(m);
  return metrics;
}

struct Reported {
  std::vector<Config> configs;  // per case
  std::vector<Result> results;  // per case, full replays
};

Reported replayTuned(const SearchSetup& setup, const Evaluator& evaluator, const TunedConfig& t) {
  Reported r;
  for (const TuneCase& c : setup.cases)
    r.configs.push_back(configWith(c.base, setup.knobs, t.values));
  r.results = evaluator.replay(r.configs);
  return r;
}

struct ReportInputs {
  const TuneArguments& arguments;
  const SearchSetup& setup;
  const Evaluator& evaluator;
  const TuneResult& result;
  double seconds = 0;  // < 0: not measured (a merge)
};

std::vector<std::string> outputFiles(const std::string& output, std::size_t count) {
  if (output.empty() || count == 0) return {};
  if (count == 1) return {output};
  // Numbered names beside a device, a FIFO or - would be new files next to them (/dev/null-1).
  if (resolveOutputTarget(output).kind != OutputKind::replaceFile)
    throw UsageError("-o " + output + ": a front of " + std::to_string(count) +
                     " configs is written to one file each (FILE-1, FILE-2, ...); give a file "
                     "name, not a device, a FIFO or -");
  const std::filesystem::path p(output);
  std::vector<std::string> files;
  for (std::size_t i = 1; i <= count; ++i)
    files.push_back(
        (p.parent_path() / (p.stem().string() + "-" + std::to_string(i) + p.extension().string()))
            .string());
  return files;
}

int report(const ReportInputs& in, std::ostream& out) {
  const TuneArguments& a = in.arguments;
  const SearchSetup& setup = in.setup;
  const TuneResult& result = in.result;
  const bool feasible = !result.front.empty();
  // What the search found, without the changes that buy nothing (a poll time with early probe
  // off): the same result from a merge as from one machine.
  const std::vector<TunedConfig> shown = reportedConfigs(in.evaluator, setup.knobs, result);
  const ExportTarget target = exportTargetOf(setup.library);
  const std::vector<std::string> files = outputFiles(a.output, shown.size());
  const std::vector<const MetricInfo*> minimised(in.evaluator.minimized().begin(),
                                                 in.evaluator.minimized().end());
  const std::vector<const MetricInfo*> metrics = tableMetrics(setup, minimised);

  std::vector<Reported> replays;
  for (const TunedConfig& t : shown) replays.push_back(replayTuned(setup, in.evaluator, t));
  std::vector<Result> deployed;
  for (const Incident& incident : setup.incidents)
    deployed.push_back(simulate(incident, incident.deployed));
  // A what-if to set beside the tuned config (--against), on the first incident that has it.
  const WhatIf* against = nullptr;
  std::size_t against_case = 0;
  std::optional<Result> against_result;
  if (!a.against.empty()) {
    for (std::size_t i = 0; i < setup.incidents.size() && against == nullptr; ++i)
      if ((against = setup.incidents[i].whatIf(a.against)) != nullptr) against_case = i;
    if (against == nullptr)
      throw UsageError("--against: no incident has a what-if '" + clipText(a.against) + "'; " +
                       setup.files.front().filename().string() +
                       " has: " + whatIfNames(setup.incidents.front()));
    SimulateOptions options;
    options.changes = against->changes ? &*against->changes : nullptr;
    against_result = simulate(setup.incidents[against_case], against->config, options);
  }

  std::vector<std::string> exported;
  for (std::size_t i = 0; i < shown.size(); ++i)
    exported.push_back(exportConfig(replays[i].configs.front(), target).text);
  for (std::size_t i = 0; i < files.size(); ++i) writeOutputFile(files[i], exported[i]);

  if (a.json) {
    json front = json::array();
    for (std::size_t i = 0; i < shown.size(); ++i) {
      json knobs = json::object(), objectives = json::object(), per_incident = json::array();
      for (std::size_t d = 0; d < setup.knobs.size(); ++d)
        knobs[std::string(setup.knobs[d].knob->id)] =
            knobValueText(*setup.knobs[d].knob, shown[i].values[d]);
      for (std::size_t m = 0; m < minimised.size(); ++m) {
        const double v = shown[i].evaluation.objectives[m];
        objectives[std::string(minimised[m]->name)] = std::isfinite(v) ? json(v) : json(nullptr);
      }
      for (std::size_t c = 0; c < setup.incidents.size(); ++c)
        per_incident.push_back(json{{"incident", setup.incidents[c].id},
                                    {"metrics", metricsToJson(replays[i].results[c].metrics)},
                                    {"deployed_metrics", metricsToJson(deployed[c].metrics)}});
      json entry{{"knobs", knobs},
                 {"objectives", objectives},
                 {"meets_goals", shown[i].evaluation.feasible},
                 {"incidents", per_incident},
                 {"config", exported[i]}};
      if (i < files.size()) entry["file"] = files[i];
      front.push_back(entry);
    }
    json root{{"format", "breakerlab-tune/1"},
              {"library", std::string(libraryInfo(setup.library).key)},
              {"configs_evaluated", result.stats.evaluated},
              {"replays", result.stats.replays},
              {"gave_up_early", result.stats.gave_up},
              {"restarts", result.restarts},
              {"cancelled", result.cancelled},
              {"meets_goals", feasible},
              {"front", front}};
    if (against != nullptr)
      root["against"] =
          json{{"what_if", against->name},
               {"incident", setup.incidents[against_case].id},
               {"knobs_changed",
                knobsChangedBy(against->config, setup.incidents[against_case].deployed)},
               {"metrics", metricsToJson(against_result->metrics)}};
    out << root.dump(2) << '\n';
    return feasible ? kExitOk : kExitExpectationFailed;
  }

  // The text report.
  std::string incidents;
  for (const Incident& i : setup.incidents) incidents += (incidents.empty() ? "" : ", ") + i.id;
  out << "Tuned " << setup.knobs.size() << (setup.knobs.size() == 1 ? " knob" : " knobs") << " on "
      << incidents << " with " << libraryInfo(setup.library).title
      << "'s breaker: " << result.stats.evaluated << " configs (" << result.stats.replays
      << " replays), " << (a.method == "random" ? "random search" : "pattern search") << ", "
      << result.restarts << (result.restarts == 1 ? " restart" : " restarts");
  if (in.seconds >= 0)
    out << ", " << std::fixed << std::setprecision(2) << in.seconds << " s" << std::defaultfloat;
  out << (result.cancelled ? " (stopped with Ctrl+C: the best so far)" : "") << '\n';
  if (result.stats.gave_up > 0)
    out << "  " << result.stats.gave_up
        << " replays stopped at the failed checkout that broke a goal\n";
  out << "Goals, on every replay"
      << (a.search.seeds > 1 ? " (" + std::to_string(a.search.seeds) + " seeds each)" : "")
      << ":\n";
  for (const TuneCase& c : setup.cases) {
    std::string goals;
    for (const Expectation& g : c.goals) goals += (goals.empty() ? "" : "; ") + g.text;
    out << "  " << c.incident->id << ": " << (goals.empty() ? "(none)" : goals) << '\n';
  }
  out << "Minimising: ";
  for (std::size_t m = 0; m < minimised.size(); ++m) out << (m ? ", " : "") << minimised[m]->name;
  out << (setup.cases.size() * a.search.seeds > 1 ? " (the mean over incidents and seeds)" : "")
      << "\n\n";

  if (!feasible)
    out << "No config met every goal. The closest:\n";
  else if (shown.size() > 1)
    out << "The Pareto front: " << shown.size()
        << " configs meet every goal, none better than another on both\n";
  else
    out << "The best config meets every goal:\n";

  for (std::size_t i = 0; i < shown.size(); ++i) {
    const TunedConfig& t = shown[i];
    if (shown.size() > 1) out << "\n" << (i + 1) << ".";
    std::string objectives;
    for (std::size_t m = 0; m < minimised.size(); ++m)
      objectives += (m ? ", " : " ") + std::string(minimised[m]->name) + " " +
                    metricText(*minimised[m], std::isfinite(t.evaluation.objectives[m])
                                                  ? std::optional(t.evaluation.objectives[m])
                                                  : std::nullopt);
    out << objectives << "; "
        << knobsChanged(setup.knobs, t.values, setup.incidents.front().deployed) << " of "
        << setup.knobs.size() << " knobs changed\n";
    std::size_t id_width = 6;
    for (const KnobRange& k : setup.knobs) id_width = std::max(id_width, k.knob->id.size() + 2);
    out << "  " << pad("knob", id_width) << pad("deployed", 14) << "tuned\n";
    for (std::size_t d = 0; d < setup.knobs.size(); ++d) {
      const KnobSpec& k = *setup.knobs[d].knob;
      const Config& base = setup.cases.front().base;
      out << "  " << pad(std::string(k.id), id_width) << pad(knobValueText(k, k.get(base)), 14)
          << knobValueText(k, t.values[d]) << '\n';
    }
    for (std::size_t c = 0; c < setup.incidents.size(); ++c) {
      const bool beside = against != nullptr && c == against_case;
      out << "  " << setup.incidents[c].id << '\n';
      out << "    " << pad("metric", 34) << pad("deployed", 14);
      if (beside) out << pad("what-if " + against->name, 22);
      out << "tuned\n";
      for (const MetricInfo* m : metrics) {
        const auto tuned_value = m->get(replays[i].results[c].metrics);
        const auto deployed_value = m->get(deployed[c].metrics);
        if (!tuned_value && !deployed_value) continue;
        out << "    " << pad(std::string(m->name), 34) << pad(cellText(*m, deployed_value), 14);
        if (beside) out << pad(cellText(*m, m->get(against_result->metrics)), 22);
        out << cellText(*m, tuned_value) << '\n';
      }
      if (beside)
        out << "    " << pad("knobs changed", 34) << pad("", 14)
            << pad(std::to_string(knobsChangedBy(against->config, setup.incidents[c].deployed)), 22)
            << knobsChanged(setup.knobs, t.values, setup.incidents[c].deployed) << '\n';
    }
  }
  out << '\n';
  if (!files.empty()) {
    for (const std::string& f : files)
      out << "Wrote " << displayName(target) << " config to " << f << '\n';
  } else {
    out << "The " << (feasible ? "best" : "closest") << " config (" << displayName(target) << "):\n"
        << exported.front();
  }
  if (result.cancelled) return kExitInterrupted;
  return feasible ? kExitOk : kExitExpectationFailed;
}

}  // namespace

namespace {
// What `tune` checks of its own arguments before it opens the search (`merge` too, of the
// arguments a part recorded).
void checkTuneArguments(const TuneArguments& arguments) {
  if (arguments.budget < 1 || arguments.budget > kMaxBudget)
    throw UsageError("--budget: expected 1 to " + std::to_string(kMaxBudget) + " configs, got " +
                     std::to_string(arguments.budget));
  methodNamed(arguments.method);
  parseSeed(arguments.seed);
}
}  // namespace

int runTune(const TuneArguments& arguments, std::ostream& out) {
  checkTuneArguments(arguments);
  if (arguments.minimize.size() > 1 && !arguments.output.empty() &&
      resolveOutputTarget(arguments.output).kind != OutputKind::replaceFile)
    throw UsageError("-o " + arguments.output +
                     ": two metrics' front is written to one file per "
                     "config (FILE-1, FILE-2, ...); give a file name, not a device, a FIFO or -");
  const TuneOptions::Method method = methodNamed(arguments.method);
  SearchSetup setup;
  openSearch(arguments.search, setup);
  for (const std::string& warning : knobsWithoutEffect(setup, false))
    std::cerr << "breakerlab-cli: warning: " << warning << "\n";
  const std::vector<const MetricInfo*> minimised = minimisedMetrics(arguments.minimize);
  const Evaluator evaluator(setup.cases, minimised, arguments.search.seeds);

  TuneOptions options;
  options.method = method;
  options.budget = arguments.budget;
  options.seed = parseSeed(arguments.seed);
  options.threads = arguments.search.threads;
  options.give_up_early = !arguments.no_give_up;
  if (!arguments.search.shard.empty()) {
    const Shard shard = parseShard(arguments.search.shard, "--shard");
    options.shard = shard.index;
    options.shards = shard.count;
    if (arguments.partial.empty())
      throw UsageError("--shard: write the shard's result with --partial FILE, for `merge`");
  } else if (!arguments.partial.empty()) {
    throw UsageError("--partial: only with --shard I/N");
  }
  InterruptFlag interrupt;
  options.cancel = interrupt.flag();
  TuneProgressLine line(std::string(minimised.front()->name));
  options.progress = [&line](const TuneProgress& p) { line.update(p); };
  const auto started = Clock::now();
  TuneResult result = tune(evaluator, setup.knobs, options);
  line.clear();
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();

  if (!arguments.partial.empty()) {
    if (result.cancelled) {
      std::cerr << "breakerlab-cli: tune shard " << options.shard << "/" << options.shards
                << " stopped after " << result.stats.evaluated
                << " configs; no part written (run the shard again)\n";
      return kExitInterrupted;
    }
    TunePartial partial{searchJson(arguments, setup).dump(), options.shard, options.shards, result};
    writeOutputFile(arguments.partial, tunePartialToJson(partial));
    std::cerr << "tune: shard " << options.shard << "/" << options.shards << ": "
              << result.stats.evaluated << " configs in " << std::fixed << std::setprecision(2)
              << seconds << " s; wrote " << arguments.partial << '\n';
    return kExitOk;
  }
  return report(ReportInputs{arguments, setup, evaluator, result, seconds}, out);
}

namespace {

TuneArguments argumentsOf(const json& search, const std::string& file) {
  TuneArguments a;
  try {
    a.search = searchArgumentsOf(search, file);
    a.minimize = search.at("minimize").get<std::vector<std::string>>();
    a.budget = wholeNumberAt(search, "budget", file);
    a.seed = search.at("seed").get<std::string>();
    a.method = search.at("method").get<std::string>();
    a.no_give_up = !search.at("give_up").get<bool>();
    a.against = search.at("against").get<std::string>();
  } catch (const json::exception&) {
    throw LoadError(file, 0, 0,
                    "the search's arguments are incomplete: expected what `tune --shard` writes");
  }
  return a;
}

}  // namespace

int runMerge(const MergeArguments& arguments, std::ostream& out) {
  if (arguments.parts.empty()) throw UsageError("merge: give the partial files of every shard");
  std::vector<TunePartial> parts;
  for (const std::string& file : arguments.parts) {
    const std::string text = readTextFile(file);
    if (partialFormatOf(text, file) != kTunePartialFormat) {
      if (parts.empty()) return runSweepMerge(arguments, out);
      throw UsageError(file + ": a sensitivity map's part, and " + arguments.parts[0] +
                       " a search's; merge each with the other parts of its own");
    }
    parts.push_back(parseTunePartial(text, file));
  }
  if (!arguments.png.empty())
    throw UsageError(
        "merge --png: a PNG is drawn of a map's parts (sweep --shard), not a search's");
  checkEveryShardOnce(parts, arguments.parts);
  const TunePartial& first = parts.front();
  const json search = json::parse(first.search);
  TuneArguments a = argumentsOf(search, arguments.parts[0]);
  a.output = arguments.output;
  a.json = arguments.json;
  SearchSetup setup;
  const std::vector<const MetricInfo*> minimised = checkedInPart(arguments.parts[0], [&] {
    checkTuneArguments(a);
    openSearch(a.search, setup);
    return minimisedMetrics(a.minimize);
  });
  checkIncidentsUnchanged(search["incidents"], setup);
  const Evaluator evaluator(setup.cases, minimised, a.search.seeds);
  // Every config the parts hold must be one this search could have found.
  const std::size_t goals = goalCount(setup);
  for (std::size_t i = 0; i < parts.size(); ++i)
    for (const auto* list : {&parts[i].result.front, &parts[i].result.closest})
      for (const TunedConfig& t : *list) {
        checkEvaluationFits(t.evaluation, a.minimize.size(), goals, arguments.parts[i]);
        bool inside = t.values.size() == setup.knobs.size();
        for (std::size_t d = 0; inside && d < t.values.size(); ++d)
          inside = t.values[d] >= setup.knobs[d].low && t.values[d] <= setup.knobs[d].high;
        if (!inside)
          throw LoadError(arguments.parts[i], 0, 0,
                          "a config's values do not lie in the search's knob ranges");
      }
  std::vector<TuneResult> results;
  for (const TunePartial& p : parts) results.push_back(p.result);
  TuneResult merged = mergeTuneResults(results);
  if (merged.front.empty() && merged.closest.empty())
    throw UsageError("merge: the parts hold no config; were they written by `tune --shard`?");
  merged.restarts = first.result.restarts;
  return report(ReportInputs{a, setup, evaluator, merged, -1}, out);
}

}  // namespace breakerlab::cli
