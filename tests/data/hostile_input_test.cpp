// Inputs built to hurt: special files, huge files and fields, bytes that are not UTF-8, deep
// nesting, quotes left open. Each must end in a short LoadError that says where and why, fast.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "breakerlab/data/calls_csv.h"
#include "breakerlab/data/config_io.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/otlp_import.h"
#include "breakerlab/data/output_file.h"
#include "breakerlab/data/prometheus_import.h"
#include "breakerlab/data/request_log.h"
#include "test_support.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;

// Longest message a hostile input may produce: the position, the reason with what was expected
// (up to about 150 characters) and at most 80 characters of the input, twice for a --set (the
// assignment and its value).
constexpr std::size_t kMaxMessageChars = 260;

class HostileFile : public test::ScratchDirTest {};

// Runs `f`, which must throw LoadError (nothing here may block or read much: a hang meets ctest's
// timeout; how fast the refusals come is measured in tests/bench/import_bench.cpp, not here).
LoadError quickLoadError(const std::function<void()>& f) {
  std::optional<LoadError> error = test::loadErrorOf(f);
  if (!error) return LoadError("(none)", 0, 0, "no error");
  EXPECT_LE(std::string(error->what()).size(), kMaxMessageChars) << error->what();
  return *error;
}

TEST_F(HostileFile, FifoIsRefusedWithoutBlocking) {
  const fs::path fifo = dir_ / "incident.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // No writer ever opens it: a blocking open would wait forever.
  EXPECT_NE(quickLoadError([&] { readTextFile(fifo); }).message().find("a FIFO"),
            std::string::npos);
  EXPECT_NE(quickLoadError([&] { loadIncident(fifo); }).message().find("not a regular file"),
            std::string::npos);
  EXPECT_NE(quickLoadError([&] { CallLogReader reader(fifo); }).message().find("a FIFO"),
            std::string::npos);
}

TEST_F(HostileFile, CharacterDeviceIsRefused) {
  const LoadError e = quickLoadError([&] { loadIncident("/dev/zero"); });
  EXPECT_EQ(e.file(), "/dev/zero");
  EXPECT_EQ(e.message(), "cannot read: a character device, not a regular file");
  EXPECT_NE(quickLoadError([&] { loadConfig("/dev/zero"); }).message().find("character device"),
            std::string::npos);
  EXPECT_NE(
      quickLoadError([&] { CallLogReader reader("/dev/zero"); }).message().find("character device"),
      std::string::npos);
}

TEST_F(HostileFile, DirectoryIsRefused) {
  const LoadError e = quickLoadError([&] { loadIncident(dir_); });
  EXPECT_EQ(e.message(), "cannot read: Is a directory");
  EXPECT_NE(quickLoadError([&] { CallLogReader reader(dir_); }).message().find("directory"),
            std::string::npos);
}

TEST_F(HostileFile, OversizeFileIsRefusedBeforeReading) {
  // A sparse file of 1 TiB: reading it would take minutes and the memory of a large machine.
  const fs::path huge = dir_ / "huge.yaml";
  { std::ofstream(huge) << "format: breakerlab/1\n"; }
  fs::resize_file(huge, 1ull << 40);
  const LoadError e = quickLoadError([&] { loadIncident(huge); });
  EXPECT_EQ(e.message(), "cannot read: the file is 1048576 MiB, larger than the limit of 64 MiB");
  EXPECT_NE(quickLoadError([&] { loadConfig(huge); }).message().find("larger than the limit"),
            std::string::npos);
}

TEST_F(HostileFile, LimitIsTheDocumentedOne) {
  const fs::path file = dir_ / "small.yaml";
  { std::ofstream(file) << std::string(100, 'x'); }
  EXPECT_EQ(readTextFile(file, 100).size(), 100u);
  EXPECT_EQ(quickLoadError([&] { readTextFile(file, 99); }).message(),
            "cannot read: the file is 100 bytes, larger than the limit of 99 bytes");
  EXPECT_EQ(kMaxDocumentBytes, 64ull << 20);
}

TEST_F(HostileFile, UnwritableOutputIsALoadError) {
  // The CLI answers a LoadError with exit 2: a bad -o path is the user's input, not a bug.
  const fs::path file = dir_ / "missing-dir" / "x.yaml";
  const LoadError e = quickLoadError([&] { writeOutputFile(file, "a"); });
  EXPECT_EQ(e.file(), file.string());
  EXPECT_NE(e.message().find("No such file or directory"), std::string::npos) << e.what();
}

