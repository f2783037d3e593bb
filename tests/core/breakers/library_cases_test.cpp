// The case tables under library_cases/: each case a policy in the library's own names, a call
// log, and what the library's source says it decides. Derived from each library's source by
// reading it (each case cites the file and function), independently of BreakerLab's models.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <sstream>
#include <string>

#include "breakerlab/core/replay/call_log_replay.h"
#include "breakerlab/data/native_config.h"

namespace breakerlab {
namespace {

struct Case {
  std::string library;
  std::string name;
  YAML::Node node;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.library << " " << c.name;
}

std::vector<Case> loadCases(const std::string& library) {
  const YAML::Node file =
      YAML::LoadFile(std::string(BREAKERLAB_LIBRARY_CASES) + "/" + library + ".yaml");
  std::vector<Case> cases;
  for (const auto& c : file["cases"]) cases.push_back({library, c["name"].as<std::string>(), c});
  return cases;
}

std::string stateName(BreakerState s) {
  return s == BreakerState::half_open ? "half_open" : std::string(toString(s));
}

void runCase(const Case& c) {
  SCOPED_TRACE(c.library + " case " + c.name + " (" + c.node["source"].as<std::string>("") + ")");
  YAML::Emitter policy;
  policy << c.node["policy"];
  const auto library = breakerLibraryFromString(c.library);
  ASSERT_TRUE(library);
  const NativeConfig imported = parseNativeConfig(policy.c_str(), c.name + ".policy", *library);
  Config config;
  applyNativeConfig(imported, config);

  CallLogReplay replay(config.breaker, config.native);
  std::vector<bool> permitted;
  CallDecision d;
  // The tables list what happens up to the log's last call or completion; the replay also
  // reports the next timer-driven change after it, which they leave out.
  Micros last_event = 0;
  for (const auto& row : c.node["calls"]) {
    LoggedCall call;
    call.start = row[0].as<std::int64_t>() * kMillisecond;
    call.duration = row[1].as<std::int64_t>() * kMillisecond;
    call.outcome = *callOutcomeFromString(row[2].as<std::string>());
    last_event = std::max(last_event, call.start + call.duration);
    replay.add(call);
    while (replay.popDecision(d)) permitted.push_back(d.permitted);
  }
  replay.finish();
  while (replay.popDecision(d)) permitted.push_back(d.permitted);
  std::vector<BreakerTransition> transitions;
  replay.takeTransitions(transitions);

  std::vector<bool> expected;
  for (const auto& p : c.node["expect"]["permitted"]) expected.push_back(p.as<bool>());
  EXPECT_EQ(permitted, expected) << "rule: " << c.node["rule"].as<std::string>("");

  std::ostringstream want, got;
  for (const auto& t : c.node["expect"]["transitions"])
    want << t[0].as<std::int64_t>() << ' ' << t[1].as<std::string>() << '\n';
  for (const auto& t : transitions)
    if (t.at <= last_event) got << t.at / kMillisecond << ' ' << stateName(t.to) << '\n';
  if (const YAML::Node ejections = c.node["expect"]["ejections"]) {
    std::ostringstream want_hosts, got_hosts;
    for (const auto& e : ejections)
      want_hosts << e[0].as<std::int64_t>() << " host " << e[1].as<int>() << ' '
                 << e[2].as<std::string>() << '\n';
    const auto* events = replay.breaker().hostEjections();
    ASSERT_NE(events, nullptr);
    for (const auto& e : *events)
      if (e.at <= last_event)
        got_hosts << e.at / kMillisecond << " host " << e.host << ' '
                  << (e.ejected ? "ejected" : "returned") << '\n';
    EXPECT_EQ(got_hosts.str(), want_hosts.str()) << "rule: " << c.node["rule"].as<std::string>("");
  }
  EXPECT_EQ(got.str(), want.str()) << "rule: " << c.node["rule"].as<std::string>("")
                                   << "\nwhy: " << c.node["why"].as<std::string>("");
}

class LibraryCases : public testing::TestWithParam<Case> {};

TEST_P(LibraryCases, MatchesTheLibrarysSource) {
  runCase(GetParam());
}

std::vector<Case> allCases() {
  std::vector<Case> all;
  for (const char* library : {"gobreaker", "resilience4j", "polly", "envoy"}) {
    auto cases = loadCases(library);
    all.insert(all.end(), cases.begin(), cases.end());
  }
  return all;
}

std::string caseName(const testing::TestParamInfo<Case>& info) {
  std::string name = info.param.library + "_" + info.param.name;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Source, LibraryCases, testing::ValuesIn(allCases()), caseName);

TEST(LibraryCases, EachTableHasAtLeastTwelveCasesEachCitingItsSource) {
  for (const char* library : {"gobreaker", "resilience4j", "polly", "envoy"}) {
    const auto cases = loadCases(library);
    EXPECT_GE(cases.size(), 12u) << library;
    for (const auto& c : cases)
      EXPECT_NE(c.node["source"].as<std::string>("").find('/'), std::string::npos)
          << library << " " << c.name << " names no source file";
  }
}

}  // namespace
}  // namespace breakerlab
