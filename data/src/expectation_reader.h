#pragma once
// Internal: `expect:` items (text and map forms).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "breakerlab/core/inputs/incident.h"
#include "breakerlab/core/outcome/metrics.h"
#include "yaml_source.h"

namespace breakerlab::data_detail {

struct TextProblem {
  std::size_t offset = 0;  // into the expectation text
  std::string message;
};

// Parses "<metric> <op> <value>[ ± <tolerance>[%]]" into `out` (kind, metric, op, value,
// tolerance); returns the first problem instead when there is one.
std::optional<TextProblem> parseExpectationText(std::string_view text, Expectation& out);

// A value or tolerance for `metric`: a bare number in the metric's unit, a duration for time
// metrics, a percentage for % metrics (for a tolerance, % means relative). nullopt with
// `problem` saying what was expected.
struct Amount {
  double value = 0;
  bool relative = false;
};
std::optional<Amount> readAmount(std::string_view token, const MetricInfo& metric, bool tolerance,
                                 std::string& problem);

// One item of an `expect:` list: a string, a metric map or a lane map. Lane checks must name a
// lane in `recorded`.
Expectation readExpectation(const Source& src, const YAML::Node& item, const std::string& path,
                            const Recorded& recorded);

// One item of a `goals:` list: a string or a metric map, never a lane check (that is
// calibration, under `expect:`).
Expectation readGoal(const Source& src, const YAML::Node& item, const std::string& path);

// A readable "unknown metric" message with a few close names.
std::string unknownMetricMessage(std::string_view name);

}  // namespace breakerlab::data_detail