TEST(HostileText, InvalidUtf8InATitleHasItsPosition) {
  std::string text = test::pricingText();
  const test::TextPosition title = test::positionOf(text, "title: ");
  text = test::replaceFirst(text, "title: ", "title: caf\xff ");
  const LoadError e = quickLoadError([&] { parseIncident(text, "bad.yaml"); });
  EXPECT_EQ(e.line(), title.line);
  EXPECT_EQ(e.column(), title.column + 10);  // after "title: caf"
  EXPECT_EQ(e.message(), "not UTF-8 text (byte 0xFF)");
}

TEST(HostileText, TruncatedUtf8SequenceIsNamed) {
  const LoadError e =
      quickLoadError([&] { parseIncident("format: breakerlab/1\nid: \xc3", "t.yaml"); });
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 5);
  EXPECT_EQ(e.message(), "not UTF-8 text (byte 0xC3)");
}

TEST(HostileText, TenMegabyteCsvFieldIsClipped) {
  const std::string field(10'000'000, 'x');
  for (const std::string& text :
       {"0.0,0.010,success\n1.0," + field + ",success\n", "0.0,0.010," + field + "\n"}) {
    const LoadError e = quickLoadError([&] { parseCallsCsv(text, "calls.csv"); });
    EXPECT_GT(e.line(), 0) << e.what();
    EXPECT_EQ(std::string(e.what()).find(std::string(100, 'x')), std::string::npos) << e.what();
  }
}

TEST_F(HostileFile, TenMegabyteCsvLineIsRefusedByTheReader) {
  const fs::path csv = dir_ / "calls.csv";
  { std::ofstream(csv) << "0.0,0.010,success\n0.5," << std::string(10'000'000, '9') << ",x\n"; }
  CallLogReader reader(csv);
  LoggedCall call;
  EXPECT_TRUE(reader.next(call));
  const LoadError e = quickLoadError([&] { reader.next(call); });
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.message(), "line longer than 4096 bytes");
}

