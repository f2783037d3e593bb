#pragma once
// The incident report for a postmortem review (docs/report.md): the incident, the lanes of each
// config, each config's changes against the deployed one in the breaker library's own terms,
// the metrics with deltas, calibration checks and goals, what the library cannot express, and
// the import report. Assembled here without Qt from replays already made and lanes images
// already drawn (the app draws them); written as one self-contained HTML file.
#include <optional>
#include <string>
#include <vector>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/import_report.h"
#include "breakerlab/data/settings_diff.h"

namespace breakerlab {

// One config of the report. The first config of a report is the deployed one, the baseline of
// every delta and of the goals.
struct ReportConfig {
  std::string title;        // "Deployed config", "What-if early-probe", "tuned.yaml"
  std::string description;  // the what-if's description, where the file came from; may be empty
  Config config;
  // The replay's checks: `goals` with the deployed config's beside (`baseline_goals`) and the
  // config's own `checks`. The report's calibration is the first config's `calibration`.
  Checks checks;
  std::string lanes_png;  // the lanes image, PNG bytes; empty: none drawn
};

// One metric's row, each cell already formatted as the workbench's metrics panel shows it.
struct ReportMetric {
  std::string name;                 // "failed_checkouts"
  std::string label;                // "Failed checkouts"
  std::vector<std::string> values;  // one per config
  // Per config against the first: "", "+1,802", "-12.04 s"; the first config's is "".
  std::vector<std::string> deltas;
  std::vector<int> directions;  // +1 better, -1 worse, 0 uncoloured
};

struct ReportInput {
  const Incident* incident = nullptr;         // as opened: its window, what-ifs, calibration
  std::optional<ImportReport> import_report;  // set when the incident was imported
  // The name of the file the user opened (an incident, a postmortem, a log). An incident saved
  // from a postmortem keeps that document's name as its source: the report names both.
  std::string opened_file;
  ExportTarget target = ExportTarget::breakerlab_yaml;
  std::vector<ReportConfig> configs;  // the deployed config first; at least one
  std::vector<ReportMetric> metrics;
  std::string generator;  // "BreakerLab 0.1.0"
};

// The report as text, section by section, ready to write.
struct ReportDocument {
  std::string title;  // "INC-2026-0908 · Pricing breaker — the 60 seconds of the 8 Sep outage"
  std::vector<std::pair<std::string, std::string>> facts;  // ("Window", "0.0–60.0 s"), ...
  std::string summary;
  std::string target;  // displayName(target)

  struct Lanes {
    std::string title;
    std::string description;
    std::string png;
  };
  std::vector<Lanes> lanes;

  struct ConfigChanges {
    std::string title;
    std::vector<SettingChange> changes;  // against the deployed config, in the target's keys
    // What the target cannot express of this config and not of the deployed one.
    std::vector<std::string> newly_not_expressible;
  };
  std::vector<ConfigChanges> changes;  // one per config after the first

  std::vector<std::string> config_titles;  // the metrics table's columns
  std::vector<ReportMetric> metrics;

  struct Check {
    std::string text;    // the expectation as written
    std::string result;  // "actual 0"
    bool passed = false;
    int line = 0;  // in the incident file; 0: not from it
  };
  struct CheckGroup {
    std::string title;  // "Calibration · deployed config", "Checks · what-if early-probe"
    std::vector<Check> checks;
  };
  std::vector<CheckGroup> check_groups;

  // Goals: one row per goal, one cell per config.
  struct GoalRow {
    std::string text;
    std::vector<Check> per_config;
  };
  std::vector<GoalRow> goals;
  std::vector<std::string> goal_verdicts;  // per config after the first: "2 of 2 met (...)..."

  struct NotExpressible {
    std::string title;
    std::vector<std::string> items;
  };
  std::vector<NotExpressible> not_expressible;  // per config; empty items: all expressible

  std::optional<ImportReport> import_report;
  std::string generator;
};

// Throws std::invalid_argument when the input is incomplete (no incident, no config, metric
// rows of the wrong width) or a config cannot be exported to the target (it follows another
// library): the message names the config.
ReportDocument buildReport(const ReportInput& input);

struct HtmlOptions {
  // inline_png: images as data:image/png;base64 URLs (a self-contained file for browsers);
  // named: src="lanes-N.png", for a renderer the images are handed to by name (QTextDocument).
  enum class Images { inline_png, named } images = Images::inline_png;
  // named: the width images are drawn at, in the renderer's pixels (the page width); 0: natural.
  int image_width = 0;
  // The text's width in characters of the body text, which the metrics table is laid out for
  // (report_table_layout.h): the style's 60em column in a browser; the PDF measures its page.
  double text_width = 100;
};
// The name an image gets with HtmlOptions::Images::named: "lanes-0.png" for the first config.
std::string reportImageName(std::size_t config_index);

// The whole document, UTF-8, every text taken from files escaped.
std::string reportHtml(const ReportDocument& report, const HtmlOptions& options = {});

// For the HTML writer and its tests: & < > " ' as entities.
std::string escapeHtml(std::string_view text);
std::string base64(std::string_view bytes);

}  // namespace breakerlab
