// The report without Qt: the config diff in each library's keys, the sections built from
// replays, and the HTML (escaped, self-contained).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/config_export.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/report.h"
#include "breakerlab/data/report_table_layout.h"
#include "breakerlab/data/settings_diff.h"
#include "support/bundled_incident.h"
#include "test_support.h"

namespace breakerlab {
namespace {

const SettingChange* changeOf(const std::vector<SettingChange>& changes, std::string_view key) {
  const auto it = std::find_if(changes.begin(), changes.end(),
                               [&](const SettingChange& c) { return c.key == key; });
  return it == changes.end() ? nullptr : &*it;
}

std::vector<SettingChange> diffAs(const Config& before, const Config& after, ExportTarget target) {
  return diffSettings(exportedSettings(exportConfig(before, target), target),
                      exportedSettings(exportConfig(after, target), target));
}

TEST(SettingsDiff, EarlyProbeInBreakerLabKeys) {
  const Config& deployed = test::pricingIncident().deployed;
  const Config& early = test::pricingIncident().whatIf("early-probe")->config;
  const auto changes = diffAs(deployed, early, ExportTarget::breakerlab_yaml);
  const SettingChange* enabled = changeOf(changes, "breaker.open.early_probe.enabled");
  ASSERT_NE(enabled, nullptr);
  EXPECT_EQ(enabled->before, "false");
  EXPECT_EQ(enabled->after, "true");
  // Nothing else of the config moved.
  for (const SettingChange& c : changes)
    EXPECT_TRUE(c.key.starts_with("breaker.open.early_probe.")) << c.key;
  EXPECT_TRUE(diffAs(deployed, deployed, ExportTarget::breakerlab_yaml).empty());
}

TEST(SettingsDiff, GobreakerSettingsAreItsFields) {
  const auto settings =
      exportedSettings(exportConfig(test::pricingIncident().deployed, ExportTarget::gobreaker),
                       ExportTarget::gobreaker);
  const auto value = [&](std::string_view key) {
    for (const ExportedSetting& s : settings)
      if (s.key == key) return s.value;
    return std::string("(absent)");
  };
  EXPECT_EQ(value("Name"), "\"pricing\"");
  EXPECT_EQ(value("MaxRequests"), "3");
  EXPECT_EQ(value("Timeout"), "20 * time.Second");
  EXPECT_NE(value("ReadyToTrip").find("return"), std::string::npos) << value("ReadyToTrip");
  EXPECT_EQ(value("ReadyToTrip").find("//"), std::string::npos) << "comments are not settings";
  // The early probe is beyond gobreaker: no field moves.
  EXPECT_TRUE(diffAs(test::pricingIncident().deployed,
                     test::pricingIncident().whatIf("early-probe")->config, ExportTarget::gobreaker)
                  .empty());
}

// The open interval is one setting in every target, under the target's own name.
TEST(SettingsDiff, OpenIntervalInEveryTargetsName) {
  const std::pair<ExportTarget, std::string> targets[] = {
      {ExportTarget::breakerlab_yaml, "breaker.open.interval"},
      {ExportTarget::resilience4j, "waitDurationInOpenState"},
      {ExportTarget::gobreaker, "Timeout"},
      {ExportTarget::polly, "BreakDuration"},
      {ExportTarget::opossum, "resetTimeout"},
      {ExportTarget::cockatiel, "halfOpenAfter"},
      {ExportTarget::envoy, "base_ejection_time"}};
  Config shorter = test::pricingIncident().deployed;
  shorter.breaker.open_interval = 5 * kSecond;
  shorter.breaker.backoff_max = 5 * kSecond;
  for (const auto& entry : targets) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const ExportTarget target = entry.first;
    const std::string_view key = entry.second;
    const auto changes = diffAs(test::pricingIncident().deployed, shorter, target);
    const bool named = std::any_of(changes.begin(), changes.end(), [&](const SettingChange& c) {
      return c.key.ends_with(key) && c.before != c.after && !c.before.empty();
    });
    EXPECT_TRUE(named) << displayName(target) << ": no change of " << key;
  }
}

TEST(SettingsDiff, AddedAndRemovedSettings) {
  const auto changes = diffSettings({{"a", "1"}, {"b", "2"}}, {{"b", "3"}, {"c", "4"}});
  ASSERT_EQ(changes.size(), 3u);
  EXPECT_EQ(changes[0].key, "b");
  EXPECT_EQ(changes[0].before, "2");
  EXPECT_EQ(changes[0].after, "3");
  EXPECT_EQ(changes[1].key, "c");
  EXPECT_EQ(changes[1].before, "");
  EXPECT_EQ(changes[2].key, "a");
  EXPECT_EQ(changes[2].after, "");
}

TEST(ReportHtml, Base64) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("foobar"), "Zm9vYmFy");
  EXPECT_EQ(base64(std::string("\xff\x00\x80", 3)), "/wCA");
}

