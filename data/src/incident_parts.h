#pragma once
// Internal: the readers of an incident's sections.
#include <string>

#include "breakerlab/core/inputs/incident.h"
#include "yaml_source.h"

namespace breakerlab::data_detail {

struct Span {
  Micros from = 0;
  Micros to = 0;
};

// Reads the required `from` and `to` time points of `m`, with to > from.
Span readSpan(const MapReader& m);

// Fails at `at` unless `from` is at or after `previous_end` (the previous item's end).
void requireInOrder(const Source& src, const YAML::Node& at, const std::string& path, Micros from,
                    Micros previous_end);

Traffic readTraffic(const Source& src, const YAML::Node& node, const std::string& path);
Dependency readDependency(const Source& src, const YAML::Node& node, const std::string& path,
                          Span window);
Recorded readRecorded(const Source& src, const YAML::Node& node, const std::string& path);
// `changes:`, each config value read as if set on `base`, each dependency factor within its
// range (a capacity factor only where `capacity` has a ceiling), each time within `window`.
std::vector<TimedChange> readChanges(const Source& src, const YAML::Node& node,
                                     const std::string& path, const Config& base,
                                     const DependencyCapacity& capacity, Span window);

// A window's bound as the file would likely write it: "0s", "31m", "2h", "90s", "1500ms".
std::string windowBound(Micros t);
// "the window (0s to 31m)", with the clock times when the incident has a start.
std::string windowText(const Source& src, Span window);

}  // namespace breakerlab::data_detail
