#pragma once
// Envoy outlier detection (source/common/upstream/outlier_detection_impl.cc) over a cluster of
// identical hosts, with the load balancer's panic threshold: a passive breaker per host.
#include <cstdint>

#include "breakerlab/core/breaker_model_base.h"

namespace breakerlab {

// The cluster's outlier_detection fields (and its hosts and healthy_panic_threshold), in Envoy's
// units. Percentages are whole numbers as in the proto.
struct EnvoyOutlierSettings {
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
  double healthy_panic_threshold = 50;
  bool successful_active_health_check_uneject_host = true;
  // Active health checking (health_checks[0]); 0 = none. A passing check returns an ejected host.
  Micros health_check_interval = 0;
  bool operator==(const EnvoyOutlierSettings&) const = default;
};

}  // namespace breakerlab
