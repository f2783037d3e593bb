#include "breakerlab/data/breaker_report.h"

#include <charconv>
#include <cstring>
#include <stdexcept>

#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {
constexpr std::size_t kFlushAt = 1 << 16;

void appendInt(std::string& out, std::uint64_t v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

}  // namespace

void appendSeconds(std::string& out, Micros t) {
  if (t < 0) {
    out += '-';
    t = -t;
  }
  appendInt(out, static_cast<std::uint64_t>(t / kSecond));
  Micros frac = t % kSecond;
  if (frac == 0) return;
  char digits[7] = "000000";
  for (int i = 5; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + frac % 10);
    frac /= 10;
  }
  int len = 6;
  while (len > 0 && digits[len - 1] == '0') --len;
  out += '.';
  out.append(digits, static_cast<std::size_t>(len));
}

BreakerReportWriter::BreakerReportWriter(std::ostream& out, Style style, BreakerLibrary library)
    : out_(out), style_(style), library_(library) {
  spill_ = std::tmpfile();
  if (spill_ == nullptr)
    throw std::runtime_error(std::string("cannot create a temporary file: ") +
                             std::strerror(errno));
  if (style_ == Style::json) {
    buffer_ += "{\n  \"format\": \"";
    buffer_ += kBreakerReplayFormat;
    buffer_ += "\",\n  \"library\": \"";
    buffer_ += toString(library_);
    buffer_ += "\",\n  \"calls\": [";
  } else {
    buffer_ += "# breaker: ";
    buffer_ += libraryInfo(library_).title;
    buffer_ += '\n';
  }
}

BreakerReportWriter::~BreakerReportWriter() {
  if (spill_ != nullptr) std::fclose(spill_);
}

void BreakerReportWriter::flushText() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void BreakerReportWriter::call(const LoggedCall& call, const CallDecision& d) {
  ++calls_;
  permitted_ += d.permitted ? 1 : 0;
  held_ += d.held ? 1 : 0;
  if (style_ == Style::json) {
    buffer_ += calls_ == 1 ? "\n    {\"index\": " : ",\n    {\"index\": ";
    appendInt(buffer_, d.index);
    buffer_ += ", \"start\": ";
    appendSeconds(buffer_, call.start);
    buffer_ += ", \"duration\": ";
    appendSeconds(buffer_, call.duration);
    buffer_ += ", \"outcome\": \"";
    buffer_ += toString(call.outcome);
    buffer_ += d.permitted ? "\", \"permitted\": true" : "\", \"permitted\": false";
    if (show_pods_) {
      buffer_ += ", \"pod\": ";
      appendInt(buffer_, call.pod);
    }
    if (d.held) {
      buffer_ += ", \"waited_until\": ";
      if (d.decided_at == kNever) {
        buffer_ += "null";
      } else {
        appendSeconds(buffer_, d.decided_at);
      }
    }
    buffer_ += '}';
  } else {
    appendInt(buffer_, d.index);
    buffer_ += ' ';
    buffer_ += formatSeconds(call.start);
    if (show_pods_) {
      buffer_ += " pod ";
      appendInt(buffer_, call.pod);
    }
    buffer_ += d.permitted ? " permitted" : " rejected";
    if (d.held) {
      buffer_ += " after waiting until ";
      buffer_ += d.decided_at == kNever ? "the end" : formatSeconds(d.decided_at);
    }
    buffer_ += '\n';
  }
  if (buffer_.size() >= kFlushAt) flushText();
}

void BreakerReportWriter::transition(const BreakerTransition& t, std::uint32_t pod) {
  std::string line;
  if (style_ == Style::json) {
    line += transitions_ == 0 ? "\n    {\"t\": " : ",\n    {\"t\": ";
    appendSeconds(line, t.at);
    if (show_pods_) {
      line += ", \"pod\": ";
      appendInt(line, pod);
    }
    line += ", \"from\": \"";
    line += keyOf(t.from);
    line += "\", \"to\": \"";
    line += keyOf(t.to);
    line += "\", \"cause\": \"";
    line += toString(t.cause);
    line += "\"}";
  } else {
    line += formatSeconds(t.at);
    line += ' ';
    if (show_pods_) {
      line += "pod ";
      appendInt(line, pod);
      line += ' ';
    }
    line += toString(t.from);
    line += " -> ";
    line += toString(t.to);
    line += " (";
    line += toString(t.cause);
    line += ")\n";
  }
  ++transitions_;
  if (style_ == Style::text) {
    // In text the transitions go where they happen, between the calls.
    buffer_ += line;
    return;
  }
  if (std::fwrite(line.data(), 1, line.size(), spill_) != line.size())
    throw std::runtime_error(std::string("cannot write a temporary file: ") + std::strerror(errno));
}

void BreakerReportWriter::finish() {
  if (style_ == Style::json) {
    buffer_ += calls_ == 0 ? "],\n  \"transitions\": [" : "\n  ],\n  \"transitions\": [";
    flushText();
    std::rewind(spill_);
    char chunk[1 << 15];
    for (;;) {
      const std::size_t n = std::fread(chunk, 1, sizeof chunk, spill_);
      out_.write(chunk, static_cast<std::streamsize>(n));
      if (n < sizeof chunk) break;
    }
    buffer_ += transitions_ == 0 ? "],\n  \"summary\": {\"calls\": "
                                 : "\n  ],\n  \"summary\": {\"calls\": ";
    appendInt(buffer_, calls_);
    buffer_ += ", \"permitted\": ";
    appendInt(buffer_, permitted_);
    buffer_ += ", \"rejected\": ";
    appendInt(buffer_, calls_ - permitted_);
    buffer_ += ", \"held\": ";
    appendInt(buffer_, held_);
    buffer_ += ", \"transitions\": ";
    appendInt(buffer_, transitions_);
    buffer_ += "}\n}\n";
  } else {
    buffer_ += "# ";
    appendInt(buffer_, calls_);
    buffer_ += " calls, ";
    appendInt(buffer_, permitted_);
    buffer_ += " permitted, ";
    appendInt(buffer_, calls_ - permitted_);
    buffer_ += " rejected, ";
    appendInt(buffer_, transitions_);
    buffer_ += " transitions\n";
  }
  flushText();
  out_.flush();
}

}  // namespace breakerlab
