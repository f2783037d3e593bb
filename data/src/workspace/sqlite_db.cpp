#include "workspace/sqlite_db.h"

#include <cstring>

namespace breakerlab::workspace_detail {

namespace {
using Kind = WorkspaceError::Kind;

// How long a save waits for another process's write to finish before it says the workspace
// is busy.
constexpr int kBusyTimeoutMs = 5000;

Kind kindOf(int code) {
  // A write the file system refused outright (no room for a single byte, a quota, a file size
  // limit) reaches SQLite as an I/O error on write; a short write, as SQLITE_FULL. The user's
  // remedy is the same: room on the disk.
  if (code == SQLITE_IOERR_WRITE) return Kind::disk_full;
  switch (code & 0xff) {
    case SQLITE_FULL:
      return Kind::disk_full;
    case SQLITE_READONLY:
      return Kind::read_only;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Kind::busy;
    case SQLITE_CORRUPT:
      return Kind::corrupt;
    case SQLITE_NOTADB:
      return Kind::not_a_workspace;
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
      return Kind::cannot_open;
    default:
      return Kind::io;
  }
}

std::string meaning(Kind kind, int code, sqlite3* db) {
  switch (kind) {
    case Kind::disk_full:
      return code == SQLITE_IOERR_WRITE
                 ? "the disk refused the write (it is full, over quota or failing)"
                 : "the disk is full";
    case Kind::read_only:
      return "the workspace is read-only";
    case Kind::busy:
      return "another program is writing to the workspace";
    case Kind::corrupt:
      return "the workspace is damaged (SQLite: " + std::string(sqlite3_errstr(code)) +
             "); open a backup";
    case Kind::not_a_workspace:
      return "it is not a BreakerLab workspace (not an SQLite database)";
    default:
      break;
  }
  const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  std::string text(message != nullptr ? message : sqlite3_errstr(code));
  // The codes let a bug report say exactly what SQLite and the system answered; "unable to open
  // database file" alone does not say that a folder was not writable.
  const int system = db != nullptr ? sqlite3_system_errno(db) : 0;
  return text + " (SQLite error " + std::to_string(code) +
         (system != 0 ? "; the system said: " + std::string(std::strerror(system)) : "") + ")";
}
}  // namespace

Statement::Statement(Db& db, std::string_view sql) : db_(db) {
  db.check(
      sqlite3_prepare_v2(db.handle(), sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr),
      "preparing a query");
}

Statement::~Statement() {
  sqlite3_finalize(stmt_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  db_.check(sqlite3_bind_int64(stmt_, index, value), "binding a value");
  return *this;
}
Statement& Statement::bind(int index, double value) {
  db_.check(sqlite3_bind_double(stmt_, index, value), "binding a value");
  return *this;
}
Statement& Statement::bind(int index, std::string_view text) {
  db_.check(
      sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
      "binding a value");
  return *this;
}
Statement& Statement::bindBlob(int index, std::string_view bytes) {
  // An empty blob is still a blob, not NULL: a zero-length pointer SQLite would read as NULL.
  static const char kEmpty = 0;
  db_.check(sqlite3_bind_blob64(stmt_, index, bytes.empty() ? &kEmpty : bytes.data(), bytes.size(),
                                SQLITE_TRANSIENT),
            "binding a value");
  return *this;
}
Statement& Statement::bindNull(int index) {
  db_.check(sqlite3_bind_null(stmt_, index), "binding a value");
  return *this;
}
Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
  return value ? bind(index, *value) : bindNull(index);
}
Statement& Statement::bind(int index, const std::optional<double>& value) {
  return value ? bind(index, *value) : bindNull(index);
}

bool Statement::step() {
  const int code = sqlite3_step(stmt_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  db_.fail(code, "reading or writing the workspace");
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::isNull(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}
std::int64_t Statement::integer(int column) const {
  return sqlite3_column_int64(stmt_, column);
}
double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}
std::string Statement::text(int column) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
  return p == nullptr
             ? std::string()
             : std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}
std::string Statement::blob(int column) const {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(stmt_, column));
  return p == nullptr
             ? std::string()
             : std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column)));
}
std::optional<std::int64_t> Statement::optionalInteger(int column) const {
  if (isNull(column)) return std::nullopt;
  return integer(column);
}
std::optional<double> Statement::optionalReal(int column) const {
  if (isNull(column)) return std::nullopt;
  return real(column);
}

