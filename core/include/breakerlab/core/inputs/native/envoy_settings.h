#pragma once
// Envoy's outlier_detection fields: the settings alone, which every config carries
// (inputs/config.h), apart from the state machine that runs them (breakers/libraries/envoy.h).
#include <cstdint>
#include <string>

#include "breakerlab/core/basics/outcome.h"
#include "breakerlab/core/basics/time.h"

namespace breakerlab {

// The cluster's outlier_detection fields (and its hosts and healthy_panic_threshold), in Envoy's
// units. Percentages are whole numbers as in the proto.
struct EnvoyOutlierSettings {
  // The cluster's own fields around outlier detection, as read, so that an export writes them
  // back: its name (empty: the export's instance name), discovery type, load balancing policy
  // and connect timeout. Where a cluster does not state one, what an export writes: DNS for the
  // placeholder host names it writes. No effect on the replay, which picks hosts round robin
  // (the reader says so for another policy).
  std::string name;
  std::string type = "STRICT_DNS";
  std::string lb_policy = "ROUND_ROBIN";
  Micros connect_timeout = 250 * kMillisecond;
  std::uint32_t hosts = 1;
  std::uint32_t consecutive_5xx = 5;
  std::uint32_t enforcing_consecutive_5xx = 100;
  std::uint32_t consecutive_gateway_failure = 5;
  std::uint32_t enforcing_consecutive_gateway_failure = 0;
  bool split_external_local_origin_errors = false;
  std::uint32_t consecutive_local_origin_failure = 5;
  std::uint32_t enforcing_consecutive_local_origin_failure = 100;
  Micros interval = 10 * kSecond;
  Micros base_ejection_time = 30 * kSecond;
  Micros max_ejection_time = 300 * kSecond;
  std::uint32_t max_ejection_percent = 10;
  bool always_eject_one_host = false;
  double healthy_panic_threshold = 50;
  bool successful_active_health_check_uneject_host = true;
  // Active health checking (health_checks[0]); interval 0 = none. Envoy requires both
  // thresholds; these defaults are used only when a file leaves them out.
  Micros health_check_interval = 0;
  Micros health_check_unhealthy_interval = 0;  // 0: the interval
  std::uint32_t health_check_unhealthy_threshold = 3;
  std::uint32_t health_check_healthy_threshold = 1;
  bool operator==(const EnvoyOutlierSettings&) const = default;
};

}  // namespace breakerlab
