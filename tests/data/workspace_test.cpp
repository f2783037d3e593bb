// The workspace store: what it keeps, that runs replay to the same metrics, versions, errors.
#include "breakerlab/data/workspace.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/report_json.h"
#include "breakerlab/data/workspace_run.h"
#include "support/sanitizers.h"
#include "test_support.h"
#include "workspace/workspace_schema.h"
#include "workspace_test_support.h"

namespace breakerlab {
namespace {

using test::ScratchFile;

}  // namespace
void PrintTo(const StoredCheck& c, std::ostream* os) {
  *os << toString(c.kind) << " '" << c.text << "' " << (c.passed ? "passed" : "failed") << " ("
      << c.actual << ")";
}
namespace {

RunFilter textFilter(std::string text) {
  RunFilter f;
  f.text = std::move(text);
  return f;
}
RunFilter incidentFilter(std::int64_t id) {
  RunFilter f;
  f.incident_id = id;
  return f;
}
RunFilter limitFilter(int limit) {
  RunFilter f;
  f.limit = limit;
  return f;
}

TEST(Workspace, IsNewlyMadeWithWalTheSchemaAndTheApplicationId) {
  ScratchFile file("new");
  {
    const Workspace ws = Workspace::open(file.path());
    EXPECT_EQ(ws.schemaVersion(), kWorkspaceSchemaVersion);
    EXPECT_FALSE(ws.readOnly());
    EXPECT_EQ(ws.integrityCheck(), "ok");
  }
  EXPECT_EQ(test::pragma(file.path(), "journal_mode"), "wal");
  EXPECT_EQ(test::pragma(file.path(), "application_id"), std::to_string(kWorkspaceApplicationId));
  EXPECT_EQ(test::pragma(file.path(), "user_version"), std::to_string(kWorkspaceSchemaVersion));
}

TEST(Workspace, KeepsAnIncidentOnceAndGivesItBackAsOpened) {
  ScratchFile file("incident");
  Workspace ws = Workspace::open(file.path());
  const std::filesystem::path path = test::resourcePath(test::kPricingIncident);
  const ImportedIncident opened = openIncidentFile(path);
  const StoredIncident stored = storedIncidentOf(opened, path);
  const std::int64_t id = ws.addIncident(stored);
  EXPECT_EQ(ws.addIncident(stored), id) << "the same content is the same incident";
  ASSERT_EQ(ws.incidents().size(), 1u);

  const StoredIncident back = ws.incident(id);
  EXPECT_EQ(back.name, "INC-2026-0908");
  EXPECT_EQ(back.source_kind, "incident");
  EXPECT_EQ(back.source_name, "inc-2026-0908-pricing.yaml");
  EXPECT_EQ(back.source_document, test::readResource(test::kPricingIncident));
  EXPECT_EQ(back.content, stored.content);
  const Incident restored = restoreIncident(back);
  EXPECT_EQ(incidentToYaml(restored), incidentToYaml(opened.incident));
  EXPECT_THROW(ws.incident(id + 1), WorkspaceError);
}

// The same incident restored from the workspace (kept as YAML, with a run's seed, no file
// behind it) and added again is the incident the workspace holds, not a second one (issue #33:
// opening the workspace again listed it twice); another incident of the same id is another.
TEST(Workspace, AnIncidentAddedAgainAsItWasRestoredIsListedOnce) {
  ScratchFile file("restored");
  Workspace ws = Workspace::open(file.path());
  const std::filesystem::path path = test::resourcePath(test::kPricingIncident);
  const std::int64_t id = addIncidentOnce(ws, storedIncidentOf(openIncidentFile(path), path));

  Incident restored = restoreIncident(ws.incident(id));
  restored.seed += 7;  // opened with a run's seed
  const StoredIncident again = storedIncidentOf(
      ImportedIncident{restored, {}, IncidentSource::incident}, "inc-2026-0908-pricing.yaml");
  ASSERT_NE(again.content, ws.incident(id).content) << "not the same text: the file's, and YAML";
  EXPECT_FALSE(ws.findIncident(again)) << "so the text alone tells them apart";
  EXPECT_EQ(addIncidentOnce(ws, again), id);
  EXPECT_EQ(ws.incidents().size(), 1u);

  Incident other = restored;
  other.deployed.cache.ttl += kSecond;
  const std::int64_t other_id = addIncidentOnce(
      ws, storedIncidentOf(ImportedIncident{other, {}, IncidentSource::incident}, "x.yaml"));
  EXPECT_NE(other_id, id);
  EXPECT_EQ(ws.incidents().size(), 2u);
}

TEST(Workspace, KeepsTheImportReportOfAnImportedIncident) {
  ScratchFile file("imported");
  Workspace ws = Workspace::open(file.path());
  const std::filesystem::path path =
      test::resourcePath("postmortems/inc-2026-0908-pricing-postmortem.md");
  const ImportedIncident opened = openIncidentFile(path);
  ASSERT_FALSE(opened.report.findings.empty());
  const std::int64_t id = ws.addIncident(storedIncidentOf(opened, path));
  const StoredIncident back = ws.incident(id);
  EXPECT_NE(back.source_kind, "incident");
  EXPECT_EQ(back.import_report, opened.report.lines());
  EXPECT_EQ(incidentToYaml(restoreIncident(back)), incidentToYaml(opened.incident));
}

// A request log's incident refers to the log: the workspace keeps it, and the stored incident
// reads and replays without the original file.
TEST(Workspace, KeepsARequestLogWithItsIncident) {
  ScratchFile file("log");
  ScratchFile log("calls.csv");
  std::filesystem::copy_file(test::resourcePath("examples/calls.csv"), log.path());
  const ImportedIncident opened = openIncidentFile(log.path());
  ASSERT_NE(opened.incident.dependency.calls, nullptr);
  StoredIncident stored = storedIncidentOf(opened, log.path());
  ASSERT_EQ(stored.files.size(), 1u);
  EXPECT_EQ(stored.files[0].bytes, test::readResource("examples/calls.csv"));
  std::int64_t id = 0;
  {
    Workspace ws = Workspace::open(file.path());
    id = ws.addIncident(stored);
  }
  std::filesystem::remove(log.path());
  const Incident restored = restoreIncident(Workspace::open(file.path()).incident(id));
  const RunInputs inputs = inputsOf(opened.incident, opened.incident.deployed);
  EXPECT_EQ(replayRun(restored, inputs).metrics_json,
            replayRun(opened.incident, inputs).metrics_json);
}

// A request log opened by a relative path with a folder (from the working directory) is kept
// whole; the same incident text with another log is another incident.
TEST(Workspace, KeepsARequestLogOpenedByARelativePathAndTellsLogsApart) {
  ScratchFile file("relative");
  const std::filesystem::path folder = file.directory() / "logs";
  std::filesystem::create_directories(folder);
  std::filesystem::copy_file(test::resourcePath("examples/calls.csv"), folder / "calls.csv");
  const std::filesystem::path before = std::filesystem::current_path();
  std::filesystem::current_path(file.directory());
  const std::filesystem::path relative = "logs/calls.csv";
  const ImportedIncident opened = openIncidentFile(relative);
  const StoredIncident stored = storedIncidentOf(opened, relative);
  std::filesystem::current_path(before);
  ASSERT_EQ(stored.files.size(), 1u);
  EXPECT_EQ(stored.files[0].bytes, test::readResource("examples/calls.csv"));

  Workspace ws = Workspace::open(file.path());
  const std::int64_t id = ws.addIncident(stored);
  StoredIncident other_log = stored;
  other_log.files[0].bytes += "\n";
  EXPECT_NE(ws.addIncident(other_log), id);
  EXPECT_EQ(ws.addIncident(stored), id);
  EXPECT_EQ(ws.incidents().size(), 2u);
}

TEST(Workspace, SavesConfigsByNameReplacingTheOneOfTheSameName) {
  ScratchFile file("configs");
  Workspace ws = Workspace::open(file.path());
  const auto path = test::resourcePath(test::kPricingIncident);
  const ImportedIncident opened = openIncidentFile(path);
  const std::int64_t incident = ws.addIncident(storedIncidentOf(opened, path));
  Config probe = opened.incident.deployed;
  probe.breaker.open_interval = 5 * kSecond;
  const std::int64_t a = ws.saveConfig(incident, "short open", probe);
  const std::int64_t b = ws.saveConfig(incident, "Deployed", opened.incident.deployed);
  probe.breaker.open_interval = 7 * kSecond;
  EXPECT_EQ(ws.saveConfig(incident, "short open", probe), a) << "replaced, not added";
  const std::vector<StoredConfig> configs = ws.configs(incident);
  ASSERT_EQ(configs.size(), 2u);
  EXPECT_EQ(configs[0].id, b) << "by name, case-insensitive";
  EXPECT_EQ(configs[1].name, "short open");
  EXPECT_EQ(configs[1].config, probe);
  EXPECT_EQ(configs[1].library, "breakerlab");
  EXPECT_EQ(ws.config(a).config, probe);
  EXPECT_THROW(ws.saveConfig(incident, "", probe), WorkspaceError);
  EXPECT_THROW(ws.saveConfig(incident + 7, "x", probe), WorkspaceError);
  ws.deleteConfig(a);
  EXPECT_EQ(ws.configs(incident).size(), 1u);
}

// Every bundled incident with its deployed config and each what-if, and one with moved changes
// and a longer outage: saved, reopened from the workspace alone and replayed, the metrics are
// the same text byte for byte.
TEST(Workspace, AReopenedRunReplaysToByteIdenticalMetrics) {
  ScratchFile file("replay");
  Workspace ws = Workspace::open(file.path());
  int checked = 0;
  for (const std::string& name : test::bundledIncidentFiles()) {
    const auto path = test::resourcePath("incidents/" + name);
    const ImportedIncident opened = openIncidentFile(path);
    const std::int64_t incident = ws.addIncident(storedIncidentOf(opened, path));
    std::vector<RunInputs> inputs{inputsOf(opened.incident, opened.incident.deployed)};
    // Under the sanitizers the first what-if only (support/sanitizers.h).
    const std::size_t what_ifs = test::configsUnderTest(opened.incident.what_ifs.size() + 1) - 1;
    for (std::size_t n = 0; n < what_ifs; ++n) {
      const WhatIf& w = opened.incident.what_ifs[n];
      RunInputs i = inputsOf(opened.incident, w.config);
      if (w.changes) i.changes = *w.changes;
      inputs.push_back(std::move(i));
    }
    std::vector<std::int64_t> ids;
    for (const RunInputs& i : inputs)
      ids.push_back(ws.saveRun(newRunOf(incident, i, replayRun(opened.incident, i), "r")));

    const Incident restored = restoreIncident(ws.incident(incident));
    for (const std::int64_t id : ids) {
      const StoredRun run = ws.run(id);
      const ReplayedRun again = replayRun(restored, run.inputs);
      EXPECT_EQ(again.metrics_json, run.metrics_json) << name << " run " << id;
      EXPECT_EQ(storedChecksOf(again.checks), run.checks) << name << " run " << id;
      ++checked;
    }
  }
  EXPECT_GE(checked, 10);
}

TEST(Workspace, ARunKeepsItsSeedMovedChangesAndScenarioExactly) {
  ScratchFile file("inputs");
  Workspace ws = Workspace::open(file.path());
  const auto path = test::resourcePath("incidents/inc-2026-0912-payment-timeout.yaml");
  const ImportedIncident opened = openIncidentFile(path);
  ASSERT_FALSE(opened.incident.changes.empty());
  const std::int64_t incident = ws.addIncident(storedIncidentOf(opened, path));

  RunInputs inputs = inputsOf(opened.incident, opened.incident.deployed);
  inputs.seed = 18446744073709551615ull;  // the largest: stored as text, not a signed integer
  inputs.config.breaker.open_interval = 12'345'678;
  inputs.config.timeout.attempt = 333'333;
  std::vector<TimedChange> moved = opened.incident.changes;
  moved[0].at += 1'234'567;  // not a round number of anything
  moved[0].enabled = false;
  inputs.changes = moved;
  inputs.scenario.outage_extend = 20 * kSecond;
  inputs.scenario.traffic_scale = 1.0 / 3.0;

  const ReplayedRun replayed = replayRun(opened.incident, inputs);
  const std::int64_t id = ws.saveRun(newRunOf(incident, inputs, replayed, "moved"));
  const StoredRun run = ws.run(id);
  EXPECT_EQ(run.inputs, inputs);
  EXPECT_EQ(run.name, "moved");
  EXPECT_EQ(run.library, "breakerlab");
  EXPECT_EQ(run.app_version, breakerlabVersion());
  EXPECT_EQ(run.metrics_json, replayed.metrics_json);
  const Incident restored = restoreIncident(ws.incident(incident));
  EXPECT_EQ(replayRun(restored, run.inputs).metrics_json, run.metrics_json);
  // The moved change does matter: the incident's own changes replay differently.
  RunInputs own = inputs;
  own.changes.reset();
  EXPECT_NE(replayRun(restored, own).metrics_json, run.metrics_json);
}

TEST(Workspace, MetricsJsonIsTheReportsMetricsObject) {
  const ImportedIncident opened = openIncidentFile(test::resourcePath(test::kPricingIncident));
  const Result result = simulate(opened.incident, opened.incident.deployed);
  EXPECT_EQ(metricsJsonOf(opened.incident, result),
            replayToJson(opened.incident, result, Checks{})["metrics"].dump());
}

TEST(Workspace, ListsRunsNewestFirstFilteredAndLimited) {
  ScratchFile file("list");
  Workspace ws = Workspace::open(file.path());
  test::Fixture fixture = test::makeFixture(ws, 2);
  for (int i = 0; i < 6; ++i) {
    NewRun run = fixture.runs[i % fixture.runs.size()];
    run.name = i % 2 == 0 ? "even " + std::to_string(i) : "Odd " + std::to_string(i);
    ws.saveRun(run);
  }
  const std::vector<RunSummary> all = ws.runs();
  ASSERT_EQ(all.size(), 6u);
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_GT(all[i - 1].id, all[i].id);
  EXPECT_EQ(all.front().name, "Odd 5");
  EXPECT_EQ(ws.runs(textFilter("odd")).size(), 3u) << "case-insensitive";
  EXPECT_EQ(ws.runs(textFilter("0908")).size(),
            ws.runs(incidentFilter(fixture.incidents[0])).size());
  EXPECT_EQ(ws.runs(limitFilter(2)).size(), 2u);
  const RunSummary& first = all.back();
  ASSERT_TRUE(first.failed_checkouts.has_value());
  const auto metrics = nlohmann::json::parse(ws.run(first.id).metrics_json);
  EXPECT_EQ(*first.failed_checkouts, metrics["failed_checkouts"].get<double>());
  EXPECT_EQ(*first.cached_while_healthy_s, metrics["cached_while_healthy_s"].get<double>());
  EXPECT_TRUE(first.calibration_passed.value_or(false));
}

TEST(Workspace, KeepsOneNotePerIncidentAndRun) {
  ScratchFile file("notes");
  Workspace ws = Workspace::open(file.path());
  test::Fixture fixture = test::makeFixture(ws, 1);
  const std::int64_t run = ws.saveRun(fixture.runs[0]);
  const NoteTarget on_incident{NoteTarget::Kind::incident, fixture.incidents[0]};
  const NoteTarget on_run{NoteTarget::Kind::run, run};
  ws.setNote(on_incident, "breaker stayed open 14 s");
  ws.setNote(on_run, "first try");
  ws.setNote(on_run, "second thoughts");
  EXPECT_EQ(ws.note(on_incident), "breaker stayed open 14 s");
  EXPECT_EQ(ws.note(on_run), "second thoughts");
  EXPECT_TRUE(ws.runs().front().has_note);
  ws.setNote(on_run, "");
  EXPECT_EQ(ws.note(on_run), "");
  EXPECT_FALSE(ws.runs().front().has_note);
  EXPECT_THROW(ws.setNote({NoteTarget::Kind::run, run + 100}, "x"), WorkspaceError);
}

TEST(Workspace, AutosavesOneTuningAndClearsIt) {
  ScratchFile file("autosave");
  Workspace ws = Workspace::open(file.path());
  test::Fixture fixture = test::makeFixture(ws, 1);
  EXPECT_FALSE(ws.autosaved().has_value());
  Autosave a{fixture.incidents[0], fixture.runs[0].inputs, {}};
  a.inputs.config.breaker.open_interval = 3 * kSecond;
  ws.autosave(a);
  a.inputs.config.breaker.open_interval = 4 * kSecond;
  ws.autosave(a);
  const auto back = Workspace::open(file.path()).autosaved();
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->incident_id, a.incident_id);
  EXPECT_EQ(back->inputs, a.inputs) << "the last one";
  EXPECT_FALSE(back->saved_at.empty());
  ws.clearAutosave();
  EXPECT_FALSE(ws.autosaved().has_value());
}

TEST(Workspace, RefusesAWorkspaceOfANewerVersionAndLeavesItAlone) {
  ScratchFile file("newer");
  { Workspace::open(file.path()); }
  test::execSql(file.path(), "PRAGMA user_version = 99");
  try {
    Workspace::open(file.path());
    FAIL() << "opened";
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(e.kind(), WorkspaceError::Kind::newer_version);
    EXPECT_NE(std::string(e.what()).find("newer BreakerLab (workspace schema 99"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(test::pragma(file.path(), "user_version"), "99");
}

TEST(Workspace, TellsOtherFilesFromAWorkspace) {
  ScratchFile text("text");
  {
    std::ofstream out(text.path());
    out << "format: breakerlab/1\nid: not-a-database\n";
  }
  try {
    Workspace::open(text.path());
    FAIL();
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(e.kind(), WorkspaceError::Kind::not_a_workspace);
    EXPECT_NE(std::string(e.what()).find("not an SQLite database"), std::string::npos);
  }
  ScratchFile other("other");
  test::execSql(other.path(), "CREATE TABLE t(x)");
  try {
    Workspace::open(other.path());
    FAIL();
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(e.kind(), WorkspaceError::Kind::not_a_workspace);
    EXPECT_NE(std::string(e.what()).find("another program"), std::string::npos);
  }
  ScratchFile missing("missing");
  EXPECT_THROW(Workspace::open(missing.path(), Workspace::Access::read_only), WorkspaceError);
  EXPECT_THROW(Workspace::open(std::filesystem::temp_directory_path()), WorkspaceError);
}

TEST(Workspace, ReadOnlyAccessReadsEverythingAndSavesNothing) {
  ScratchFile file("readonly");
  std::int64_t run = 0;
  {
    Workspace ws = Workspace::open(file.path());
    test::Fixture fixture = test::makeFixture(ws, 1);
    run = ws.saveRun(fixture.runs[0]);
  }
  Workspace ws = Workspace::open(file.path(), Workspace::Access::read_only);
  EXPECT_TRUE(ws.readOnly());
  EXPECT_EQ(ws.runs().size(), 1u);
  const StoredRun stored = ws.run(run);
  try {
    ws.saveRun(stored);
    FAIL();
  } catch (const WorkspaceError& e) {
    EXPECT_EQ(e.kind(), WorkspaceError::Kind::read_only);
    EXPECT_NE(std::string(e.what()).find("nothing was saved"), std::string::npos);
  }
  EXPECT_EQ(ws.runs().size(), 1u);
}

// Schema 1 (checks as one JSON column, no notes or autosave), built by its own script, opens
// as schema 2 with every run's metrics and checks as rows.
TEST(WorkspaceMigration, FromSchemaOneKeepsEveryRunAndFillsTheNewTables) {
  ScratchFile file("v1");
  test::execSql(file.path(),
                std::string(workspace_detail::schemaScript(1)) + "PRAGMA application_id = " +
                    std::to_string(kWorkspaceApplicationId) + "; PRAGMA user_version = 1;");
  const auto path = test::resourcePath(test::kPricingIncident);
  const ImportedIncident opened = openIncidentFile(path);
  const StoredIncident stored = storedIncidentOf(opened, path);
  const RunInputs inputs = inputsOf(opened.incident, opened.incident.deployed);
  const ReplayedRun replayed = replayRun(opened.incident, inputs);
  const NewRun run = newRunOf(1, inputs, replayed, "from v1");
  nlohmann::json checks = nlohmann::json::array();
  for (const StoredCheck& c : run.checks)
    checks.push_back({{"kind", std::string(toString(c.kind))},
                      {"text", c.text},
                      {"passed", c.passed},
                      {"actual", c.actual}});
  test::execSqlWith(file.path(),
                    "INSERT INTO incidents(id, name, title, source_kind, source_name, "
                    "source_document, content, content_hash, added_at) VALUES (1, ?1, '', "
                    "'incident', 'x.yaml', x'', ?2, 'h', '2026-01-01T00:00:00.000Z')",
                    {stored.name, stored.content});
  test::execSqlWith(
      file.path(),
      "INSERT INTO runs(incident_id, name, config, library, seed, app_version, "
      "created_at, metrics, checks) VALUES (1, 'from v1', ?1, 'breakerlab', ?2, "
      "'0.0.9', '2026-01-01T00:00:00.000Z', ?3, ?4)",
      {configToYaml(inputs.config), std::to_string(inputs.seed), run.metrics_json, checks.dump()});

  Workspace ws = Workspace::open(file.path());
  EXPECT_EQ(ws.schemaVersion(), 2);
  EXPECT_EQ(ws.integrityCheck(), "ok");
  const std::vector<RunSummary> runs = ws.runs();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].goals_total, static_cast<int>(replayed.checks.goals.size()));
  const StoredRun back = ws.run(runs[0].id);
  EXPECT_EQ(back.checks, run.checks);
  EXPECT_EQ(back.metrics_json, run.metrics_json);
  EXPECT_EQ(back.app_version, "0.0.9");
  ASSERT_TRUE(runs[0].failed_checkouts.has_value());
  EXPECT_EQ(*runs[0].failed_checkouts,
            nlohmann::json::parse(run.metrics_json)["failed_checkouts"].get<double>());
  ws.setNote({NoteTarget::Kind::run, back.id}, "notes exist after the upgrade");
  EXPECT_EQ(test::pragma(file.path(), "user_version"), "2");
}

TEST(WorkspaceMigration, EveryEarlierSchemaHasAScriptAndTheCurrentOneIsWhatANewFileHas) {
  for (int v = 1; v <= kWorkspaceSchemaVersion; ++v)
    EXPECT_FALSE(workspace_detail::schemaScript(v).empty()) << v;
  // A migrated schema 1 file and a new file have the same tables and columns.
  ScratchFile migrated("migrated"), fresh("fresh");
  test::execSql(migrated.path(),
                std::string(workspace_detail::schemaScript(1)) + "PRAGMA application_id = " +
                    std::to_string(kWorkspaceApplicationId) + "; PRAGMA user_version = 1;");
  { Workspace::open(migrated.path()); }
  { Workspace::open(fresh.path()); }
  EXPECT_EQ(test::columns(migrated.path()), test::columns(fresh.path()));
}

}  // namespace
}  // namespace breakerlab
