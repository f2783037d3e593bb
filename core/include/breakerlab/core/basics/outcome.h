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

// How a breaker sees a call's outcome. `failures` count against the dependency; `ignored` are
// neither success nor failure where the library has that notion (resilience4j
// ignoreExceptions, gobreaker IsExcluded, cockatiel's unhandled errors); everything else is a
// success. A client error is, by default, a business answer the application returns as a value.
struct OutcomeClassification {
  OutcomeSet failures{CallOutcome::failure, CallOutcome::timeout, CallOutcome::refused,
                      CallOutcome::server_error, CallOutcome::pool_exhausted};
  OutcomeSet ignored{};
  enum class Verdict : std::uint8_t { success, failure, ignored };
  Verdict classify(CallOutcome outcome) const {
    if (outcome == CallOutcome::failure) return Verdict::failure;  // every library counts it
    if (ignored.contains(outcome)) return Verdict::ignored;
    return failures.contains(outcome) ? Verdict::failure : Verdict::success;
  }
  // A log's `failure` always counts, listed or not.
  bool operator==(const OutcomeClassification& o) const {
    OutcomeSet a = failures, b = o.failures;
    a.insert(CallOutcome::failure);
    b.insert(CallOutcome::failure);
    return a == b && ignored == o.ignored;
  }
};

}  // namespace breakerlab
