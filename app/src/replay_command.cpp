// `breakerlab-cli replay`: simulate an incident with a config and check its expectations.
#include <algorithm>
#include <charconv>
#include <iostream>
#include <optional>
#include <ostream>

#include "breakerlab/core/inputs/library_translation.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/calls_out.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/incident_lookup.h"
#include "breakerlab/data/native_config.h"
#include "breakerlab/data/report_json.h"
#include "breakerlab/data/workspace_run.h"
#include "commands.h"
#include "import_progress.h"
#include "long_replay.h"
#include "text_report.h"
#include "tuning_commands.h"

namespace breakerlab::cli {

std::string whatIfNames(const Incident& incident) {
  std::string names;
  for (const WhatIf& w : incident.what_ifs) names += (names.empty() ? "" : ", ") + w.name;
  return names.empty() ? "(none)" : names;
}

std::uint64_t parseSeed(const std::string& text, const std::string& option) {
  std::uint64_t seed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc() || end != text.data() + text.size())
    throw UsageError(option + ": expected a whole number from 0 to 18446744073709551615, got \"" +
                     clipText(text) + "\"");
  return seed;
}

namespace {
// The replay again, tracing its calls (the same run: replays are deterministic), written as a
// request log.
void writeCallsOutOf(const Incident& incident, const Config& config, const std::string& file) {
  CallTrace trace;
  const Result traced = simulate(incident, config, trace);
  writeCallsOut(file, callsOutFormatFor(file), traced, trace);
}
}  // namespace

std::filesystem::path resolveIncident(const std::string& argument) {
  const std::filesystem::path dirs[] = {BREAKERLAB_SOURCE_INCIDENTS,
                                        BREAKERLAB_INSTALLED_INCIDENTS};
  return resolveIncidentArgument(argument, dirs);
}

