// What `tune` and `sweep` share: opening the incidents and reading the knobs and goals.
#include <algorithm>
#include <set>

#include "breakerlab/core/breaker_library.h"
#include "breakerlab/core/knob_specs.h"
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

void openSearch(const SearchArguments& arguments, SearchSetup& setup) {
  if (arguments.incidents.empty()) throw UsageError("an INCIDENT file or bundled name is required");
  if (arguments.knobs.empty())
    throw UsageError("--knob KEY=LOW..HIGH: give at least one knob to turn");
  if (arguments.seeds < 1 || arguments.seeds > 1000)
    throw UsageError("--seeds: expected 1 to 1000 seeds");
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
  for (const Incident& incident : setup.incidents) {
    TuneCase c;
    c.incident = &incident;
    c.goals = extra;
    if (!arguments.no_incident_goals)
      for (const Expectation& goal : incident.goals) {
        // A goal given on the command line and written in the incident is checked once.
        const bool repeated = std::any_of(extra.begin(), extra.end(), [&](const Expectation& e) {
          return e.kind == goal.kind && e.metric == goal.metric && e.op == goal.op &&
                 e.value == goal.value && e.tolerance == goal.tolerance &&
                 e.tolerance_relative == goal.tolerance_relative && e.lane == goal.lane &&
                 e.within == goal.within;
        });
        if (!repeated) c.goals.push_back(goal);
      }
    c.base = incident.deployed;
    c.base.breaker.library = setup.library;
    setup.cases.push_back(std::move(c));
  }
}

std::vector<std::string> knobsWithoutEffect(const SearchSetup& setup) {
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < setup.cases.size(); ++i) {
    // The base with every tuned switch on: a knob another tuned knob can turn on counts.
    Config on = setup.cases[i].base;
    for (const KnobRange& r : setup.knobs)
      if (r.knob->kind == KnobSpec::Kind::toggle) r.knob->set(on, r.high);
    for (const KnobRange& r : setup.knobs) {
      if (r.knob->applies == nullptr || r.knob->applies(on)) continue;
      std::string text = "--knob " + std::string(r.knob->id) + " has no effect on " +
                         setup.files[i].filename().string() + "'s config";
      for (const KnobSpec& toggle : knobSpecs()) {
        if (toggle.kind != KnobSpec::Kind::toggle || toggle.get(on) != 0 ||
            (toggle.library && *toggle.library != setup.library))
          continue;
        Config with = on;
        toggle.set(with, 1);
        if (r.knob->applies(with)) {
          text += " while " + std::string(toggle.id) + " is off (--set " + std::string(toggle.id) +
                  "=1 turns it on)";
          break;
        }
      }
      warnings.push_back(text + ": the metrics will not change along it");
    }
  }
  return warnings;
}

}  // namespace breakerlab::cli