// The deployed config and the early probe, replayed and checked as `replay` checks them.
struct Report0908 {
  Incident incident = test::pricingIncident();
  Result deployed = simulate(incident, incident.deployed);
  Result early = simulate(incident, incident.whatIf("early-probe")->config);

  ReportInput input(ExportTarget target) const {
    ReportInput in;
    in.incident = &incident;
    in.target = target;
    in.generator = "BreakerLab test";
    const auto deployed_goals = evaluate(incident.goals, incident, deployed);
    ReportConfig first{"Deployed config", "", incident.deployed, {}, "\x89PNG deployed"};
    first.checks.calibration = evaluate(incident.expect, incident, deployed);
    first.checks.goals = deployed_goals;
    const WhatIf& w = *incident.whatIf("early-probe");
    ReportConfig second{"What-if early-probe", w.description, w.config, {}, "\x89PNG early"};
    second.checks.goals = evaluate(incident.goals, incident, early);
    second.checks.baseline_goals = deployed_goals;
    second.checks.checks = evaluate(w.expect, incident, early);
    second.checks.checks_of = "what-if 'early-probe'";
    in.configs = {first, second};
    in.metrics = {{"failed_checkouts", "Failed checkouts", {"0", "0"}, {"", ""}, {0, 0}},
                  {"cached_while_healthy_s",
                   "Cached while healthy",
                   {"14.09 s", "2.05 s"},
                   {"", "-12.04 s"},
                   {0, 1}}};
    return in;
  }
};

TEST(ReportBuild, SectionsOf0908) {
  const Report0908 r;
  const ReportDocument doc = buildReport(r.input(ExportTarget::breakerlab_yaml));
  EXPECT_EQ(doc.title, "INC-2026-0908 \u00b7 " + r.incident.title);
  ASSERT_EQ(doc.lanes.size(), 2u);
  EXPECT_EQ(doc.lanes[1].title, "What-if early-probe");
  ASSERT_EQ(doc.changes.size(), 1u);
  EXPECT_NE(changeOf(doc.changes[0].changes, "breaker.open.early_probe.enabled"), nullptr);
  ASSERT_FALSE(doc.check_groups.empty());
  EXPECT_EQ(doc.check_groups[0].title, "Calibration \u00b7 deployed config");
  EXPECT_TRUE(std::all_of(doc.check_groups[0].checks.begin(), doc.check_groups[0].checks.end(),
                          [](const auto& c) { return c.passed; }));
  ASSERT_EQ(doc.check_groups.size(), 2u);
  EXPECT_EQ(doc.check_groups[1].title, "Checks \u00b7 what-if 'early-probe'");
  ASSERT_EQ(doc.goals.size(), r.incident.goals.size());
  ASSERT_EQ(doc.goal_verdicts.size(), 1u);
  EXPECT_NE(doc.goal_verdicts[0].find("better than deployed"), std::string::npos)
      << doc.goal_verdicts[0];
  ASSERT_EQ(doc.not_expressible.size(), 2u);
  EXPECT_TRUE(doc.not_expressible[0].items.empty()) << "BreakerLab YAML expresses everything";

  const std::string html = reportHtml(doc);
  for (const char* text :
       {"breaker.open.early_probe.enabled", "Failed checkouts", "failed_checkouts", "-12.04 s",
        "Calibration \u00b7 deployed config", "better than deployed", "What-if early-probe"})
    EXPECT_NE(html.find(text), std::string::npos) << text;
}

// The verdict under the goals names the headline metrics a config regresses, as the workbench's
// and the CLI's verdicts do (the second walkthrough of issue #33).
TEST(ReportBuild, TheGoalsVerdictNamesWhatTheConfigRegresses) {
  const Report0908 r;
  ReportInput in = r.input(ExportTarget::breakerlab_yaml);
  Metrics worse = r.early.metrics;
  worse.failed_checkouts = r.deployed.metrics.failed_checkouts + 100;
  in.configs[1].checks.regressions = headlineRegressions(r.deployed.metrics, worse);
  ASSERT_FALSE(in.configs[1].checks.regressions.empty());
  const ReportDocument doc = buildReport(in);
  ASSERT_EQ(doc.goal_verdicts.size(), 1u);
  EXPECT_NE(doc.goal_verdicts[0].find("better than deployed, but worse on failed checkouts"),
            std::string::npos)
      << doc.goal_verdicts[0];
  EXPECT_NE(reportHtml(doc).find("but worse on failed checkouts"), std::string::npos);
}

