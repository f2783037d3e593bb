#include "breakerlab/core/basics/outcome.h"

#include <array>

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

}  // namespace breakerlab
