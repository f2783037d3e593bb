#include "breakerlab/core/breakers/libraries/envoy.h"

#include <algorithm>

namespace breakerlab {

namespace {
constexpr std::uint32_t kOverprovisioningFactor = 140;  // kDefaultOverProvisioningFactor
}

EnvoyOutlierModel::EnvoyOutlierModel(const EnvoyOutlierSettings& settings, Micros created_at,
                                     const HealthSignal* health)
    : settings_(settings),
      hosts_(std::max<std::uint32_t>(settings.hosts, 1)),
      // initialize(): armIntervalTimer(), so the first sweep is one interval after creation.
      next_sweep_(created_at + std::max<Micros>(settings.interval, kMillisecond)),
      health_(health) {
  // HealthCheckerImplBase::start: the first check of each host goes out at once, and hosts known
  // at initialization carry FAILED_ACTIVE_HC until it passes.
  if (health_ != nullptr && settings.health_check_interval > 0) {
    next_health_check_ = created_at;
    failed_active_hc_ = true;
  }
}

std::uint32_t EnvoyOutlierModel::unavailableHosts() const {
  return failed_active_hc_ ? static_cast<std::uint32_t>(hosts_.size()) : active_;
}

bool EnvoyOutlierModel::inPanic() const {
  // LoadBalancerBase::recalculatePerPriorityPanic and isHostSetInPanic, one priority.
  const auto n = static_cast<std::uint32_t>(hosts_.size());
  const std::uint32_t healthy = n - unavailableHosts();
  const double threshold = std::min(settings_.healthy_panic_threshold, 100.0);
  if (threshold <= 0) return false;
  const std::uint32_t availability =
      std::min<std::uint32_t>(100, kOverprovisioningFactor * healthy / n);
  if (availability == 100) return false;
  return 100.0 * healthy / n < threshold;
}

BreakerPermit EnvoyOutlierModel::acquire(Micros /*now*/, std::uint32_t /*token*/) {
  const auto n = static_cast<std::uint32_t>(hosts_.size());
  const bool panic = inPanic();
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t h = (round_robin_ + k) % n;
    if (panic || (!hosts_[h].ejected && !failed_active_hc_)) {
      round_robin_ = (h + 1) % n;
      return permitCall(0, 1, h);
    }
  }
  return rejectCall();  // no healthy upstream
}

void EnvoyOutlierModel::connected(Micros /*now*/, const BreakerPermit& permit) {
  // onPoolReady: LocalOriginConnectSuccess; only split mode counts it.
  if (settings_.split_external_local_origin_errors && permit.permitted)
    hosts_[permit.probe_index].consecutive_local = 0;
}

void EnvoyOutlierModel::record(Micros now, const BreakerPermit& permit, CallOutcome outcome,
                               Micros duration) {
  if (!permit.permitted) return;
  const std::uint32_t h = permit.probe_index;
  const bool split = settings_.split_external_local_origin_errors;
  // The failure episode a trip is timed from (time_to_trip_s): its first counted failure, noted
  // before the detection it may set off; over once no host has an error counted. Without it a
  // trip was timed from itself, 0 s (the third walkthrough of issue #33).
  const bool counted_failure = outcome == CallOutcome::server_error ||
                               outcome == CallOutcome::failure || outcome == CallOutcome::refused ||
                               outcome == CallOutcome::timeout;
  if (counted_failure && state_ == BreakerState::closed) noteFailure(now - duration);
  switch (outcome) {
    case CallOutcome::success:
      putHttpCode(now, h, 200);
      break;
    case CallOutcome::client_error:
      putHttpCode(now, h, 404);
      break;
    case CallOutcome::server_error:
    case CallOutcome::failure:
      putHttpCode(now, h, 500);
      break;
    case CallOutcome::refused:  // LocalOriginConnectFailed -> 503 when not split
      if (split) {
        localOriginFailure(now, h);
      } else {
        putHttpCode(now, h, 503);
      }
      break;
    case CallOutcome::timeout:  // LocalOriginTimeout with the router's 504
      if (split) {
        localOriginFailure(now, h);
      } else {
        putHttpCode(now, h, 504);
      }
      break;
    case CallOutcome::pool_exhausted:
      break;  // the client's own pool: Envoy never reports an overflow to outlier detection
  }
  // Only while an episode is open: a scan of every host on each success would cost the healthy
  // stretches of a large cluster, which are most of a replay.
  if (!counted_failure && state_ == BreakerState::closed && episode_start_ != kNever &&
      std::all_of(hosts_.begin(), hosts_.end(), [](const Host& host) {
        return host.consecutive_5xx == 0 && host.consecutive_gateway == 0 &&
               host.consecutive_local == 0;
      }))
    endEpisode();
}

