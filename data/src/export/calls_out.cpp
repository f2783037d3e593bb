// A traced replay's dependency calls as a request log, streamed to a temporary file and renamed.
#include "breakerlab/data/calls_out.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

std::string osReason(int error) {
  return std::strerror(error);
}

// Writes through a buffer to a temporary file beside `path`; commit() fsyncs and renames it.
// Until then `path` is untouched; a writer dropped without commit() removes its file.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::filesystem::path& path) : name_(path.string()) {
    const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
    dir_ = dir.string();
    temp_ = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
    fd_ = ::mkstemp(temp_.data());
    if (fd_ < 0) fail("cannot create a temporary file in " + dir_, errno);
    if (::fchmod(fd_, 0644) != 0) fail("cannot set permissions", errno);
    buffer_.reserve(kBuffer + 4096);
  }
  ~AtomicFileWriter() {
    if (fd_ >= 0) {
      ::close(fd_);
      ::unlink(temp_.c_str());
    }
  }
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  std::string& buffer() { return buffer_; }
  void flushIfFull() {
    if (buffer_.size() >= kBuffer) flush();
  }
  void commit() {
    flush();
    if (::fsync(fd_) != 0) fail("cannot flush to disk", errno);
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      const int error = errno;
      ::unlink(temp_.c_str());
      throw LoadError(name_, 0, 0, "cannot close: " + osReason(error));
    }
    if (::rename(temp_.c_str(), name_.c_str()) != 0) {
      const int error = errno;
      ::unlink(temp_.c_str());
      throw LoadError(name_, 0, 0, "cannot replace: " + osReason(error));
    }
    const int dir_fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
    if (dir_fd >= 0) {
      ::fsync(dir_fd);
      ::close(dir_fd);
    }
  }

 private:
  static constexpr std::size_t kBuffer = 1 << 20;
  // A LoadError, as for reading: the path is the user's (a missing folder, a full disk), and
  // the CLI answers it with exit 2, not as an internal error.
  [[noreturn]] void fail(const std::string& what, int error) {
    throw LoadError(name_, 0, 0, what + ": " + osReason(error));
  }
  void flush() {
    const char* data = buffer_.data();
    std::size_t left = buffer_.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0) {
        if (errno == EINTR) continue;
        fail("cannot write", errno);
      }
      data += n;
      left -= static_cast<std::size_t>(n);
    }
    buffer_.clear();
  }

  std::string name_, dir_, temp_;
  int fd_ = -1;
  std::string buffer_;
};

void appendUnsigned(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void appendPadded(std::string& out, std::uint64_t v, int width) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  for (auto n = static_cast<int>(r.ptr - buf); n < width; ++n) out += '0';
  out.append(buf, r.ptr);
}

