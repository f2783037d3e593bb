// A workspace whose stored values are any bytes (a file edited by hand, a damaged one): the
// run's config, seed and timed changes, and the whole file itself. Reading gives the run or a
// WorkspaceError, never a crash.
#include <sqlite3.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "breakerlab/data/workspace.h"

namespace {
using namespace breakerlab;

const std::filesystem::path& scratchDir() {
  static const std::filesystem::path dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "fuzz-ws-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    return std::filesystem::path(pattern);
  }();
  return dir;
}

void readEverything(const Workspace& ws) {
  for (const IncidentSummary& i : ws.incidents()) {
    try {
      (void)ws.incident(i.id);
      (void)ws.configs(i.id);
    } catch (const WorkspaceError&) {
    }
  }
  try {
    for (const RunSummary& r : ws.runs()) (void)ws.run(r.id);
  } catch (const WorkspaceError&) {
  }
  try {
    (void)ws.autosaved();
  } catch (const WorkspaceError&) {
  }
}

// The input as the stored run's config, seed and changes (split at the first two NULs). The
// workspace is made once; each input replaces its one run (without syncing: speed, not
// durability, matters here).
void storedValues(const std::string& text) {
  static const std::filesystem::path file = [] {
    const std::filesystem::path f = scratchDir() / "values.breakerlab";
    (void)Workspace::open(f);
    return f;
  }();
  const std::size_t a = text.find('\0');
  const std::size_t b = a == std::string::npos ? std::string::npos : text.find('\0', a + 1);
  const std::string config = text.substr(0, a);
  const std::string seed = a == std::string::npos ? "1" : text.substr(a + 1, b - a - 1);
  const std::string changes = b == std::string::npos ? "[]" : text.substr(b + 1);
  sqlite3* db = nullptr;
  sqlite3_open(file.c_str(), &db);
  sqlite3_exec(db,
               "PRAGMA synchronous = OFF; DELETE FROM runs; DELETE FROM autosave; "
               "INSERT OR IGNORE INTO incidents(id, name, source_kind, source_document, content, "
               "content_hash, added_at) VALUES (1, 'i', 'incident', x'', 'x', 'h', 't')",
               nullptr, nullptr, nullptr);
  for (const char* sql :
       {"INSERT INTO runs(incident_id, config, library, seed, changes, app_version, created_at, "
        "metrics) VALUES (1, ?1, 'x', ?2, ?3, 'v', 't', '{}')",
        "INSERT INTO autosave(slot, incident_id, config, seed, changes, saved_at) "
        "VALUES (1, 1, ?1, ?2, ?3, 't')"}) {
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, sql, -1, &s, nullptr);
    sqlite3_bind_text(s, 1, config.data(), static_cast<int>(config.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 2, seed.data(), static_cast<int>(seed.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(s, 3, changes.data(), static_cast<int>(changes.size()), SQLITE_TRANSIENT);
    sqlite3_step(s);
    sqlite3_finalize(s);
  }
  sqlite3_close(db);
  try {
    readEverything(Workspace::open(file, Workspace::Access::read_only));
  } catch (const WorkspaceError&) {
  }
}

// The input as the whole file.
void wholeFile(const std::string& bytes) {
  const std::filesystem::path file = scratchDir() / "whole.breakerlab";
  std::filesystem::remove(file.string() + "-wal");
  std::filesystem::remove(file.string() + "-shm");
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  try {
    readEverything(Workspace::open(file, Workspace::Access::read_only));
  } catch (const WorkspaceError&) {
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  storedValues(text);
  if (text.rfind("SQLite format 3", 0) == 0) wholeFile(text);
  return 0;
}
