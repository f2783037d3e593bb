// The report's sections from the replays: what the incident is, each config's changes in the
// target library's keys, the checks and goals, and what the library cannot express.
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <stdexcept>

#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/report.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

std::string windowText(const Incident& incident) {
  std::string text = formatSeconds(incident.start) + "\u2013" + formatSeconds(incident.end) + " s";
  if (incident.clock_start)
    text += " (" + formatClockTime(*incident.clock_start + incident.start) + "\u2013" +
            formatClockTime(*incident.clock_start + incident.end) + " UTC)";
  return text;
}

// A metric check's value as the report's metrics table rounds it (views::formatMetric): two
// decimals, one for milliseconds, a count whole, and its unit, "actual 14.09 s"; the result keeps
// every digit ("14.0899", the second walkthrough of issue #33: unrounded values in the PDF). A lane
// check's text as it is.
std::string actualText(const ExpectationResult& r) {
  const MetricInfo* info =
      r.expectation != nullptr && r.expectation->kind == Expectation::Kind::metric
          ? findMetric(r.expectation->metric)
          : nullptr;
  double value = 0;
  const char* first = r.actual.data();
  const char* last = first + r.actual.size();
  const auto [end, error] = std::from_chars(first, last, value);
  if (info == nullptr || error != std::errc() || end != last) return r.actual;
  char text[64];
  const auto written = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed,
                                     info->integral       ? 0
                                     : info->unit == "ms" ? 1
                                                          : 2);
  std::string out(text, written.ptr);
  if (info->unit == "%")
    out += "%";
  else if (!info->unit.empty())
    out += " " + std::string(info->unit);
  return out;
}

ReportDocument::Check checkOf(const ExpectationResult& r) {
  return {r.expectation != nullptr ? r.expectation->text : std::string(), "actual " + actualText(r),
          r.passed, r.expectation != nullptr ? r.expectation->line : 0};
}

ReportDocument::CheckGroup groupOf(std::string title,
                                   const std::vector<ExpectationResult>& results) {
  ReportDocument::CheckGroup group{std::move(title), {}};
  for (const ExpectationResult& r : results) group.checks.push_back(checkOf(r));
  return group;
}

ExportedConfig exported(const ReportConfig& config, ExportTarget target) {
  try {
    return exportConfig(config.config, target);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("the config '" + config.title + "' cannot be exported as " +
                                std::string(displayName(target)) + ": " + e.what());
  }
}

}  // namespace

ReportDocument buildReport(const ReportInput& input) {
  if (input.incident == nullptr) throw std::invalid_argument("buildReport: no incident");
  if (input.configs.empty()) throw std::invalid_argument("buildReport: no config");
  for (const ReportMetric& m : input.metrics)
    if (m.values.size() != input.configs.size() || m.deltas.size() != input.configs.size() ||
        m.directions.size() != input.configs.size())
      throw std::invalid_argument("buildReport: the row of " + m.name +
                                  " has not one cell per config");
  const Incident& incident = *input.incident;

  ReportDocument doc;
  doc.title = incident.id + (incident.title.empty() ? "" : " \u00b7 " + incident.title);
  doc.facts.emplace_back("Incident", incident.id);
  doc.facts.emplace_back("Window", windowText(incident));
  if (incident.clock_start)
    doc.facts.emplace_back("Start", formatUtcTimestamp(*incident.clock_start));
  doc.facts.emplace_back("Dependency", incident.dependency.name);
  // The file opened, then the document it was made from when that is another file (an incident
  // saved from a postmortem): not the document's name alone, which the user may never have seen
  // (issue #33).
  if (!input.opened_file.empty()) doc.facts.emplace_back("File", input.opened_file);
  // A postmortem opened by its path is its own source: the import keeps the path it was given.
  if (!incident.source.empty() &&
      std::filesystem::path(incident.source).filename().string() != input.opened_file)
    doc.facts.emplace_back("Source document", incident.source);
  doc.facts.emplace_back("Seed", std::to_string(incident.seed));
  doc.facts.emplace_back("Config terms", std::string(displayName(input.target)));
  doc.summary = incident.summary;
  doc.target = displayName(input.target);
  doc.generator = input.generator;

  std::vector<ExportedConfig> exports;
  for (const ReportConfig& config : input.configs) {
    doc.lanes.push_back({config.title, config.description, config.lanes_png});
    doc.config_titles.push_back(config.title);
    exports.push_back(exported(config, input.target));
  }

  const std::vector<ExportedSetting> deployed = exportedSettings(exports[0], input.target);
  for (std::size_t i = 1; i < input.configs.size(); ++i) {
    ReportDocument::ConfigChanges changes{input.configs[i].title, {}, {}};
    changes.changes = diffSettings(deployed, exportedSettings(exports[i], input.target));
    for (const std::string& item : exports[i].not_expressible)
      if (std::find(exports[0].not_expressible.begin(), exports[0].not_expressible.end(), item) ==
          exports[0].not_expressible.end())
        changes.newly_not_expressible.push_back(item);
    doc.changes.push_back(std::move(changes));
  }
  for (std::size_t i = 0; i < input.configs.size(); ++i)
    doc.not_expressible.push_back({input.configs[i].title, exports[i].not_expressible});

  doc.metrics = input.metrics;

  // The titles the workbench's checks panel gives its groups.
  const Checks& first = input.configs[0].checks;
  if (!first.calibration.empty())
    doc.check_groups.push_back(groupOf("Calibration \u00b7 deployed config", first.calibration));
  for (const ReportConfig& config : input.configs)
    if (!config.checks.checks.empty())
      doc.check_groups.push_back(
          groupOf("Checks \u00b7 " +
                      (config.checks.checks_of.empty() ? config.title : config.checks.checks_of),
                  config.checks.checks));

  // Goals: the deployed column is the first config's own evaluation, or the baseline the
  // others were compared with.
  std::vector<ExpectationResult> deployed_goals = first.goals;
  if (deployed_goals.empty() && input.configs.size() > 1)
    deployed_goals = input.configs[1].checks.baseline_goals;
  for (std::size_t g = 0; g < deployed_goals.size(); ++g) {
    ReportDocument::GoalRow row;
    row.text = deployed_goals[g].expectation != nullptr ? deployed_goals[g].expectation->text : "";
    row.per_config.push_back(checkOf(deployed_goals[g]));
    for (std::size_t i = 1; i < input.configs.size(); ++i) {
      const auto& goals = input.configs[i].checks.goals;
      row.per_config.push_back(g < goals.size() ? checkOf(goals[g]) : ReportDocument::Check{});
    }
    doc.goals.push_back(std::move(row));
  }
  if (!deployed_goals.empty())
    for (std::size_t i = 1; i < input.configs.size(); ++i)
      doc.goal_verdicts.push_back(
          input.configs[i].title + ": " +
          goalVerdictText(compareGoals(input.configs[i].checks.goals, deployed_goals),
                          regressedMetricsText(input.configs[i].checks.regressions,
                                               dependencyWords(incident.dependency.name))));

  doc.import_report = input.import_report;
  return doc;
}

}  // namespace breakerlab
