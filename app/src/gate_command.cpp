// `breakerlab-cli gate`: a config change replayed on incidents before it merges (issue 13, the
// 12 Sep postmortem's AI-3). Each incident under the base config and the head config; a goal
// lost or a headline metric worse beyond its tolerance is a regression (exit 1).
#include <iostream>
#include <ostream>

#include "breakerlab/core/inputs/timed_change.h"
#include "breakerlab/data/config_file.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/gate.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/output_file.h"
#include "commands.h"
#include "import_progress.h"
#include "long_replay.h"

namespace breakerlab::cli {

namespace {

std::vector<std::string> notesOf(const ConfigFile& file) {
  std::vector<std::string> out;
  for (const ImportNote& note : file.native.notes) out.push_back(formatNote(file.file, note));
  return out;
}

// The incident's deployed config with what `file` states; errors name the file (and, for what
// only this incident makes wrong, the incident).
Config configFor(const ConfigFile& file, const Incident& incident, const std::string& name) {
  Config config;
  try {
    config = applyConfigFile(file, incident.deployed);
  } catch (const LoadError& e) {
    throw LoadError(e.file(), e.line(), e.column(),
                    e.message() + " (laid over the config of " + clipText(name) + ")");
  }
  if (const std::string problem =
          validateChanges(incident.changes, config, incident.start, incident.end);
      !problem.empty())
    throw LoadError(file.file, 0, 0,
                    "laid over " + clipText(name) + ", the incident's timed changes: " + problem);
  return config;
}

struct Prepared {
  std::string name;
  Incident incident;
  Config base;
  Config head;
};

}  // namespace

int runGate(const GateOptions& options, std::ostream& out) {
  if (options.base.empty() || options.head.empty())
    throw UsageError("gate: --base and --head are required");
  if (options.incidents.empty()) throw UsageError("gate: at least one INCIDENT is required");
  // Everything is read before anything replays: a bad argument fails at once.
  std::vector<ToleranceOverride> overrides;
  for (const std::string& t : options.tolerances) overrides.push_back(parseToleranceOverride(t));
  const std::vector<GatedMetric> gated = gatedMetrics(overrides);
  const std::optional<BreakerLibrary> library = libraryOption(options.library);
  const ConfigFile base = loadConfigFile(options.base, library);
  const ConfigFile head = loadConfigFile(options.head, library);
  printImportNotes(base);
  printImportNotes(head);
  const double max_requests = parseMaxRequests(options.max_requests);

  std::vector<Prepared> prepared;
  for (const std::string& name : options.incidents) {
    const std::filesystem::path path = resolveIncident(name);
    ImportedIncident imported = openWithProgress(path, ImportOptions{});
    if (imported.source != IncidentSource::incident) std::cerr << importSummary(imported) << '\n';
    Prepared p{name, std::move(imported.incident), {}, {}};
    p.base = configFor(base, p.incident, name);
    p.head = configFor(head, p.incident, name);
    requireWorkWithin(p.incident, p.base, max_requests, path.string());
    requireWorkWithin(p.incident, p.head, max_requests, path.string());
    prepared.push_back(std::move(p));
  }

  // Replays are deterministic: a head config equal to the base one is the base replay.
  std::vector<ReplayJob> jobs;
  std::vector<std::size_t> base_job, head_job;
  for (const Prepared& p : prepared) {
    base_job.push_back(jobs.size());
    jobs.push_back({&p.incident, &p.base});
    if (!(p.head == p.base)) jobs.push_back({&p.incident, &p.head});
    head_job.push_back(jobs.size() - 1);
  }
  const std::vector<Result> results = replayAll(jobs);

  GateReport report;
  report.base = {options.base, base.formatName()};
  report.head = {options.head, head.formatName()};
  for (const ConfigFile* file : {&base, &head})
    for (std::string& note : notesOf(*file)) report.notes.push_back(std::move(note));
  report.generator = "BreakerLab " BREAKERLAB_VERSION;
  for (std::size_t i = 0; i < prepared.size(); ++i) {
    const Prepared& p = prepared[i];
    report.incidents.push_back(compareIncident(p.name, p.incident, p.base, results[base_job[i]],
                                               p.head, results[head_job[i]], gated));
  }

  const std::string markdown = gateMarkdown(report);
  if (!options.markdown.empty()) writeOutputFile(options.markdown, markdown);
  if (options.json) {
    out << gateToJson(report).dump(2) << '\n';
  } else {
    out << markdown;
  }
  return report.passed() ? kExitOk : kExitExpectationFailed;
}

}  // namespace breakerlab::cli
