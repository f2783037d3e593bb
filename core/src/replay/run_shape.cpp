#include "replay/run_shape.h"

#include <algorithm>

#include "breakerlab/core/breakers/libraries/opossum.h"

namespace breakerlab {

TimeoutConfig effectiveTimeout(const Config& c) {
  TimeoutConfig t = c.timeout;
  const OpossumOptions& o = c.native.opossum;
  if (c.breaker.enabled && c.breaker.library == BreakerLibrary::opossum && o.enabled &&
      o.timeout > 0) {
    const Micros limit = nodeTimerDelay(o.timeout);
    if (c.breaker.placement == BreakerPlacement::inside_retry) {
      t.attempt = std::min(t.attempt, limit);
    } else {
      t.total = t.total > 0 ? std::min(t.total, limit) : limit;
    }
  }
  return t;
}

}  // namespace breakerlab
