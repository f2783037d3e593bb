#pragma once
// A workspace (*.breakerlab): one SQLite database holding the incidents an engineer worked on,
// the named configs tuned for each, every run with its metrics and checks, notes, and the
// autosaved tuning. The schema is in docs/workspace.md. Every write is one transaction; a
// failed write changes nothing and throws WorkspaceError, with what was saved before intact.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/scenario.h"
#include "breakerlab/core/inputs/timed_change.h"

namespace breakerlab {

inline constexpr std::string_view kWorkspaceSuffix = ".breakerlab";
// PRAGMA user_version of the workspaces this version writes; it reads every earlier one (and
// migrates it on first write access) and refuses newer ones.
inline constexpr int kWorkspaceSchemaVersion = 2;
// PRAGMA application_id: "BLAB", so that `file` and BreakerLab tell a workspace from any other
// SQLite database.
inline constexpr std::int32_t kWorkspaceApplicationId = 0x424C4142;

class WorkspaceError : public std::runtime_error {
 public:
  enum class Kind {
    cannot_open,      // missing (read-only access), a directory, no permission
    not_a_workspace,  // not SQLite, or another application's database
    newer_version,    // written by a newer BreakerLab
    read_only,        // opened (or only openable) read-only and asked to write
    disk_full,        // the disk or the database's size limit is full
    busy,             // another process holds the write lock longer than the timeout
    in_use,           // open in another BreakerLab (workspace_lock.h)
    corrupt,          // SQLite reports the file damaged
    not_found,        // no incident/config/run with that id
    invalid,          // a value the workspace cannot hold (an empty config name, ...)
    io,               // any other SQLite failure
  };
  WorkspaceError(Kind kind, const std::string& message)
      : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

// What the workspace keeps of an incident: the document it was opened from and the incident
// as BreakerLab read it, as a breakerlab/1 file that replays exactly as the opened one did.
struct StoredIncident {
  std::int64_t id = 0;
  std::string name;             // Incident::id, e.g. "inc-2026-0908-pricing"
  std::string title;            // Incident::title
  std::string source_kind;      // sourceKey(IncidentSource): "incident", "postmortem_markdown", ...
  std::string source_name;      // the document's file name (no directory)
  std::string source_document;  // its bytes as opened (a copy; the report quotes it)
  std::string content;          // the incident as opened, breakerlab/1
  struct File {
    std::string name;  // as `content` refers to it (e.g. the calls log of a recorded incident)
    std::string bytes;
    bool operator==(const File&) const = default;
  };
  std::vector<File> files;
  std::vector<std::string> import_report;  // ImportReport::lines(); empty for breakerlab/1
  std::string added_at;                    // UTC, ISO 8601 with milliseconds
};

struct IncidentSummary {
  std::int64_t id = 0;
  std::string name;
  std::string title;
  std::string source_kind;
  std::string added_at;
  int configs = 0;
  int runs = 0;
  std::string last_run_at;  // empty: no run yet
};

struct StoredConfig {
  std::int64_t id = 0;
  std::int64_t incident_id = 0;
  std::string name;     // unique per incident
  std::string library;  // toString(BreakerLibrary) of config.breaker.library
  Config config;
  std::string saved_at;
};

// Everything a replay depends on besides the incident: with the stored incident these give
// the same result bit for bit.
struct RunInputs {
  Config config;
  std::uint64_t seed = 0;
  // The timed changes replayed, when they are not the incident's own (moved, switched off).
  std::optional<std::vector<TimedChange>> changes;
  Scenario scenario;
  bool operator==(const RunInputs&) const = default;
};

struct StoredCheck {
  enum class Kind { calibration, goal, check };
  Kind kind = Kind::check;
  std::string text;  // "failed_checkouts == 0"
  bool passed = false;
  std::string actual;  // the measured value, as the check reports it ("0", "14.3 s")
  bool operator==(const StoredCheck&) const = default;
};
std::string_view toString(StoredCheck::Kind kind);

struct NewRun {
  std::int64_t incident_id = 0;
  std::optional<std::int64_t> config_id;  // the named config it ran, if any
  std::string name;                       // may be empty
  RunInputs inputs;
  // The report's `metrics` object (replayToJson), exactly as written: reopening the run and
  // replaying it gives this text byte for byte.
  std::string metrics_json;
  std::vector<StoredCheck> checks;
};

struct StoredRun : NewRun {
  std::int64_t id = 0;
  std::string library;
  std::string app_version;
  std::string created_at;
};

struct RunSummary {
  std::int64_t id = 0;
  std::int64_t incident_id = 0;
  std::string incident_name;
  std::optional<std::int64_t> config_id;
  std::string config_name;  // of config_id; empty when the run had no named config
  std::string name;
  std::string library;
  std::uint64_t seed = 0;
  std::string created_at;
  std::optional<double> failed_checkouts;
  std::optional<double> cached_while_healthy_s;
  // Calibration and goals: absent when the incident has none.
  std::optional<bool> calibration_passed;
  int goals_met = 0;
  int goals_total = 0;
  bool has_note = false;
};

struct RunFilter {
  std::optional<std::int64_t> incident_id;
  // Kept when the run's name, its config's name, its incident's name or title, or its library
  // contain this (case-insensitive). Empty: every run.
  std::string text;
  // Kept when the incident's name or title contains this (case-insensitive). Empty: any.
  std::string incident_text;
  int limit = 0;  // 0: all
};

// What was being tuned when the workbench last saved it: restoring it after a crash loses at
// most the change after it.
struct Autosave {
  std::int64_t incident_id = 0;
  RunInputs inputs;
  std::string saved_at;
};

struct NoteTarget {
  enum class Kind { incident, run } kind = Kind::incident;
  std::int64_t id = 0;
};

class Workspace {
 public:
  enum class Access { read_write, read_only };
  // Opens `path`, creating it when missing (read_write). An earlier schema is migrated (in one
  // transaction) when opened read_write; a newer one is refused. Refused at once, before SQLite
  // opens anything: a path (or its -wal, -shm, -journal) that is not a regular file; refused
  // after PRAGMA integrity_check: a damaged file (docs/workspace.md, "Checks on open"). A file
  // that cannot be written opens read-only, and readOnlyReason() says why.
  static Workspace open(const std::filesystem::path& path, Access access = Access::read_write);

  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;
  ~Workspace();

