#include "workspace/workspace_schema.h"

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json_document.h"

namespace breakerlab::workspace_detail {

namespace {

// Version 1: incidents, their files, named configs and runs, a run's checks as one JSON list.
constexpr std::string_view kSchema1 = R"sql(
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE incidents (
  id              INTEGER PRIMARY KEY,
  name            TEXT NOT NULL,
  title           TEXT NOT NULL DEFAULT '',
  source_kind     TEXT NOT NULL,
  source_name     TEXT NOT NULL DEFAULT '',
  source_document BLOB NOT NULL,
  content         TEXT NOT NULL,
  content_hash    TEXT NOT NULL,
  import_report   TEXT NOT NULL DEFAULT '',
  added_at        TEXT NOT NULL
);
CREATE INDEX incidents_by_hash ON incidents(content_hash);
CREATE TABLE incident_files (
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  bytes       BLOB NOT NULL,
  PRIMARY KEY (incident_id, name)
);
CREATE TABLE configs (
  id          INTEGER PRIMARY KEY,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  name        TEXT NOT NULL CHECK (name <> ''),
  library     TEXT NOT NULL,
  content     TEXT NOT NULL,
  saved_at    TEXT NOT NULL,
  UNIQUE (incident_id, name)
);
CREATE TABLE runs (
  id               INTEGER PRIMARY KEY,
  incident_id      INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  config_id        INTEGER REFERENCES configs(id) ON DELETE SET NULL,
  name             TEXT NOT NULL DEFAULT '',
  config           TEXT NOT NULL,
  library          TEXT NOT NULL,
  seed             TEXT NOT NULL,
  changes          TEXT,
  outage_extend_us INTEGER NOT NULL DEFAULT 0,
  traffic_scale    REAL NOT NULL DEFAULT 1,
  latency_scale    REAL NOT NULL DEFAULT 1,
  capacity_scale   REAL NOT NULL DEFAULT 1,
  app_version      TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  metrics          TEXT NOT NULL,
  checks           TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX runs_by_incident ON runs(incident_id, id);
)sql";

// Version 2: every metric and check of a run as rows (queryable from the sqlite3 shell, and the
// run list no longer parses JSON), notes on incidents and runs, the autosaved tuning.
constexpr std::string_view kSchema2Additions = R"sql(
CREATE TABLE run_metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  value  REAL,
  PRIMARY KEY (run_id, metric)
) WITHOUT ROWID;
CREATE TABLE run_checks (
  run_id   INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  kind     TEXT NOT NULL CHECK (kind IN ('calibration', 'goal', 'check')),
  text     TEXT NOT NULL,
  passed   INTEGER NOT NULL CHECK (passed IN (0, 1)),
  actual   TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
CREATE TABLE notes (
  incident_id INTEGER REFERENCES incidents(id) ON DELETE CASCADE,
  run_id      INTEGER REFERENCES runs(id) ON DELETE CASCADE,
  text        TEXT NOT NULL,
  written_at  TEXT NOT NULL,
  CHECK ((incident_id IS NULL) <> (run_id IS NULL))
);
CREATE UNIQUE INDEX notes_of_incidents ON notes(incident_id) WHERE incident_id IS NOT NULL;
CREATE UNIQUE INDEX notes_of_runs ON notes(run_id) WHERE run_id IS NOT NULL;
CREATE TABLE autosave (
  slot             INTEGER PRIMARY KEY CHECK (slot = 1),
  incident_id      INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  config           TEXT NOT NULL,
  seed             TEXT NOT NULL,
  changes          TEXT,
  outage_extend_us INTEGER NOT NULL DEFAULT 0,
  traffic_scale    REAL NOT NULL DEFAULT 1,
  latency_scale    REAL NOT NULL DEFAULT 1,
  capacity_scale   REAL NOT NULL DEFAULT 1,
  saved_at         TEXT NOT NULL
);
)sql";

std::string schema2() {
  std::string s(kSchema1);
  // Version 2 keeps the runs table without its checks column.
  const std::string checks_column = ",\n  checks           TEXT NOT NULL DEFAULT '[]'\n";
  s.replace(s.find(checks_column), checks_column.size(), "\n");
  return s + std::string(kSchema2Additions);
}

void backfillRunRows(Db& db) {
  Statement runs(db, "SELECT id, metrics, checks FROM runs ORDER BY id");
  Statement check(db,
                  "INSERT INTO run_checks(run_id, position, kind, text, passed, actual) "
                  "VALUES (?, ?, ?, ?, ?, ?)");
  while (runs.step()) {
    const std::int64_t id = runs.integer(0);
    const auto metrics = data_detail::parseStoredJson(runs.text(1));
    const auto checks = data_detail::parseStoredJson(runs.text(2));
    if (metrics.is_discarded() || !metrics.is_object() || checks.is_discarded() ||
        !checks.is_array())
      throw WorkspaceError(WorkspaceError::Kind::corrupt,
                           db.path().string() + ": run " + std::to_string(id) +
                               " has unreadable metrics or checks; the workspace was not changed");
    insertRunMetrics(db, id, metrics);
    std::int64_t position = 0;
    for (const auto& c : checks) {
      check.bind(1, id).bind(2, position++);
      check.bind(3, std::string_view(c.value("kind", std::string("check"))));
      check.bind(4, std::string_view(c.value("text", std::string())));
      check.bind(5, std::int64_t{c.value("passed", false) ? 1 : 0});
      check.bind(6, std::string_view(c.value("actual", std::string())));
      check.run();
    }
  }
}

}  // namespace