TEST(ReportBuild, EarlyProbeInGobreakerTerms) {
  const Report0908 r;
  const ReportDocument doc = buildReport(r.input(ExportTarget::gobreaker));
  ASSERT_EQ(doc.changes.size(), 1u);
  EXPECT_TRUE(doc.changes[0].changes.empty()) << "no gobreaker setting holds the early probe";
  ASSERT_EQ(doc.changes[0].newly_not_expressible.size(), 1u);
  EXPECT_TRUE(doc.changes[0].newly_not_expressible[0].starts_with("early probe on health green"))
      << doc.changes[0].newly_not_expressible[0];
  ASSERT_EQ(doc.not_expressible.size(), 2u);
  EXPECT_FALSE(doc.not_expressible[0].items.empty()) << "the cache, the per-call timeout";
  const std::string html = reportHtml(doc);
  EXPECT_NE(html.find("No setting of gobreaker (Go Settings) differs"), std::string::npos);
  EXPECT_NE(html.find("early probe on health green"), std::string::npos);
}

TEST(ReportHtml, SelfContained) {
  const Report0908 r;
  const std::string html = reportHtml(buildReport(r.input(ExportTarget::breakerlab_yaml)));
  EXPECT_NE(html.find("src=\"data:image/png;base64," + base64("\x89PNG deployed") + "\""),
            std::string::npos);
  EXPECT_NE(html.find("src=\"data:image/png;base64," + base64("\x89PNG early") + "\""),
            std::string::npos);
  EXPECT_NE(html.find("<style>"), std::string::npos);
  for (const char* fetch : {"http://", "https://", "<link", "<script", "url("})
    EXPECT_EQ(html.find(fetch), std::string::npos) << fetch;
  // For QTextDocument, the images by name at the page's width.
  HtmlOptions named;
  named.images = HtmlOptions::Images::named;
  named.image_width = 640;
  const std::string for_qt = reportHtml(buildReport(r.input(ExportTarget::breakerlab_yaml)), named);
  EXPECT_NE(for_qt.find("src=\"lanes-1.png\" width=\"640\""), std::string::npos);
  EXPECT_EQ(for_qt.find("base64"), std::string::npos);
}

// The metrics table as report_table_layout.h lays it out: every column given its width, and
// configs that do not fit beside the deployed one in further tables, each with the deployed
// config (issue #33: three configs squeezed the names to a letter a line).
TEST(ReportHtml, MetricsTablesSplitWhenTheConfigsDoNotFitThePage) {
  ReportDocument doc;
  doc.title = "INC";
  doc.config_titles = {"Deployed config", "What-if early-probe", "What-if short-ttl",
                       "Tuned: knobs", "B: breaker-before-saturation"};
  doc.metrics = {{"time_to_close_after_recovery_s",
                  "Time to close after recovery",
                  {"14.09 s", "2.05 s", "14.09 s", "1.00 s", "14.09 s"},
                  {"", "-12.04 s", "+0.00 s", "-13.09 s", "+0.00 s"},
                  {0, 1, 0, 1, 0}}};
  const auto count = [](const std::string& html, const std::string& text) {
    std::size_t n = 0;
    for (auto at = html.find(text); at != std::string::npos; at = html.find(text, at + 1)) ++n;
    return n;
  };
  HtmlOptions wide;
  wide.text_width = 200;
  const std::string one = reportHtml(doc, wide);
  EXPECT_EQ(count(one, ">Metric</th>"), 1u);
  EXPECT_EQ(one.find("Metrics 1 of"), std::string::npos);
  // The name column's width is the layout's share of its table, not left to the renderer.
  const std::vector<MetricsTablePart> parts = layoutMetricsTable(
      {doc.config_titles,
       {{doc.metrics[0].label, doc.metrics[0].name, doc.metrics[0].values, doc.metrics[0].deltas}}},
      200);
  ASSERT_EQ(parts.size(), 1u);
  double table_width = parts[0].name_width;
  for (std::size_t k = 0; k < parts[0].configs.size(); ++k)
    table_width += parts[0].value_widths[k] + parts[0].delta_widths[k];
  char name_share[32];
  std::snprintf(name_share, sizeof name_share, "<th width=\"%.1f%%\">Metric</th>",
                100 * parts[0].name_width / table_width);
  EXPECT_NE(one.find(name_share), std::string::npos) << name_share;

  HtmlOptions narrow;
  narrow.text_width = 80;
  const std::string split = reportHtml(doc, narrow);
  const std::size_t tables = count(split, ">Metric</th>");
  EXPECT_GE(tables, 2u);
  EXPECT_EQ(count(split, ">Deployed config</th>"), tables) << "the baseline in every table";
  EXPECT_EQ(count(split, ">B: breaker-before-saturation</th>"), 1u);
  EXPECT_NE(split.find("Metrics 1 of " + std::to_string(tables) + ": What-if early-probe"),
            std::string::npos);
  EXPECT_EQ(count(split, "-13.09 s"), 1u) << "each config's cells once";
}

