// Truncated, garbled and hostile inputs: every reader either succeeds or throws LoadError.
#include <gtest/gtest.h>

#include <random>

#include "breakerlab/data/calls_csv.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/incident_io.h"
#include "test_support.h"

namespace breakerlab {
namespace {

// Returns true when it loaded; fails the test on anything but LoadError.
template <class F>
bool loadsOrLoadError(F&& f, const std::string& what) {
  try {
    f();
    return true;
  } catch (const LoadError& e) {
    EXPECT_FALSE(e.file().empty()) << what;
    return false;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": unexpected exception " << e.what();
  } catch (...) {
    ADD_FAILURE() << what << ": unexpected non-standard exception";
  }
  return false;
}

TEST(Robustness, EveryPrefixOfTheBundledIncident) {
  const std::string text = test::pricingText();
  std::size_t loaded = 0;
  for (std::size_t n = 0; n <= text.size(); ++n) {
    const std::string prefix = text.substr(0, n);
    if (loadsOrLoadError([&] { parseIncident(prefix, "prefix.yaml"); },
                         "prefix of " + std::to_string(n) + " bytes"))
      ++loaded;
  }
  EXPECT_GE(loaded, 1u);  // at least the whole file
}

TEST(Robustness, EveryPrefixOfACanonicalConfig) {
  Config c;
  c.breaker.early_probe = true;
  const std::string text = configToYaml(c);
  for (std::size_t n = 0; n <= text.size(); ++n)
    loadsOrLoadError([&] { parseConfig(text.substr(0, n), "prefix.yaml"); },
                     "config prefix " + std::to_string(n));
}

TEST(Robustness, RandomByteFlipsOfTheBundledIncident) {
  const std::string text = test::pricingText();
  std::mt19937 rng(20260908);
  const std::string alphabet = "{}[]:,-#&*!|>'\"%@`?\t\n 0123456789abcxyz.\\\x00\xff\xc2\xb1";
  for (int round = 0; round < 400; ++round) {
    std::string mutated = text;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < edits; ++i) {
      const std::size_t at = rng() % mutated.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          mutated[at] = c;
          break;
        case 1:
          mutated.insert(mutated.begin() + static_cast<long>(at), c);
          break;
        default:
          mutated.erase(at, 1 + rng() % 8);
          break;
      }
    }
    loadsOrLoadError([&] { parseIncident(mutated, "fuzz.yaml"); },
                     "mutation round " + std::to_string(round));
  }
}

TEST(Robustness, Garbage) {
  std::mt19937 rng(7);
  std::vector<std::string> inputs = {
      "",
      "\n\n\n",
      "---\n...\n",
      std::string("\0\0\0", 3),
      "\xff\xfe\xfd",
      "format: breakerlab/1\nid: [unterminated\n",
      "*undefined_alias",
      "&a [*a]",
      "a: &x 1\nb: *x\n",
      "!!binary AAAA",
      "? complex\n: key\n",
      "format: breakerlab/1\nid: x\ntraffic: *nope\n",
      "{\"format\": \"breakerlab/1\", \"id\": 3}",
      "[" + std::string(100000, '['),
      std::string(100000, '{'),
      std::string(20000, '-') + " x",
      "format: breakerlab/1\n" + std::string(200000, 'x'),
      "format: breakerlab/1\nid: x\nwindow: {from: 1e308, to: 1e309}\n",
      "format: breakerlab/1\nid: x\nseed: -1\n",
      "format: breakerlab/1\nid: x\nseed: 99999999999999999999999\n",
  };
  for (int i = 0; i < 200; ++i) {
    std::string s(rng() % 300, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 256);
    inputs.push_back(s);
  }
  for (const std::string& input : inputs) {
    const std::string what = "garbage of " + std::to_string(input.size()) + " bytes";
    loadsOrLoadError([&] { parseIncident(input, "g.yaml"); }, what);
    loadsOrLoadError([&] { parseConfig(input, "g.yaml"); }, what);
    loadsOrLoadError([&] { parseCallsCsv(input, "g.csv"); }, what);
    loadsOrLoadError([&] { applyOverrides(Config{}, {"breaker=" + input}); }, what);
    loadsOrLoadError([&] { applyOverrides(Config{}, {input}); }, what);
  }
}

TEST(Robustness, HugeNumbers) {
  for (const char* v : {"1e400s", "-0s", "9999999999999999999999ms", "0.0000001us", "nan%",
                        "1e-320%", "99999999999"}) {
    loadsOrLoadError(
        [&] {
          applyOverrides(Config{}, {std::string("timeout.attempt=") + v,
                                    std::string("breaker.window.size=") + v});
        },
        v);
    loadsOrLoadError([&] { applyOverrides(Config{}, {std::string("breaker.failure_rate=") + v}); },
                     v);
  }
}

}  // namespace
}  // namespace breakerlab
