#pragma once
#include <string>
#include <vector>

#include "breakerlab/core/incident.h"
#include "breakerlab/core/result.h"

namespace breakerlab {

struct ExpectationResult {
  const Expectation* expectation = nullptr;
  bool passed = false;
  std::string actual;  // the measured value or lane difference, human readable
};

std::vector<ExpectationResult> evaluate(const std::vector<Expectation>& expectations,
                                        const Incident& incident, const Result& result);

std::string_view toString(CompareOp op);

}  // namespace breakerlab
