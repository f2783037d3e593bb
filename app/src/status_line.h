#pragma once
// The one line of progress a long command draws on stderr when it is a terminal ("\rtune: 4,200
// of 10,000 configs; ... (Ctrl+C stops)"): redrawn at most five times a second, from `delay` in,
// and erased when the command's work ends. Piped or redirected, it draws nothing.
#include <chrono>
#include <string>

namespace breakerlab::cli {

class StatusLine {
 public:
  explicit StatusLine(std::chrono::milliseconds delay = std::chrono::milliseconds(0));
  ~StatusLine();
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  // Whether a line drawn now would show (a terminal, past the delay, not drawn in the last 0.2
  // s, or `last`: the work's end, always drawn); callers build the text only then.
  bool due(bool last = false) const;
  void show(const std::string& text);
  // Erases the line (before the command prints its result).
  void clear();

 private:
  using Clock = std::chrono::steady_clock;
  bool terminal_;
  bool shown_ = false;
  Clock::time_point started_;
  Clock::time_point last_;
  std::chrono::milliseconds delay_;
};

}  // namespace breakerlab::cli
