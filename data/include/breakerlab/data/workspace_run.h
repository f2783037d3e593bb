#pragma once
// Between the workspace and the model: an opened incident as the workspace keeps it, a stored
// incident back as an Incident, and a replay made into a run and back again.
#include <cstdint>
#include <filesystem>
#include <string>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/result.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/workspace.h"

namespace breakerlab {

// The incident as the workspace stores it: `document` is the file it was opened from (its bytes
// are copied; a recorded calls log it refers to is kept with it).
StoredIncident storedIncidentOf(const ImportedIncident& imported,
                                const std::filesystem::path& document);

// The stored incident as BreakerLab opened it. Throws LoadError if the content does not read
// (a workspace edited by hand).
Incident restoreIncident(const StoredIncident& stored);

// What makes two stored incidents one: the incident as BreakerLab reads it, written as YAML, with
// its seed left out (a run's seed is the run's input) and a recorded log named by its file name.
// A breakerlab/1 file is stored as written and the same incident restored from the workspace as
// YAML; both have this one text. Throws LoadError if the content does not read.
std::string canonicalIncidentText(const StoredIncident& stored);

// Adds `incident` unless the workspace holds it already, by its stored text (findIncident) or,
// among the incidents of its name, by canonicalIncidentText: its id either way (issue #33: an
// incident restored from the workspace was added again, as YAML, when the workspace was opened
// again, and listed twice). Throws WorkspaceError as addIncident does.
std::int64_t addIncidentOnce(Workspace& workspace, const StoredIncident& incident);

// The incident a run replays: `opened` with the run's scenario, seed and changes.
Incident incidentForRun(const Incident& opened, const RunInputs& inputs);

struct ReplayedRun {
  Incident incident;  // incidentForRun(opened, inputs)
  Result result;
  Checks checks;
  std::string metrics_json;  // replayToJson(...)["metrics"].dump()
};

// Replays `inputs` on `opened` with the checks the CLI and the workbench make: calibration
// (`expect:` on the deployed config's replay of `opened`) and goals (on this replay and on the
// deployed config's replay of the same scenario).
ReplayedRun replayRun(const Incident& opened, const RunInputs& inputs);

// The checks of a replay, as a run stores them (calibration, then goals, then checks).
std::vector<StoredCheck> storedChecksOf(const Checks& checks);

// The `metrics` object of the replay's JSON report, as a run stores it.
std::string metricsJsonOf(const Incident& incident, const Result& result);

NewRun newRunOf(std::int64_t incident_id, const RunInputs& inputs, const ReplayedRun& replayed,
                std::string name = {});

// The inputs of replaying `config` on the incident as opened, with its own seed and changes.
RunInputs inputsOf(const Incident& opened, const Config& config);

}  // namespace breakerlab
