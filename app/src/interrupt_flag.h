#pragma once
// Ctrl+C for a long search: while an InterruptFlag lives, SIGINT sets its flag (which the
// search polls) instead of ending the process; a second Ctrl+C ends it as usual.
#include <atomic>
#include <csignal>

namespace breakerlab::cli {

class InterruptFlag {
 public:
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;

  const std::atomic<bool>* flag() const;
  bool raised() const { return flag()->load(); }

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

}  // namespace breakerlab::cli
