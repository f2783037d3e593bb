#pragma once
// Call logs for the breaker-only replay: "start_s,duration_s,outcome" lines (docs/formats.md).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/breakers/breaker_types.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// The longest line a call log may have; a longer one is an error, not an allocation.
inline constexpr std::size_t kMaxCallLogLine = 4096;
// The highest pod number a call log may name: each pod named gets a breaker.
inline constexpr std::uint32_t kMaxCallLogPod = 9999;

// A fourth column `pod` (a whole number from 0) routes the call to that client pod's breaker
// (breakerlab-cli breaker replays one breaker per pod). Outcome is a name (success, failure,
// timeout, refused, server_error, client_error, pool_exhausted) or an HTTP status (2xx success, 4xx
// client_error, 5xx server_error). An optional header line, blank lines and '#' comments are
// skipped. Calls must be sorted by start. Errors are LoadError with line and column, quoting at
// most a few dozen characters.
class CallLogParser {
 public:
  explicit CallLogParser(std::string file_name) : file_(std::move(file_name)) {}
  // One line (without its '\n'); true when it held a call.
  bool parseLine(std::string_view line, LoggedCall& out);
  int lineNumber() const { return line_number_; }
  // Whether the log has the pod column (known after its first line).
  bool hasPods() const { return columns_ == 4; }

 private:
  std::string file_;
  int line_number_ = 0;
  bool seen_line_ = false;
  Micros last_start_ = 0;
  bool have_last_ = false;
  std::size_t columns_ = 0;  // 3 or 4, set by the first line
};

// Reads a call log from a file a buffer at a time: memory does not grow with the log.
class CallLogReader {
 public:
  explicit CallLogReader(const std::filesystem::path& path);
  ~CallLogReader();
  CallLogReader(const CallLogReader&) = delete;
  CallLogReader& operator=(const CallLogReader&) = delete;

  // The next call, or false at the end of the file.
  bool next(LoggedCall& out);
  // Bytes read so far, and the file's size (for progress).
  std::uint64_t bytesRead() const { return consumed_; }
  std::uint64_t size() const { return size_; }
  bool hasPods() const { return parser_.hasPods(); }

 private:
  bool fill();

  std::string name_;
  std::FILE* file_ = nullptr;
  CallLogParser parser_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::uint64_t consumed_ = 0;
  std::uint64_t size_ = 0;
};

std::vector<LoggedCall> parseCallsCsv(std::string_view text, const std::string& file_name);
std::vector<LoggedCall> loadCallsCsv(const std::filesystem::path& path);

}  // namespace breakerlab
