#include "breakerlab/data/tuning_text.h"

#include <cmath>
#include <sstream>

#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

[[noreturn]] void fail(const std::string& origin, std::size_t column, const std::string& message) {
  throw LoadError(origin, 0, static_cast<int>(column) + 1, message);
}

std::string knobIds() {
  std::string ids;
  std::size_t shown = 0;
  for (const KnobSpec& k : knobSpecs()) {
    if (!knobIsConfigKey(k) && k.id.find(':') == std::string_view::npos) continue;
    if (shown++ == 8) {
      ids += ", ...";
      break;
    }
    ids += (ids.empty() ? "" : ", ") + std::string(k.id);
  }
  return ids;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// One end of a range, in the knob's unit.
double endValue(const KnobSpec& knob, std::string_view text, const std::string& origin,
                std::size_t column) {
  const std::string quoted = "\"" + clipText(text, 24) + "\"";
  switch (knob.kind) {
    case KnobSpec::Kind::toggle:
      if (text == "true" || text == "on" || text == "1") return 1;
      if (text == "false" || text == "off" || text == "0") return 0;
      fail(origin, column,
           "expected true or false for " + std::string(knob.id) + ", got " + quoted);
    case KnobSpec::Kind::choice: {
      for (std::size_t i = 0; i < knob.choices.size(); ++i)
        if (knob.choices[i].id == text) return static_cast<double>(i);
      std::string names;
      for (const KnobChoice& c : knob.choices)
        names += (names.empty() ? "" : ", ") + std::string(c.id);
      fail(origin, column,
           "expected one of " + names + " for " + std::string(knob.id) + ", got " + quoted);
    }
    case KnobSpec::Kind::number:
      break;
  }
  if (auto number = parseNumber(text)) return *number;
  if (knob.unit == "s" || knob.unit == "ms") {
    if (auto d = parseDuration(text)) {
      const double seconds = toSeconds(*d);
      return knob.unit == "s" ? seconds : seconds * 1000;
    }
    fail(origin, column,
         "expected a duration such as 800ms or 2s (or a number of " + std::string(knob.unit) +
             ") for " + std::string(knob.id) + ", got " + quoted);
  }
  if (knob.unit == "%") {
    if (auto pct = parsePercent(text)) return *pct;
  }
  fail(origin, column,
       "expected a number" + (knob.unit.empty() ? std::string() : " of " + std::string(knob.unit)) +
           " for " + std::string(knob.id) + ", got " + quoted);
}

}  // namespace

KnobRange parseKnobRange(std::string_view text, const std::string& origin) {
  const std::size_t eq = text.find('=');
  const std::string_view id = trim(text.substr(0, eq));
  const KnobSpec* knob = findKnob(id);
  if (knob == nullptr || !knob->editable())
    fail(origin, 0,
         "unknown knob \"" + clipText(id, 40) + "\"; knobs are config keys such as " + knobIds() +
             " (`breakerlab-cli replay --set` takes the same)");
  KnobRange range = wholeRange(*knob);
  if (eq == std::string_view::npos) return range;
  std::string_view spec = text.substr(eq + 1);
  const std::size_t spec_at = eq + 1;
  bool log = false;
  if (const std::size_t colon = spec.rfind(':'); colon != std::string_view::npos) {
    const std::string_view scale = trim(spec.substr(colon + 1));
    if (scale == "log") {
      log = true;
    } else if (scale != "linear") {
      fail(origin, spec_at + colon + 1,
           "expected :log or :linear after the range, got \"" + clipText(scale, 24) + "\"");
    }
    spec = spec.substr(0, colon);
  }
  const std::size_t dots = spec.find("..");
  if (dots == std::string_view::npos)
    fail(origin, spec_at,
         "expected LOW..HIGH after " + std::string(knob->id) + "=, got \"" + clipText(spec, 24) +
             "\"");
  range.low = endValue(*knob, trim(spec.substr(0, dots)), origin, spec_at);
  range.high = endValue(*knob, trim(spec.substr(dots + 2)), origin, spec_at + dots + 2);
  range.log = log;
  if (const std::string problem = rangeProblem(range); !problem.empty())
    fail(origin, spec_at, std::string(knob->id) + ": " + problem);
  return range;
}

Shard parseShard(std::string_view text, const std::string& origin) {
  const std::size_t slash = text.find('/');
  const auto index =
      slash == std::string_view::npos ? std::nullopt : parseNumber(text.substr(0, slash));
  const auto count =
      slash == std::string_view::npos ? std::nullopt : parseNumber(text.substr(slash + 1));
  auto whole = [](std::optional<double> v) {
    return v && *v >= 0 && *v <= static_cast<double>(kMaxShards) && std::floor(*v) == *v;
  };
  if (!whole(index) || !whole(count) || *count < 1)
    fail(origin, 0,
         "expected I/N with 0 <= I < N <= " + std::to_string(kMaxShards) + " (e.g. 0/4), got \"" +
             clipText(text, 24) + "\"");
  if (*index >= *count)
    fail(origin, 0,
         "the shard index must be below the count: shards of N are 0/N to (N-1)/N, got \"" +
             clipText(text, 24) + "\"");
  return Shard{static_cast<std::size_t>(*index), static_cast<std::size_t>(*count)};
}

std::string knobValueText(const KnobSpec& knob, double value) {
  if (knob.kind == KnobSpec::Kind::toggle) return value != 0 ? "true" : "false";
  if (knob.kind == KnobSpec::Kind::choice) {
    const auto i = static_cast<std::size_t>(std::lround(value));
    return i < knob.choices.size() ? std::string(knob.choices[i].id) : formatNumber(value);
  }
  if (knob.text != nullptr) return knob.text(value);
  std::string text = formatNumber(value);
  if (knob.unit == "s" || knob.unit == "ms" || knob.unit == "%") text += std::string(knob.unit);
  return text;
}

}  // namespace breakerlab
