#include "breakerlab/core/basics/breaker_state.h"

#include <array>

namespace breakerlab {

namespace {

struct StateNames {
  std::string_view text;
  std::string_view key;
};

// Indexed by BreakerState.
constexpr std::array<StateNames, 3> kStateNames = {{
    {"closed", "closed"},
    {"open", "open"},
    {"half-open", "half_open"},
}};

}  // namespace

std::string_view toString(BreakerState state) {
  return kStateNames[static_cast<std::size_t>(state)].text;
}

std::string_view keyOf(BreakerState state) {
  return kStateNames[static_cast<std::size_t>(state)].key;
}

}  // namespace breakerlab
