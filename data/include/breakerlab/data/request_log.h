#pragma once
// Request logs: one dependency call a line, CSV with a header or JSON Lines (docs/formats.md,
// "Request logs"). Read a buffer at a time into packed arrays (at most 48 bytes a call at peak),
// with progress and cancel, then summarised into an incident whose dependency answers as the log
// recorded.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/inputs/recorded_calls.h"
#include "breakerlab/data/import_report.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

enum class RequestLogFormat : std::uint8_t { csv, jsonl };
std::string_view toString(RequestLogFormat format);  // "csv", "jsonl"

// The fields of a line. Each is found by its header name (CSV) or key (JSON Lines, dotted for
// nested objects: "http.status"), by the usual names unless a mapping names it.
enum class RequestLogField : std::uint8_t {
  timestamp,      // when the call started: epoch s/ms/us/ns or ISO 8601
  duration,       // how long it took (unit from the name's suffix, a unit on the value, or ms)
  status,         // an HTTP status
  outcome,        // a word: success, timeout, refused, server_error, client_error, not_sent...
  key,            // what the answer is cached under (SKU)
  pod,            // the client instance
  request_id,     // links a request's attempts
  attempt,        // 0 (or 1) for the request's first call
  request_start,  // when the request arrived, if before its first call (a worker or pool wait)
};
inline constexpr int kRequestLogFieldCount = 9;
std::string_view toString(RequestLogField field);

// Which header name (or JSON key) holds each field; an empty name means "find it by the usual
// names". `--map ts=time,duration=latency_ms` fills it.
struct RequestLogMapping {
  std::string names[kRequestLogFieldCount];
  const std::string& operator[](RequestLogField f) const { return names[static_cast<int>(f)]; }
  std::string& operator[](RequestLogField f) { return names[static_cast<int>(f)]; }
  bool empty() const;
  std::string toText() const;  // "timestamp=time,duration=latency_ms", as parseMapping takes it
};
// "field=name,field=name"; field names as toString(RequestLogField) or short forms (ts, time,
// latency, status, id, ...). Throws LoadError naming `where` (e.g. "--map").
RequestLogMapping parseRequestLogMapping(std::string_view text, const std::string& where);

// The most calls one log may hold (about 3.6 GB at the peak of its replay); a longer log is
// refused at once.
inline constexpr std::uint64_t kMaxRequestLogCalls = 64'000'000;
// Memory a logged call takes at the peak of a replay of the log, checked against what the
// machine can give before reading starts (requireMemoryFor). Reading peaks at 48 bytes a call
// (the columns while linking); the replay at 55, measured with a 10 M-call log on 6 Dec 2026
// (549 MB peak RSS): 35 held by the incident, 16 by the result's checkout records, the rest the
// simulator's. The check is for the replay, which is what a log is read for.
inline constexpr std::uint64_t kRequestLogPeakBytesPerCall = 56;
// A longer line is an error, not an allocation.
inline constexpr std::size_t kMaxRequestLogLine = 64 * 1024;
// Distinct keys (SKUs): the replay keeps a cache entry for each.
inline constexpr std::uint32_t kMaxRequestLogKeys = 1u << 24;

struct RequestLogOptions {
  RequestLogMapping mapping;
  // Bytes read so far and the file's size, every few megabytes; return false to cancel (the
  // reader throws ImportCancelled).
  std::function<bool(std::uint64_t done, std::uint64_t total)> progress;
  std::uint64_t max_calls = kMaxRequestLogCalls;
  // How many requests a pod's half-open breaker lets through (the deployed breaker.probes), for
  // reading each pod's breaker from a pod column (pod_breaker_inference.h).
  std::uint32_t half_open_probes = 1;
};

class ImportCancelled : public LoadError {
 public:
  explicit ImportCancelled(const std::string& file) : LoadError(file, 0, 0, "import cancelled") {}
};

// A log as read: times relative to `origin` (the first arrival's whole second, in microseconds
// since the Unix epoch), arrivals in time order with their keys, the calls that reached the
// dependency in RecordedCalls form.
struct RequestLog {
  std::string file;
  RequestLogFormat format = RequestLogFormat::csv;
  std::int64_t origin = 0;  // us since the epoch of t = 0
  std::vector<Micros> arrivals;
  std::vector<std::uint32_t> arrival_keys;
  std::uint32_t key_count = 1;
  RecordedCalls calls;
  // What the reader saw, for the import report.
  std::uint64_t lines = 0;
  std::uint64_t rows = 0;            // calls and not-sent requests
  std::uint64_t not_sent = 0;        // rows of requests that made no call
  std::uint64_t pool_exhausted = 0;  // attempts that got no connection (not answers)
  std::uint64_t unlinked = 0;        // retries whose request has no first call in the log
  std::uint64_t rejected = 0;        // of not_sent: requests a breaker rejected
  // The pod column: the pods by name, sorted, and each pod's breaker as its rows show it
  // (rejections and calls let through; empty when the log has no rejection), in the same order.
  std::vector<std::string> pods;
  std::vector<Lane> pod_breakers;
  std::uint64_t rows_without_pod = 0;  // lines with an empty pod cell while others have one
  // 99.9% of the gaps between a pod's consecutive requests are at most this: how far off a pod
  // lane's boundary may be.
  Micros pod_request_gap_p999 = 0;
  bool had_request_ids = false;
  bool had_attempts = false;
  bool had_keys = false;
  bool sorted = true;                          // the lines were in start order
  std::string columns[kRequestLogFieldCount];  // the header name used for each field, or ""
  std::string mapping;                         // the mapping it was read with, as `--map` text
  std::string duration_unit;                   // "ms", "s", "us", "ns"
  std::uint64_t peak_bytes = 0;                // the reader's arrays at their largest
};

// Reads the log a buffer at a time. Only regular files are opened (no FIFO, no device).
// Throws LoadError with line and column, quoting at most 80 characters.
RequestLog readRequestLog(const std::filesystem::path& path, RequestLogFormat format,
                          const RequestLogOptions& options = {});
// The same from text in memory (tests, fuzzing).
RequestLog parseRequestLog(std::string_view text, const std::string& file_name,
                           RequestLogFormat format, const RequestLogOptions& options = {});

// Whether `head` (the first few kilobytes of a file) looks like a request log, and which format:
// a CSV header or a JSON object with a timestamp and a duration, by the usual names or by the
// names `mapping` gives them.
std::optional<RequestLogFormat> detectRequestLog(std::string_view head,
                                                 const RequestLogMapping& mapping = {});

// The end of the window a log replays over: the second after its last arrival's (times since the
// log's origin).
inline Micros requestLogWindowEnd(Micros last_arrival) {
  return (last_arrival / kSecond + 1) * kSecond;
}

// The dependency over time as a change-point summary of the calls (1-second bins, or wider for
// long logs, merged while their failure share and latency stay alike): segments named by what
// dominates them ("healthy", "timing out", "connection refused", "server errors", "degraded",
// "slow") and their health (red while failing or slow). For the lanes: the replay answers from
// the calls themselves.
struct DependencySummary {
  std::vector<DependencySegment> segments;
  std::vector<HealthSpan> health;
  Micros bin = kSecond;
};
DependencySummary summarizeDependency(const RecordedCalls& calls, Micros from, Micros to);

// The incident a log replays as: title and id from the file name, the window the log's span in
// whole seconds, recorded arrivals and keys, the dependency answering from the calls, `config`
// as deployed. Moves the log's arrays into the incident. Adds what it found to `report`.
Incident incidentFromRequestLog(RequestLog&& log, const Config& config, ImportReport& report);

}  // namespace breakerlab
