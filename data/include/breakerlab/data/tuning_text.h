#pragma once
// The command-line grammar of `tune` and `sweep` (docs/tuning.md): a knob and its range, a
// shard of a search.
#include <cstddef>
#include <string>
#include <string_view>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/data/load_error.h"

namespace breakerlab {

// "KEY=LOW..HIGH[:log]", or "KEY" alone for the knob's whole range (on its own scale), where
// KEY is a knob id (docs/formats.md; `replay --set` takes the same keys). LOW and HIGH are in the
// knob's unit ("breaker.open.interval=1..30"), or durations with a unit for a duration knob
// ("timeout.attempt=200ms..5s"), percentages for a % knob ("50%..90%"), a choice's spellings
// ("retry.backoff.kind=none..exponential"), false/true for a toggle. Throws LoadError naming
// `origin` (e.g. "--knob") and the column of what is wrong.
KnobRange parseKnobRange(std::string_view text, const std::string& origin);

// The most shards a search or map is cut into, and the most cells a map has: `--shard` and
// `--points` refuse more, and so does the reader of their partial files.
inline constexpr std::size_t kMaxShards = 1 << 20;
inline constexpr std::size_t kMaxSweepCells = 1'000'000;

// "I/N" with 0 <= I < N <= kMaxShards: which of N shards this is.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};
Shard parseShard(std::string_view text, const std::string& origin);

// The knob's value as its config file writes it ("800ms", "50%", "exponential", "true", "3").
std::string knobValueText(const KnobSpec& knob, double value);

}  // namespace breakerlab
