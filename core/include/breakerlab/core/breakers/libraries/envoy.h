#pragma once
// Envoy outlier detection (source/common/upstream/outlier_detection_impl.cc) over a cluster of
// identical hosts, with the load balancer's panic threshold: a passive breaker per host.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "breakerlab/core/breakers/breaker_model_base.h"
#include "breakerlab/core/inputs/native/envoy_settings.h"

namespace breakerlab {

// One host leaving or rejoining the load-balancing set.
struct HostEjection {
  Micros at = 0;
  std::uint32_t host = 0;
  bool ejected = true;
};

// The breaker state BreakerLab reports for the cluster: closed while no host is ejected, open
// while no host can take a call (all ejected and the cluster not in panic), half-open otherwise.
class EnvoyOutlierModel : public BreakerModelBase {
 public:
  // With a health signal and a health_check_interval, active health checks run from creation:
  // the hosts start failing active health checks (FAILED_ACTIVE_HC) until the first pass; while
  // they fail, they are out of the healthy set (and the cluster usually in panic). A check that
  // leaves the hosts healthy returns every ejected host
  // (successful_active_health_check_uneject_host). One dependency signal stands for every host, so
  // the hosts pass and fail their checks together.
  EnvoyOutlierModel(const EnvoyOutlierSettings& settings, Micros created_at,
                    const HealthSignal* health = nullptr);

  // Picks the host (round robin over the hosts the load balancer may use); rejected: no healthy
  // upstream.
  BreakerPermit acquire(Micros now, std::uint32_t token);
  // The call got its connection (split mode: a local-origin success for its host).
  void connected(Micros now, const BreakerPermit& permit);
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration);
  Micros nextTimer() const { return std::min(next_sweep_, next_health_check_); }
  // The sweep that returns the next ejected host, if any is ejected.
  Micros nextStateTimer() const;
  void fireTimer();
  // Interval sweeps due at or before `through` while no host is ejected, all at once (each
  // would only let returned hosts' backoff decay).
  bool skipIdleTimers(Micros through);
  // Points the active health checks at another signal (a copied model keeps the old one).
  void setHealth(const HealthSignal* health) { health_ = health; }

  const std::vector<HostEjection>& ejections() const { return ejections_; }

 private:
  struct Host {
    bool ejected = false;
    std::uint32_t consecutive_5xx = 0;
    std::uint32_t consecutive_gateway = 0;
    std::uint32_t consecutive_local = 0;
    std::uint32_t backoff = 0;  // eject_time_backoff_
    Micros last_ejection = 0;
    Micros last_unejection = 0;
    bool ever_returned = false;
  };
  enum class Detector : std::uint8_t { gateway, five_xx, local_origin };

  bool inPanic() const;
  std::uint32_t unavailableHosts() const;
  void activeHealthCheck();
  void putHttpCode(Micros now, std::uint32_t host, int code);
  void localOriginFailure(Micros now, std::uint32_t host);
  void detected(Micros now, std::uint32_t host, Detector type);
  void eject(Micros now, std::uint32_t host);
  void uneject(Micros now, std::uint32_t host);
  void reportAggregate(Micros now, BreakerTransition::Cause cause);
  Micros ejectionLength(const Host& h) const;

  EnvoyOutlierSettings settings_;
  std::vector<Host> hosts_;
  std::uint32_t active_ = 0;  // hosts ejected now
  std::uint32_t round_robin_ = 0;
  Micros next_sweep_;
  const HealthSignal* health_;
  Micros next_health_check_ = kNever;
  bool failed_active_hc_ = false;
  bool first_check_ = true;
  std::uint32_t hc_passes_ = 0;
  std::uint32_t hc_failures_ = 0;
  std::vector<HostEjection> ejections_;
};

}  // namespace breakerlab
