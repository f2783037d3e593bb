// Call logs: "start_s,duration_s,outcome" per line.
#include "breakerlab/data/calls_csv.h"

#include <array>
#include <cmath>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

struct Field {
  std::string_view text;
  int column = 1;  // 1-based, of the first non-blank character
};

std::string_view trim(std::string_view s, int* leading = nullptr) {
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  std::size_t e = s.size();
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  if (leading != nullptr) *leading = static_cast<int>(b);
  return s.substr(b, e - b);
}

std::vector<Field> splitFields(std::string_view line) {
  std::vector<Field> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::string_view raw = line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    int leading = 0;
    const std::string_view text = trim(raw, &leading);
    fields.push_back({text, static_cast<int>(start) + leading + 1});
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return fields;
}

std::optional<CallOutcome> outcomeFrom(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, CallOutcome>, 6> kNames = {{
      {"success", CallOutcome::success},
      {"timeout", CallOutcome::timeout},
      {"refused", CallOutcome::refused},
      {"server_error", CallOutcome::server_error},
      {"client_error", CallOutcome::client_error},
      {"pool_exhausted", CallOutcome::pool_exhausted},
  }};
  for (const auto& [name, o] : kNames)
    if (name == text) return o;
  if (text.size() == 3 && text.find_first_not_of("0123456789") == std::string_view::npos) {
    const int status = (text[0] - '0') * 100 + (text[1] - '0') * 10 + (text[2] - '0');
    if (status >= 200 && status <= 299) return CallOutcome::success;
    if (status >= 400 && status <= 499) return CallOutcome::client_error;
    if (status >= 500 && status <= 599) return CallOutcome::server_error;
  }
  return std::nullopt;
}

bool looksLikeHeader(const std::vector<Field>& fields) {
  return !fields.empty() && !fields[0].text.empty() && !parseNumber(fields[0].text);
}

}  // namespace

std::vector<LoggedCall> parseCallsCsv(std::string_view text, const std::string& file_name) {
  std::vector<LoggedCall> calls;
  bool seen_line = false;
  int line_number = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++line_number;
    const std::string_view content = trim(line);
    if (content.empty() || content.front() == '#') continue;
    const auto error = [&](int column, const std::string& message) {
      return LoadError(file_name, line_number, column, message);
    };
    const std::vector<Field> fields = splitFields(line);
    const bool first = !seen_line;
    seen_line = true;
    if (first && looksLikeHeader(fields)) {
      if (fields.size() != 3)
        throw error(1, "the header must have 3 columns (start_s,duration_s,outcome), got " +
                           std::to_string(fields.size()));
      continue;
    }
    if (fields.size() != 3)
      throw error(
          fields.size() > 3 ? fields[3].column : static_cast<int>(line.size()) + 1,
          "expected 3 fields (start_s,duration_s,outcome), got " + std::to_string(fields.size()));
    LoggedCall call;
    const auto start = parseNumber(fields[0].text);
    if (!start || std::abs(*start) > toSeconds(kMaxDuration))
      throw error(fields[0].column, "start_s: expected a number of seconds, got \"" +
                                        std::string(fields[0].text) + "\"");
    const auto duration = parseNumber(fields[1].text);
    if (!duration || *duration < 0 || *duration > toSeconds(kMaxDuration))
      throw error(fields[1].column,
                  "duration_s: expected a non-negative number of seconds, got \"" +
                      std::string(fields[1].text) + "\"");
    const auto outcome = outcomeFrom(fields[2].text);
    if (!outcome)
      throw error(fields[2].column,
                  "outcome: expected one of success, timeout, refused, server_error, "
                  "client_error, pool_exhausted or an HTTP status 2xx, 4xx, 5xx, got \"" +
                      std::string(fields[2].text) + "\"");
    call.start = fromSeconds(*start);
    call.duration = fromSeconds(*duration);
    call.outcome = *outcome;
    if (!calls.empty() && call.start < calls.back().start)
      throw error(fields[0].column, "start_s: " + std::string(fields[0].text) +
                                        " is before the previous call's start (" +
                                        formatSeconds(calls.back().start) +
                                        "); calls must be sorted by start");
    calls.push_back(call);
  }
  return calls;
}

std::vector<LoggedCall> loadCallsCsv(const std::filesystem::path& path) {
  return parseCallsCsv(readTextFile(path), path.string());
}

}  // namespace breakerlab
