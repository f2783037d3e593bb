// Any bytes as a `merge` part: a tune's or a sweep's partial file either reads or is refused
// with LoadError, and what reads writes back to the same text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "breakerlab/data/tune_partial.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    if (partialFormatOf(text, "part.json") == kTunePartialFormat) {
      const TunePartial partial = parseTunePartial(text, "part.json");
      const std::string again = tunePartialToJson(partial);
      if (tunePartialToJson(parseTunePartial(again, "again.json")) != again) std::abort();
    } else {
      const SweepPartial partial = parseSweepPartial(text, "part.json");
      const std::string again = sweepPartialToJson(partial);
      if (sweepPartialToJson(parseSweepPartial(again, "again.json")) != again) std::abort();
    }
  } catch (const LoadError&) {
  }
  return 0;
}
