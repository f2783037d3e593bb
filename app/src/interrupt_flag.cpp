#include "interrupt_flag.h"

namespace breakerlab::cli {

namespace {
// A lock-free atomic store is async-signal-safe.
std::atomic<bool> g_raised{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void raiseInterruptFlag(int) {
  g_raised.store(true);
}
}  // namespace

InterruptFlag::InterruptFlag() {
  g_raised = false;
  struct sigaction action {};
  action.sa_handler = raiseInterruptFlag;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // the second Ctrl+C finds the default action
  installed_ = ::sigaction(SIGINT, &action, &previous_) == 0;
}

InterruptFlag::~InterruptFlag() {
  if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
}

const std::atomic<bool>* InterruptFlag::flag() const {
  return &g_raised;
}

}  // namespace breakerlab::cli
