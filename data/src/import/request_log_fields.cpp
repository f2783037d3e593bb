// Request logs: the usual names of each field, the column mapping, and the values of a field
// (timestamps, durations, outcomes, statuses).
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "breakerlab/data/values.h"
#include "request_log_rows.h"

namespace breakerlab {

namespace {

std::string normalised(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == '-' || c == ' ') c = '_';
    out += c;
  }
  return out;
}

constexpr std::array<std::string_view, kRequestLogFieldCount> kFieldNames = {
    "timestamp", "duration",   "status",  "outcome",      "key",
    "pod",       "request_id", "attempt", "request_start"};

struct Alias {
  std::string_view name;
  RequestLogField field;
};
// Names without their unit suffix (_ms, _s, _us, _ns are taken off first).
constexpr Alias kAliases[] = {
    {"timestamp", RequestLogField::timestamp},
    {"ts", RequestLogField::timestamp},
    {"time", RequestLogField::timestamp},
    {"@timestamp", RequestLogField::timestamp},
    {"start", RequestLogField::timestamp},
    {"start_time", RequestLogField::timestamp},
    {"started_at", RequestLogField::timestamp},
    {"starttime", RequestLogField::timestamp},
    {"datetime", RequestLogField::timestamp},
    {"date", RequestLogField::timestamp},
    {"duration", RequestLogField::duration},
    {"latency", RequestLogField::duration},
    {"elapsed", RequestLogField::duration},
    {"response_time", RequestLogField::duration},
    {"took", RequestLogField::duration},
    {"time_taken", RequestLogField::duration},
    {"rt", RequestLogField::duration},
    {"request_time", RequestLogField::duration},
    {"upstream_response_time", RequestLogField::duration},
    {"status", RequestLogField::status},
    {"status_code", RequestLogField::status},
    {"http_status", RequestLogField::status},
    {"http.status", RequestLogField::status},
    {"http.status_code", RequestLogField::status},
    {"http.response.status_code", RequestLogField::status},
    {"response_code", RequestLogField::status},
    {"code", RequestLogField::status},
    {"outcome", RequestLogField::outcome},
    {"result", RequestLogField::outcome},
    {"error", RequestLogField::outcome},
    {"error_type", RequestLogField::outcome},
    {"error_kind", RequestLogField::outcome},
    {"key", RequestLogField::key},
    {"sku", RequestLogField::key},
    {"cache_key", RequestLogField::key},
    {"product_id", RequestLogField::key},
    {"item", RequestLogField::key},
    {"pod", RequestLogField::pod},
    {"pod_name", RequestLogField::pod},
    {"host", RequestLogField::pod},
    {"hostname", RequestLogField::pod},
    {"instance", RequestLogField::pod},
    {"client", RequestLogField::pod},
    {"request_id", RequestLogField::request_id},
    {"requestid", RequestLogField::request_id},
    {"req_id", RequestLogField::request_id},
    {"x_request_id", RequestLogField::request_id},
    {"correlation_id", RequestLogField::request_id},
    {"trace_id", RequestLogField::request_id},
    {"id", RequestLogField::request_id},
    {"attempt", RequestLogField::attempt},
    {"try", RequestLogField::attempt},
    {"retry", RequestLogField::attempt},
    {"retry_count", RequestLogField::attempt},
    {"attempt_number", RequestLogField::attempt},
    {"request_start", RequestLogField::request_start},
    {"arrival", RequestLogField::request_start},
    {"arrived_at", RequestLogField::request_start},
    {"request_started_at", RequestLogField::request_start},
};

// Short forms a mapping may use for a field.
constexpr Alias kMappingNames[] = {
    {"ts", RequestLogField::timestamp},    {"time", RequestLogField::timestamp},
    {"start", RequestLogField::timestamp}, {"latency", RequestLogField::duration},
    {"code", RequestLogField::status},     {"result", RequestLogField::outcome},
    {"sku", RequestLogField::key},         {"host", RequestLogField::pod},
    {"id", RequestLogField::request_id},   {"request", RequestLogField::request_id},
    {"try", RequestLogField::attempt},     {"arrival", RequestLogField::request_start},
};

std::string_view stripUnit(std::string_view name, std::string* unit) {
  for (std::string_view suffix : {"_ms", "_us", "_ns", "_s", "_sec", "_seconds", "_millis"}) {
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix) {
      if (unit != nullptr) {
        if (suffix == "_sec" || suffix == "_seconds")
          *unit = "s";
        else if (suffix == "_millis")
          *unit = "ms";
        else
          *unit = std::string(suffix.substr(1));
      }
      return name.substr(0, name.size() - suffix.size());
    }
  }
  return name;
}

