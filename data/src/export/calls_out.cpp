// A traced replay's dependency calls as a request log, streamed to the output (OutputFile).
#include "breakerlab/data/calls_out.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <stdexcept>
#include <string>

#include "breakerlab/data/output_file.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

// Buffers what it is given and hands it to the output in large writes.
class BufferedOutput {
 public:
  explicit BufferedOutput(const std::filesystem::path& path) : out_(path) {
    buffer_.reserve(kBuffer + 4096);
  }
  std::string& buffer() { return buffer_; }
  void flushIfFull() {
    if (buffer_.size() >= kBuffer) flush();
  }
  void commit() {
    flush();
    out_.commit();
  }

 private:
  static constexpr std::size_t kBuffer = 1 << 20;
  void flush() {
    out_.write(buffer_);
    buffer_.clear();
  }
  OutputFile out_;
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
  // A checkout whose first attempt the breaker rejected has that line as its arrival.
  for (const TracedRejection& r : trace.rejections)
    if (r.attempt == 0 && r.record < called.size()) called[r.record] = true;

  BufferedOutput out(path);
  std::string& buffer = out.buffer();
  const bool csv = format == RequestLogFormat::csv;
  if (csv) {
    buffer +=
        "# Dependency calls of a BreakerLab replay; rejected: an attempt the pod's breaker "
        "rejected; not_sent: a checkout that made no call otherwise\n";
    buffer += "timestamp,duration_ms,outcome,key,pod,request_id,attempt,request_start\n";
  }
  auto write = [&](const Line& l) {
    if (csv)
      appendCsv(buffer, l);
    else
      appendJsonl(buffer, l);
    out.flushIfFull();
  };
  // Merged in start order: the calls, the rejected attempts (a rejection before a call at the
  // same time), and the checkouts without either at their arrival.
  std::size_t next_call = 0, next_rejection = 0;
  auto writeUpTo = [&](Micros t) {
    for (;;) {
      const bool call = next_call < order.size() && trace.calls[order[next_call]].start <= t;
      const bool rejection =
          next_rejection < trace.rejections.size() && trace.rejections[next_rejection].at <= t;
      if (rejection &&
          (!call || trace.rejections[next_rejection].at <= trace.calls[order[next_call]].start)) {
        const TracedRejection& r = trace.rejections[next_rejection++];
        write({r.at, 0, r.request_start, r.record, r.key, r.pod, r.attempt, "rejected"});
      } else if (call) {
        const TracedCall& c = trace.calls[order[next_call++]];
        write({c.start, c.duration, c.request_start, c.record, c.key, c.pod, c.attempt,
               toString(c.outcome)});
      } else {
        return;
      }
    }
  };
  for (std::uint32_t r = 0; r <= result.checkouts.size(); ++r) {
    const bool end = r == result.checkouts.size();
    const Micros arrival = end ? kNever : result.checkouts[r].arrival;
    if (!end && called[r]) continue;
    writeUpTo(arrival);
    if (end) break;
    const std::uint32_t key = r < trace.keys.size() ? trace.keys[r] : 0;
    const std::uint16_t pod = r < trace.pods.size() ? trace.pods[r] : 0;
    write({arrival, 0, arrival, r, key, pod, 0, "not_sent"});
  }
  out.commit();
}

}  // namespace breakerlab
