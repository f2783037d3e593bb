// Any bytes as `tune --knob` and `--shard` arguments, one a line: a range that parses is one the
// search can use (inside the knob's bounds, low <= high, grid values inside it), and its values
// print back.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "breakerlab/core/knobs/search_space.h"
#include "breakerlab/data/tuning_text.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace breakerlab;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::size_t pos = 0;
  for (int line = 0; line < 8 && pos <= text.size(); ++line) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view argument =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    try {
      const KnobRange range = parseKnobRange(argument, "--knob");
      if (!(range.low <= range.high) || !rangeProblem(range).empty()) std::abort();
      for (const double v : gridValues(range, 7)) {
        if (v < range.low || v > range.high) std::abort();
        (void)knobValueText(*range.knob, v);
      }
      const double middle = valueAt(range, 0.5);
      (void)configWith(Config{}, {&range, 1}, {&middle, 1});
    } catch (const LoadError&) {
    }
    try {
      const Shard shard = parseShard(argument, "--shard");
      if (shard.index >= shard.count) std::abort();
    } catch (const LoadError&) {
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return 0;
}