void insertRunMetrics(Db& db, std::int64_t run_id, const nlohmann::json& metrics) {
  Statement m(db, "INSERT INTO run_metrics(run_id, metric, value) VALUES (?, ?, ?)");
  for (const auto& [name, value] : metrics.items()) {
    m.bind(1, run_id).bind(2, std::string_view(name));
    if (value.is_number()) {
      m.bind(3, value.get<double>());
    } else {
      m.bindNull(3);
    }
    m.run();
  }
}

std::string_view schemaScript(int version) {
  static const std::string two = schema2();
  switch (version) {
    case 1:
      return kSchema1;
    case 2:
      return two;
    default:
      return {};
  }
}

namespace {

// Table name -> its column names in order.
using Tables = std::map<std::string, std::vector<std::string>>;

Tables tablesOf(Db& db) {
  Tables tables;
  Statement names(db,
                  "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                  "'sqlite_%' ORDER BY name");
  Statement columns(db, "SELECT name FROM pragma_table_info(?) ORDER BY cid");
  while (names.step()) {
    const std::string table = names.text(0);
    std::vector<std::string>& out = tables[table];
    columns.bind(1, std::string_view(table));
    while (columns.step()) out.push_back(columns.text(0));
    columns.reset();
  }
  return tables;
}

// The tables each version's script makes, built once in memory (a millisecond).
const Tables& tablesOfVersion(int version) {
  static const std::vector<Tables> all = [] {
    std::vector<Tables> out(kWorkspaceSchemaVersion + 1);
    for (int v = 1; v <= kWorkspaceSchemaVersion; ++v) {
      Db scratch(":memory:", Db::Mode::memory);
      scratch.exec(schemaScript(v));
      out[static_cast<std::size_t>(v)] = tablesOf(scratch);
    }
    return out;
  }();
  return all.at(static_cast<std::size_t>(version));
}

// How `tables` differ from `expected`: empty when they hold every expected table as it is.
std::string differenceFrom(const Tables& tables, const Tables& expected) {
  for (const auto& [name, columns] : expected) {
    const auto found = tables.find(name);
    if (found == tables.end()) return "it has no table " + name;
    if (found->second != columns) {
      std::string has;
      for (const std::string& c : found->second) has += (has.empty() ? "" : ", ") + c;
      return "its table " + name + " has the columns (" + has + ")";
    }
  }
  return {};
}

}  // namespace

namespace {

struct CheckConstraint {
  std::string table;
  std::string expression;
};

// The CHECK constraints in a schema script of ours, read from its text so that a new version's
// are never left out: "CHECK (" up to its closing parenthesis (quotes respected), in the
// CREATE TABLE it is part of.
std::vector<CheckConstraint> checkConstraintsOf(std::string_view script) {
  std::vector<CheckConstraint> out;
  std::string table;
  constexpr std::string_view kCreate = "CREATE TABLE ", kCheck = "CHECK (";
  for (std::size_t at = 0; at < script.size();) {
    const std::size_t create = script.find(kCreate, at), check = script.find(kCheck, at);
    if (create == std::string_view::npos && check == std::string_view::npos) break;
    if (create < check) {
      const std::size_t name = create + kCreate.size();
      const std::size_t end = script.find_first_of(" (", name);
      table = std::string(script.substr(name, end - name));
      at = end;
      continue;
    }
    const std::size_t open = check + kCheck.size() - 1;
    int depth = 0;
    bool quoted = false;
    std::size_t close = open;
    for (; close < script.size(); ++close) {
      const char c = script[close];
      if (c == '\'') quoted = !quoted;
      if (quoted) continue;
      if (c == '(') ++depth;
      if (c == ')' && --depth == 0) break;
    }
    out.push_back({table, std::string(script.substr(open + 1, close - open - 1))});
    at = close;
  }
  return out;
}

}  // namespace

std::string brokenCheckConstraint(Db& db, int version) {
  for (const CheckConstraint& c : checkConstraintsOf(schemaScript(version))) {
    // NOT (x) is NULL, not true, when x is NULL: a constraint fails only when false, as in SQLite.
    Statement s(db, "SELECT 1 FROM \"" + c.table + "\" WHERE NOT (" + c.expression + ") LIMIT 1");
    if (s.step()) return "CHECK constraint failed in " + c.table;
  }
  return {};
}

int schemaOfTables(Db& db, int claimed, std::string& difference) {
  const Tables tables = tablesOf(db);
  difference.clear();
  for (int v = kWorkspaceSchemaVersion; v >= 1; --v)
    if (differenceFrom(tables, tablesOfVersion(v)).empty()) return v;
  if (claimed >= 1 && claimed <= kWorkspaceSchemaVersion)
    difference = differenceFrom(tables, tablesOfVersion(claimed));
  return 0;
}

void createSchema(Db& db) {
  db.exec(schemaScript(kWorkspaceSchemaVersion));
  db.exec("PRAGMA user_version = " + std::to_string(kWorkspaceSchemaVersion));
}

void migrate(Db& db, int from) {
  if (from < 2) {
    db.exec(kSchema2Additions);
    backfillRunRows(db);
    db.exec("ALTER TABLE runs DROP COLUMN checks");
  }
  db.exec("PRAGMA user_version = " + std::to_string(kWorkspaceSchemaVersion));
}

}  // namespace breakerlab::workspace_detail
