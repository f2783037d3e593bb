// Request logs: the file read a buffer at a time (two passes: the line count sizes the packed
// columns exactly, then the lines are parsed), progress and cancel, and telling a log by its
// first lines.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/memory_budget.h"
#include "request_log_parsers.h"
#include "utf8.h"

namespace breakerlab {

using namespace data_detail;

namespace {

constexpr std::size_t kBufferBytes = 1 << 20;
constexpr std::uint64_t kProgressEvery = 8ull << 20;

class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() { ::close(fd_); }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

std::size_t readSome(int fd, char* into, std::size_t size, const std::string& file) {
  for (;;) {
    const ssize_t n = ::read(fd, into, size);
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno == EINTR) continue;
    throw LoadError(file, 0, 0, std::string("cannot read: ") + std::strerror(errno));
  }
}

// Calls `on_line(line, number)` for each line of what `fill` delivers, a buffer at a time.
template <typename Fill, typename OnLine>
void forEachLine(const std::string& file, std::vector<char>& buffer, Fill fill, OnLine on_line,
                 const RequestLogOptions& options, std::uint64_t total) {
  std::size_t begin = 0, end = 0;
  std::uint64_t consumed = 0, next_progress = kProgressEvery;
  int number = 0;
  bool eof = false;
  bool head_checked = false;
  // A first line too long because the file's lines end in CR only is named for that.
  const auto tooLong = [&](std::string_view line) {
    if (number == 0 && crOnlyLineEnds(line)) return LoadError(file, 1, 1, crOnlyMessage());
    return LoadError(file, number + 1, 1,
                     "line longer than " + std::to_string(kMaxRequestLogLine) + " bytes");
  };
  for (;;) {
    const char* data = buffer.data();
    if (!head_checked && (end > 0 || eof)) {
      // The file's first bytes: UTF-16 is named; a UTF-8 byte-order mark (Excel's "CSV UTF-8")
      // is skipped, or the header's first column would not be recognised.
      head_checked = true;
      requireNotWideEncoding(std::string_view(data, std::min<std::size_t>(end, 256)), file);
      if (startsWithUtf8Bom(std::string_view(data, end))) {
        begin = kUtf8Bom.size();
        consumed += kUtf8Bom.size();
      }
    }
    const void* nl = std::memchr(data + begin, '\n', end - begin);
    if (nl == nullptr) {
      if (!eof) {
        if (end - begin > kMaxRequestLogLine) throw tooLong({data + begin, end - begin});
        std::memmove(buffer.data(), buffer.data() + begin, end - begin);
        end -= begin;
        begin = 0;
        const std::size_t n = fill(buffer.data() + end, buffer.size() - end);
        if (n == 0) eof = true;
        end += n;
        continue;
      }
      if (begin == end) break;
      nl = data + end;  // the last line has no '\n'
    }
    const auto stop = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
    if (stop - begin > kMaxRequestLogLine) throw tooLong({data + begin, stop - begin});
    std::string_view line(data + begin, stop - begin);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    // CR-only line ends make the whole file one line: its header would swallow the calls.
    if (number == 0 && crOnlyLineEnds(line)) throw LoadError(file, 1, 1, crOnlyMessage());
    on_line(line, ++number);
    consumed += stop - begin + 1;
    begin = std::min(stop + 1, end);
    if (consumed >= next_progress) {
      next_progress += kProgressEvery;
      if (options.progress && !options.progress(std::min(consumed, total), total))
        throw ImportCancelled(file);
    }
    if (number == INT32_MAX) throw LoadError(file, number, 1, "more than 2^31 lines");
  }
  if (options.progress && !options.progress(total, total)) throw ImportCancelled(file);
}

template <typename Fill>
RequestLog readWith(const std::string& file, RequestLogFormat format,
                    const RequestLogOptions& options, std::uint64_t line_bound, std::uint64_t total,
                    Fill fill) {
  RowCollector rows(file, options);
  RowFields fields;
  std::vector<char> buffer(kBufferBytes + kMaxRequestLogLine + 1);
  std::uint64_t lines = 0;
  if (format == RequestLogFormat::csv) {
    CsvRowParser parser(file, options.mapping, rows);
    bool reserved = false;
    forEachLine(
        file, buffer, fill,
        [&](std::string_view line, int number) {
          ++lines;
          if (!parser.parseLine(line, number, fields)) return;
          if (!reserved) {
            rows.reserve(line_bound, parser.has(RequestLogField::request_id),
                         parser.has(RequestLogField::attempt),
                         parser.has(RequestLogField::request_start),
                         parser.has(RequestLogField::pod));
            reserved = true;
          }
          rows.add(fields, number);
        },
        options, total);
    if (!parser.sawHeader())
      throw LoadError(file, 0, 0, "empty: expected a header line naming the columns");
  } else {
    JsonlRowParser parser(file, options.mapping, rows);
    rows.reserve(line_bound, false, false, false, false);
    forEachLine(
        file, buffer, fill,
        [&](std::string_view line, int number) {
          ++lines;
          if (parser.parseLine(line, number, fields)) rows.add(fields, number);
        },
        options, total);
  }
  return rows.finish(format, lines, total);
}

}  // namespace

