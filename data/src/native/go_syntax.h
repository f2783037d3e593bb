#pragma once
// Internal: the little of Go that breaker settings are written in: tokens with positions, a
// gobreaker.Settings composite literal, duration expressions (10 * time.Second) and ReadyToTrip
// bodies over gobreaker.Counts. Errors name the line and column in the Go file.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/native/gobreaker_settings.h"

namespace breakerlab::data_detail {

struct GoToken {
  enum class Kind : std::uint8_t { identifier, number, string, op, end } kind = Kind::end;
  std::string text;  // identifiers may be dotted: c.ConsecutiveFailures, time.Second
  int line = 1;
  int column = 1;
};

// Tokens of `text` (comments dropped). Throws GoSyntaxError on a character Go would not take.
struct GoSyntaxError {
  int line;
  int column;
  std::string message;
};
// Files of settings hold a few hundred tokens, a whole service's main.go some tens of thousands.
inline constexpr std::size_t kMaxGoTokens = 1'000'000;
std::vector<GoToken> tokenizeGo(std::string_view text);

// `10 * time.Second`, `500 * time.Millisecond`, `time.Duration(5) * time.Second`, `0`,
// sums of those, and names of constants in `constants`. nullopt: not a duration BreakerLab can
// evaluate (an error names the token).
Micros parseGoDuration(const std::vector<GoToken>& tokens, std::size_t& pos, std::size_t end,
                       const std::map<std::string, Micros>& constants);

// A ReadyToTrip body: `return c.ConsecutiveFailures >= 5`, or local definitions
// (`ratio := float64(c.TotalFailures) / float64(c.Requests)`) and then a return, with && and ||.
// `counts` is the name of the func's gobreaker.Counts parameter. Tokens [pos, end) are the
// statements between the braces.
GobreakerTripRule parseReadyToTrip(const std::vector<GoToken>& tokens, std::size_t pos,
                                   std::size_t end, const std::string& counts,
                                   const std::map<std::string, double>& constants);
// The same from text, for the YAML form ("c.ConsecutiveFailures >= 5", or a whole func).
GobreakerTripRule parseReadyToTripText(std::string_view text);

// The rule as a Go boolean expression over `c` ("c.ConsecutiveFailures > 5" for the default).
std::string formatReadyToTrip(const GobreakerTripRule& rule);

// A Go number literal: 10, 0.5, 1e3, 10_000, 0x10, 0o17, 0b101; nullopt if it is none.
std::optional<double> goNumber(const std::string& text);

// Go's time.Duration literal BreakerLab writes back: "10 * time.Second", "1500 * time.Millisecond".
std::string formatGoDuration(Micros d);

}  // namespace breakerlab::data_detail