void EnvoyOutlierModel::putHttpCode(Micros now, std::uint32_t h, int code) {
  Host& host = hosts_[h];
  if (code >= 500 && code < 600) {
    bool gateway_fired = false;
    if (code >= 502 && code < 505) {
      gateway_fired = ++host.consecutive_gateway == settings_.consecutive_gateway_failure;
    } else {
      host.consecutive_gateway = 0;
    }
    const bool five_fired = ++host.consecutive_5xx == settings_.consecutive_5xx;
    // Posted in this order to the main thread: the gateway detection first.
    if (gateway_fired) detected(now, h, Detector::gateway);
    if (five_fired) detected(now, h, Detector::five_xx);
  } else {
    host.consecutive_5xx = 0;
    host.consecutive_gateway = 0;
  }
}

void EnvoyOutlierModel::localOriginFailure(Micros now, std::uint32_t h) {
  if (++hosts_[h].consecutive_local == settings_.consecutive_local_origin_failure)
    detected(now, h, Detector::local_origin);
}

void EnvoyOutlierModel::detected(Micros now, std::uint32_t h, Detector type) {
  Host& host = hosts_[h];
  if (host.ejected) return;  // onConsecutiveErrorWorker: no reset for an ejected host
  // ejectHost: the share after this ejection, against max_ejection_percent.
  const auto n = static_cast<std::uint64_t>(hosts_.size());
  const std::uint64_t max_pct = std::min<std::uint32_t>(settings_.max_ejection_percent, 100);
  bool should_eject = 100 * (static_cast<std::uint64_t>(active_) + 1) <= max_pct * n;
  if (settings_.always_eject_one_host) should_eject = should_eject || active_ == 0;
  const std::uint32_t enforcing =
      type == Detector::gateway   ? settings_.enforcing_consecutive_gateway_failure
      : type == Detector::five_xx ? settings_.enforcing_consecutive_5xx
                                  : settings_.enforcing_consecutive_local_origin_failure;
  if (should_eject && enforcing >= 50) eject(now, h);
  // The detector's counter starts again whatever ejectHost decided.
  switch (type) {
    case Detector::gateway:
      host.consecutive_gateway = 0;
      break;
    case Detector::five_xx:
      host.consecutive_5xx = 0;
      break;
    case Detector::local_origin:
      host.consecutive_local = 0;
      break;
  }
}

void EnvoyOutlierModel::eject(Micros now, std::uint32_t h) {
  Host& host = hosts_[h];
  ++active_;
  host.ejected = true;
  host.last_ejection = now;
  const Micros base = settings_.base_ejection_time;
  if (static_cast<double>(host.backoff) * base <
      static_cast<double>(settings_.max_ejection_time) + base)
    ++host.backoff;
  ejections_.push_back({now, h, true});
  const std::size_t reported = transitions_.size();
  reportAggregate(now, BreakerTransition::Cause::hosts_ejected);
  if (transitions_.size() > reported) {
    transitions_.back().ejection_multiplier = host.backoff;
    transitions_.back().ejection_length = ejectionLength(host);
  }
}

void EnvoyOutlierModel::uneject(Micros now, std::uint32_t h) {
  Host& host = hosts_[h];
  --active_;
  host.ejected = false;
  host.consecutive_5xx = host.consecutive_gateway = host.consecutive_local = 0;
  host.last_unejection = now;
  host.ever_returned = true;
  ejections_.push_back({now, h, false});
  reportAggregate(now, BreakerTransition::Cause::hosts_returned);
}

void EnvoyOutlierModel::reportAggregate(Micros now, BreakerTransition::Cause cause) {
  BreakerState to = BreakerState::half_open;
  const std::uint32_t unavailable = unavailableHosts();
  if (unavailable == 0) {
    to = BreakerState::closed;
  } else if (unavailable == hosts_.size() && !inPanic()) {
    to = BreakerState::open;
  }
  if (to != state_) report(now, to, cause, active_, active_);
}