// Digits with an optional fraction, read exactly: `value * 10^exponent` microseconds (a
// timestamp in seconds has 16 digits, more than a double holds to the microsecond). Rounds the
// dropped digits half up. Returns nullopt for anything else ("1e3" is read as a double).
std::optional<std::int64_t> exactScaled(std::string_view text, int exponent) {
  bool negative = false;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    negative = true;
    ++i;
  }
  if (i == text.size()) return std::nullopt;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > (INT64_MAX - 9) / 10) return std::nullopt;
    whole = whole * 10 + (text[i] - '0');
  }
  std::int64_t fraction = 0;  // the first `exponent` digits after the point
  int taken = 0;
  bool round_up = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    std::size_t fraction_digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++fraction_digits) {
      if (taken < exponent) {
        fraction = fraction * 10 + (text[i] - '0');
        ++taken;
      } else if (taken == exponent && fraction_digits == static_cast<std::size_t>(exponent)) {
        round_up = text[i] >= '5';
      }
    }
    if (fraction_digits == 0 && digits == 0) return std::nullopt;
  } else if (digits == 0) {
    return std::nullopt;
  }
  if (i != text.size()) return std::nullopt;
  std::int64_t scale = 1;
  for (int k = 0; k < exponent; ++k) scale *= 10;
  for (; taken < exponent; ++taken) fraction *= 10;
  if (exponent < 0) {
    std::int64_t divisor = 1;
    for (int k = 0; k < -exponent; ++k) divisor *= 10;
    const std::int64_t v = (whole + divisor / 2) / divisor;
    return negative ? -v : v;
  }
  if (whole > (INT64_MAX - scale) / scale) return std::nullopt;
  const std::int64_t v = whole * scale + fraction + (round_up ? 1 : 0);
  return negative ? -v : v;
}

int unitExponent(std::string_view unit) {
  if (unit == "s") return 6;
  if (unit == "ms") return 3;
  if (unit == "us") return 0;
  return -3;  // ns
}

std::optional<std::int64_t> scaledNumber(std::string_view text, std::string_view unit) {
  const int exponent = unitExponent(unit);
  if (auto v = exactScaled(text, exponent)) return v;
  const auto d = parseNumber(text);
  if (!d) return std::nullopt;
  const double us = *d * std::pow(10.0, exponent);
  if (!(std::abs(us) < 9e18)) return std::nullopt;
  return static_cast<std::int64_t>(std::llround(us));
}

}  // namespace

std::string_view toString(RequestLogFormat format) {
  return format == RequestLogFormat::csv ? "csv" : "jsonl";
}

std::string_view toString(RequestLogField field) {
  return kFieldNames[static_cast<std::size_t>(field)];
}

bool RequestLogMapping::empty() const {
  return std::all_of(std::begin(names), std::end(names), [](const auto& n) { return n.empty(); });
}

std::string RequestLogMapping::toText() const {
  std::string out;
  for (int i = 0; i < kRequestLogFieldCount; ++i) {
    if (names[i].empty()) continue;
    if (!out.empty()) out += ',';
    out += std::string(kFieldNames[static_cast<std::size_t>(i)]) + "=" + names[i];
  }
  return out;
}

RequestLogMapping parseRequestLogMapping(std::string_view text, const std::string& where) {
  RequestLogMapping mapping;
  std::size_t start = 0;
  int column = 1;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    column = static_cast<int>(start) + 1;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == item.size())
      throw LoadError(where, 0, 0,
                      "expected FIELD=NAME pairs separated by commas (e.g. ts=time,duration="
                      "latency_ms), got \"" +
                          clipText(item) + "\" at column " + std::to_string(column));
    const std::string field = normalised(item.substr(0, eq));
    std::optional<RequestLogField> f;
    for (std::size_t i = 0; i < kFieldNames.size(); ++i)
      if (field == kFieldNames[i]) f = static_cast<RequestLogField>(i);
    for (const Alias& a : kMappingNames)
      if (!f && field == a.name) f = a.field;
    if (!f)
      throw LoadError(where, 0, 0,
                      "unknown field \"" + clipText(field) +
                          "\", expected one of timestamp, duration, status, outcome, key, pod, "
                          "request_id, attempt, request_start");
    mapping[*f] = std::string(item.substr(eq + 1));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return mapping;
}