TEST(ReportHtml, TextFromFilesIsEscaped) {
  Report0908 r;
  const std::string hostile = "<script>alert('x')</script><img src=x onerror=\"y\">&amp;";
  r.incident.id = hostile;
  r.incident.title = hostile;
  r.incident.summary = hostile;
  r.incident.dependency.name = hostile;
  ReportInput input = r.input(ExportTarget::breakerlab_yaml);
  input.configs[1].title = hostile;
  input.configs[1].description = hostile;
  input.metrics[0].values[1] = hostile;
  ImportReport imported;
  imported.source = hostile;
  imported.format = hostile;
  imported.add(ImportFinding::Kind::recognised, 3, hostile, hostile);
  input.import_report = imported;
  const std::string html = reportHtml(buildReport(input));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img src=x"), std::string::npos);
  EXPECT_EQ(html.find("onerror=\""), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&amp;amp;"), std::string::npos);
}

TEST(ReportBuild, ImportReportOfAPostmortem) {
  ImportOptions options;
  options.calibrate = false;  // the report shows what the import found, calibrated or not
  const ImportedIncident imported = openIncidentFile(
      test::resourcePath("postmortems/inc-2026-0814-orders-postmortem.md"), options);
  ASSERT_NE(imported.source, IncidentSource::incident);
  ReportInput input;
  input.incident = &imported.incident;
  input.import_report = imported.report;
  input.configs.push_back({"Deployed config", "", imported.incident.deployed, {}, ""});
  const ReportDocument doc = buildReport(input);
  ASSERT_TRUE(doc.import_report.has_value());
  const std::string html = reportHtml(doc);
  EXPECT_NE(html.find("<h2>Import report</h2>"), std::string::npos);
  EXPECT_NE(html.find("retry.max_attempts"), std::string::npos);
  EXPECT_NE(html.find("recognised"), std::string::npos);
  // A file that was not imported has no import section.
  input.import_report.reset();
  EXPECT_EQ(reportHtml(buildReport(input)).find("Import report"), std::string::npos);
}

// The report names the file the user opened, and the document it was made from when that is
// another file (issue #33: only "Source document: 000_920d58d691c27eb2.txt" for an incident
// opened from another file).
TEST(ReportBuild, NamesTheFileTheUserOpened) {
  using Facts = std::vector<std::pair<std::string, std::string>>;
  struct Case {
    const char* what;
    std::string source;  // the incident's `source:`
    std::string opened;
    Facts facts;  // "File" and "Source document", as the report gives them
  };
  const Case cases[] = {
      {"a postmortem opened itself",
       "orders-postmortem.md",
       "orders-postmortem.md",
       {{"File", "orders-postmortem.md"}}},
      {"a postmortem opened by its path, which the import keeps as the source",
       "resources/postmortems/orders-postmortem.md",
       "orders-postmortem.md",
       {{"File", "orders-postmortem.md"}}},
      {"an incident saved from a postmortem",
       "payments-postmortem.md",
       "payments.yaml",
       {{"File", "payments.yaml"}, {"Source document", "payments-postmortem.md"}}},
      {"an incident without a source",
       "",
       "inc-2026-0908-pricing.yaml",
       {{"File", "inc-2026-0908-pricing.yaml"}}},
  };
  for (const Case& c : cases) {
    Report0908 r;
    r.incident.source = c.source;
    ReportInput input = r.input(ExportTarget::breakerlab_yaml);
    input.opened_file = c.opened;
    Facts facts;
    for (const auto& fact : buildReport(input).facts)
      if (fact.first == "File" || fact.first == "Source document") facts.push_back(fact);
    EXPECT_EQ(facts, c.facts) << c.what;
  }
}

TEST(ReportBuild, RefusesIncompleteInput) {
  const Report0908 r;
  ReportInput input = r.input(ExportTarget::breakerlab_yaml);
  input.metrics[0].values.pop_back();
  EXPECT_THROW(buildReport(input), std::invalid_argument);
  input = r.input(ExportTarget::breakerlab_yaml);
  input.configs.clear();
  EXPECT_THROW(buildReport(input), std::invalid_argument);
  // A config that follows resilience4j cannot be written as gobreaker's.
  input = r.input(ExportTarget::gobreaker);
  input.configs[1].config.breaker.library = BreakerLibrary::resilience4j;
  try {
    buildReport(input);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("What-if early-probe"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace breakerlab
