#include <string>
#include <string_view>

#include "breakerlab/data/expectation_text.h"

namespace breakerlab {

std::string goalVerdictText(const GoalComparison& goals, std::string_view regressed) {
  using V = GoalComparison::Verdict;
  std::string text = "Goals: " + std::to_string(goals.met) + " of " + std::to_string(goals.total) +
                     " met (deployed: " + std::to_string(goals.baseline_met) + " of " +
                     std::to_string(goals.total) + "): ";
  const std::string but =
      regressed.empty() ? std::string() : ", but worse on " + std::string(regressed);
  switch (goals.verdict) {
    case V::better:
      return text + "better than deployed" + but;
    case V::worse:
      return text + "worse than deployed";
    case V::same:
      return text + "the same as deployed" + but;
    case V::mixed:
      return text + "as many as deployed, not the same ones" + but;
    case V::none:
      break;
  }
  return "Goals: none in this incident";
}

}  // namespace breakerlab
