// What `tune` and `sweep` share: opening the incidents and reading the knobs and goals.
#include <algorithm>
#include <cmath>
#include <set>
#include <span>

#include "breakerlab/core/basics/breaker_library.h"
#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/tuning/tune_setup.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/incident_import.h"
#include "breakerlab/data/tuning_text.h"
#include "commands.h"
#include "import_progress.h"
#include "tuning_commands.h"

namespace breakerlab::cli {

namespace {

std::optional<BreakerLibrary> libraryNamed(const std::string& name) {
  // The docs call BreakerLab's own machine "generic"; its config key is "breakerlab".
  if (name == "generic") return BreakerLibrary::breakerlab;
  return breakerLibraryFromString(name);
}

std::string libraryNames() {
  std::string names = "generic";
  for (const auto& info : kBreakerLibraries)
    if (info.id != BreakerLibrary::breakerlab) names += ", " + std::string(info.key);
  return names;
}

}  // namespace

std::string seedsOutOfRange(std::uint64_t seeds) {
  return "--seeds: expected 1 to " + std::to_string(kMaxSeeds) + " seeds, got " +
         std::to_string(seeds);
}

void openSearch(const SearchArguments& arguments, SearchSetup& setup) {
  if (arguments.incidents.empty()) throw UsageError("an INCIDENT file or bundled name is required");
  if (arguments.knobs.empty())
    throw UsageError("--knob KEY=LOW..HIGH: give at least one knob to turn");
  if (arguments.seeds < 1 || arguments.seeds > kMaxSeeds)
    throw UsageError(seedsOutOfRange(arguments.seeds));
  std::optional<BreakerLibrary> library;
  if (!arguments.library.empty()) {
    library = libraryNamed(arguments.library);
    if (!library)
      throw UsageError("--library: expected one of " + libraryNames() + ", got \"" +
                       clipText(arguments.library) + "\"");
  }
  for (const std::string& argument : arguments.incidents) {
    const std::filesystem::path path = resolveIncident(argument);
    ImportedIncident imported = openWithProgress(path, ImportOptions{});
    setup.files.push_back(path);
    setup.incidents.push_back(std::move(imported.incident));
  }
  setup.library = library.value_or(setup.incidents.front().deployed.breaker.library);

  std::set<std::string_view> seen;
  for (const std::string& text : arguments.knobs) {
    const KnobRange range = parseKnobRange(text, "--knob \"" + clipText(text, 60) + "\"");
    if (!seen.insert(range.knob->id).second)
      throw UsageError("--knob " + std::string(range.knob->id) + " is given twice");
    if (range.knob->library && *range.knob->library != setup.library)
      throw UsageError("--knob " + std::string(range.knob->id) + " is a setting of " +
                       std::string(libraryInfo(*range.knob->library).title) +
                       "'s breaker; tune it with --library " +
                       (*range.knob->library == BreakerLibrary::breakerlab
                            ? std::string("generic")
                            : std::string(libraryInfo(*range.knob->library).key)));
    setup.knobs.push_back(range);
  }

  std::vector<Expectation> extra;
  for (const std::string& text : arguments.goals) extra.push_back(parseExpectation(text, "--goal"));
  for (const Incident& incident : setup.incidents)
    setup.cases.push_back(tuneCaseFor(incident, incident.deployed, setup.library, extra,
                                      !arguments.no_incident_goals));
}

std::vector<std::string> knobsWithoutEffect(const SearchSetup& setup, bool set_option) {
  std::vector<std::string> warnings;
  for (const IdleKnob& idle : breakerlab::knobsWithoutEffect(setup.cases, setup.knobs)) {
    std::string text = "--knob " + std::string(idle.knob->id) + " has no effect on " +
                       setup.files[idle.case_index].filename().string() + "'s config";
    if (idle.switch_on != nullptr) {
      const std::string id(idle.switch_on->id);
      text += " while " + id + " is off (" +
              (set_option ? "--set " + id + "=" + knobValueText(*idle.switch_on, 1) + " turns it on"
                          : "tune it too: --knob " + id) +
              ")";
    }
    warnings.push_back(text + ": the metrics will not change along it");
  }
  return warnings;
}

}  // namespace breakerlab::cli
