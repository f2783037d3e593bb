#pragma once
// What one dependency call can end in, and sets of those classes.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

namespace breakerlab {

enum class CallOutcome : std::uint8_t {
  success,
  timeout,         // no answer before the per-attempt timeout (a hang counts here too)
  refused,         // connection refused / reset: fails fast
  server_error,    // 5xx, Unavailable, Internal
  client_error,    // 4xx business answer: NotFound, InvalidArgument
  pool_exhausted,  // no connection from the client's pool within its max wait
  failure,         // a call log's generic failure: every breaker counts it, whatever its rules
};
inline constexpr int kCallOutcomeCount = 7;

std::string_view toString(CallOutcome outcome);
std::optional<CallOutcome> callOutcomeFromString(std::string_view name);

// A set of outcome classes as a bit mask (bit i = CallOutcome i).
class OutcomeSet {
 public:
  constexpr OutcomeSet() = default;
  constexpr OutcomeSet(std::initializer_list<CallOutcome> outcomes) {
    for (auto o : outcomes) insert(o);
  }
  constexpr void insert(CallOutcome o) { bits_ |= bit(o); }
  constexpr bool contains(CallOutcome o) const { return (bits_ & bit(o)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr bool operator==(const OutcomeSet&) const = default;

 private:
  static constexpr std::uint8_t bit(CallOutcome o) {
    return static_cast<std::uint8_t>(1u << static_cast<unsigned>(o));
  }
  std::uint8_t bits_ = 0;
};

}  // namespace breakerlab
