// `breakerlab-cli sweep`: a sensitivity map. Every cell of a grid of one or two knobs is replayed
// on every incident (and seed) with the other knobs as the base config has them; the CSV has
// each cell's metrics and whether it meets every goal, the PNG the map the workbench draws.
#include "sweep_command.h"

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/sweep_csv.h"
#include "breakerlab/data/tune_partial.h"
#include "breakerlab/data/tuning_text.h"
#include "breakerlab/data/values.h"
#include "commands.h"
#include "interrupt_flag.h"
#include "search_record.h"
#include "status_line.h"
#include "sweep_png.h"

namespace breakerlab::cli {

namespace {

// Enough for any map one looks at; a finer one is a tune.
constexpr std::size_t kMaxPoints = 1000;

std::vector<std::size_t> pointsOf(const std::string& text, std::size_t knobs) {
  std::vector<std::size_t> points;
  std::size_t from = 0;
  while (from <= text.size()) {
    const std::size_t comma = std::min(text.find(',', from), text.size());
    const auto n = parseNumber(std::string_view(text).substr(from, comma - from));
    if (!n || *n < 2 || *n > static_cast<double>(kMaxPoints) || *n != std::floor(*n))
      throw UsageError("--points: expected N or N1,N2, each a whole number from 2 to " +
                       std::to_string(kMaxPoints) + ", got \"" + clipText(text) + "\"");
    points.push_back(static_cast<std::size_t>(*n));
    from = comma + 1;
  }
  if (points.size() == 1) points.resize(knobs, points.front());
  if (points.size() != knobs)
    throw UsageError("--points " + text + ": " + std::to_string(points.size()) + " counts for " +
                     std::to_string(knobs) + " knob(s)");
  return points;
}

std::vector<const MetricInfo*> metricsOf(const std::vector<std::string>& names) {
  if (names.empty())
    throw UsageError("--metric METRIC: name what to map (`replay --list-metrics` lists them)");
  std::vector<const MetricInfo*> metrics;
  for (const std::string& name : names) {
    const MetricInfo* info = findMetric(name);
    if (info == nullptr)
      throw UsageError("--metric: unknown metric \"" + clipText(name) +
                       "\" (`breakerlab-cli replay --list-metrics` lists them)");
    metrics.push_back(info);
  }
  return metrics;
}

std::pair<int, int> sizeOf(const std::string& text) {
  const std::size_t x = text.find('x');
  const auto w = parseNumber(text.substr(0, x == std::string::npos ? 0 : x));
  const auto h = x == std::string::npos ? std::nullopt : parseNumber(text.substr(x + 1));
  if (!w || !h || *w < 300 || *h < 240 || *w > 8000 || *h > 8000 || *w != std::floor(*w) ||
      *h != std::floor(*h))
    throw UsageError(
        "--png-size: expected WIDTHxHEIGHT in whole pixels from 300x240 to 8000x8000, got \"" +
        clipText(text) + "\"");
  return {static_cast<int>(*w), static_cast<int>(*h)};
}

// The base every cell is laid over: each incident's deployed config (or the what-if's), with
// the --set keys, in the searched library.
void layBases(const SweepArguments& a, SearchSetup& setup) {
  for (const std::string& s : a.sets)
    if (isScenarioAssignment(s))
      throw UsageError("--set " + clipText(s) +
                       ": a sweep maps the config; scenario keys change "
                       "the incident (replay --set takes them)");
  for (std::size_t i = 0; i < setup.cases.size(); ++i) {
    Config base = setup.incidents[i].deployed;
    if (!a.what_if.empty()) {
      const WhatIf* w = setup.incidents[i].whatIf(a.what_if);
      if (w == nullptr)
        throw UsageError("--whatif: " + setup.files[i].filename().string() + " has no what-if '" +
                         clipText(a.what_if) + "'; it has: " + whatIfNames(setup.incidents[i]));
      base = w->config;
    }
    if (!a.sets.empty()) base = applyOverrides(base, a.sets);
    base.breaker.library = setup.library;
    setup.cases[i].base = base;
  }
}

// A sweep's arguments as its parts record them (the incidents with their content), and back.
nlohmann::ordered_json sweepSearchJson(const SweepArguments& a, const SearchSetup& setup) {
  nlohmann::ordered_json search = searchRecord(a.search, setup);
  search["points"] = a.points;
  search["metrics"] = a.metrics;
  search["sets"] = a.sets;
  search["what_if"] = a.what_if;
  return search;
}

SweepArguments sweepArgumentsOf(const nlohmann::json& search, const std::string& file) {
  SweepArguments a;
  try {
    a.search = searchArgumentsOf(search, file);
    a.points = search.at("points").get<std::string>();
    a.metrics = search.at("metrics").get<std::vector<std::string>>();
    a.sets = search.at("sets").get<std::vector<std::string>>();
    a.what_if = search.at("what_if").get<std::string>();
  } catch (const nlohmann::json::exception&) {
    throw LoadError(file, 0, 0,
                    "the map's arguments are incomplete: expected what `sweep --shard` writes");
  }
  return a;
}

// Everything a map needs before its cells are replayed; checked before any work is done.
struct SweepPlan {
  SearchSetup setup;
  std::vector<std::size_t> points;
  std::vector<const MetricInfo*> metrics;
  std::vector<std::vector<double>> axes;
  std::size_t cells = 1;
};

void openSweep(const SweepArguments& a, SweepPlan& plan) {
  openSearch(a.search, plan.setup);
  if (plan.setup.knobs.size() > 2)
    throw UsageError("sweep: a map turns one or two knobs (--knob), got " +
                     std::to_string(plan.setup.knobs.size()) + "; search more with `tune`");
  plan.points = pointsOf(a.points, plan.setup.knobs.size());
  plan.metrics = metricsOf(a.metrics);
  layBases(a, plan.setup);
  plan.axes = sweepAxes(plan.setup.knobs, plan.points);
  plan.cells = 1;
  for (const auto& axis : plan.axes) plan.cells *= axis.size();
  if (plan.cells > kMaxSweepCells)
    throw UsageError("sweep: " + std::to_string(plan.cells) + " cells is more than " +
                     std::to_string(kMaxSweepCells) + "; take fewer --points");
}

struct MapFiles {
  std::string csv;
  std::string png;
  std::pair<int, int> png_size;
};

// The whole map's CSV and PNG, and the summary line; `seconds` < 0: no time to tell (a merge).
void writeMap(const SweepPlan& plan, const SweepResult& result, const MapFiles& files,
              double seconds, std::ostream& out) {
  const SearchSetup& setup = plan.setup;
  if (!files.csv.empty()) writeOutputFile(files.csv, sweepCsv(result, setup.knobs, plan.metrics));
  std::vector<Expectation> goals;
  for (const TuneCase& c : setup.cases) goals.insert(goals.end(), c.goals.begin(), c.goals.end());
  if (!files.png.empty()) {
    SweepPicture picture;
    picture.sweep = &result;
    picture.knobs = setup.knobs;
    picture.metrics = plan.metrics;
    picture.goals = goals;
    for (const KnobRange& k : setup.knobs)
      picture.current.push_back(k.knob->get(setup.cases[0].base));
    std::string incidents;
    for (const Incident& incident : setup.incidents)
      incidents += (incidents.empty() ? "" : ", ") + incident.id;
    picture.title =
        incidents + " · " + std::string(plan.metrics.front()->label) + " over " +
        std::string(setup.knobs[0].knob->label) +
        (setup.knobs.size() == 2 ? " × " + std::string(setup.knobs[1].knob->label) : std::string());
    picture.width = files.png_size.first;
    picture.height = files.png_size.second;
    writeOutputFile(files.png, drawSweepPng(picture));
  }

  std::size_t feasible = 0;
  for (const SweepCell& cell : result.cells) feasible += cell.evaluation.feasible ? 1 : 0;
  out << (seconds < 0 ? "Merged " : "Swept ") << plan.cells << " cells";
  if (plan.axes.size() == 2)
    out << " (" << plan.axes[0].size() << " x " << plan.axes[1].size() << ")";
  if (seconds >= 0) out << " in " << std::fixed << std::setprecision(2) << seconds << " s";
  out << ": ";
  if (goals.empty()) {
    out << "no goals to meet";
  } else {
    // Each incident's goals are its own and the --goal ones: with several, not one count.
    out << feasible << " meet "
        << (goals.size() == 1 ? std::string("the goal")
            : setup.cases.size() == 1
                ? "all " + std::to_string(goals.size()) + " goals"
                : "every goal of all " + std::to_string(setup.cases.size()) + " incidents");
  }
  out << ".\n";
  if (!files.csv.empty()) out << "Wrote " << files.csv << '\n';
  if (!files.png.empty()) out << "Wrote " << files.png << '\n';
}

}  // namespace

int runSweep(const SweepArguments& a, std::ostream& out) {
  SweepOptions options;
  if (!a.search.shard.empty()) {
    const Shard shard = parseShard(a.search.shard, "--shard");
    options.shard = shard.index;
    options.shards = shard.count;
    if (a.partial.empty())
      throw UsageError("--shard: write the shard's cells with --partial FILE, for `merge`");
    if (!a.output.empty() || !a.png.empty())
      throw UsageError("--shard: a shard writes its --partial FILE; `merge` writes the map");
  } else {
    if (!a.partial.empty()) throw UsageError("--partial: only with --shard I/N");
    if (a.output.empty() && a.png.empty())
      throw UsageError("sweep: write the map with -o FILE.csv and/or --png FILE.png");
  }
  const MapFiles files{a.output, a.png, sizeOf(a.png_size)};
  SweepPlan plan;
  openSweep(a, plan);
  for (const std::string& warning : knobsWithoutEffect(plan.setup, true))
    std::cerr << "breakerlab-cli: warning: " << warning << "\n";

  const Evaluator evaluator(plan.setup.cases, plan.metrics, a.search.seeds);
  options.threads = a.search.threads;
  InterruptFlag interrupt;
  options.cancel = interrupt.flag();
  // "\rsweep: 420 of 2,500 cells (Ctrl+C stops)"
  StatusLine line;
  options.progress = [&line](std::size_t done, std::size_t total) {
    if (line.due(done == total))
      line.show("sweep: " + std::to_string(done) + " of " + std::to_string(total) +
                " cells (Ctrl+C stops)");
  };
  const auto started = std::chrono::steady_clock::now();
  const SweepResult result = sweep(evaluator, plan.setup.knobs, plan.points, options);
  line.clear();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (result.cancelled) {
    std::cerr << "breakerlab-cli: sweep stopped after " << result.cells.size()
              << " cells; nothing written\n";
    return kExitInterrupted;
  }
  if (!a.partial.empty()) {
    const SweepPartial partial{sweepSearchJson(a, plan.setup).dump(), options.shard, options.shards,
                               result};
    writeOutputFile(a.partial, sweepPartialToJson(partial));
    std::cerr << "sweep: shard " << options.shard << "/" << options.shards << ": "
              << result.cells.size() << " of " << plan.cells << " cells in " << std::fixed
              << std::setprecision(2) << seconds << " s; wrote " << a.partial << '\n';
    return kExitOk;
  }
  writeMap(plan, result, files, seconds, out);
  return kExitOk;
}

int runSweepMerge(const MergeArguments& arguments, std::ostream& out) {
  if (arguments.json)
    throw UsageError("merge --json: a map's parts merge into -o FILE.csv and/or --png FILE.png");
  if (arguments.output.empty() && arguments.png.empty())
    throw UsageError("merge: write the map with -o FILE.csv and/or --png FILE.png");
  const MapFiles files{arguments.output, arguments.png, sizeOf(arguments.png_size)};
  std::vector<SweepPartial> parts;
  for (const std::string& file : arguments.parts) {
    const std::string text = readTextFile(file);
    if (partialFormatOf(text, file) != kSweepPartialFormat)
      throw UsageError(file + ": a search's part, and " + arguments.parts[0] +
                       " a sensitivity map's; merge each with the other parts of its own");
    parts.push_back(parseSweepPartial(text, file));
  }
  checkEveryShardOnce(parts, arguments.parts);
  const nlohmann::json search = nlohmann::json::parse(parts.front().search);
  SweepPlan plan;
  const SweepArguments recorded = sweepArgumentsOf(search, arguments.parts.front());
  checkedInPart(arguments.parts.front(), [&] { openSweep(recorded, plan); });
  checkIncidentsUnchanged(search["incidents"], plan.setup);
  const std::size_t goals = goalCount(plan.setup);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].result.axes != plan.axes)
      throw UsageError(arguments.parts[i] + ": its grid is not the one its arguments give");
    for (const SweepCell& cell : parts[i].result.cells)
      checkEvaluationFits(cell.evaluation, plan.metrics.size(), goals, arguments.parts[i]);
  }
  std::vector<SweepResult> results;
  for (const SweepPartial& p : parts) results.push_back(p.result);
  SweepResult merged;
  try {
    merged = mergeSweepResults(results);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("merge: ") + e.what());
  }
  writeMap(plan, merged, files, -1, out);
  return kExitOk;
}

}  // namespace breakerlab::cli
