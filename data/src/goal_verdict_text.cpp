#include <string>

#include "breakerlab/data/expectation_text.h"

namespace breakerlab {

std::string goalVerdictText(const GoalComparison& goals) {
  using V = GoalComparison::Verdict;
  std::string text = "Goals: " + std::to_string(goals.met) + " of " + std::to_string(goals.total) +
                     " met (deployed: " + std::to_string(goals.baseline_met) + " of " +
                     std::to_string(goals.total) + "): ";
  switch (goals.verdict) {
    case V::better:
      return text + "better than deployed";
    case V::worse:
      return text + "worse than deployed";
    case V::same:
      return text + "the same as deployed";
    case V::mixed:
      return text + "as many as deployed, not the same ones";
    case V::none:
      break;
  }
  return "Goals: none in this incident";
}

}  // namespace breakerlab
