// The words the workbench uses for the dependency's answers, from the incident's dependency
// (issue #33, item 12), and the registry's labels put in them.
#include "breakerlab/core/inputs/dependency_words.h"

#include <gtest/gtest.h>

#include <string>

#include "breakerlab/core/knobs/knob_specs.h"
#include "breakerlab/core/outcome/metrics.h"

namespace breakerlab {
namespace {

TEST(DependencyWords, FollowTheIncidentsDependencyName) {
  struct Case {
    const char* name;
    const char* answer;
    const char* answers;
  };
  const Case cases[] = {
      {"Pricing", "price", "prices"},  // the 14 Aug and 8 Sep incidents: the registry's words
      {"pricing-api", "price", "prices"},
      {"Price service", "price", "prices"},
      {"Inventory", "Inventory answer", "Inventory answers"},
      {"Payment provider", "Payment provider answer", "Payment provider answers"},
      {"  Inventory ", "Inventory answer", "Inventory answers"},
      {"Server", "Server answer", "Server answers"},
      {"Caprice", "Caprice answer", "Caprice answers"},  // "pric" inside a word is no price
      {"dependency", "answer", "answers"},               // the name an incident without one gets
      {"", "answer", "answers"},
      {"   ", "answer", "answers"},
  };
  for (const Case& c : cases) {
    const DependencyWords words = dependencyWords(c.name);
    EXPECT_EQ(words.answer, c.answer) << '"' << c.name << '"';
    EXPECT_EQ(words.answers, c.answers) << '"' << c.name << '"';
  }
}

TEST(DependencyWords, PutTheWholeWordsPriceAndPricesInTheIncidentsWords) {
  const DependencyWords inventory = dependencyWords("Inventory");
  const DependencyWords unnamed = dependencyWords("");
  struct Case {
    const char* text;
    const DependencyWords& words;
    const char* want;
  };
  const Case cases[] = {
      {"Oldest cached price", inventory, "Oldest cached Inventory answer"},
      {"Serve cached prices", inventory, "Serve cached Inventory answers"},
      {"Serve cached prices", unnamed, "Serve cached answers"},
      {"Price older than the TTL", unnamed, "Answer older than the TTL"},
      {"Prices, then more prices.", unnamed, "Answers, then more answers."},
      {"a cached price (fresh price)", inventory,
       "a cached Inventory answer (fresh Inventory answer)"},
      {"Pricing", inventory, "Pricing"},  // another word
      {"priced at", inventory, "priced at"},
      {"Oldest cached price", dependencyWords("Pricing"), "Oldest cached price"},
      {"", inventory, ""},
  };
  for (const Case& c : cases) EXPECT_EQ(inDependencyWords(c.text, c.words), c.want) << c.text;
}

// The labels that name the dependency's answers read in the incident's words, and no label
// keeps "price" for another dependency.
TEST(DependencyWords, TheRegistrysAndTheKnobsLabelsFollowThem) {
  const DependencyWords payments = dependencyWords("Payment provider");
  EXPECT_EQ(inDependencyWords(findMetric("oldest_cached_price_s")->label, payments),
            "Oldest cached Payment provider answer");
  bool knob = false;
  for (const KnobSpec& spec : knobSpecs())
    if (spec.id == "fallback.cache.enabled") {
      knob = true;
      EXPECT_EQ(inDependencyWords(spec.label, payments), "Serve cached Payment provider answers");
    }
  EXPECT_TRUE(knob);
  for (const MetricInfo& m : metricRegistry()) {
    EXPECT_EQ(inDependencyWords(m.label, payments).find("price"), std::string::npos) << m.name;
    EXPECT_EQ(inDependencyWords(m.description, payments).find("price"), std::string::npos)
        << m.name;
  }
}

}  // namespace
}  // namespace breakerlab
