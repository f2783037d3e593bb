#pragma once
// A breaker's three states and their two spellings, in one table: the lane's and the text's
// ("half-open", as the timing view and reports show it) and the key's ("half_open", as JSON
// output and config keys write it).
#include <cstdint>
#include <string_view>

namespace breakerlab {

enum class BreakerState : std::uint8_t { closed, open, half_open };

// "closed", "open", "half-open": the breaker lane's states.
std::string_view toString(BreakerState state);
// "closed", "open", "half_open": the state as a key (breaker-replay JSON).
std::string_view keyOf(BreakerState state);

// The breaker lane's state while the breaker is switched off (not a state of the machine: calls
// go straight through and nothing is counted).
inline constexpr std::string_view kBreakerDisabled = "disabled";

}  // namespace breakerlab