namespace data_detail {

std::size_t StringHash::operator()(std::string_view s) const noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

std::string unitSuffix(std::string_view name) {
  std::string unit;
  stripUnit(normalised(name), &unit);
  return unit;
}

std::optional<RequestLogField> fieldForName(std::string_view raw, std::string* unit) {
  const std::string name = normalised(raw);
  std::string suffix_unit;
  const std::string_view bare = stripUnit(name, &suffix_unit);
  for (const Alias& a : kAliases) {
    if (a.name == name || a.name == bare) {
      if (unit != nullptr) {
        *unit = a.name == name ? "" : suffix_unit;
        // nginx writes these in seconds.
        if (unit->empty() && (a.name == "request_time" || a.name == "upstream_response_time"))
          *unit = "s";
      }
      return a.field;
    }
  }
  return std::nullopt;
}

std::optional<std::int64_t> parseLogTimestamp(std::string_view text, std::string& unit) {
  if (text.size() >= 16 && text[4] == '-') return parseUtcTimestamp(text);
  if (unit.empty()) {
    const auto d = parseNumber(text);
    if (!d) return std::nullopt;
    const double a = std::abs(*d);
    unit = a < 1e11 ? "s" : a < 1e14 ? "ms" : a < 1e17 ? "us" : "ns";
  }
  return scaledNumber(text, unit);
}

std::optional<Micros> parseLogDuration(std::string_view text, std::string_view unit) {
  std::string_view number = text;
  std::string_view own;
  for (std::string_view suffix : {"ms", "us", "ns", "s", "m"}) {
    if (text.size() > suffix.size() && text.substr(text.size() - suffix.size()) == suffix) {
      number = text.substr(0, text.size() - suffix.size());
      own = suffix;
      break;
    }
  }
  if (own == "m") {
    const auto d = parseNumber(number);
    if (!d || *d < 0 || *d > 1e7) return std::nullopt;
    return static_cast<Micros>(std::llround(*d * 60e6));
  }
  const auto v = scaledNumber(number, own.empty() ? (unit.empty() ? "ms" : unit) : own);
  if (!v || *v < 0) return std::nullopt;
  return *v;
}

namespace {
bool allDigits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace

std::optional<std::uint8_t> parseLogStatus(std::string_view text) {
  int status = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), status);
  // Not a status: a name ("timeout", "2xx"), unless it is all digits (out of range), which
  // parseLogOutcome would hand back here (found by fuzz_request_log: "20~~~" recursed forever).
  if (ec != std::errc() || end != text.data() + text.size())
    return allDigits(text) ? std::nullopt : parseLogOutcome(text);
  auto o = [](CallOutcome c) { return static_cast<std::uint8_t>(c); };
  if (status == 0) return o(CallOutcome::refused);  // no response: the connection failed
  if (status >= 100 && status <= 399) return o(CallOutcome::success);
  if (status == 408 || status == 499) return o(CallOutcome::timeout);
  if (status == 429) return o(CallOutcome::server_error);  // throttled: counts as a failure
  if (status >= 400 && status <= 499) return o(CallOutcome::client_error);
  if (status >= 500 && status <= 599) return o(CallOutcome::server_error);
  return std::nullopt;
}

std::optional<std::uint8_t> parseLogOutcome(std::string_view text) {
  if (allDigits(text)) return parseLogStatus(text);
  if (text.size() > 40) return std::nullopt;
  const std::string w = normalised(text);
  auto o = [](CallOutcome c) { return std::optional<std::uint8_t>(static_cast<std::uint8_t>(c)); };
  static constexpr std::string_view success[] = {"success", "ok", "succeeded", "2xx", "fresh"};
  static constexpr std::string_view timeout[] = {"timeout",      "timed_out", "deadline_exceeded",
                                                 "read_timeout", "etimedout", "hang"};
  static constexpr std::string_view refused[] = {
      "refused",          "connection_refused", "econnrefused",  "reset",
      "connection_reset", "econnreset",         "connect_error", "unavailable"};
  static constexpr std::string_view server[] = {"server_error",   "error",   "internal", "5xx",
                                                "internal_error", "failure", "failed",   "fail"};
  static constexpr std::string_view client[] = {
      "client_error", "4xx", "not_found", "invalid_argument", "bad_request", "business_error"};
  static constexpr std::string_view pool[] = {"pool_exhausted", "no_connection"};
  static constexpr std::string_view not_sent[] = {"not_sent", "skipped", "cached"};
  // The words of the breakers' refusals: resilience4j's CallNotPermittedException, Hystrix's
  // SHORT_CIRCUITED, opossum's "Breaker is open" (EOPENBREAKER), gobreaker's ErrOpenState, Polly's
  // and cockatiel's BrokenCircuit.
  static constexpr std::string_view rejected[] = {"rejected",           "short_circuited",
                                                  "not_permitted",      "call_not_permitted",
                                                  "circuit_open",       "open",
                                                  "open_circuit",       "eopenbreaker",
                                                  "broken_circuit",     "breaker_open",
                                                  "open_state",         "callnotpermittedexception",
                                                  "brokencircuiterror", "brokencircuitexception"};
  auto in = [&](const auto& list) {
    return std::find(std::begin(list), std::end(list), w) != std::end(list);
  };
  if (in(success)) return o(CallOutcome::success);
  if (in(timeout)) return o(CallOutcome::timeout);
  if (in(refused)) return o(CallOutcome::refused);
  if (in(server)) return o(CallOutcome::server_error);
  if (in(client)) return o(CallOutcome::client_error);
  if (in(pool)) return o(CallOutcome::pool_exhausted);
  if (in(not_sent)) return kNotSent;
  if (in(rejected)) return kRejected;
  return std::nullopt;
}

}  // namespace data_detail
}  // namespace breakerlab
