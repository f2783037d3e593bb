// exportPolicy: a config file written in its own library's form reads back to the same settings,
// and everything of it the written file does not carry is kept (comments) or listed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "breakerlab/data/file_io.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/policy_export.h"
#include "same_native_settings.h"

namespace breakerlab {
namespace {

std::string fixture(const std::string& name) {
  return std::string(BREAKERLAB_DATA_FIXTURES) + "/policy_export/" + name;
}

using test::sameSettings;

bool listed(const std::vector<std::string>& items, const std::string& text) {
  for (const std::string& item : items)
    if (item.find(text) != std::string::npos) return true;
  return false;
}

// One file per native format, each with parts BreakerLab does not read (other sections, a
// second instance, a callback, keys of no effect) and comments that hold values.
const char* const kPolicyFixtures[] = {"resilience4j-extra.yml", "resilience4j-extra.properties",
                                       "gobreaker-extra.go",     "opossum-extra.json",
                                       "cockatiel-extra.json",   "polly-extra.json",
                                       "envoy-extra.yaml"};

TEST(PolicyExport, EachNativeFormatRoundTripsAndListsWhatItDoesNotCarry) {
  for (const char* name : kPolicyFixtures) {
    SCOPED_TRACE(name);
    const std::string text = readTextFile(fixture(name));
    const ConfigFile source = parseConfigFile(text, name);
    const PolicyExport out = exportPolicy(source, text, std::nullopt);
    EXPECT_EQ(out.target, exportTargetOf(source.native.library));

    // The exact text and list, against golden/policy_export/.
    std::string golden_text = out.text + "\n=== not carried\n";
    for (const std::string& item : out.not_carried) golden_text += item + "\n";
    const std::string golden =
        std::string(BREAKERLAB_GOLDEN) + "/policy_export/" + name + ".golden";
    if (std::getenv("BREAKERLAB_UPDATE_GOLDEN") != nullptr) writeOutputFile(golden, golden_text);
    EXPECT_EQ(golden_text, readTextFile(golden)) << golden;

    // import -> export -> import: the same settings, attempt timeout and name.
    const ConfigFile back = parseConfigFile(out.text, "back" + std::string(fileSuffix(out.target)));
    EXPECT_EQ(back.native.library, source.native.library);
    EXPECT_TRUE(sameSettings(back.native.native, source.native.native, source.native.library))
        << out.text;
    EXPECT_EQ(back.native.calls.attempt_timeout, source.native.calls.attempt_timeout);

    // What the import did not take is listed, with its position.
    for (const ImportNote& note : source.native.notes)
      EXPECT_TRUE(listed(out.not_carried, formatNote(name, note))) << note.message;
    // A retry the file states is listed, not dropped.
    if (source.native.calls.retry) {
      EXPECT_TRUE(listed(out.not_carried, "retries ("));
    }
  }
}

TEST(PolicyExport, TheIssuesResilience4jFileKeepsItsNameTimeLimiterAndComments) {
  const std::string path =
      std::string(BREAKERLAB_RESOURCES) + "/configs/inc-2026-0908-resilience4j.yml";
  const std::string text = readTextFile(path);
  const PolicyExport out = exportPolicy(parseConfigFile(text, path), text, std::nullopt);
  EXPECT_NE(out.text.find("      pricing:\n        slidingWindowType"), std::string::npos);
  EXPECT_NE(out.text.find("  timelimiter:\n    instances:\n      pricing:\n        "
                          "timeoutDuration: 800ms"),
            std::string::npos)
      << out.text;
  EXPECT_NE(out.text.find("# application.yml holds it: the last 20 calls, 50% failures, open 20 s"),
            std::string::npos);
  EXPECT_TRUE(out.not_carried.empty());
  // Written again from its own export, nothing is added twice.
  const PolicyExport again =
      exportPolicy(parseConfigFile(out.text, "again.yml"), out.text, std::nullopt);
  EXPECT_EQ(again.text, out.text);
}

TEST(PolicyExport, AnotherLibraryListsTheCallTimeoutAndTheTranslation) {
  const std::string path =
      std::string(BREAKERLAB_RESOURCES) + "/configs/inc-2026-0908-resilience4j.yml";
  const std::string text = readTextFile(path);
  const PolicyExport out =
      exportPolicy(parseConfigFile(text, path), text, BreakerLibrary::gobreaker);
  EXPECT_EQ(out.target, ExportTarget::gobreaker);
  EXPECT_TRUE(listed(out.not_carried, "per-call timeout 800ms")) << out.text;
  EXPECT_NE(out.text.find("Timeout:     20 * time.Second"), std::string::npos) << out.text;
  EXPECT_NE(out.text.find("Name:        \"pricing\""), std::string::npos) << out.text;
  // JSON has no comments: they are listed instead of being dropped.
  const PolicyExport json =
      exportPolicy(parseConfigFile(text, path), text, BreakerLibrary::opossum);
  EXPECT_TRUE(listed(json.not_carried,
                     "comment not carried (JSON has none): application.yml "
                     "holds it: the last 20 calls"));
}

}  // namespace
}  // namespace breakerlab
