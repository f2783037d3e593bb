#include "breakerlab/data/workspace_run.h"

#include <unistd.h>
#include <cstdlib>
#include <optional>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/load_error.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/report_json.h"

namespace breakerlab {

namespace {

// The document's bytes, or nothing when there is no such file (an incident adopted in memory).
std::string bytesOf(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return {};
  return readTextFile(path);
}

// A private directory for a stored incident's files while it is read, removed afterwards.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "breakerlab-workspace-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr)
      throw WorkspaceError(WorkspaceError::Kind::io,
                           "cannot make a temporary directory to read a stored incident in");
    path_ = pattern;
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

void appendChecks(std::vector<StoredCheck>& out, StoredCheck::Kind kind,
                  const std::vector<ExpectationResult>& results) {
  for (const ExpectationResult& r : results)
    out.push_back(
        {kind, r.expectation != nullptr ? r.expectation->text : std::string(), r.passed, r.actual});
}

}  // namespace

StoredIncident storedIncidentOf(const ImportedIncident& imported,
                                const std::filesystem::path& document) {
  StoredIncident stored;
  Incident incident = imported.incident;
  stored.name = incident.id;
  stored.title = incident.title;
  stored.source_kind = std::string(sourceKey(imported.source));
  stored.source_name = document.filename().string();
  stored.source_document = bytesOf(document);
  // A recorded calls log is kept beside the incident under its own name, so that the stored
  // incident reads without the original directory.
  Dependency::CallsSource& calls = incident.dependency.calls_source;
  if (!calls.file.empty()) {
    // A breakerlab/1 file names its log relative to itself; an imported request log is the log,
    // named as it was opened (relative to the working directory).
    std::filesystem::path file(calls.file);
    if (file.is_relative() && imported.source == IncidentSource::incident)
      file = document.parent_path() / file;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
      throw WorkspaceError(WorkspaceError::Kind::invalid,
                           "cannot keep the recorded calls " + file.string() +
                               " with the incident: there is no such file");
    const std::string name = file.filename().string();
    stored.files.push_back({name, readTextFile(file)});
    calls.file = name;
  }
  // A breakerlab/1 file is kept as written (its comments, its spellings: the checks it names
  // read the same); anything else as the incident the import made.
  const bool calls_beside =
      calls.file.empty() ||
      !std::filesystem::path(imported.incident.dependency.calls_source.file).has_parent_path();
  if (imported.source == IncidentSource::incident && calls_beside &&
      !stored.source_document.empty()) {
    stored.content = stored.source_document;
  } else {
    stored.content = incidentToYaml(incident);
  }
  stored.import_report = imported.report.lines();
  return stored;
}

Incident restoreIncident(const StoredIncident& stored) {
  const std::string name = "workspace incident " + stored.name;
  if (stored.files.empty()) return parseIncident(stored.content, name + ".yaml");
  const ScratchDir dir;
  for (const StoredIncident::File& file : stored.files)
    writeOutputFile(dir.path() / std::filesystem::path(file.name).filename(), file.bytes);
  // The name is the workspace's (a hostile file's): only a file name inside the scratch folder,
  // never "../x" or an absolute path that would replace it.
  std::string file_name = std::filesystem::path(stored.name).filename().string();
  if (file_name.empty() || file_name == "." || file_name == "..") file_name = "incident";
  const std::filesystem::path incident_file = dir.path() / (file_name + ".yaml");
  writeOutputFile(incident_file, stored.content);
  return loadIncident(incident_file);
}

std::string canonicalIncidentText(const StoredIncident& stored) {
  Incident incident = restoreIncident(stored);
  incident.seed = 0;
  Dependency::CallsSource& calls = incident.dependency.calls_source;
  if (!calls.file.empty()) calls.file = std::filesystem::path(calls.file).filename().string();
  return incidentToYaml(incident);
}

std::int64_t addIncidentOnce(Workspace& workspace, const StoredIncident& incident) {
  if (const auto id = workspace.findIncident(incident)) return *id;
  std::optional<std::string> canonical;  // read only when an incident of the name is there
  for (const IncidentSummary& held : workspace.incidents()) {
    if (held.name != incident.name) continue;
    try {
      if (!canonical) canonical = canonicalIncidentText(incident);
      if (canonicalIncidentText(workspace.incident(held.id)) == *canonical) return held.id;
    } catch (const LoadError&) {
      // One that does not read (edited by hand) is not the same incident: it stays as it is.
    }
  }
  return workspace.addIncident(incident);
}

Incident incidentForRun(const Incident& opened, const RunInputs& inputs) {
  Incident incident = inputs.scenario.empty() ? opened : applyScenario(opened, inputs.scenario);
  incident.seed = inputs.seed;
  if (inputs.changes) incident.changes = *inputs.changes;
  return incident;
}

std::string metricsJsonOf(const Incident&, const Result& result) {
  return metricsToJson(result.metrics).dump();
}

ReplayedRun replayRun(const Incident& opened, const RunInputs& inputs) {
  ReplayedRun out;
  out.incident = incidentForRun(opened, inputs);
  out.result = simulate(out.incident, inputs.config);
  out.metrics_json = metricsJsonOf(out.incident, out.result);

  const bool is_opened_deployed = inputs.config == opened.deployed && inputs.scenario.empty() &&
                                  out.incident.changes == opened.changes &&
                                  inputs.seed == opened.seed;
  if (!opened.expect.empty() || opened.recorded.lane("checkout") != nullptr) {
    // On the deployed config with the run's seed, as the CLI's --seed and the workbench do.
    Incident calibrated = opened;
    calibrated.seed = inputs.seed;
    out.checks.calibration = evaluateCalibration(
        opened.expect, calibrated,
        is_opened_deployed ? out.result : simulate(calibrated, calibrated.deployed));
  }
  if (!out.incident.goals.empty()) {
    out.checks.goals = evaluate(out.incident.goals, out.incident, out.result);
    Incident base = inputs.scenario.empty() ? opened : applyScenario(opened, inputs.scenario);
    base.seed = inputs.seed;
    const bool same = inputs.config == base.deployed && out.incident.changes == base.changes;
    // The goals' texts live in out.incident, which the caller keeps; base does not outlive this.
    out.checks.baseline_goals =
        evaluate(out.incident.goals, base, same ? out.result : simulate(base, base.deployed));
  }
  return out;
}

std::vector<StoredCheck> storedChecksOf(const Checks& checks) {
  std::vector<StoredCheck> out;
  appendChecks(out, StoredCheck::Kind::calibration, checks.calibration);
  appendChecks(out, StoredCheck::Kind::goal, checks.goals);
  appendChecks(out, StoredCheck::Kind::check, checks.checks);
  return out;
}

NewRun newRunOf(std::int64_t incident_id, const RunInputs& inputs, const ReplayedRun& replayed,
                std::string name) {
  NewRun run;
  run.incident_id = incident_id;
  run.name = std::move(name);
  run.inputs = inputs;
  run.metrics_json = replayed.metrics_json;
  run.checks = storedChecksOf(replayed.checks);
  return run;
}

RunInputs inputsOf(const Incident& opened, const Config& config) {
  RunInputs inputs;
  inputs.config = config;
  inputs.seed = opened.seed;
  return inputs;
}

}  // namespace breakerlab
