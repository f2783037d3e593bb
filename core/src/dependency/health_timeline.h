#pragma once
#include <algorithm>
#include <vector>

#include "breakerlab/core/breakers/breaker.h"
#include "breakerlab/core/inputs/incident.h"

namespace breakerlab {

// The dependency's health check over time: green outside the listed spans.
class HealthTimeline final : public HealthSignal {
 public:
  explicit HealthTimeline(const std::vector<HealthSpan>& spans) : spans_(spans) {
    std::sort(spans_.begin(), spans_.end(),
              [](const HealthSpan& a, const HealthSpan& b) { return a.from < b.from; });
  }
  bool greenAt(Micros t) const override {
    auto it = std::upper_bound(spans_.begin(), spans_.end(), t,
                               [](Micros v, const HealthSpan& s) { return v < s.from; });
    if (it == spans_.begin()) return true;
    --it;
    return t >= it->to || it->health == Health::green;
  }
  const std::vector<HealthSpan>& spans() const { return spans_; }

 private:
  std::vector<HealthSpan> spans_;
};

}  // namespace breakerlab
