#pragma once
// What the workbench calls the dependency's answers, after the incident's dependency. The
// metrics' and knobs' labels are written once (the metric registry, the knob specs) in the
// model's own words, prices (`pricing.mode`, `oldest_cached_price_s`); an incident about
// another dependency reads them in its own (issue #33: an inventory or payments incident said
// "Oldest cached price" and "Serve cached prices").
#include <string>
#include <string_view>

namespace breakerlab {

struct DependencyWords {
  std::string answer = "price";  // "Inventory answer"
  std::string answers = "prices";
};

// From the incident's `dependency.name`: a name that speaks of prices ("Pricing", "Price
// service") keeps the registry's words; the default name ("dependency") or none gives "answer";
// any other name its own answers: "Inventory" → "Inventory answer".
DependencyWords dependencyWords(std::string_view dependency_name);

// `text` with the whole words "price" and "prices" (either case) in `words`, a capital kept at
// the start of the text: "Oldest cached price" → "Oldest cached Inventory answer". Other words
// ("pricing") are left as they are.
std::string inDependencyWords(std::string_view text, const DependencyWords& words);

}  // namespace breakerlab
