// Postmortems built to hurt: thousands of fenced blocks (which took 50 s and 1.3 GB), a ```timing
// block nested 5,000 deep, never closed, or of a million states, counts of states, events,
// expectations and what-ifs no document has. Each must end in a LoadError that names the
// line, the column and the cause, not in "the document has no ```timing lanes".
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "breakerlab/data/incident_import.h"
#include "test_support.h"

namespace breakerlab {
namespace {

// How fast each is refused is measured in tests/bench/import_bench.cpp, not here.
constexpr const char* kPricingPostmortem = "postmortems/inc-2026-0908-pricing-postmortem.md";

ImportOptions quickOptions() {
  ImportOptions options;
  options.calibrate = false;
  return options;
}

LoadError postmortemErrorOf(const std::string& text, const std::string& file = "pm.md") {
  std::optional<LoadError> e =
      test::loadErrorOf([&] { importIncident(text, file, quickOptions()); });
  EXPECT_EQ(e ? e->message().find("has no ```timing lanes") : 0, std::string::npos)
      << (e ? e->what() : "");
  return e ? *e : LoadError("(none)", 0, 0, "no error");
}

std::string pm() {
  return test::readResource(kPricingPostmortem);
}

// The 8 Sep postmortem's ```timing block opens on line 17; its YAML starts on line 18.
TEST(PostmortemHostile, DeepYamlInATimingBlockNamesTheLimitAndTheLine) {
  const std::string text = test::replaceFirst(
      pm(), "id: outage-minute\n", "id: outage-minute\nx: " + std::string(5'000, '[') + "\n");
  const LoadError e = postmortemErrorOf(text);
  EXPECT_EQ(e.line(), 19);
  EXPECT_GT(e.column(), 60);
  EXPECT_EQ(e.message(),
            "maps and lists are nested deeper than 64 levels (the ```timing block opened on "
            "line 17)");
  // Block style, in another of the format's blocks.
  std::string block = "```meta\ntitle: t\n";
  for (int i = 1; i < 100; ++i) block += std::string(2 * i - 2, ' ') + "a" + ":\n";
  const LoadError meta = postmortemErrorOf(block + "```\n" + pm());
  EXPECT_EQ(meta.line(), 2 + 65);
  EXPECT_NE(
      meta.message().find("nested deeper than 64 levels (the ```meta block opened on line 1)"),
      std::string::npos)
      << meta.what();
}

TEST(PostmortemHostile, AnUnclosedTimingBlockIsNamed) {
  // Its closing fence removed: the next fence (```state) would have closed it.
  const std::string text = test::replaceFirst(
      pm(), "  - { from: 41, to: 55, label: \"14 s cached while Pricing healthy\" }\n```\n",
      "  - { from: 41, to: 55, label: \"14 s cached while Pricing healthy\" }\n");
  const LoadError e = postmortemErrorOf(text);
  EXPECT_EQ(e.line(), 17);
  EXPECT_EQ(e.column(), 1);
  EXPECT_EQ(e.message(),
            "the ```timing block opened on line 17 is never closed (line 59 opens a ```state "
            "block inside it)");
  // The last block, running to the end of the file over prose.
  const LoadError last = postmortemErrorOf(
      "Some words.\n\n```timing\nid: x\nlanes: []\n\nThe breaker tripped: at t=11.\n"
      "- and then what?\n  * more\n");
  EXPECT_EQ(last.line(), 3);
  EXPECT_NE(last.message().find("the ```timing block opened on line 3 is never closed"),
            std::string::npos)
      << last.what();
}

TEST(PostmortemHostile, AMillionStatesNameTheValuesLimit) {
  // 150,000 states are 1.2 million values; the reproducer's 10^6 (53 MB) end at the same line.
  std::string rows;
  for (int i = 0; i < 150'000; ++i)
    rows += "      - { state: " + std::string(i % 2 ? "open" : "closed") +
            ", from: " + std::to_string(i) + ", to: " + std::to_string(i + 1) + " }\n";
  const std::string text = test::replaceFirst(pm(), "  - label: Breaker\n    states:\n",
                                              "  - label: Breaker\n    states:\n" + rows);
  const LoadError e = postmortemErrorOf(text);
  EXPECT_GT(e.line(), 100'000);
  EXPECT_EQ(e.message(),
            "more than 1000000 values (keys, scalars, maps and lists) in one document (the "
            "```timing block opened on line 17)");
}

TEST(PostmortemHostile, AnUnreadableTimingBlockIsTheReasonGiven) {
  // A syntax error (not a limit): the block is left out with a note, and with no lanes left the
  // error says why.
  const std::string text =
      "# Outage\n\n```timing\nid: x\nlanes:\n  - label: Breaker\n    states: [\n```\n";
  const LoadError e = postmortemErrorOf(text);
  EXPECT_EQ(e.line(), 8);  // where the flow list would have gone on
  EXPECT_NE(e.message().find("the ```timing block opened on line 3 is not readable as YAML"),
            std::string::npos)
      << e.what();
  EXPECT_NE(e.message().find("cannot place the incident in time"), std::string::npos);
}

TEST(PostmortemHostile, FencedBlocksAreCountedBeforeTheyAreRead) {
  std::string text;
  for (int i = 0; i < 1'001; ++i) text += "```callout\nbody: x\n```\n";
  const LoadError e = postmortemErrorOf(text);
  EXPECT_EQ(e.line(), 3'001);
  EXPECT_EQ(e.column(), 1);
  EXPECT_EQ(e.message(), "more than 1000 fenced blocks (```) in one document");
  // The reproducer's 30,000 ```timing blocks (50 MB) took 49.5 s and 1.29 GB.
  const std::string pricing = pm();
  const std::size_t open = pricing.find("```timing\n");
  const std::string timing =
      pricing.substr(open, pricing.find("```\n", open + 4) + 4 - open) + "\n";
  std::string many = pricing + "\n";  // it ends without one
  for (int i = 0; i < 2'000; ++i) many += timing;
  EXPECT_EQ(postmortemErrorOf(many).message(),
            "more than 1000 fenced blocks (```) in one document");
}

std::string withLines(std::string_view after, const std::string& lines) {
  return test::replaceFirst(pm(), after, std::string(after) + lines);
}

TEST(PostmortemHostile, CountsThatDriveTheWorkHaveLimits) {
  std::string constraints;
  for (int i = 0; i < 1'001; ++i)
    constraints += "  - { from: 8, to: 11, label: \"3 s to trip\" }\n";
  const LoadError expectations = postmortemErrorOf(withLines("constraints:\n", constraints));
  EXPECT_EQ(expectations.message(),
            "more than 1000 expectations (the document's numbers BreakerLab checks a replay "
            "against)");
  EXPECT_GT(expectations.line(), 50);

  std::string events;
  for (int i = 0; i < 10'001; ++i)
    events += "  - { at: " + std::to_string(i % 60) + ", label: e, lane: Breaker }\n";
  const LoadError e = postmortemErrorOf(withLines("events:\n", events));
  EXPECT_EQ(e.message(), "more than 10000 events (```timing events and timeline items)");
  EXPECT_EQ(e.line(), 44 + 10'000);  // events: is on line 43
  EXPECT_EQ(e.column(), 5);

  std::string states;
  for (int i = 0; i < 10'001; ++i)
    states += "      - { state: healthy, from: " + std::to_string(100 + i) +
              ", to: " + std::to_string(101 + i) + " }\n";
  const LoadError lane =
      postmortemErrorOf(withLines("      - { state: healthy, from: 41, to: 60, accent: "
                                  "green }\n",
                                  states));
  EXPECT_NE(lane.message().find("more than 10000 states in lane"), std::string::npos)
      << lane.what();
  EXPECT_NE(lane.message().find("Pricing"), std::string::npos) << lane.what();

  std::string steps = "```steps\nitems:\n";
  for (int i = 0; i < 1'001; ++i) steps += "  - title: Add a circuit breaker to the client\n";
  const LoadError what_ifs = postmortemErrorOf(pm() + "\n" + steps + "```\n");
  EXPECT_EQ(what_ifs.message(), "more than 1000 what-ifs (remediation rows, steps and changes)");

  // Timeline blocks each added every timeline item so far: k blocks, k^2/2 events.
  std::string timelines;
  for (int i = 0; i < 600; ++i)
    timelines +=
        "```timeline\nitems:\n  - \"[done] 09:41 · Deploy\"\n"
        "  - \"[done] 09:50 · Pricing p95 crosses 2 s\"\n```\n";
  const ImportedIncident imported = importIncident(timelines, "t.md", quickOptions());
  EXPECT_EQ(imported.incident.recorded.events.size(), 1'200u);
}

TEST(PostmortemHostile, RecognisedPhrasesHaveALimit) {
  // Each sentence states two things (a timeout and a rate): 60,000 of them, 5 MB of prose.
  std::string prose = pm() + "\n\n";
  for (int i = 0; i < 60'000; ++i)
    prose += "Each call waited for the 800 ms timeout at 40 requests per second.\n";
  const LoadError e = postmortemErrorOf(prose);
  EXPECT_EQ(e.message(),
            "more than 100000 recognised phrases (settings, traffic and numbers the document "
            "states)");
  EXPECT_GT(e.line(), 50'000);
}

TEST(PostmortemHostile, PlainTextTimelinesHaveTheEventLimit) {
  std::string text = "Pricing outage 09:00-23:00 UTC\n\n| UTC | What happened |\n|---|---|\n";
  for (int i = 0; i < 10'001; ++i) {
    char clock[8];
    std::snprintf(clock, sizeof clock, "%02d:%02d", 9 + i / 60 % 14, i % 60);
    text += "| " + std::string(clock) + " | Pricing errors |\n";
  }
  const LoadError e = postmortemErrorOf(text, "pm.txt");
  EXPECT_EQ(e.message(), "more than 10000 events (timeline rows and clock-time lines)");
  EXPECT_EQ(e.line(), 4 + 10'001);
}

}  // namespace
}  // namespace breakerlab
