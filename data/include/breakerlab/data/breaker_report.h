#pragma once
// The breaker-only replay's report, written as it goes: one entry per call in log order, then
// the transitions, then a summary. Nothing grows with the log but a temporary file of
// transitions (docs/formats.md, "Breaker replay report").
#include <cstdint>
#include <cstdio>
#include <ostream>
#include <string>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/breakers/breaker_types.h"
#include "breakerlab/core/replay/call_log_replay.h"

namespace breakerlab {

inline constexpr const char* kBreakerReplayFormat = "breakerlab-breaker-report/2";

class BreakerReportWriter {
 public:
  enum class Style { json, text };
  BreakerReportWriter(std::ostream& out, Style style, BreakerLibrary library);
  ~BreakerReportWriter();
  BreakerReportWriter(const BreakerReportWriter&) = delete;
  BreakerReportWriter& operator=(const BreakerReportWriter&) = delete;

  // Name each call's and transition's pod (a log with the pod column): before the first call.
  void showPods(bool show) { show_pods_ = show; }
  void call(const LoggedCall& call, const CallDecision& decision);
  void transition(const BreakerTransition& t, std::uint32_t pod = 0);
  void finish();

  std::uint64_t calls() const { return calls_; }
  std::uint64_t permitted() const { return permitted_; }

 private:
  void flushText();

  std::ostream& out_;
  Style style_;
  BreakerLibrary library_;
  std::FILE* spill_ = nullptr;  // transitions, until the calls are written
  std::string buffer_;
  std::uint64_t calls_ = 0;
  std::uint64_t permitted_ = 0;
  std::uint64_t held_ = 0;
  std::uint64_t transitions_ = 0;
  bool show_pods_ = false;
};

// Seconds with exactly the digits a whole number of microseconds needs: 5.002, 0, -1.5.
void appendSeconds(std::string& out, Micros t);

}  // namespace breakerlab
