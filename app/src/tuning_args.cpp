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

namespace {
// `base` at every combination of the ends of the tuned knobs but `skipped` (low and high; each
// value of a choice), or nothing when there would be more than `limit`.
std::vector<Config> otherKnobsEnds(const Config& base, std::span<const KnobRange> knobs,
                                   const KnobSpec* skipped, std::size_t limit) {
  std::vector<Config> ends{base};
  for (const KnobRange& r : knobs) {
    if (r.knob == skipped) continue;
    std::vector<double> values{r.low};
    if (r.knob->kind == KnobSpec::Kind::choice) {
      for (double v = std::floor(r.low) + 1; v <= r.high; ++v) values.push_back(v);
    } else if (r.high != r.low) {
      values.push_back(r.high);
    }
    if (ends.size() * values.size() > limit) return {};
    std::vector<Config> next;
    for (const Config& c : ends)
      for (const double v : values) {
        Config with = c;
        r.knob->set(with, v);
        next.push_back(std::move(with));
      }
    ends = std::move(next);
  }
  return ends;
}
}  // namespace

std::vector<std::string> knobsWithoutEffect(const SearchSetup& setup, bool set_option) {
  constexpr std::size_t kMaxCombinations = 4096;
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < setup.cases.size(); ++i) {
    const Config& base = setup.cases[i].base;
    for (const KnobRange& r : setup.knobs) {
      if (r.knob->applies == nullptr) continue;
      // A knob another tuned knob can bring into play (a switch, a second attempt, a pool
      // size) counts: warned of only when it is idle wherever the others are.
      const std::vector<Config> ends = otherKnobsEnds(base, setup.knobs, r.knob, kMaxCombinations);
      if (ends.empty() || std::any_of(ends.begin(), ends.end(), r.knob->applies)) continue;
      std::string text = "--knob " + std::string(r.knob->id) + " has no effect on " +
                         setup.files[i].filename().string() + "'s config";
      for (const KnobSpec& toggle : knobSpecs()) {
        const bool tuned = std::any_of(setup.knobs.begin(), setup.knobs.end(),
                                       [&](const KnobRange& k) { return k.knob == &toggle; });
        if (tuned || toggle.kind != KnobSpec::Kind::toggle || toggle.get(base) != 0 ||
            (toggle.library && *toggle.library != setup.library))
          continue;
        Config with = base;
        toggle.set(with, 1);
        if (r.knob->applies(with)) {
          const std::string id(toggle.id);
          text += " while " + id + " is off (" +
                  (set_option ? "--set " + id + "=" + knobValueText(toggle, 1) + " turns it on"
                              : "tune it too: --knob " + id) +
                  ")";
          break;
        }
      }
      warnings.push_back(text + ": the metrics will not change along it");
    }
  }
  return warnings;
}

}  // namespace breakerlab::cli
