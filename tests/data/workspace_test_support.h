#pragma once
// Scratch workspace files, raw SQL on them, and a workspace filled with the bundled incidents.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "breakerlab/data/workspace.h"

namespace breakerlab::test {

// A file name in a fresh temporary directory, removed with it (and SQLite's -wal, -shm).
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& name);
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;
  ~ScratchFile();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path directory() const { return path_.parent_path(); }

 private:
  std::filesystem::path path_;
};

// The value `PRAGMA name` answers on the file, read with the SQLite C API directly.
std::string pragma(const std::filesystem::path& file, const std::string& name);
void execSql(const std::filesystem::path& file, const std::string& sql);
void execSqlWith(const std::filesystem::path& file, const std::string& sql,
                 const std::vector<std::string>& texts);
// "table(column, column, ...)" per table, sorted: two files have the same schema when equal.
std::vector<std::string> columns(const std::filesystem::path& file);

// The bundled incidents' file names under resources/incidents (the four incidents of the seeds
// and the teaching one).
std::vector<std::string> bundledIncidentFiles();

// Up to `incidents` bundled incidents in `ws`, three named configs each (deployed and two of its
// what-ifs or knob changes) and one replayed run per config, ready to save again and again.
struct Fixture {
  std::vector<std::int64_t> incidents;
  std::vector<std::int64_t> configs;
  std::vector<NewRun> runs;
};
Fixture makeFixture(Workspace& ws, int incidents);

}  // namespace breakerlab::test
