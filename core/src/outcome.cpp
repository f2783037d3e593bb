#include "breakerlab/core/outcome.h"

#include <array>

#include "breakerlab/core/result.h"

namespace breakerlab {

namespace {
constexpr std::array<std::string_view, kCallOutcomeCount> kCallOutcomeNames = {
    "success", "timeout", "refused", "server_error", "client_error", "pool_exhausted", "failure"};
}

std::string_view toString(CallOutcome outcome) {
  return kCallOutcomeNames[static_cast<std::size_t>(outcome)];
}

std::optional<CallOutcome> callOutcomeFromString(std::string_view name) {
  for (std::size_t i = 0; i < kCallOutcomeNames.size(); ++i) {
    if (kCallOutcomeNames[i] == name) return static_cast<CallOutcome>(i);
  }
  return std::nullopt;
}

std::string_view toString(CheckoutOutcome outcome) {
  switch (outcome) {
    case CheckoutOutcome::fresh:
      return "fresh";
    case CheckoutOutcome::cached:
      return "cached";
    case CheckoutOutcome::failed:
      return "failed";
  }
  return "?";
}

std::string_view toString(FailReason reason) {
  switch (reason) {
    case FailReason::none:
      return "none";
    case FailReason::cache_miss:
      return "cache_miss";
    case FailReason::client_error:
      return "client_error";
    case FailReason::no_worker:
      return "no_worker";
    case FailReason::no_pod:
      return "no_pod";
  }
  return "?";
}

std::string_view toString(EventKind kind) {
  switch (kind) {
    case EventKind::trip:
      return "trip";
    case EventKind::reopen:
      return "reopen";
    case EventKind::half_open:
      return "half_open";
    case EventKind::close:
      return "close";
    case EventKind::probe:
      return "probe";
    case EventKind::health_green:
      return "health_green";
    case EventKind::health_red:
      return "health_red";
    case EventKind::pod_ejected:
      return "pod_ejected";
    case EventKind::pod_returned:
      return "pod_returned";
    case EventKind::change:
      return "change";
  }
  return "?";
}

}  // namespace breakerlab
