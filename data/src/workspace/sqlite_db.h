#pragma once
// A thin RAII layer over the SQLite C API for the workspace: a connection, prepared statements
// and transactions, every failure a WorkspaceError that says what it means for the user.
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/data/workspace.h"

namespace breakerlab::workspace_detail {

class Db;

class Statement {
 public:
  Statement(Db& db, std::string_view sql);
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Binds by position, from 1.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bindBlob(int index, std::string_view bytes);
  Statement& bindNull(int index);
  Statement& bind(int index, const std::optional<std::int64_t>& value);
  Statement& bind(int index, const std::optional<double>& value);

  // Steps once: true when a row is ready, false when done.
  bool step();
  // Steps to the end and resets, so that the statement can be bound and run again.
  void run();
  void reset();

  bool isNull(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::string blob(int column) const;
  std::optional<std::int64_t> optionalInteger(int column) const;
  std::optional<double> optionalReal(int column) const;

 private:
  Db& db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  enum class Mode {
    read_write,  // created when missing
    read_only,
    // Read-only, without locks and without the -wal and -shm (SQLite's "immutable"): for a
    // file in a folder where the -shm cannot be created, and only when its -wal is missing or
    // empty, so that the file alone holds every save.
    immutable,
    // A new, empty workspace in memory under the file's name: an empty file that cannot be
    // written reads as the empty workspace it would become.
    memory,
  };
  Db(const std::filesystem::path& path, Mode mode);
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;
  ~Db();

  sqlite3* handle() const { return db_; }
  const std::filesystem::path& path() const { return path_; }
  Mode mode() const { return mode_; }
  bool readOnly() const { return read_only_; }
  // Why a workspace asked for read-write is read-only ("cannot create W-wal in DIR:
  // Permission denied (the folder is not writable)"); empty when read-only was asked for.
  const std::string& readOnlyReason() const { return read_only_reason_; }
  void setReadOnlyReason(std::string reason) { read_only_reason_ = std::move(reason); }

  // SQLite opens the file when it is first read: reads the header and the schema, and returns
  // SQLITE_OK or the extended code of the failure, so that the caller can choose another mode.
  int probe();

  void exec(std::string_view sql);
  std::int64_t integerOf(std::string_view sql);  // the first column of the first row
  std::int64_t lastInsertId() const { return sqlite3_last_insert_rowid(db_); }

  // Throws the WorkspaceError that `code` (a failed call's result) means, `doing` saying what
  // was being done ("saving the run").
  [[noreturn]] void fail(int code, std::string_view doing) const;
  WorkspaceError errorOf(int code, std::string_view doing) const;
  void check(int code, std::string_view doing) const {
    if (code != SQLITE_OK) fail(code, doing);
  }

 private:
  std::filesystem::path path_;
  sqlite3* db_ = nullptr;
  Mode mode_ = Mode::read_write;
  bool read_only_ = false;
  std::string read_only_reason_;
};

// BEGIN IMMEDIATE ... COMMIT, rolled back when left by an exception: each save is all or
// nothing. IMMEDIATE takes the write lock at once, so a busy workspace fails before any work.
class Transaction {
 public:
  Transaction(Db& db, std::string_view doing);
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();
  void commit();

 private:
  Db& db_;
  std::string doing_;
  bool done_ = false;
};

}  // namespace breakerlab::workspace_detail