RequestLog readRequestLog(const std::filesystem::path& path, RequestLogFormat format,
                          const RequestLogOptions& options) {
  const std::string file = path.string();
  std::uint64_t size = 0;
  // The line count, a buffer at a time: it bounds the rows, so the columns are reserved once.
  std::uint64_t newlines = 0;
  {
    Descriptor fd(openRegularFile(path, size));
    std::vector<char> buffer(kBufferBytes);
    std::uint64_t counted = 0, next_check = kProgressEvery;
    for (;;) {
      const std::size_t n = readSome(fd.get(), buffer.data(), buffer.size(), file);
      if (n == 0) break;
      newlines += static_cast<std::uint64_t>(std::count(buffer.data(), buffer.data() + n, '\n'));
      // No progress to show yet (0%), but a cancel is honoured.
      if ((counted += n) >= next_check) {
        next_check += kProgressEvery;
        if (options.progress && !options.progress(0, size)) throw ImportCancelled(file);
      }
    }
  }
  if (newlines > options.max_calls + 1000)
    throw LoadError(file, 0, 0,
                    "more than " + std::to_string(options.max_calls) +
                        " lines: the log is too long to replay (split it by time)");
  // Before a byte of the columns is allocated: a log this machine cannot hold is refused now,
  // not with std::bad_alloc minutes later.
  requireMemoryFor((newlines + 1) * kRequestLogPeakBytesPerCall, file,
                   "a log of " + std::to_string(newlines) + " lines", "split the log by time");
  Descriptor fd(openRegularFile(path, size));
  return readWith(file, format, options, newlines + 1, size, [&](char* into, std::size_t room) {
    return readSome(fd.get(), into, room, file);
  });
}

RequestLog parseRequestLog(std::string_view text, const std::string& file_name,
                           RequestLogFormat format, const RequestLogOptions& options) {
  const auto newlines = static_cast<std::uint64_t>(std::count(text.begin(), text.end(), '\n'));
  std::size_t offset = 0;
  return readWith(file_name, format, options, newlines + 1, text.size(),
                  [&](char* into, std::size_t room) {
                    const std::size_t n = std::min(room, text.size() - offset);
                    std::memcpy(into, text.data() + offset, n);
                    offset += n;
                    return n;
                  });
}

std::optional<RequestLogFormat> detectRequestLog(std::string_view head,
                                                 const RequestLogMapping& mapping) {
  head = skipUtf8Bom(head);
  // The first line that is not blank or a comment.
  std::size_t at = 0;
  std::string_view line;
  while (at < head.size()) {
    const std::size_t nl = head.find('\n', at);
    line = head.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    at = nl == std::string_view::npos ? head.size() : nl + 1;
    std::size_t b = 0;
    while (b < line.size() && (line[b] == ' ' || line[b] == '\t' || line[b] == '\r')) ++b;
    line.remove_prefix(b);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (!line.empty() && line.front() != '#') break;
    line = {};
  }
  if (line.empty()) return std::nullopt;
  if (line.front() == '{') {
    // One whole object on the line (a JSON incident spreads over many) with a time in it.
    if (line.back() != '}') return std::nullopt;
    for (std::string_view key : {"\"timestamp", "\"ts\"", "\"time", "\"start", "\"@timestamp\""})
      if (line.find(key) != std::string_view::npos) return RequestLogFormat::jsonl;
    // A mapped timestamp key (its last part, when dotted: "meta.when" is "when" in an object).
    std::string_view mapped = mapping[RequestLogField::timestamp];
    if (const std::size_t dot = mapped.rfind('.'); dot != std::string_view::npos)
      mapped.remove_prefix(dot + 1);
    if (!mapped.empty() && line.find("\"" + std::string(mapped) + "\"") != std::string_view::npos)
      return RequestLogFormat::jsonl;
    return std::nullopt;
  }
  if (line.find(',') == std::string_view::npos) return std::nullopt;
  // A CSV header with a timestamp column and a duration column.
  bool time = false, duration = false;
  std::size_t start = 0;
  while (start <= line.size()) {
    const std::size_t comma = line.find(',', start);
    std::string_view cell = line.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    while (!cell.empty() && (cell.front() == ' ' || cell.front() == '"')) cell.remove_prefix(1);
    while (!cell.empty() && (cell.back() == ' ' || cell.back() == '"')) cell.remove_suffix(1);
    auto mapped = [&](RequestLogField f) {
      const std::string& name = mapping[f];
      return !name.empty() && name.size() == cell.size() &&
             std::equal(name.begin(), name.end(), cell.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
    };
    if (mapped(RequestLogField::timestamp)) time = true;
    if (mapped(RequestLogField::duration)) duration = true;
    if (auto f = fieldForName(cell, nullptr)) {
      time = time || *f == RequestLogField::timestamp;
      duration = duration || *f == RequestLogField::duration;
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (time && duration) return RequestLogFormat::csv;
  return std::nullopt;
}

}  // namespace breakerlab
