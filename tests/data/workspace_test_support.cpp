#include "workspace_test_support.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/workspace_run.h"
#include "test_support.h"

namespace breakerlab::test {

namespace {
struct Connection {
  explicit Connection(const std::filesystem::path& file) {
    if (sqlite3_open(file.c_str(), &db) != SQLITE_OK)
      throw std::runtime_error("cannot open " + file.string());
  }
  ~Connection() { sqlite3_close(db); }
  void exec(const std::string& sql) const {
    char* error = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      const std::string message = error != nullptr ? error : "?";
      sqlite3_free(error);
      throw std::runtime_error(sql + ": " + message);
    }
  }
  sqlite3* db = nullptr;
};

std::vector<std::string> rowsOf(const Connection& c, const std::string& sql) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(c.db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(sql + ": " + sqlite3_errmsg(c.db));
  std::vector<std::string> rows;
  while (sqlite3_step(s) == SQLITE_ROW) {
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
    rows.emplace_back(text != nullptr ? text : "");
  }
  sqlite3_finalize(s);
  return rows;
}
}  // namespace

ScratchFile::ScratchFile(const std::string& name) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "breakerlab-ws-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = std::filesystem::path(pattern) / (name + std::string(kWorkspaceSuffix));
}

ScratchFile::~ScratchFile() {
  std::error_code ec;
  std::filesystem::remove_all(path_.parent_path(), ec);
}

std::string pragma(const std::filesystem::path& file, const std::string& name) {
  const Connection c(file);
  const auto rows = rowsOf(c, "PRAGMA " + name);
  return rows.empty() ? std::string() : rows.front();
}

void execSql(const std::filesystem::path& file, const std::string& sql) {
  Connection(file).exec(sql);
}

void execSqlWith(const std::filesystem::path& file, const std::string& sql,
                 const std::vector<std::string>& texts) {
  const Connection c(file);
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(c.db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
    throw std::runtime_error(sql + ": " + sqlite3_errmsg(c.db));
  for (std::size_t i = 0; i < texts.size(); ++i)
    sqlite3_bind_text(s, static_cast<int>(i + 1), texts[i].c_str(), -1, SQLITE_TRANSIENT);
  const int code = sqlite3_step(s);
  sqlite3_finalize(s);
  if (code != SQLITE_DONE) throw std::runtime_error(sql + ": " + sqlite3_errmsg(c.db));
}

std::vector<std::string> columns(const std::filesystem::path& file) {
  const Connection c(file);
  std::vector<std::string> out;
  for (const std::string& table :
       rowsOf(c, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
    std::string line = table + "(";
    for (const std::string& column :
         rowsOf(c,
                "SELECT name || ' ' || type || CASE WHEN \"notnull\" THEN ' not null' ELSE '' "
                "END FROM pragma_table_info('" +
                    table + "')"))
      line += column + ", ";
    out.push_back(line + ")");
  }
  for (const std::string& index :
       rowsOf(c, "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name"))
    out.push_back("index " + index);
  return out;
}

std::vector<std::string> bundledIncidentFiles() {
  return {"inc-2026-0908-pricing.yaml", "inc-2026-0814-orders.yaml",
          "inc-2026-0912-payment-timeout.yaml", "inc-payment-retry-amplification.yaml",
          "teach-metastable-retries.yaml"};
}

Fixture makeFixture(Workspace& ws, int incidents) {
  Fixture fixture;
  const std::vector<std::string> files = bundledIncidentFiles();
  for (int i = 0; i < incidents && i < static_cast<int>(files.size()); ++i) {
    const std::filesystem::path path = resourcePath("incidents/" + files[i]);
    const ImportedIncident opened = openIncidentFile(path);
    const std::int64_t incident = ws.addIncident(storedIncidentOf(opened, path));
    fixture.incidents.push_back(incident);
    std::vector<std::pair<std::string, Config>> configs{{"deployed", opened.incident.deployed}};
    for (const WhatIf& w : opened.incident.what_ifs)
      if (configs.size() < 3) configs.emplace_back(w.name, w.config);
    while (configs.size() < 3) {
      Config c = opened.incident.deployed;
      c.breaker.open_interval += static_cast<Micros>(configs.size()) * kSecond;
      configs.emplace_back("open +" + std::to_string(configs.size()) + " s", c);
    }
    for (const auto& [name, config] : configs) {
      const std::int64_t id = ws.saveConfig(incident, name, config);
      fixture.configs.push_back(id);
      const RunInputs inputs = inputsOf(opened.incident, config);
      NewRun run = newRunOf(incident, inputs, replayRun(opened.incident, inputs), name);
      run.config_id = id;
      fixture.runs.push_back(std::move(run));
    }
  }
  return fixture;
}

}  // namespace breakerlab::test
