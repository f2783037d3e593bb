// The workspace store: one SQLite database, WAL journal, every write one transaction.
#include "breakerlab/data/workspace.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/load_error.h"
#include "workspace/run_inputs_text.h"
#include "workspace/sqlite_db.h"
#include "workspace/workspace_lock.h"
#include "workspace/workspace_path.h"
#include "workspace/workspace_schema.h"

#ifndef BREAKERLAB_VERSION
#define BREAKERLAB_VERSION "unknown"
#endif

namespace breakerlab {

using workspace_detail::Db;
using workspace_detail::Statement;
using workspace_detail::Transaction;
using Kind = WorkspaceError::Kind;

// A save this long after the check at open checks the file again first.
constexpr std::chrono::seconds kRecheckAfter{1};

std::string_view breakerlabVersion() {
  return BREAKERLAB_VERSION;
}

std::string_view toString(StoredCheck::Kind kind) {
  switch (kind) {
    case StoredCheck::Kind::calibration:
      return "calibration";
    case StoredCheck::Kind::goal:
      return "goal";
    case StoredCheck::Kind::check:
      break;
  }
  return "check";
}

struct Workspace::Impl {
  Impl(const std::filesystem::path& path, Db::Mode mode) : db(path, mode) {}
  // Before db: held until the connection is closed (workspace_lock.h).
  std::shared_ptr<const workspace_detail::WorkspaceLock> lock;
  Db db;
  int schema_version = 0;
  // When PRAGMA integrity_check last found the file sound, and whether a write transaction of this
  // connection has checked it since (or needed not: the check at open was a moment before).
  std::chrono::steady_clock::time_point checked_at;
  bool checked_for_write = false;

