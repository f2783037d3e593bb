#include "breakerlab/data/sweep_csv.h"

#include <cmath>
#include <cstddef>

#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

std::string knobCell(const KnobSpec& knob, double value) {
  if (knob.kind == KnobSpec::Kind::choice) {
    const auto index = static_cast<std::size_t>(std::lround(value));
    if (value >= 0 && index < knob.choices.size()) return std::string(knob.choices[index].id);
  }
  if (knob.kind == KnobSpec::Kind::toggle) return value != 0 ? "1" : "0";
  return formatNumber(value);
}

// Ids and names are dotted keys; a knob that edits part of a key has a ':' but never a comma
// or a quote. Quoted anyway where they would need it, so the file stays CSV whatever is added.
std::string field(std::string_view text) {
  if (text.find_first_of(",\"\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

}  // namespace

std::string sweepCsv(const SweepResult& sweep, std::span<const KnobRange> knobs,
                     std::span<const MetricInfo* const> metrics) {
  std::string out;
  for (const KnobRange& k : knobs) out += field(k.knob->id) + ",";
  for (const MetricInfo* m : metrics) out += field(m->name) + ",";
  out += "feasible\n";
  for (const SweepCell& cell : sweep.cells) {
    for (std::size_t d = 0; d < knobs.size() && d < cell.values.size(); ++d)
      out += field(knobCell(*knobs[d].knob, cell.values[d])) + ",";
    const Evaluation& e = cell.evaluation;
    for (std::size_t m = 0; m < metrics.size(); ++m) {
      if (!e.invalid && m < e.objectives.size() && std::isfinite(e.objectives[m]))
        out += formatNumber(e.objectives[m]);
      out += ",";
    }
    out += e.feasible ? "1\n" : "0\n";
  }
  return out;
}

}  // namespace breakerlab
