#pragma once
// Internal to the request-log reader: the columns a line's fields are found in, the values they
// are read as, and the packed rows they are collected into before linking.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "breakerlab/data/request_log.h"

namespace breakerlab::data_detail {

// A row's outcome: one of CallOutcome's answers, or a request that made no call.
inline constexpr std::uint8_t kNotSent = 0xff;
// A request its pod's breaker rejected (rejected, short_circuited, CallNotPermitted): made no call
// either, and tells that the breaker was not closed then (pod_breaker_inference.h).
inline constexpr std::uint8_t kRejected = 0xfe;
inline constexpr std::uint8_t kNoAttempt = 0xff;

// The field a header name (or JSON key) stands for, by the usual names; nullopt for others.
// `unit` gets the time unit its suffix implies ("ms" for latency_ms), or stays empty.
std::optional<RequestLogField> fieldForName(std::string_view name, std::string* unit);
// The unit of a mapped name's suffix ("latency_ms" -> "ms"), or "".
std::string unitSuffix(std::string_view name);

// Values, each with the message of what was expected when it does not parse.
// Microseconds since the epoch; `unit` is "s", "ms", "us", "ns" or "" (decide by magnitude,
// and remember in `unit`).
std::optional<std::int64_t> parseLogTimestamp(std::string_view text, std::string& unit);
// A duration: a number in `unit` ("ms" by default) or with its own unit suffix.
std::optional<Micros> parseLogDuration(std::string_view text, std::string_view unit);
// An outcome word or an HTTP status; kNotSent for a request that made no call, kRejected for one
// its breaker rejected.
std::optional<std::uint8_t> parseLogOutcome(std::string_view text);
std::optional<std::uint8_t> parseLogStatus(std::string_view text);

// The string fields of one line, as views into it, with their 1-based columns. JSON Lines
// give the key instead (column 0), found in the line only for an error: columnOf().
struct RowFields {
  std::string_view value[kRequestLogFieldCount];
  int column[kRequestLogFieldCount] = {};
  bool present[kRequestLogFieldCount] = {};
  std::string_view key[kRequestLogFieldCount];  // JSON Lines: the value's (last) key
  std::string_view line;                        // JSON Lines: the line, to find a key in
  void clear() {
    for (int i = 0; i < kRequestLogFieldCount; ++i) present[i] = false;
  }
  int columnOf(int f) const {
    if (column[f] > 0 || line.empty()) return std::max(column[f], 1);
    for (std::size_t at = line.find(key[f]); at != std::string_view::npos;
         at = line.find(key[f], at + 1))
      if (at > 0 && line[at - 1] == '"' && at + key[f].size() < line.size() &&
          line[at + key[f].size()] == '"')
        return static_cast<int>(at);  // the opening quote's column
    return 1;
  }
};

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept;
};

// Collects rows into packed columns (30 bytes a row), then sorts, links attempts to their
// requests and compacts them into a RequestLog.
class RowCollector {
 public:
  RowCollector(std::string file, const RequestLogOptions& options);
  // Sizes the columns for at most `rows` rows (the file's line count), so they never grow past
  // it: a vector's doubling would double the peak.
  void reserve(std::uint64_t rows, bool request_ids, bool attempts, bool request_starts, bool pods);
  // Reads the fields of line `line`; throws LoadError at the offending field.
  void add(const RowFields& fields, int line);
  // `total_bytes`: the input's size, for the progress calls between the linking steps (where
  // a cancel is honoured too).
  RequestLog finish(RequestLogFormat format, std::uint64_t lines, std::uint64_t total_bytes);

  std::string columns[kRequestLogFieldCount];
  std::string duration_unit = "ms";
  std::string timestamp_unit;

 private:
  std::uint64_t bytesNow() const;
  [[noreturn]] void fail(int line, int column, const std::string& message) const;
  // Reports progress (all bytes read) and throws ImportCancelled when the callback says stop.
  void checkpoint(std::uint64_t total_bytes) const;
  // Fills log.pods and log.pod_breakers from the pod column (times since the epoch, log.origin
  // set); `next_row`: each row's next attempt of its request.
  void inferPodBreakers(RequestLog& log, const std::vector<std::uint32_t>& next_row);

  std::string file_;
  RequestLogOptions options_;
  std::vector<std::int64_t> ts_;
  std::vector<std::uint32_t> duration_;
  std::vector<std::uint8_t> outcome_;
  std::vector<std::uint8_t> attempt_;
  std::vector<std::uint32_t> key_;
  std::vector<std::uint64_t> request_;  // hash of the request id
  std::vector<std::uint32_t> waited_;   // request_start before ts, us
  std::vector<std::uint32_t> pod_;      // the row's pod, in first-seen order; kNoPod without
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> pods_;
  std::string last_pod_;
  std::uint32_t last_pod_id_ = 0;
  bool has_last_pod_ = false;
  std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> keys_;
  std::string last_key_;
  std::uint32_t last_key_id_ = 0;
  bool has_last_key_ = false;
  bool sorted_ = true;
  std::uint64_t peak_ = 0;
};

}  // namespace breakerlab::data_detail