  const std::filesystem::path& path() const;
  bool readOnly() const;
  // Why a workspace opened for writing is read-only ("cannot create W-wal in DIR: Permission
  // denied (the folder is not writable)"); empty when it is writable or read-only was asked for.
  const std::string& readOnlyReason() const;
  int schemaVersion() const;

  // Adds the incident, or finds it when the same content and files are already there (its id).
  std::int64_t addIncident(const StoredIncident& incident);
  std::vector<IncidentSummary> incidents() const;
  StoredIncident incident(std::int64_t id) const;
  // The incident stored with this content and these files, if any.
  std::optional<std::int64_t> findIncident(const StoredIncident& incident) const;

  // Saves `config` under `name` for the incident, replacing a config of that name.
  std::int64_t saveConfig(std::int64_t incident_id, const std::string& name, const Config& config);
  std::vector<StoredConfig> configs(std::int64_t incident_id) const;  // by name
  StoredConfig config(std::int64_t id) const;
  void deleteConfig(std::int64_t id);

  std::int64_t saveRun(const NewRun& run);
  std::vector<RunSummary> runs(const RunFilter& filter = {}) const;  // newest first
  StoredRun run(std::int64_t id) const;

  // One note per incident or run; an empty text removes it.
  void setNote(const NoteTarget& target, const std::string& text);
  std::string note(const NoteTarget& target) const;

  void autosave(const Autosave& state);
  std::optional<Autosave> autosaved() const;
  void clearAutosave();

  // PRAGMA integrity_check's answer: "ok" when the file is sound.
  std::string integrityCheck() const;

  struct Impl;

 private:
  explicit Workspace(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The BreakerLab version that writes runs (the project's version).
std::string_view breakerlabVersion();

}  // namespace breakerlab