int runReplay(const ReplayOptions& options, std::ostream& out) {
  if (options.list_metrics) return listMetrics(out);
  if (options.incident.empty()) throw UsageError("replay: the INCIDENT file is required");
  const std::filesystem::path path = resolveIncident(options.incident);
  if (options.list_whatifs) return listWhatIfs(path, out);
  if (!options.what_if.empty() && !options.config_file.empty())
    throw UsageError("replay: give either --whatif or --config, not both");

  // Any document BreakerLab opens: an incident file, a postmortem, a request log.
  ImportOptions import_options;
  applyRequestLogOptions(import_options, options.map, options.config_file);
  import_options.trace_dependency = options.trace_dependency;
  ImportedIncident imported = openWithProgress(path, import_options);
  if (imported.source != IncidentSource::incident) std::cerr << importSummary(imported) << '\n';
  Incident incident = std::move(imported.incident);
  const std::uint64_t file_seed = incident.seed;
  if (!options.seed.empty()) incident.seed = parseSeed(options.seed);

  // The incident as opened: its `expect:` calibrate the model with the deployed config.
  const Incident opened = incident;

  Config config = incident.deployed;
  std::string label = "deployed";
  Checks checks;
  if (!options.what_if.empty()) {
    const WhatIf* w = incident.whatIf(options.what_if);
    if (w == nullptr)
      throw UsageError("replay: the incident has no what-if '" + clipText(options.what_if) +
                       "'; it has: " + whatIfNames(incident));
    config = w->config;
    if (w->changes) incident.changes = *w->changes;
    label = "what-if '" + w->name + "'";
  } else if (!options.config_file.empty()) {
    config = loadConfig(options.config_file);
    label = options.config_file;
  }
  std::string translate_to = options.library;
  if (!options.policy.empty()) {
    // The breaker of the library's own config file, on top of the rest of the config. The file's
    // own library reads it, as `export --policy` does, and --library names the rules it is then
    // replayed under, translated below (an application.yml with --library gobreaker was read as
    // a gobreaker file: nothing in it, and the note "resilience4j: not a setting"). Only a file
    // whose text does not tell its library is read as --library's.
    const std::string text = readTextFile(options.policy);
    const bool tells_its_library = text.find(kConfigFormat) != std::string::npos ||
                                   detectLibrary(text, options.policy).has_value();
    const Config policy = loadPolicy(options.policy, tells_its_library ? "" : options.library);
    if (!tells_its_library) translate_to.clear();
    config.breaker.library = policy.breaker.library;
    config.native = policy.native;
    if (policy.breaker.library == BreakerLibrary::breakerlab) config.breaker = policy.breaker;
    label += " with the " + std::string(libraryInfo(config.breaker.library).title) +
             " breaker of " + options.policy;
  }
  if (!translate_to.empty()) {
    const auto library = breakerLibraryFromString(translate_to);
    if (!library) throw UsageError("--library: unknown library \"" + clipText(translate_to) + "\"");
    // The breaker in force under the library's rules, as the workbench's library choice does:
    // translated, not the library's defaults; what could not be carried over on stderr.
    const LibraryTranslation translated = translateToLibrary(
        config, *library, breakerCallsPerSecond(fleetCallsPerSecond(incident), config));
    config = translated.config;
    for (const NotCarriedOver& n : translated.not_carried)
      std::cerr << "breakerlab-cli: not carried over to " << libraryInfo(*library).title << ": "
                << n.setting << ": " << n.why << '\n';
    label += " with " + std::string(libraryInfo(*library).title) + "'s rules";
  }
  // `--set scenario.*` changes the incident; the others the config.
  std::vector<std::string> config_sets;
  Scenario scenario;
  for (const std::string& s : options.sets) {
    if (isScenarioAssignment(s)) {
      applyScenarioAssignment(scenario, s);
    } else {
      config_sets.push_back(s);
    }
    label += " --set " + s;
  }
  if (!scenario.empty()) {
    if (const std::string problem = scenarioProblem(incident, scenario); !problem.empty())
      throw UsageError("--set " + problem);
    incident = applyScenario(incident, scenario);
  }
  if (!config_sets.empty()) config = applyOverrides(config, config_sets);
  if (options.no_changes && !incident.changes.empty()) {
    incident.changes.clear();
    label += " without the timed changes";
  }
  std::vector<Expectation> extra;
  for (const std::string& text : options.expects)
    extra.push_back(parseExpectation(text, "--expect \"" + clipText(text) + "\""));

  const double max_requests = parseMaxRequests(options.max_requests);
  requireWorkWithin(incident, config, max_requests, path.string());
  const Result result = replayWithProgress(incident, config);
  if (!options.calls_out.empty()) writeCallsOutOf(incident, config, options.calls_out);

  // The what-if's own expect and every --expect: checks of this config.
  std::vector<Expectation> own;
  const WhatIf* what_if = options.what_if.empty() ? nullptr : opened.whatIf(options.what_if);
  if (what_if != nullptr && !options.no_incident_expect) own = what_if->expect;
  own.insert(own.end(), extra.begin(), extra.end());
  checks.checks = evaluate(own, incident, result);
  if (what_if != nullptr && !what_if->expect.empty() && !options.no_incident_expect)
    checks.checks_of = "what-if '" + what_if->name + "'" + (extra.empty() ? "" : " and --expect");
  else if (!extra.empty())
    checks.checks_of = "--expect";

  // Calibration on the deployed config's replay of the incident as opened; goals on this
  // config's replay and on the deployed config's replay of the same (scenario) incident. A
  // replay that is the one already made is not made again.
  const bool replayed_deployed =
      config == opened.deployed && incident.changes == opened.changes && scenario.empty();
  std::optional<Result> opened_deployed;
  const auto deployedOfOpened = [&]() -> const Result& {
    if (replayed_deployed) return result;
    if (!opened_deployed) {
      requireWorkWithin(opened, opened.deployed, max_requests, path.string());
      opened_deployed = replayWithProgress(opened, opened.deployed);
    }
    return *opened_deployed;
  };
  if (!options.no_incident_expect &&
      (!opened.expect.empty() || opened.recorded.lane("checkout") != nullptr))
    checks.calibration = evaluateCalibration(opened.expect, opened, deployedOfOpened());
  if (!options.no_incident_expect && !incident.goals.empty()) {
    checks.goals = evaluate(incident.goals, incident, result);
    if (scenario.empty()) {
      checks.baseline_goals = evaluate(opened.goals, opened, deployedOfOpened());
      checks.regressions = headlineRegressions(deployedOfOpened().metrics, result.metrics);
    } else {
      const Incident base = applyScenario(opened, scenario);
      requireWorkWithin(base, base.deployed, max_requests, path.string());
      const Result base_result = replayWithProgress(base, base.deployed);
      checks.baseline_goals = evaluate(base.goals, base, base_result);
      checks.regressions = headlineRegressions(base_result.metrics, result.metrics);
    }
  }

  if (!options.workspace.empty()) {
    // The workspace keeps the incident as the file has it; the run, what this replay changed.
    ImportedIncident as_opened{opened, std::move(imported.report), imported.source};
    as_opened.incident.seed = file_seed;
    RunInputs inputs = inputsOf(as_opened.incident, config);
    inputs.seed = incident.seed;
    inputs.scenario = scenario;
    if (incidentForRun(as_opened.incident, inputs).changes != incident.changes)
      inputs.changes = incident.changes;
    const std::int64_t id = recordRun(options.workspace, options.save_run, as_opened, path, inputs,
                                      incident, result, checks);
    std::cerr << "Saved run " << id
              << (options.save_run.empty() ? "" : " '" + options.save_run + "'") << " to "
              << options.workspace << '\n';
  }
  if (options.json) {
    out << replayToJson(incident, result, checks).dump(2) << '\n';
  } else {
    printReport(out, incident, label, result, checks);
  }
  const bool passed = allPassed(checks.calibration) && allPassed(checks.checks) &&
                      (!options.require_goals || allPassed(checks.goals));
  return passed ? kExitOk : kExitExpectationFailed;
}

}  // namespace breakerlab::cli