namespace {
// A URI for SQLite's immutable read-only mode. Every byte but the unreserved ones is
// percent-encoded, so that '?', '#' and '%' in a file name stay part of it.
std::string immutableUri(const std::filesystem::path& path) {
  const std::string name = path.string();
  // An absolute path gets the empty authority ("file:///..."): "file://x/..." would name a host.
  std::string uri = path.is_absolute() ? "file://" : "file:";
  for (const char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' ||
        c == '-' || c == '.' || c == '_' || c == '~') {
      uri += ch;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 0xf];
    }
  }
  return uri + "?mode=ro&immutable=1";
}
}  // namespace

Db::Db(const std::filesystem::path& path, Mode mode)
    : path_(path), mode_(mode), read_only_(mode != Mode::read_write) {
  int flags = SQLITE_OPEN_NOMUTEX;
  std::string name = path.string();
  switch (mode) {
    case Mode::read_write:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
    case Mode::read_only:
      flags |= SQLITE_OPEN_READONLY;
      break;
    case Mode::immutable:
      flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
      name = immutableUri(path);
      break;
    case Mode::memory:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY;
      name = ":memory:";
      break;
  }
  const int code = sqlite3_open_v2(name.c_str(), &db_, flags, nullptr);
  if (code != SQLITE_OK) {
    const Kind kind = kindOf(code) == Kind::io ? Kind::cannot_open : kindOf(code);
    std::string message =
        path.string() + ": cannot open the workspace: " + meaning(kind, code, db_);
    sqlite3_close(db_);
    db_ = nullptr;
    throw WorkspaceError(kind, message);
  }
  sqlite3_extended_result_codes(db_, 1);
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  // A read-write open of a file only readable falls back to read-only in SQLite; say so when
  // the first write is refused rather than pretend it is writable.
  if (sqlite3_db_readonly(db_, "main") == 1) read_only_ = true;
}

int Db::probe() {
  sqlite3_stmt* stmt = nullptr;
  int code = sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master", -1, &stmt, nullptr);
  if (code == SQLITE_OK) {
    code = sqlite3_step(stmt);
    if (code == SQLITE_ROW || code == SQLITE_DONE) code = SQLITE_OK;
  }
  sqlite3_finalize(stmt);
  if (code != SQLITE_OK) code = sqlite3_extended_errcode(db_);
  // SQLite may decide only now that a read-write connection is read-only.
  if (code == SQLITE_OK && sqlite3_db_readonly(db_, "main") == 1) read_only_ = true;
  return code;
}

Db::~Db() {
  sqlite3_close(db_);
}

void Db::exec(std::string_view sql) {
  const std::string text(sql);
  char* error = nullptr;
  const int code = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &error);
  sqlite3_free(error);
  check(code, "updating the workspace");
}

std::int64_t Db::integerOf(std::string_view sql) {
  Statement s(*this, sql);
  return s.step() ? s.integer(0) : 0;
}

WorkspaceError Db::errorOf(int code, std::string_view doing) const {
  const Kind kind = kindOf(code);
  std::string why = meaning(kind, code, db_);
  if (kind == Kind::read_only && !read_only_reason_.empty()) why += ": " + read_only_reason_;
  return WorkspaceError(kind, path_.string() + ": " + std::string(doing) + " failed: " + why);
}

void Db::fail(int code, std::string_view doing) const {
  throw errorOf(code, doing);
}

Transaction::Transaction(Db& db, std::string_view doing) : db_(db), doing_(doing) {
  const int code = sqlite3_exec(db.handle(), "BEGIN IMMEDIATE", nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) db.fail(code, doing_);
}

Transaction::~Transaction() {
  if (!done_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  const int code = sqlite3_exec(db_.handle(), "COMMIT", nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) {
    // A failed COMMIT (a full disk at the last page) leaves the transaction open: undo it so
    // the file keeps only what was saved before.
    const WorkspaceError error = db_.errorOf(code, doing_);
    sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    done_ = true;
    throw error;
  }
  done_ = true;
}

}  // namespace breakerlab::workspace_detail
