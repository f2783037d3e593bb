#include "breakerlab/core/breakers/breaker_model.h"

#include <stdexcept>

namespace breakerlab {

namespace {
using Impl = std::variant<CircuitBreaker, Resilience4jModel, GobreakerModel, PollyModel,
                          OpossumModel, CockatielModel, EnvoyOutlierModel>;

Impl makeImpl(const BreakerConfig& generic, const NativeBreakers& native,
              const HealthSignal* health, Micros created_at) {
  switch (generic.library) {
    case BreakerLibrary::breakerlab:
      return CircuitBreaker(generic, health);
    case BreakerLibrary::gobreaker:
      return GobreakerModel(native.gobreaker, created_at);
    case BreakerLibrary::opossum:
      return OpossumModel(native.opossum, created_at);
    case BreakerLibrary::cockatiel:
      return CockatielModel(native.cockatiel, created_at);
    case BreakerLibrary::resilience4j:
      return Resilience4jModel(native.resilience4j, created_at);
    case BreakerLibrary::polly:
      return PollyModel(native.polly, created_at);
    case BreakerLibrary::envoy:
      return EnvoyOutlierModel(native.envoy, created_at, health);
  }
  throw std::invalid_argument("unknown breaker library");
}
}  // namespace

Breaker::Breaker(const BreakerConfig& generic, const NativeBreakers& native,
                 const HealthSignal* health, Micros created_at)
    : library_(generic.library), impl_(makeImpl(generic, native, health, created_at)) {}

const std::vector<ProbeResult>& Breaker::probeResults() const {
  static const std::vector<ProbeResult> kNone;
  if (const auto* g = std::get_if<CircuitBreaker>(&impl_)) return g->probeResults();
  return kNone;
}

std::vector<std::uint32_t>& Breaker::released() {
  if (auto* c = std::get_if<CockatielModel>(&impl_)) return c->released();
  return none_released_;
}

void Breaker::rebind(const BreakerConfig& config, const HealthSignal* health) {
  if (auto* g = std::get_if<CircuitBreaker>(&impl_)) g->rebind(config, health);
  if (auto* e = std::get_if<EnvoyOutlierModel>(&impl_)) e->setHealth(health);
}

}  // namespace breakerlab
