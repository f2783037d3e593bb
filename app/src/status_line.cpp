#include "status_line.h"

#include <unistd.h>

#include <cstdio>

namespace breakerlab::cli {

StatusLine::StatusLine(std::chrono::milliseconds delay)
    : terminal_(::isatty(STDERR_FILENO) == 1), started_(Clock::now()), delay_(delay) {}

StatusLine::~StatusLine() {
  clear();
}

void StatusLine::clear() {
  if (shown_) std::fputs("\r\033[K", stderr);
  shown_ = false;
}

bool StatusLine::due(bool last) const {
  if (!terminal_) return false;
  const auto now = Clock::now();
  if (now - started_ < delay_) return false;
  return last || !shown_ || now - last_ >= std::chrono::milliseconds(200);
}

void StatusLine::show(const std::string& text) {
  last_ = Clock::now();
  shown_ = true;
  std::fprintf(stderr, "\r\033[K%s", text.c_str());
  std::fflush(stderr);
}

}  // namespace breakerlab::cli
