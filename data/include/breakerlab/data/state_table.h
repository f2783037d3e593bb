#pragma once
// How a dependency state named in a postmortem ("timing out", "connection refused", "warming
// pool") behaves in the replay. The import picks a row by the state's words; users edit the
// table (a YAML file) when their team names states differently, and import again.
#include <string>
#include <string_view>
#include <vector>

#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

struct StateBehaviour {
  std::string name;                // the row: "timing out"
  std::vector<std::string> match;  // phrases that pick it: "timing out", "timeout", "hang"
  Health health = Health::red;
  LatencyModel latency;
  OutcomeMix outcomes;
  Micros refused_latency = 2 * kMillisecond;
  // The share of `fitted` outcomes is fitted to the recorded breaker lane (start and end of the
  // span, a linear ramp) when the document has one; `outcomes` is the start when it has not.
  enum class Fitted { none, timeout, refused, server_error } fitted = Fitted::none;
};

struct StateTable {
  std::vector<StateBehaviour> rows;
  // The first row with a phrase whose words all appear, in order, in `state`'s words; null
  // when none does.
  const StateBehaviour* match(std::string_view state) const;
  static StateTable defaults();
};

std::string stateTableToYaml(const StateTable& table);
// Throws LoadError with positions.
StateTable parseStateTable(std::string_view text, const std::string& file_name);

}  // namespace breakerlab
