#pragma once
// One breaker, whichever rules it follows: the generic BreakerLab machine or a library model.
// The simulator and the call-log replay see only this: admit a call, record its result, fire
// the next timer, and collect the calls a library releases after holding them.
#include <cstdint>
#include <variant>
#include <vector>

#include "breakerlab/core/breakers/breaker.h"
#include "breakerlab/core/breakers/libraries/cockatiel.h"
#include "breakerlab/core/breakers/libraries/envoy.h"
#include "breakerlab/core/breakers/libraries/gobreaker.h"
#include "breakerlab/core/breakers/libraries/opossum.h"
#include "breakerlab/core/breakers/libraries/polly.h"
#include "breakerlab/core/breakers/libraries/resilience4j.h"
#include "breakerlab/core/inputs/config.h"
#include "breakerlab/core/inputs/native_breakers.h"

namespace breakerlab {

class Breaker {
 public:
  // `created_at` is when the library object was made: the zero of its own clock (opossum's
  // bucket timers, gobreaker's bucket ages, cockatiel's sampling windows start there).
  Breaker(const BreakerConfig& generic, const NativeBreakers& native, const HealthSignal* health,
          Micros created_at);

  BreakerLibrary library() const { return library_; }

  BreakerPermit acquire(Micros now, std::uint32_t token = 0) {
    if (auto* g = std::get_if<CircuitBreaker>(&impl_)) return g->acquire(now);
    return std::visit([&](auto& m) { return acquireModel(m, now, token); }, impl_);
  }
  // A permitted call reached its dependency without being refused (Envoy's connect success).
  void connected(Micros now, const BreakerPermit& permit) {
    if (auto* e = std::get_if<EnvoyOutlierModel>(&impl_)) e->connected(now, permit);
  }
  // Hosts leaving and rejoining the load-balancing set (Envoy); null for other breakers.
  const std::vector<HostEjection>* hostEjections() const {
    if (const auto* e = std::get_if<EnvoyOutlierModel>(&impl_)) return &e->ejections();
    return nullptr;
  }
  void record(Micros now, const BreakerPermit& permit, CallOutcome outcome, Micros duration) {
    std::visit([&](auto& m) { m.record(now, permit, outcome, duration); }, impl_);
  }
  Micros nextTimer() const {
    return std::visit([](const auto& m) { return m.nextTimer(); }, impl_);
  }
  void fireTimer() {
    std::visit([](auto& m) { m.fireTimer(); }, impl_);
  }
  // Moves a library's periodic timers due at or before `through` that cannot change anything
  // (an empty window's rotation, a sweep with nothing to return) past it at once, as if each had
  // fired: idle stretches cost O(1) instead of one step per period. The caller makes sure no
  // other event comes first. Whether anything moved.
  bool skipIdleTimers(Micros through) {
    return std::visit(
        [&](auto& m) {
          if constexpr (requires { m.skipIdleTimers(through); }) {
            return m.skipIdleTimers(through);
          } else {
            return false;
          }
        },
        impl_);
  }
  // The next timer that can change the state by itself (not a window's bookkeeping): after the
  // last call of a log the replay runs up to it, so a timer-driven half-open is reported.
  Micros nextStateTimer() const {
    return std::visit(
        [](const auto& m) {
          if constexpr (requires { m.nextStateTimer(); }) {
            return m.nextStateTimer();
          } else {
            return m.nextTimer();
          }
        },
        impl_);
  }
  BreakerState state() const {
    return std::visit([](const auto& m) { return m.state(); }, impl_);
  }
  const std::vector<BreakerTransition>& transitions() const {
    return std::visit(
        [](const auto& m) -> const std::vector<BreakerTransition>& { return m.transitions(); },
        impl_);
  }
  // Drops the transitions reported so far (a streaming replay has taken them).
  void forgetTransitions() {
    std::visit([](auto& m) { m.forgetTransitions(); }, impl_);
  }
  // Probe results of the generic machine (the libraries' lanes show no probe events).
  const std::vector<ProbeResult>& probeResults() const;
  // Tokens of held calls the breaker has now answered; ask acquire() again for each, in order,
  // then clear the list.
  std::vector<std::uint32_t>& released();
  bool holdsCalls() const { return library_ == BreakerLibrary::cockatiel; }

  // The generic machine continues with another config (see CircuitBreaker::rebind); every model
  // that reads the health signal reads it from `health` from now on.
  void rebind(const BreakerConfig& config, const HealthSignal* health);

 private:
  template <class Model>
  static BreakerPermit acquireModel(Model& m, Micros now, std::uint32_t token) {
    if constexpr (std::is_same_v<Model, CircuitBreaker>) {
      return m.acquire(now);
    } else {
      return m.acquire(now, token);
    }
  }

  BreakerLibrary library_;
  std::variant<CircuitBreaker, Resilience4jModel, GobreakerModel, PollyModel, OpossumModel,
               CockatielModel, EnvoyOutlierModel>
      impl_;
  std::vector<std::uint32_t> none_released_;
};

}  // namespace breakerlab
