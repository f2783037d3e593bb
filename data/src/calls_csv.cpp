// Call logs: "start_s,duration_s,outcome" per line.
#include "breakerlab/data/calls_csv.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/values.h"
#include "utf8.h"

namespace breakerlab {

using data_detail::requireUtf8;

namespace {

struct Field {
  std::string_view text;
  int column = 1;  // 1-based, of the first non-blank character
};

std::string_view trimCallsField(std::string_view s, int* leading = nullptr) {
  std::size_t b = 0;
  while (b < s.size() && (s[b] == ' ' || s[b] == '\t')) ++b;
  std::size_t e = s.size();
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r')) --e;
  if (leading != nullptr) *leading = static_cast<int>(b);
  return s.substr(b, e - b);
}

// At most 4 fields are kept: a line with more is an error anyway.
std::size_t splitFields(std::string_view line, Field (&fields)[5]) {
  std::size_t count = 0;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    const std::string_view raw = line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    int leading = 0;
    const std::string_view text = trimCallsField(raw, &leading);
    if (count < 5) fields[count] = {text, static_cast<int>(start) + leading + 1};
    ++count;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return count;
}

std::optional<CallOutcome> outcomeFrom(std::string_view text) {
  if (auto o = callOutcomeFromString(text)) return o;
  if (text.size() == 3 && text.find_first_not_of("0123456789") == std::string_view::npos) {
    const int status = (text[0] - '0') * 100 + (text[1] - '0') * 10 + (text[2] - '0');
    if (status >= 200 && status <= 299) return CallOutcome::success;
    if (status >= 400 && status <= 499) return CallOutcome::client_error;
    if (status >= 500 && status <= 599) return CallOutcome::server_error;
  }
  return std::nullopt;
}

// A field as an error quotes it: at most 40 characters.
std::string quote(std::string_view text) {
  constexpr std::size_t kMax = 40;
  const std::string clipped = clipText(text, kMax);
  if (clipped.size() == text.size()) return "\"" + clipped + "\"";
  return "\"" + clipped + "\" (" + std::to_string(text.size()) + " bytes)";
}

}  // namespace

bool CallLogParser::parseLine(std::string_view line, LoggedCall& call) {
  ++line_number_;
  requireUtf8(line, file_, line_number_);
  // A UTF-8 byte-order mark (Excel's "CSV UTF-8") before the header or the first call.
  if (line_number_ == 1) line = data_detail::skipUtf8Bom(line);
  const std::string_view content = trimCallsField(line);
  if (content.empty() || content.front() == '#') return false;
  const auto error = [&](int column, const std::string& message) {
    return LoadError(file_, line_number_, column, message);
  };
  Field fields[5];
  const std::size_t count = splitFields(line, fields);
  const bool first = !seen_line_;
  seen_line_ = true;
  if (first && !fields[0].text.empty() && !parseNumber(fields[0].text)) {
    if (count != 3 && count != 4)
      throw error(1,
                  "the header must have 3 columns (start_s,duration_s,outcome) or 4 (and pod), "
                  "got " +
                      std::to_string(count));
    columns_ = count;
    return false;
  }
  // Every line has the columns of the first (the header, or the first call).
  if (columns_ == 0 && count != 3 && count != 4)
    throw error(count > 4 ? fields[4].column : static_cast<int>(line.size()) + 1,
                "expected 3 fields (start_s,duration_s,outcome) or 4 (and pod), got " +
                    std::to_string(count));
  if (columns_ == 0) columns_ = count;
  if (count != columns_)
    throw error(count > columns_ ? fields[columns_].column : static_cast<int>(line.size()) + 1,
                std::string("expected ") +
                    (columns_ == 4 ? "4 fields (start_s,duration_s,outcome,pod)"
                                   : "3 fields (start_s,duration_s,outcome)") +
                    ", got " + std::to_string(count));
  call.pod = 0;
  if (columns_ == 4) {
    const auto pod = parseNumber(fields[3].text);
    if (!pod || *pod < 0 || *pod > kMaxCallLogPod || *pod != std::floor(*pod))
      throw error(fields[3].column, "pod: expected a whole number from 0 to " +
                                        std::to_string(kMaxCallLogPod) + ", got " +
                                        quote(fields[3].text));
    call.pod = static_cast<std::uint32_t>(*pod);
  }
  const auto start = parseNumber(fields[0].text);
  if (!start || std::abs(*start) > toSeconds(kMaxDuration))
    throw error(fields[0].column,
                "start_s: expected a number of seconds, got " + quote(fields[0].text));
  const auto duration = parseNumber(fields[1].text);
  if (!duration || *duration < 0 || *duration > toSeconds(kMaxDuration))
    throw error(fields[1].column, "duration_s: expected a non-negative number of seconds, got " +
                                      quote(fields[1].text));
  const auto outcome = outcomeFrom(fields[2].text);
  if (!outcome)
    throw error(fields[2].column,
                "outcome: expected one of success, failure, timeout, refused, server_error, "
                "client_error, pool_exhausted or an HTTP status 2xx, 4xx, 5xx, got " +
                    quote(fields[2].text));
  call.start = fromSeconds(*start);
  call.duration = fromSeconds(*duration);
  call.outcome = *outcome;
  if (have_last_ && call.start < last_start_)
    throw error(fields[0].column, "start_s: " + clipText(fields[0].text, 40) +
                                      " is before the previous call's start (" +
                                      formatSeconds(last_start_) +
                                      "); calls must be sorted by start");
  last_start_ = call.start;
  have_last_ = true;
  return true;
}

CallLogReader::CallLogReader(const std::filesystem::path& path)
    : name_(path.string()), parser_(name_), buffer_(1 << 16) {
  // A FIFO or a device would block or never end; a call log is a regular file, opened without
  // waiting for a writer.
  const int fd = openRegularFile(path, size_);
  file_ = ::fdopen(fd, "rb");
  if (file_ == nullptr) {
    const int error = errno;
    ::close(fd);
    throw LoadError(name_, 0, 0, std::string("cannot read: ") + std::strerror(error));
  }
}

CallLogReader::~CallLogReader() {
  if (file_ != nullptr) std::fclose(file_);
}

bool CallLogReader::fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  const std::size_t n = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_);
  if (n == 0) {
    if (std::ferror(file_))
      throw LoadError(name_, 0, 0, std::string("cannot read: ") + std::strerror(errno));
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

bool CallLogReader::next(LoggedCall& out) {
  for (;;) {
    const char* data = buffer_.data();
    const void* nl = std::memchr(data + begin_, '\n', end_ - begin_);
    std::string_view line;
    if (nl != nullptr) {
      const auto len = static_cast<std::size_t>(static_cast<const char*>(nl) - (data + begin_));
      line = std::string_view(data + begin_, len);
      begin_ += len + 1;
      consumed_ += len + 1;
    } else if (end_ - begin_ > kMaxCallLogLine) {
      throw LoadError(name_, parser_.lineNumber() + 1, 0,
                      "line longer than " + std::to_string(kMaxCallLogLine) + " bytes");
    } else if (fill()) {
      continue;
    } else if (begin_ < end_) {
      line = std::string_view(data + begin_, end_ - begin_);  // a last line without '\n'
      consumed_ += end_ - begin_;
      begin_ = end_;
    } else {
      return false;
    }
    if (line.size() > kMaxCallLogLine)
      throw LoadError(name_, parser_.lineNumber() + 1, 0,
                      "line longer than " + std::to_string(kMaxCallLogLine) + " bytes");
    if (parser_.parseLine(line, out)) return true;
  }
}

std::vector<LoggedCall> parseCallsCsv(std::string_view text, const std::string& file_name) {
  std::vector<LoggedCall> calls;
  CallLogParser parser(file_name);
  std::size_t pos = 0;
  LoggedCall call;
  while (pos < text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (parser.parseLine(line, call)) calls.push_back(call);
  }
  return calls;
}

std::vector<LoggedCall> loadCallsCsv(const std::filesystem::path& path) {
  std::vector<LoggedCall> calls;
  CallLogReader reader(path);
  LoggedCall call;
  while (reader.next(call)) calls.push_back(call);
  return calls;
}

}  // namespace breakerlab