// 2026-01-01T00:00:12.345678Z
void appendIso(std::string& out, Micros t) {
  const std::int64_t us = kCallsOutEpoch + t;
  std::int64_t seconds = us >= 0 ? us / 1'000'000 : (us - 999'999) / 1'000'000;
  const std::int64_t micros = us - seconds * 1'000'000;
  std::int64_t days = seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400;
  const std::int64_t of_day = seconds - days * 86400;
  std::int64_t y;
  unsigned m, d;
  civilFromDays(days, y, m, d);
  appendPadded(out, static_cast<std::uint64_t>(y), 4);
  out += '-';
  appendPadded(out, m, 2);
  out += '-';
  appendPadded(out, d, 2);
  out += 'T';
  appendPadded(out, static_cast<std::uint64_t>(of_day / 3600), 2);
  out += ':';
  appendPadded(out, static_cast<std::uint64_t>(of_day / 60 % 60), 2);
  out += ':';
  appendPadded(out, static_cast<std::uint64_t>(of_day % 60), 2);
  out += '.';
  appendPadded(out, static_cast<std::uint64_t>(micros), 6);
  out += 'Z';
}

// Microseconds as milliseconds with three decimals: exact.
void appendMillis(std::string& out, Micros us) {
  appendUnsigned(out, static_cast<std::uint64_t>(us / 1000));
  out += '.';
  appendPadded(out, static_cast<std::uint64_t>(us % 1000), 3);
}

struct Line {
  Micros start, duration, request_start;
  std::uint32_t record, key;
  std::uint16_t pod;
  std::uint8_t attempt;
  std::string_view outcome;
};

void appendCsv(std::string& out, const Line& l) {
  appendIso(out, l.start);
  out += ',';
  appendMillis(out, l.duration);
  out += ',';
  out += l.outcome;
  out += ',';
  appendUnsigned(out, l.key);
  out += ',';
  appendUnsigned(out, l.pod);
  out += ',';
  appendUnsigned(out, l.record);
  out += ',';
  appendUnsigned(out, l.attempt);
  out += ',';
  appendIso(out, l.request_start);
  out += '\n';
}

void appendJsonl(std::string& out, const Line& l) {
  out += "{\"timestamp\":\"";
  appendIso(out, l.start);
  out += "\",\"duration_ms\":";
  appendMillis(out, l.duration);
  out += ",\"outcome\":\"";
  out += l.outcome;
  out += "\",\"key\":\"";
  appendUnsigned(out, l.key);
  out += "\",\"pod\":";
  appendUnsigned(out, l.pod);
  out += ",\"request_id\":\"";
  appendUnsigned(out, l.record);
  out += "\",\"attempt\":";
  appendUnsigned(out, l.attempt);
  out += ",\"request_start\":\"";
  appendIso(out, l.request_start);
  out += "\"}\n";
}

}  // namespace

RequestLogFormat callsOutFormatFor(const std::filesystem::path& path) {
  const std::string ext = path.extension().string();
  return ext == ".jsonl" || ext == ".ndjson" ? RequestLogFormat::jsonl : RequestLogFormat::csv;
}

void writeCallsOut(const std::filesystem::path& path, RequestLogFormat format, const Result& result,
                   const CallTrace& trace) {
  // Sorted by start; ties by checkout and attempt, so the file is the same on every run.
  std::vector<std::uint32_t> order(trace.calls.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const TracedCall &x = trace.calls[a], &y = trace.calls[b];
    if (x.start != y.start) return x.start < y.start;
    if (x.record != y.record) return x.record < y.record;
    return x.attempt < y.attempt;
  });
  std::vector<bool> called(result.checkouts.size(), false);
  for (const TracedCall& c : trace.calls)
    if (c.record < called.size()) called[c.record] = true;

  AtomicFileWriter out(path);
  std::string& buffer = out.buffer();
  const bool csv = format == RequestLogFormat::csv;
  if (csv) {
    buffer += "# Dependency calls of a BreakerLab replay; not_sent: a checkout that made no call\n";
    buffer += "timestamp,duration_ms,outcome,key,pod,request_id,attempt,request_start\n";
  }
  auto write = [&](const Line& l) {
    if (csv)
      appendCsv(buffer, l);
    else
      appendJsonl(buffer, l);
    out.flushIfFull();
  };
  // Merged in start order: the calls, and the checkouts without a call at their arrival.
  std::size_t next_call = 0;
  for (std::uint32_t r = 0; r <= result.checkouts.size(); ++r) {
    const bool end = r == result.checkouts.size();
    const Micros arrival = end ? kNever : result.checkouts[r].arrival;
    if (!end && called[r]) continue;
    while (next_call < order.size() && trace.calls[order[next_call]].start <= arrival) {
      const TracedCall& c = trace.calls[order[next_call++]];
      write({c.start, c.duration, c.request_start, c.record, c.key, c.pod, c.attempt,
             toString(c.outcome)});
    }
    if (end) break;
    const std::uint32_t key = r < trace.keys.size() ? trace.keys[r] : 0;
    const std::uint16_t pod = r < trace.pods.size() ? trace.pods[r] : 0;
    write({arrival, 0, arrival, r, key, pod, 0, "not_sent"});
  }
  out.commit();
}

}  // namespace breakerlab
