#include "breakerlab/core/outcome/result.h"

namespace breakerlab {

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

const Lane* Result::lane(std::string_view name) const {
  for (const Lane* l : {&breaker, &dependency, &health, &checkout, &pods, &fleet})
    if (l->name == name) return l;
  return nullptr;
}

}  // namespace breakerlab
