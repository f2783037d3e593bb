// Native configs built to hurt: thousands of resilience4j instances (which took minutes), keys
// and nesting deeper than any library's, Go nested without end, files of nothing but comments.
// Each must be read in linear time or end in a LoadError naming the line, the column and the
// limit, fast.
#include <gtest/gtest.h>

#include <string>

#include "breakerlab/data/native_config.h"
#include "test_support.h"

namespace breakerlab {
namespace {

// A quadratic reader took minutes on these; tests/bench/import_bench.cpp measures them.

NativeConfig readNative(const std::string& text, const std::string& file,
                        std::optional<BreakerLibrary> library = std::nullopt) {
  return parseNativeConfig(text, file, library);
}

// The LoadError of reading `text` as `file`.
LoadError nativeErrorOf(const std::string& text, const std::string& file,
                        std::optional<BreakerLibrary> library = std::nullopt) {
  std::optional<LoadError> e = test::loadErrorOf([&] { readNative(text, file, library); });
  return e ? *e : LoadError("(none)", 0, 0, "no error");
}

// The bundled application.yml with `n` more circuit breaker instances before its own (as the
// reproducer's generator writes them), one line each.
std::string manyInstancesYaml(int n) {
  std::string extra;
  for (int i = 0; i < n; ++i)
    extra += "      i" + std::to_string(i) +
             ": {slidingWindowSize: " + std::to_string(i % 100 + 1) + "}\n";
  return test::replaceFirst(test::readResource("configs/inc-2026-0908-resilience4j.yml"),
                            "    instances:\n", "    instances:\n" + extra);
}

std::string manyInstancesProperties(int n) {
  std::string text;
  for (int i = 0; i < n; ++i)
    text += "resilience4j.circuitbreaker.instances.p" + std::to_string(i) +
            ".slidingWindowSize=" + std::to_string(i % 100 + 1) + "\n";
  return text;
}

// 5,000 instances took 56 s (the YAML) and 51 s (the properties): the nested form was built with
// yaml-cpp's linear key look-up and per-map memory merges.
TEST(NativeHostile, ManyResilience4jInstancesAreReadInLinearTime) {
  for (int n : {5'000}) {
    const NativeConfig yaml = readNative(manyInstancesYaml(n), "r4j.yml");
    EXPECT_EQ(yaml.native.resilience4j.name, "i0");
    const NativeConfig props = readNative(manyInstancesProperties(n), "r4j.properties");
    EXPECT_EQ(props.native.resilience4j.name, "p0");
  }
}

TEST(NativeHostile, MoreInstancesThanTheLimitAreRefusedAtTheFirstPastIt) {
  // The instances written from line 13 on; the bundled file's own follows them.
  const LoadError yaml = nativeErrorOf(manyInstancesYaml(10'001), "r4j.yml");
  EXPECT_EQ(yaml.message(),
            "more than 10000 instances under resilience4j.circuitbreaker.instances");
  EXPECT_EQ(yaml.line(), 13 + 10'000);
  const LoadError props = nativeErrorOf(manyInstancesProperties(300'000), "many.properties");
  EXPECT_EQ(props.message(),
            "more than 10000 instances under resilience4j.circuitbreaker.instances");
  EXPECT_EQ(props.line(), 10'001);
  EXPECT_EQ(props.column(), 39);  // the instance's name
  // Time limiters and retries alike, and configs.
  std::string retries = "resilience4j.circuitbreaker.instances.a.slidingWindowSize=5\n";
  for (int i = 0; i <= 10'000; ++i)
    retries += "resilience4j.retry.configs.c" + std::to_string(i) + ".maxAttempts=2\n";
  EXPECT_EQ(nativeErrorOf(retries, "r.properties").message(),
            "more than 10000 configs under resilience4j.retry.configs");
}

TEST(NativeHostile, PropertiesNameTheirOwnProblems) {
  // One key of 100,000 parts (200 KB): was "the file is empty" (the line was skipped).
  std::string deep = "resilience4j.circuitbreaker.instances.p";
  for (int i = 0; i < 100'000; ++i) deep += ".a";
  const LoadError key = nativeErrorOf("# deep\n" + deep + "=1\n", "deep-key.properties");
  EXPECT_EQ(key.line(), 2);
  EXPECT_EQ(key.column(), 1);
  EXPECT_EQ(key.message(), "the key has more than 32 parts (resilience4j's have at most six)");
  // Comments only: content, but no property.
  EXPECT_EQ(
      nativeErrorOf("# nothing here\n! nor here\n", "c.properties", BreakerLibrary::resilience4j)
          .message(),
      "no properties (key=value lines) in the file");
  EXPECT_EQ(nativeErrorOf("\n  \n", "e.properties", BreakerLibrary::resilience4j).message(),
            "the file is empty");
  // 300,000 keys of one instance (20 MB): was 807 MB and "aliases expand to more than 1000000
  // values" (a .properties file has no aliases).
  std::string keys;
  for (int i = 0; i < 300'000; ++i) keys += "k" + std::to_string(i) + "=1\n";
  const LoadError values = nativeErrorOf(keys, "keys.properties", BreakerLibrary::resilience4j);
  EXPECT_EQ(values.message(), "more than 250000 keys and values (once the properties are nested)");
  EXPECT_GT(values.line(), 100'000);
  EXPECT_EQ(values.message().find("aliases"), std::string::npos);
  // A list of a million exception classes on one line, and one with a million leading spaces.
  std::string list = "resilience4j.circuitbreaker.instances.p.recordExceptions=";
  for (int i = 0; i < 300'000; ++i) list += "a.B,";
  EXPECT_EQ(nativeErrorOf(list + "\n", "list.properties").line(), 1);
  const std::string spaces =
      "resilience4j.circuitbreaker.instances.p.recordExceptions=" + std::string(1'000'000, ' ') +
      "java.io.IOException\n";
  EXPECT_EQ(readNative(spaces, "spaces.properties").native.resilience4j.name, "p");
}

TEST(NativeHostile, DottedYamlKeysHaveThePropertiesLimit) {
  // Spring nests `a.b.c: 1` as a: {b: {c: 1}}; 200,000 parts (an explicit key, which YAML does
  // not limit to 1024 characters) crashed the reader.
  std::string parts = "a";
  for (int i = 0; i < 200'000; ++i) parts += ".a";
  const LoadError e = nativeErrorOf(
      "resilience4j:\n  circuitbreaker:\n    instances:\n      p:\n        slidingWindowSize: 5\n"
      "        ? " +
          parts + "\n        : 1\n",
      "application.yml");
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.column(), 11);
  EXPECT_EQ(e.message(), "the key has more than 32 parts (resilience4j's have at most six)");
}

TEST(NativeHostile, AnInstanceOfManyKeysIsReadInLinearTime) {
  // Every key is checked against the others (repeated keys are errors): that was quadratic.
  std::string text = "resilience4j:\n  circuitbreaker:\n    instances:\n      p:\n";
  for (int i = 0; i < 30'000; ++i) text += "        k" + std::to_string(i) + ": 1\n";
  const NativeConfig c = readNative(text, "keys.yml");
  EXPECT_GE(c.notes.size(), 30'000u);  // each "not a setting BreakerLab models"
}

// Every format read through YAML (JSON is YAML's flow style) has the YAML limits: 100,000
// brackets or objects deep end at the 65th, on line 1.
TEST(NativeHostile, DeepNestingInEveryNativeFormatNamesTheLimit) {
  const std::string lists = std::string(100'000, '[');
  std::string object_text;
  for (int i = 0; i < 100'000; ++i) object_text += "{\"a\":";
  const std::string objects = object_text;
  const struct {
    BreakerLibrary library;
    const char* file;
    std::string prefix;
  } formats[] = {
      {BreakerLibrary::opossum, "opossum.json", "{\"resetTimeout\": "},
      {BreakerLibrary::cockatiel, "cockatiel.json", "{\"halfOpenAfter\": "},
      {BreakerLibrary::polly, "appsettings.json", "{\"FailureRatio\": "},
      {BreakerLibrary::gobreaker, "gobreaker.yaml", "{\"MaxRequests\": "},
      {BreakerLibrary::envoy, "cluster.yaml", "{\"outlier_detection\": "},
      {BreakerLibrary::resilience4j, "application.yml", "{\"resilience4j\": "},
  };
  for (const auto& f : formats) {
    for (const std::string* deep : {&lists, &objects}) {
      for (const std::string& text : {*deep, f.prefix + *deep}) {
        const LoadError e = nativeErrorOf(text, f.file, f.library);
        EXPECT_EQ(e.message(), "maps and lists are nested deeper than 64 levels") << f.file;
        EXPECT_EQ(e.line(), 1) << f.file;
      }
    }
  }
  // Block style, a key a line deeper each time.
  std::string block = "resilience4j:\n";
  for (int i = 1; i < 1'000; ++i) block += std::string(2 * i, ' ') + "a:\n";
  EXPECT_EQ(nativeErrorOf(block, "application.yml").message(),
            "maps and lists are nested deeper than 64 levels");
}

std::string goSettings(const std::string& field) {
  return "package p\n\nimport \"github.com/sony/gobreaker/v2\"\n\nvar s = gobreaker.Settings{\n" +
         field + "\n}\n";
}

TEST(NativeHostile, DeepGoNamesTheLimit) {
  // Balanced, so that the literal closes and the expression is read.
  const auto parens = [](const std::string& inner) {
    return std::string(100'000, '(') + inner + std::string(100'000, ')');
  };
  const LoadError duration = nativeErrorOf(goSettings("\tTimeout: " + parens("1") + ","), "b.go");
  EXPECT_EQ(duration.message(), "Timeout: the expression is nested more than 64 deep");
  EXPECT_EQ(duration.line(), 6);
  EXPECT_EQ(duration.column(), 2 + 9 + 64);  // the 65th parenthesis
  const std::string trip = "\tReadyToTrip: func(c gobreaker.Counts) bool { return ";
  const LoadError nots =
      nativeErrorOf(goSettings(trip + std::string(100'000, '!') + "true },"), "b.go");
  EXPECT_EQ(nots.message(), "the expression is nested more than 64 deep");
  EXPECT_EQ(nots.line(), 6);
  const LoadError deep = nativeErrorOf(goSettings(trip + parens("c.Requests") + " > 1 },"), "b.go");
  EXPECT_EQ(deep.message(), "the expression is nested more than 64 deep");
  const LoadError boolean =
      nativeErrorOf(goSettings(trip + parens("c.Requests > 1") + " },"), "b.go");
  EXPECT_EQ(boolean.message(), "the expression is nested more than 64 deep");
  // Braces that never close, and braces that do, in a field BreakerLab does not read.
  EXPECT_EQ(nativeErrorOf(goSettings("\tX: " + std::string(100'000, '{')), "b.go").message(),
            "'{' is never closed");
  const NativeConfig closed = readNative(
      goSettings("\tX: " + std::string(100'000, '{') + std::string(100'000, '}') + ","), "b.go");
  EXPECT_FALSE(closed.notes.empty());
}

TEST(NativeHostile, LongGoIsReadInLinearTimeOrRefused) {
  // Nested const blocks were each scanned to their end; the constants' map was copied for each.
  std::string nested;
  for (int i = 0; i < 50'000; ++i) nested += "const (\n";
  const std::string settings = goSettings("\tTimeout: 5 * time.Second,");
  EXPECT_EQ(readNative(nested + std::string(50'000, ')') + "\n" + settings, "b.go")
                .native.gobreaker.timeout,
            5 * kSecond);
  const LoadError never = nativeErrorOf(nested + settings, "b.go");
  EXPECT_EQ(never.message(), "'(' is never closed");
  EXPECT_EQ(never.line(), 1);
  std::string constants;
  for (int i = 0; i < 50'000; ++i)
    constants += "const c" + std::to_string(i) + " = " + std::to_string(i) + " * time.Second\n";
  EXPECT_EQ(readNative(constants + goSettings("\tTimeout: c7,"), "b.go").native.gobreaker.timeout,
            7 * kSecond);
  // Nested switches on status.Code were each read to the end.
  std::string switches;
  for (int i = 0; i < 20'000; ++i) switches += "switch status.Code(err) {\n";
  switches += std::string(20'000, '}') + "\n";
  EXPECT_EQ(readNative(switches + settings, "b.go").native.gobreaker.timeout, 5 * kSecond);
  // A million tokens is more than any settings file; 50 bytes a token, before this limit.
  std::string tokens;
  for (int i = 0; i < 600'000; ++i) tokens += "a b ";
  const LoadError many = nativeErrorOf(tokens + settings, "b.go");
  EXPECT_EQ(many.message(),
            "more than 1000000 tokens: more Go than a file of breaker settings holds");
  EXPECT_EQ(many.line(), 1);
}

TEST(NativeHostile, YamlOfCommentsIsNotAnEmptyFile) {
  EXPECT_EQ(nativeErrorOf("# only a comment\n", "application.yml", BreakerLibrary::resilience4j)
                .message(),
            "the file holds no YAML value (only comments or directives)");
  EXPECT_EQ(nativeErrorOf("\n", "application.yml", BreakerLibrary::resilience4j).message(),
            "the file is empty");
}

}  // namespace
}  // namespace breakerlab