  std::string where() const { return db.path().string(); }
  void requireWritable() const {
    if (!db.readOnly()) return;
    if (!db.readOnlyReason().empty())
      throw WorkspaceError(Kind::read_only, where() + ": cannot save into the workspace: " +
                                                db.readOnlyReason() + "; nothing was saved");
    throw WorkspaceError(Kind::read_only,
                         where() + ": the workspace is open read-only; nothing was saved");
  }
  // Inside the first write transaction: the file may have been damaged since it was opened (a
  // workbench keeps it open for hours), and a save into a damaged file can spread the damage.
  // The transaction's lock keeps other writers out until the save is done. Skipped when the
  // check at open was under kRecheckAfter ago (a CLI save): the check reads the whole file,
  // about 5 ms per MB, and twice in a row finds the same.
  void checkBeforeFirstWrite();
  [[noreturn]] void notFound(std::string_view what, std::int64_t id) const {
    throw WorkspaceError(Kind::not_found, where() + ": there is no " + std::string(what) + " " +
                                              std::to_string(id) + " in the workspace");
  }
};

namespace {

std::optional<StoredCheck::Kind> checkKindFrom(std::string_view text) {
  for (const auto kind :
       {StoredCheck::Kind::calibration, StoredCheck::Kind::goal, StoredCheck::Kind::check})
    if (toString(kind) == text) return kind;
  return std::nullopt;
}

std::uint64_t seedFrom(const std::string& text, const std::string& where) {
  std::uint64_t seed = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seed);
  if (ec != std::errc() || end != text.data() + text.size())
    throw WorkspaceError(Kind::corrupt, where + ": the stored seed \"" + clipText(text) +
                                            "\" is not a whole number");
  return seed;
}

Config configFrom(const std::string& yaml, const std::string& where) {
  try {
    return parseConfig(yaml, where);
  } catch (const LoadError& e) {
    throw WorkspaceError(Kind::corrupt, std::string(e.what()));
  }
}

// PRAGMA integrity_check's first complaint, or empty when the file is sound. It reads every page
// and checks the b-trees, the free list, each row's NOT NULL and CHECK constraints, and that
// every index (a WITHOUT ROWID table is one) holds its table's rows in order. quick_check leaves
// out the last, and random bit flips in a workspace leave indexes well formed but out of order
// (WorkspaceDamage tests): integrity_check costs about a quarter more (docs/workspace.md). A file
// too damaged to check fails the pragma itself, and that error is the complaint.
std::string integrityProblem(Db& db) {
  sqlite3_stmt* stmt = nullptr;
  int code = sqlite3_prepare_v2(db.handle(), "PRAGMA integrity_check(1)", -1, &stmt, nullptr);
  std::string first;
  if (code == SQLITE_OK) {
    code = sqlite3_step(stmt);
    if (code == SQLITE_ROW) {
      const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
      first = text != nullptr ? text : "";
      code = SQLITE_OK;
    }
  }
  if (code != SQLITE_OK && code != SQLITE_DONE) {
    code = sqlite3_extended_errcode(db.handle());
    first = sqlite3_errmsg(db.handle());
  }
  sqlite3_finalize(stmt);
  // One line: integrity_check heads its complaints with "*** in database main ***" and a
  // newline.
  constexpr std::string_view kHeading = "*** in database main ***";
  if (first.rfind(kHeading, 0) == 0) first.erase(0, kHeading.size());
  for (char& c : first)
    if (c == '\n') c = ' ';
  first.erase(0, first.find_first_not_of(' '));
  // Only damage is a complaint; a busy or unreadable file is said as what it is.
  if (code != SQLITE_OK && code != SQLITE_DONE && (code & 0xff) != SQLITE_CORRUPT &&
      (code & 0xff) != SQLITE_NOTADB)
    db.fail(code, "checking the workspace");
  return first == "ok" ? std::string() : first;
}

WorkspaceError damaged(const std::filesystem::path& path, const std::string& detail) {
  return WorkspaceError(
      Kind::corrupt, path.string() + ": the workspace is damaged (" + detail + "); open a backup");
}

// SQLite's last connection to close copies the -wal into the file (a checkpoint): not into a
// damaged one, which is to be left as it was found for a backup or a salvage. Only when the
// -wal holds something: else closing copies nothing, and removes the -wal and -shm it made.
void leaveAsFound(Db& db, bool wal_holds_pages) {
  if (wal_holds_pages) sqlite3_db_config(db.handle(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
}

void requireSound(Db& db, bool wal_holds_pages) {
  const std::string problem = integrityProblem(db);
  if (problem.empty()) return;
  leaveAsFound(db, wal_holds_pages);
  throw damaged(db.path(), "PRAGMA integrity_check: " + clipText(problem, 200));
}

// An empty workspace in memory under `path`'s name: what an empty file that cannot be written
// holds, read as the new workspace it would become (no runs yet) rather than refused.
std::unique_ptr<Workspace::Impl> emptyInMemory(const std::filesystem::path& path) {
  auto impl = std::make_unique<Workspace::Impl>(path, Db::Mode::memory);
  impl->db.exec("PRAGMA application_id = " + std::to_string(kWorkspaceApplicationId));
  workspace_detail::createSchema(impl->db);
  return impl;
}

// A read-only connection failed for want of the -shm (or the -wal) that reading a WAL file
// takes: SQLite could neither open nor create it.
bool wantsTheShm(int code) {
  switch (code & 0xff) {
    case SQLITE_CANTOPEN:
    case SQLITE_READONLY:
      return true;
    case SQLITE_IOERR:
      return code == SQLITE_IOERR_SHMOPEN || code == SQLITE_IOERR_SHMSIZE ||
             code == SQLITE_IOERR_SHMMAP || code == SQLITE_IOERR_SHMLOCK;
    default:
      return false;
  }
}

std::unique_ptr<Workspace::Impl> openFile(const std::filesystem::path& path,
                                          const workspace_detail::WorkspaceFile& file,
                                          bool read_only) {
  // The file starts as SQLite's do (inspectWorkspaceFile checked): a header or first page SQLite
  // cannot read is damage, not another kind of file.
  const auto fail = [&](Db& db, int code) {
    if ((code & 0xff) == SQLITE_NOTADB || (code & 0xff) == SQLITE_CORRUPT) {
      leaveAsFound(db, file.wal_size.value_or(0) > 0);
      throw damaged(path, "SQLite: " + std::string(sqlite3_errstr(code)));
    }
    db.fail(code, "opening the workspace");
  };
  const auto opened = [&](Db::Mode mode) {
    auto impl = std::make_unique<Workspace::Impl>(path, mode);
    const int code = impl->db.probe();
    if (code != SQLITE_OK) fail(impl->db, code);
    return impl;
  };
  if (!read_only) return opened(Db::Mode::read_write);
  {
    auto impl = std::make_unique<Workspace::Impl>(path, Db::Mode::read_only);
    const int code = impl->db.probe();
    if (code == SQLITE_OK) return impl;
    if (!wantsTheShm(code)) fail(impl->db, code);
  }
  // A read-only archive, or a folder the user cannot write: the file alone is read, as SQLite's
  // immutable mode reads it. That is only the whole workspace when the -wal holds nothing.
  if (file.wal_size.value_or(0) > 0) {
    const std::string why = workspace_detail::whyNotWritable(path, file);
    throw WorkspaceError(
        Kind::cannot_open,
        path.string() + ": cannot read the workspace: its write-ahead log " +
            file.companion_base.string() +
            "-wal holds saves that may not be in the file yet, and SQLite cannot read it" +
            (why.empty() ? std::string() : " (" + why + ")") +
            "; open it where it can be written, or copy the file and its -wal together into a "
            "folder you can write");
  }
  return opened(Db::Mode::immutable);
}

void bindScenario(Statement& s, int first, const Scenario& scenario) {
  s.bind(first, std::int64_t{scenario.outage_extend});
  s.bind(first + 1, scenario.traffic_scale);
  s.bind(first + 2, scenario.latency_scale);
  s.bind(first + 3, scenario.capacity_scale);
}

Scenario scenarioFrom(const Statement& s, int first) {
  Scenario scenario;
  scenario.outage_extend = s.integer(first);
  scenario.traffic_scale = s.real(first + 1);
  scenario.latency_scale = s.real(first + 2);
  scenario.capacity_scale = s.real(first + 3);
  return scenario;
}

void requireNoteTarget(Db& db, const NoteTarget& target, Workspace::Impl& impl) {
  Statement s(db, target.kind == NoteTarget::Kind::incident ? "SELECT 1 FROM incidents WHERE id = ?"
                                                            : "SELECT 1 FROM runs WHERE id = ?");
  s.bind(1, target.id);
  if (!s.step())
    impl.notFound(target.kind == NoteTarget::Kind::incident ? "incident" : "run", target.id);
}

}  // namespace

Workspace Workspace::open(const std::filesystem::path& path, Access access) {
  const bool asked_read_only = access == Access::read_only;
  // Before SQLite sees the path: a FIFO, device, socket or directory there (or as its -wal,
  // -shm or -journal) is refused at once instead of hanging or failing without a cause.
  const workspace_detail::WorkspaceFile file =
      workspace_detail::inspectWorkspaceFile(path, !asked_read_only);
  if (!file.exists && asked_read_only)
    throw WorkspaceError(Kind::cannot_open,
                         path.string() + ": cannot open the workspace: no such file");
  if (file.exists && !file.sqlite_header)
    throw WorkspaceError(Kind::not_a_workspace,
                         path.string() + ": not a BreakerLab workspace (not an SQLite database)");
  if (!file.damage.empty()) throw damaged(path, file.damage);
  // Asked to write a file that cannot be: it opens read-only, and the first save says why.
  const std::string why_read_only = asked_read_only || !file.exists
                                        ? std::string()
                                        : workspace_detail::whyNotWritable(path, file);
  const bool read_only = asked_read_only || !why_read_only.empty();

  // One program saving into the workspace at a time, before SQLite opens the file when it is
  // there (workspace_lock.h); a new one is locked once SQLite has made it.
  const bool in_memory = file.exists && file.size == 0 && read_only;
  std::shared_ptr<const workspace_detail::WorkspaceLock> lock;
  if (file.exists && !in_memory) lock = workspace_detail::lockWorkspace(path, !read_only);
  std::unique_ptr<Impl> impl = in_memory ? emptyInMemory(path) : openFile(path, file, read_only);
  if (!file.exists && impl->db.mode() != Db::Mode::memory)
    lock = workspace_detail::lockWorkspace(path, !impl->db.readOnly());
  impl->lock = std::move(lock);
  impl->db.setReadOnlyReason(why_read_only);
  const bool wal_holds_pages = file.wal_size.value_or(0) > 0;
  if (impl->db.mode() != Db::Mode::memory) requireSound(impl->db, wal_holds_pages);
  impl->checked_at = std::chrono::steady_clock::now();
  Db* db = &impl->db;
  const std::int64_t application_id = db->integerOf("PRAGMA application_id");
  const std::int64_t version = db->integerOf("PRAGMA user_version");
  const std::int64_t tables = db->integerOf("SELECT count(*) FROM sqlite_master");
  const bool blank = (application_id == 0 || application_id == kWorkspaceApplicationId) &&
                     version == 0 && tables == 0;
  if (blank && db->readOnly()) {
    // An SQLite file with nothing in it yet, read-only: the empty workspace it would become.
    if (db->mode() != Db::Mode::memory) {
      impl = emptyInMemory(path);
      impl->db.setReadOnlyReason(why_read_only);
      db = &impl->db;
    }
  } else if (blank) {
    // WAL: a reader never blocks the writer, and a crash mid-save leaves the last commit.
    db->exec("PRAGMA journal_mode = WAL");
    Transaction t(*db, "creating the workspace");
    db->exec("PRAGMA application_id = " + std::to_string(kWorkspaceApplicationId));
    workspace_detail::createSchema(*db);
    Statement meta(*db, "INSERT INTO meta(key, value) VALUES (?, ?)");
    meta.bind(1, std::string_view("created_by")).bind(2, breakerlabVersion()).run();
    meta.bind(1, std::string_view("created_at")).bind(2, workspace_detail::utcNow()).run();
    t.commit();
  } else if (application_id != kWorkspaceApplicationId) {
    throw WorkspaceError(Kind::not_a_workspace,
                         path.string() +
                             ": not a BreakerLab workspace (an SQLite database of another "
                             "program)");
  } else if (version > kWorkspaceSchemaVersion) {
    throw WorkspaceError(
        Kind::newer_version,
        path.string() + ": this workspace was written by a newer BreakerLab (workspace schema " +
            std::to_string(version) + "; this version, " + std::string(breakerlabVersion()) +
            ", reads schemas 1 to " + std::to_string(kWorkspaceSchemaVersion) +
            "). Open it with that version or a newer one; it was not changed.");
  } else {
    // user_version is a header field anyone can set (`PRAGMA user_version = 0` in the shell):
    // the tables must be the version's own before they are read or migrated, or the migration
    // fails halfway with "table run_metrics already exists" and the reads with "no such table".
    std::string difference;
    const int held = workspace_detail::schemaOfTables(*db, static_cast<int>(version), difference);
    if (held != version) {
      const std::string holds =
          held > 0 ? "it holds tables of schema " + std::to_string(held)
                   : (difference.empty()
                          ? std::string("its tables are not those of any workspace schema")
                          : difference);
      throw WorkspaceError(Kind::not_a_workspace,
                           path.string() + ": the workspace says schema version " +
                               std::to_string(version) + " but " + holds +
                               ": not a workspace this version can " +
                               (version < kWorkspaceSchemaVersion ? "upgrade" : "read") +
                               " (was PRAGMA user_version changed by hand?); it was not changed");
    }
    if (db->readOnly() && db->mode() != Db::Mode::memory) {
      const std::string broken =
          workspace_detail::brokenCheckConstraint(*db, static_cast<int>(version));
      if (!broken.empty()) {
        leaveAsFound(*db, wal_holds_pages);
        throw damaged(path, "PRAGMA integrity_check: " + broken);
      }
    }
    if (version < kWorkspaceSchemaVersion) {
      if (db->readOnly())
        throw WorkspaceError(Kind::read_only,
                             path.string() + ": the workspace has schema " +
                                 std::to_string(version) +
                                 " and must be upgraded, which needs write access" +
                                 (why_read_only.empty() ? "" : " (" + why_read_only + ")"));
      Transaction t(*db, "upgrading the workspace from schema " + std::to_string(version));
      workspace_detail::migrate(*db, static_cast<int>(version));
      t.commit();
    }
  }
  if (!db->readOnly()) {
    db->exec("PRAGMA journal_mode = WAL");
    // FULL: a commit is on the disk when saveRun returns, even through a power cut.
    db->exec("PRAGMA synchronous = FULL");
  }
  db->exec("PRAGMA foreign_keys = ON");
  impl->schema_version = static_cast<int>(db->integerOf("PRAGMA user_version"));
  return Workspace(std::move(impl));
}

void Workspace::Impl::checkBeforeFirstWrite() {
  if (checked_for_write) return;
  if (std::chrono::steady_clock::now() - checked_at >= kRecheckAfter) {
    // The pages read at open are still in the connection's cache, and SQLite trusts them while
    // no other connection has committed: dropped, so that the check reads the file as it is.
    sqlite3_db_release_memory(db.handle());
    // Other connections may have saved into the -wal since the open.
    requireSound(db, true);
  }
  checked_for_write = true;
}

Workspace::Workspace(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Workspace::Workspace(Workspace&&) noexcept = default;
Workspace& Workspace::operator=(Workspace&&) noexcept = default;
Workspace::~Workspace() = default;

const std::filesystem::path& Workspace::path() const {
  return impl_->db.path();
}
bool Workspace::readOnly() const {
  return impl_->db.readOnly();
}
const std::string& Workspace::readOnlyReason() const {
  return impl_->db.readOnlyReason();
}
int Workspace::schemaVersion() const {
  return impl_->schema_version;
}

namespace {
// The same incident text with another calls log is another incident: both are hashed.
std::string incidentHash(const StoredIncident& incident) {
  std::string all = incident.content;
  for (const StoredIncident::File& f : incident.files) {
    all += '\0' + f.name + '\0' + std::to_string(f.bytes.size()) + '\0';
    all += f.bytes;
  }
  return contentHash(all);
}
}  // namespace

std::optional<std::int64_t> Workspace::findIncident(const StoredIncident& incident) const {
  Statement s(impl_->db, "SELECT id, content FROM incidents WHERE content_hash = ? ORDER BY id");
  s.bind(1, incidentHash(incident));
  while (s.step()) {
    if (s.text(1) != incident.content) continue;
    const std::int64_t id = s.integer(0);
    std::vector<StoredIncident::File> files;
    Statement f(impl_->db,
                "SELECT name, bytes FROM incident_files WHERE incident_id = ? ORDER BY name");
    f.bind(1, id);
    while (f.step()) files.push_back({f.text(0), f.blob(1)});
    std::vector<StoredIncident::File> wanted = incident.files;
    std::sort(wanted.begin(), wanted.end(),
              [](const auto& a, const auto& b) { return a.name < b.name; });
    if (files == wanted) return id;
  }
  return std::nullopt;
}

std::int64_t Workspace::addIncident(const StoredIncident& incident) {
  if (const auto id = findIncident(incident)) return *id;
  impl_->requireWritable();
  Db& db = impl_->db;
  Transaction t(db, "saving the incident");
  impl_->checkBeforeFirstWrite();
  Statement s(db,
              "INSERT INTO incidents(name, title, source_kind, source_name, source_document, "
              "content, content_hash, import_report, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
  std::string report;
  for (const std::string& line : incident.import_report) report += line + "\n";
  s.bind(1, incident.name).bind(2, incident.title).bind(3, incident.source_kind);
  s.bind(4, incident.source_name).bindBlob(5, incident.source_document);
  s.bind(6, incident.content).bind(7, incidentHash(incident));
  s.bind(8, report).bind(9, workspace_detail::utcNow());
  s.run();
  const std::int64_t id = db.lastInsertId();
  Statement f(db, "INSERT INTO incident_files(incident_id, name, bytes) VALUES (?, ?, ?)");
  for (const StoredIncident::File& file : incident.files)
    f.bind(1, id).bind(2, file.name).bindBlob(3, file.bytes).run();
  t.commit();
  return id;
}

std::vector<IncidentSummary> Workspace::incidents() const {
  Statement s(impl_->db,
              "SELECT i.id, i.name, i.title, i.source_kind, i.added_at, "
              "(SELECT count(*) FROM configs c WHERE c.incident_id = i.id), "
              "(SELECT count(*) FROM runs r WHERE r.incident_id = i.id), "
              "(SELECT max(created_at) FROM runs r WHERE r.incident_id = i.id) "
              "FROM incidents i ORDER BY i.id DESC");
  std::vector<IncidentSummary> out;
  while (s.step()) {
    IncidentSummary i;
    i.id = s.integer(0);
    i.name = s.text(1);
    i.title = s.text(2);
    i.source_kind = s.text(3);
    i.added_at = s.text(4);
    i.configs = static_cast<int>(s.integer(5));
    i.runs = static_cast<int>(s.integer(6));
    i.last_run_at = s.text(7);
    out.push_back(std::move(i));
  }
  return out;
}

StoredIncident Workspace::incident(std::int64_t id) const {
  Db& db = impl_->db;
  Statement s(db,
              "SELECT name, title, source_kind, source_name, source_document, content, "
              "import_report, added_at FROM incidents WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) impl_->notFound("incident", id);
  StoredIncident out;
  out.id = id;
  out.name = s.text(0);
  out.title = s.text(1);
  out.source_kind = s.text(2);
  out.source_name = s.text(3);
  out.source_document = s.blob(4);
  out.content = s.text(5);
  const std::string report = s.text(6);
  for (std::size_t from = 0; from < report.size();) {
    const std::size_t end = report.find('\n', from);
    out.import_report.push_back(report.substr(from, end - from));
    if (end == std::string::npos) break;
    from = end + 1;
  }
  out.added_at = s.text(7);
  Statement f(db, "SELECT name, bytes FROM incident_files WHERE incident_id = ? ORDER BY name");
  f.bind(1, id);
  while (f.step()) out.files.push_back({f.text(0), f.blob(1)});
  return out;
}

std::int64_t Workspace::saveConfig(std::int64_t incident_id, const std::string& name,
                                   const Config& config) {
  if (name.empty())
    throw WorkspaceError(Kind::invalid, impl_->where() + ": a saved config needs a name");
  impl_->requireWritable();
  Db& db = impl_->db;
  Transaction t(db, "saving the config '" + clipText(name) + "'");
  impl_->checkBeforeFirstWrite();
  {
    Statement i(db, "SELECT 1 FROM incidents WHERE id = ?");
    i.bind(1, incident_id);
    if (!i.step()) impl_->notFound("incident", incident_id);
  }
  Statement s(db,
              "INSERT INTO configs(incident_id, name, library, content, saved_at) "
              "VALUES (?, ?, ?, ?, ?) ON CONFLICT(incident_id, name) DO UPDATE SET "
              "library = excluded.library, content = excluded.content, "
              "saved_at = excluded.saved_at RETURNING id");
  s.bind(1, incident_id).bind(2, name).bind(3, toString(config.breaker.library));
  s.bind(4, configToYaml(config)).bind(5, workspace_detail::utcNow());
  if (!s.step()) db.fail(SQLITE_ERROR, "saving the config");
  const std::int64_t id = s.integer(0);
  s.reset();
  t.commit();
  return id;
}

namespace {
constexpr std::string_view kConfigColumns = "id, incident_id, name, library, content, saved_at";
StoredConfig configRow(const Statement& s, const std::string& where) {
  StoredConfig c;
  c.id = s.integer(0);
  c.incident_id = s.integer(1);
  c.name = s.text(2);
  c.library = s.text(3);
  c.config = configFrom(s.text(4), where + " (config '" + c.name + "')");
  c.saved_at = s.text(5);
  return c;
}
}  // namespace

std::vector<StoredConfig> Workspace::configs(std::int64_t incident_id) const {
  Statement s(impl_->db,
              "SELECT " + std::string(kConfigColumns) +
                  " FROM configs WHERE incident_id = ? ORDER BY name COLLATE NOCASE, id");
  s.bind(1, incident_id);
  std::vector<StoredConfig> out;
  while (s.step()) out.push_back(configRow(s, impl_->where()));
  return out;
}

StoredConfig Workspace::config(std::int64_t id) const {
  Statement s(impl_->db, "SELECT " + std::string(kConfigColumns) + " FROM configs WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) impl_->notFound("config", id);
  return configRow(s, impl_->where());
}

void Workspace::deleteConfig(std::int64_t id) {
  impl_->requireWritable();
  Transaction t(impl_->db, "deleting the config");
  impl_->checkBeforeFirstWrite();
  Statement s(impl_->db, "DELETE FROM configs WHERE id = ?");
  s.bind(1, id).run();
  if (sqlite3_changes(impl_->db.handle()) == 0) impl_->notFound("config", id);
  t.commit();
}

std::int64_t Workspace::saveRun(const NewRun& run) {
  impl_->requireWritable();
  const auto metrics = nlohmann::json::parse(run.metrics_json, nullptr, false);
  if (metrics.is_discarded() || !metrics.is_object())
    throw WorkspaceError(Kind::invalid,
                         impl_->where() + ": a run's metrics must be a JSON object; not saved");
  Db& db = impl_->db;
  Transaction t(db, "saving the run");
  impl_->checkBeforeFirstWrite();
  Statement s(db,
              "INSERT INTO runs(incident_id, config_id, name, config, library, seed, changes, "
              "outage_extend_us, traffic_scale, latency_scale, capacity_scale, app_version, "
              "created_at, metrics) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, run.incident_id).bind(2, run.config_id).bind(3, run.name);
  s.bind(4, configToYaml(run.inputs.config));
  s.bind(5, toString(run.inputs.config.breaker.library));
  s.bind(6, std::to_string(run.inputs.seed));
  if (run.inputs.changes) {
    s.bind(7, workspace_detail::changesToJson(*run.inputs.changes));
  } else {
    s.bindNull(7);
  }
  bindScenario(s, 8, run.inputs.scenario);
  s.bind(12, breakerlabVersion()).bind(13, workspace_detail::utcNow()).bind(14, run.metrics_json);
  try {
    s.run();
  } catch (const WorkspaceError& e) {
    if (e.kind() == Kind::io &&
        (sqlite3_extended_errcode(db.handle()) == SQLITE_CONSTRAINT_FOREIGNKEY))
      impl_->notFound(run.config_id ? "incident or config" : "incident", run.incident_id);
    throw;
  }
  const std::int64_t id = db.lastInsertId();
  workspace_detail::insertRunMetrics(db, id, metrics);
  Statement c(db,
              "INSERT INTO run_checks(run_id, position, kind, text, passed, actual) "
              "VALUES (?, ?, ?, ?, ?, ?)");
  std::int64_t position = 0;
  for (const StoredCheck& check : run.checks) {
    c.bind(1, id).bind(2, position++).bind(3, toString(check.kind)).bind(4, check.text);
    c.bind(5, std::int64_t{check.passed ? 1 : 0}).bind(6, check.actual).run();
  }
  t.commit();
  return id;
}

std::vector<RunSummary> Workspace::runs(const RunFilter& filter) const {
  Statement s(impl_->db,
              "SELECT r.id, r.incident_id, i.name, r.config_id, coalesce(c.name, ''), r.name, "
              "r.library, r.seed, r.created_at, "
              "(SELECT value FROM run_metrics WHERE run_id = r.id AND metric = "
              "'failed_checkouts'), "
              "(SELECT value FROM run_metrics WHERE run_id = r.id AND metric = "
              "'cached_while_healthy_s'), "
              "(SELECT min(passed) FROM run_checks WHERE run_id = r.id AND kind = "
              "'calibration'), "
              "(SELECT count(*) FROM run_checks WHERE run_id = r.id AND kind = 'goal' AND "
              "passed = 1), "
              "(SELECT count(*) FROM run_checks WHERE run_id = r.id AND kind = 'goal'), "
              "EXISTS (SELECT 1 FROM notes WHERE run_id = r.id) "
              "FROM runs r JOIN incidents i ON i.id = r.incident_id "
              "LEFT JOIN configs c ON c.id = r.config_id "
              "WHERE (?1 IS NULL OR r.incident_id = ?1) AND (?2 = '' OR instr(lower(r.name || "
              "' ' || coalesce(c.name, '') || ' ' || i.name || ' ' || i.title || ' ' || "
              "r.library), lower(?2)) > 0) AND (?4 = '' OR instr(lower(i.name || ' ' || i.title), "
              "lower(?4)) > 0) ORDER BY r.id DESC LIMIT ?3");
  s.bind(1, filter.incident_id).bind(2, filter.text).bind(4, filter.incident_text);
  s.bind(3, std::int64_t{filter.limit > 0 ? filter.limit : -1});
  std::vector<RunSummary> out;
  while (s.step()) {
    RunSummary r;
    r.id = s.integer(0);
    r.incident_id = s.integer(1);
    r.incident_name = s.text(2);
    r.config_id = s.optionalInteger(3);
    r.config_name = s.text(4);
    r.name = s.text(5);
    r.library = s.text(6);
    r.seed = seedFrom(s.text(7), impl_->where() + " (run " + std::to_string(r.id) + ")");
    r.created_at = s.text(8);
    r.failed_checkouts = s.optionalReal(9);
    r.cached_while_healthy_s = s.optionalReal(10);
    if (const auto passed = s.optionalInteger(11)) r.calibration_passed = *passed != 0;
    r.goals_met = static_cast<int>(s.integer(12));
    r.goals_total = static_cast<int>(s.integer(13));
    r.has_note = s.integer(14) != 0;
    out.push_back(std::move(r));
  }
  return out;
}

StoredRun Workspace::run(std::int64_t id) const {
  Db& db = impl_->db;
  Statement s(db,
              "SELECT incident_id, config_id, name, config, library, seed, changes, "
              "outage_extend_us, traffic_scale, latency_scale, capacity_scale, app_version, "
              "created_at, metrics FROM runs WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) impl_->notFound("run", id);
  const std::string where = impl_->where() + " (run " + std::to_string(id) + ")";
  StoredRun r;
  r.id = id;
  r.incident_id = s.integer(0);
  r.config_id = s.optionalInteger(1);
  r.name = s.text(2);
  r.inputs.config = configFrom(s.text(3), where);
  r.library = s.text(4);
  r.inputs.seed = seedFrom(s.text(5), where);
  if (!s.isNull(6)) r.inputs.changes = workspace_detail::changesFromJson(s.text(6), where);
  r.inputs.scenario = scenarioFrom(s, 7);
  r.app_version = s.text(11);
  r.created_at = s.text(12);
  r.metrics_json = s.text(13);
  Statement c(db,
              "SELECT kind, text, passed, actual FROM run_checks WHERE run_id = ? ORDER BY "
              "position");
  c.bind(1, id);
  while (c.step()) {
    const auto kind = checkKindFrom(c.text(0));
    if (!kind) throw WorkspaceError(Kind::corrupt, where + ": a check of unknown kind");
    r.checks.push_back({*kind, c.text(1), c.integer(2) != 0, c.text(3)});
  }
  return r;
}

void Workspace::setNote(const NoteTarget& target, const std::string& text) {
  impl_->requireWritable();
  Db& db = impl_->db;
  Transaction t(db, "saving the note");
  impl_->checkBeforeFirstWrite();
  requireNoteTarget(db, target, *impl_);
  const bool incident = target.kind == NoteTarget::Kind::incident;
  {
    Statement d(db, incident ? "DELETE FROM notes WHERE incident_id = ?"
                             : "DELETE FROM notes WHERE run_id = ?");
    d.bind(1, target.id).run();
  }
  if (!text.empty()) {
    Statement s(db, incident ? "INSERT INTO notes(incident_id, text, written_at) VALUES (?, ?, ?)"
                             : "INSERT INTO notes(run_id, text, written_at) VALUES (?, ?, ?)");
    s.bind(1, target.id).bind(2, text).bind(3, workspace_detail::utcNow()).run();
  }
  t.commit();
}

std::string Workspace::note(const NoteTarget& target) const {
  Statement s(impl_->db, target.kind == NoteTarget::Kind::incident
                             ? "SELECT text FROM notes WHERE incident_id = ?"
                             : "SELECT text FROM notes WHERE run_id = ?");
  s.bind(1, target.id);
  return s.step() ? s.text(0) : std::string();
}

void Workspace::autosave(const Autosave& state) {
  impl_->requireWritable();
  Db& db = impl_->db;
  Transaction t(db, "autosaving the tuning");
  impl_->checkBeforeFirstWrite();
  Statement s(db,
              "INSERT OR REPLACE INTO autosave(slot, incident_id, config, seed, changes, "
              "outage_extend_us, traffic_scale, latency_scale, capacity_scale, saved_at) "
              "VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  s.bind(1, state.incident_id).bind(2, configToYaml(state.inputs.config));
  s.bind(3, std::to_string(state.inputs.seed));
  if (state.inputs.changes) {
    s.bind(4, workspace_detail::changesToJson(*state.inputs.changes));
  } else {
    s.bindNull(4);
  }
  bindScenario(s, 5, state.inputs.scenario);
  s.bind(9, workspace_detail::utcNow());
  s.run();
  t.commit();
}

std::optional<Autosave> Workspace::autosaved() const {
  Statement s(impl_->db,
              "SELECT incident_id, config, seed, changes, outage_extend_us, traffic_scale, "
              "latency_scale, capacity_scale, saved_at FROM autosave WHERE slot = 1");
  if (!s.step()) return std::nullopt;
  const std::string where = impl_->where() + " (autosave)";
  Autosave a;
  a.incident_id = s.integer(0);
  a.inputs.config = configFrom(s.text(1), where);
  a.inputs.seed = seedFrom(s.text(2), where);
  if (!s.isNull(3)) a.inputs.changes = workspace_detail::changesFromJson(s.text(3), where);
  a.inputs.scenario = scenarioFrom(s, 4);
  a.saved_at = s.text(8);
  return a;
}

void Workspace::clearAutosave() {
  impl_->requireWritable();
  Transaction t(impl_->db, "clearing the autosave");
  impl_->checkBeforeFirstWrite();
  impl_->db.exec("DELETE FROM autosave");
  t.commit();
}

std::string Workspace::integrityCheck() const {
  Statement s(impl_->db, "PRAGMA integrity_check");
  std::string out;
  while (s.step()) out += (out.empty() ? "" : "\n") + s.text(0);
  return out;
}

}  // namespace breakerlab