TEST(HostileText, DeepNestingNamesTheLimit) {
  std::string block = "format: breakerlab/1\nid: x\ntraffic:\n";
  for (int i = 0; i < 10'000; ++i) block += std::string(2 * (i + 1), ' ') + "a:\n";
  std::string flow = "format: breakerlab/1\nid: x\ntraffic: ";
  for (int i = 0; i < 10'000; ++i) flow += "{a: ";
  std::string lists = "format: breakerlab/1\nid: x\ntraffic: " + std::string(10'000, '[');
  for (const std::string* text : {&block, &flow, &lists}) {
    const LoadError e = quickLoadError([&] { parseIncident(*text, "deep.yaml"); });
    EXPECT_EQ(e.message(), "maps and lists are nested deeper than 64 levels");
    EXPECT_GE(e.line(), 3);
  }
  const LoadError set =
      quickLoadError([&] { applyOverrides(Config{}, {"breaker=" + std::string(10'000, '[')}); });
  EXPECT_NE(set.message().find("nested deeper than 64 levels"), std::string::npos) << set.what();
}

// Ten lists, each of ten aliases of the one before: 10^9 values to a reader that walks them.
std::string billionLaughs(const std::string& indent) {
  std::string text = indent + "a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n";
  for (int i = 1; i < 10; ++i) {
    text += indent + "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) text += (k ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  return text;
}

TEST(HostileText, AliasExpansionIsBounded) {
  const std::string incident = test::pricingText() + "\nx:\n" + billionLaughs("  ");
  const LoadError e = quickLoadError([&] { parseIncident(incident, "laughs.yaml"); });
  EXPECT_EQ(e.message(), "aliases expand to more than 1000000 values");
  EXPECT_GT(e.line(), 0);
  // In a what-if's set:, whose nodes the reader collects before anything else looks at them.
  std::string what_if =
      test::replaceFirst(test::pricingText(), "what_ifs:\n",
                         "what_ifs:\n  - name: laughs\n    set:\n" + billionLaughs("      "));
  EXPECT_EQ(quickLoadError([&] { parseIncident(what_if, "laughs.yaml"); }).message(),
            "aliases expand to more than 1000000 values");
  // A --set value in flow style.
  std::string flow = "breaker.window={a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]";
  for (int i = 1; i < 10; ++i) {
    flow += ", a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) flow += (k ? ", *a" : "*a") + std::to_string(i - 1);
    flow += "]";
  }
  flow += "}";
  EXPECT_NE(quickLoadError([&] { applyOverrides(Config{}, {flow}); })
                .message()
                .find("aliases expand to more than 1000000 values"),
            std::string::npos);
}

TEST(HostileText, HugeListIsRefusedBeforeItIsBuilt) {
  // yaml-cpp would take about 450 bytes and 5 us per value: 2 million of them, a gigabyte.
  std::string text = "format: breakerlab/1\nid: x\ntraffic:\n  arrivals: recorded\n  times: [";
  for (int i = 0; i < 2'000'000; ++i) text += "1,";
  text += "1]\n";
  const LoadError e = quickLoadError([&] { parseIncident(text, "times.yaml"); });
  EXPECT_EQ(e.message(),
            "more than 1000000 values (keys, scalars, maps and lists) in one document");
  EXPECT_EQ(e.line(), 5);
}

TEST(HostileText, UnclosedQuoteIsReportedWhereItOpens) {
  const std::string text =
      "format: breakerlab/1\n"
      "id: \"inc-1\n"
      "title: t\n"
      "traffic: {rate: [{from: 0, to: 60, rps: 1}]}\n";
  const LoadError e = quickLoadError([&] { parseIncident(text, "q.yaml"); });
  EXPECT_EQ(e.line(), 2);
  EXPECT_EQ(e.column(), 5);
  EXPECT_NE(e.message().find("unclosed quote"), std::string::npos) << e.what();

  const LoadError never =
      quickLoadError([&] { parseIncident("format: breakerlab/1\nid: 'x\n", "q.yaml"); });
  EXPECT_EQ(never.line(), 2);
  EXPECT_EQ(never.message(), "unclosed quote: the string that starts here is never closed");
}

TEST(HostileText, LongKeysAndValuesAreQuotedShort) {
  const std::string key(100'000, 'k');
  const LoadError e = quickLoadError(
      [&] { parseIncident("format: breakerlab/1\nid: x\n" + key + ": 1\n", "k.yaml"); });
  EXPECT_EQ(e.line(), 3);
  const LoadError set =
      quickLoadError([&] { applyOverrides(Config{}, {"timeout.attempt=" + key}); });
  EXPECT_NE(set.message().find("timeout.attempt"), std::string::npos);
}

// What the fuzzers found (scripts/fuzz.sh), each with the input that showed it.

TEST(FuzzFindings, RequestLogOutcomeStartingWithADigit) {
  // fuzz_request_log: "20~~~" went from the outcome parser to the status parser and back until
  // the stack overflowed; so did any status with text after it.
  for (const char* outcome : {"20~~~", "200 OK", "99999999999999999999"}) {
    const std::string text = std::string("start_s,duration_s,outcome\n0,0.1,") + outcome + "\n";
    const LoadError e =
        quickLoadError([&] { parseRequestLog(text, "log.csv", RequestLogFormat::csv); });
    EXPECT_EQ(e.line(), 2) << e.what();
  }
  const RequestLog log = parseRequestLog("start_s,duration_s,outcome\n0,0.1,2xx\n1,0.1,503\n",
                                         "log.csv", RequestLogFormat::csv);
  EXPECT_EQ(log.rows, 2u);
}

TEST(FuzzFindings, JsonNumberTooLargeForADouble) {
  // fuzz_prometheus: nlohmann's out_of_range for "1788E876136" escaped as an internal error.
  const std::string prometheus =
      R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{},)"
      R"("values":[[1788E876136,"1"]]}]}})";
  EXPECT_EQ(
      quickLoadError([&] { importPrometheusRange(prometheus, "m.json", Config{}); }).message(),
      "JSON: number overflow parsing '1788E876136'");
  const std::string otlp = R"({"resourceSpans":[{"scopeSpans":[{"spans":[{"x":1e999}]}]}]})";
  EXPECT_EQ(quickLoadError([&] { importOtlpTraces(otlp, "t.json", ImportOptions{}); }).message(),
            "JSON: number overflow parsing '1e999'");
}

}  // namespace
}  // namespace breakerlab