Micros EnvoyOutlierModel::ejectionLength(const Host& h) const {
  return std::min<Micros>(settings_.base_ejection_time * h.backoff, settings_.max_ejection_time);
}

Micros EnvoyOutlierModel::nextStateTimer() const {
  if (active_ == 0) return kNever;
  const Micros interval = std::max<Micros>(settings_.interval, kMillisecond);
  Micros earliest = kNever;
  for (const Host& h : hosts_) {
    if (!h.ejected) continue;
    // The first sweep at or after the ejection's end.
    Micros sweep = next_sweep_;
    const Micros end = h.last_ejection + ejectionLength(h);
    if (sweep < end) sweep += (end - sweep + interval - 1) / interval * interval;
    earliest = std::min(earliest, sweep);
  }
  return earliest;
}

void EnvoyOutlierModel::fireTimer() {
  if (next_health_check_ < next_sweep_) {
    activeHealthCheck();
    return;
  }
  const Micros now = next_sweep_;
  next_sweep_ += std::max<Micros>(settings_.interval, kMillisecond);
  // checkHostForUneject for every host, in host order.
  for (std::uint32_t h = 0; h < hosts_.size(); ++h) {
    const Host& host = hosts_[h];
    if (host.ejected && ejectionLength(host) <= now - host.last_ejection) uneject(now, h);
  }
  // The backoff decays by one per sweep once a returned host has stayed an interval.
  for (Host& host : hosts_) {
    if (!host.ejected && host.ever_returned &&
        now - host.last_unejection >= std::max<Micros>(settings_.interval, kMillisecond) &&
        host.backoff != 0)
      --host.backoff;
  }
}

bool EnvoyOutlierModel::skipIdleTimers(Micros through) {
  if (active_ != 0) return false;
  // With no host ejected, a health check changes nothing a sweep reads: they need no order.
  if (next_sweep_ > through) return false;
  const Micros interval = std::max<Micros>(settings_.interval, kMillisecond);
  const Micros due = (through - next_sweep_) / interval + 1;
  if (due < 2) return false;
  // Sweep j (0-based) runs at next_sweep_ + j * interval; a returned host's backoff drops by one
  // at every sweep at least an interval after its return.
  for (Host& host : hosts_) {
    if (!host.ever_returned || host.backoff == 0) continue;
    const Micros eligible_from = host.last_unejection + interval;
    Micros first = 0;
    if (eligible_from > next_sweep_)
      first = (eligible_from - next_sweep_ + interval - 1) / interval;
    const Micros decays = due > first ? due - first : 0;
    host.backoff = decays >= host.backoff ? 0 : host.backoff - static_cast<std::uint32_t>(decays);
  }
  next_sweep_ += due * interval;
  return true;
}

void EnvoyOutlierModel::activeHealthCheck() {
  // ActiveHealthCheckSession::handleSuccess / handleFailure, with the check answering at once.
  const Micros now = next_health_check_;
  const bool was_failed = failed_active_hc_;
  const bool first = first_check_;
  if (health_->greenAt(now)) {
    hc_failures_ = 0;
    if (failed_active_hc_ &&
        (first_check_ || ++hc_passes_ >= std::max(settings_.health_check_healthy_threshold, 1u))) {
      failed_active_hc_ = false;
      hc_passes_ = 0;
    }
    // The outlier detector's check-complete callback: a host now healthy leaves its ejection.
    if (!failed_active_hc_ && settings_.successful_active_health_check_uneject_host) {
      for (std::uint32_t h = 0; h < hosts_.size(); ++h)
        if (hosts_[h].ejected) uneject(now, h);
    }
  } else {
    hc_passes_ = 0;
    if (!failed_active_hc_ &&
        ++hc_failures_ >= std::max(settings_.health_check_unhealthy_threshold, 1u)) {
      failed_active_hc_ = true;
      hc_failures_ = 0;
    }
  }
  first_check_ = false;
  const Micros unhealthy_interval = settings_.health_check_unhealthy_interval > 0
                                        ? settings_.health_check_unhealthy_interval
                                        : settings_.health_check_interval;
  next_health_check_ =
      now + (failed_active_hc_ ? unhealthy_interval : settings_.health_check_interval);
  if (failed_active_hc_ != was_failed || first)
    reportAggregate(now, failed_active_hc_ ? BreakerTransition::Cause::hosts_ejected
                                           : BreakerTransition::Cause::hosts_returned);
}

}  // namespace breakerlab
