#include <gtest/gtest.h>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/values.h"

namespace breakerlab {
namespace {

TEST(Values, DurationsCarryUnits) {
  EXPECT_EQ(parseDuration("800ms"), 800 * kMillisecond);
  EXPECT_EQ(parseDuration("1.5s"), 1'500 * kMillisecond);
  EXPECT_EQ(parseDuration("2m"), 120 * kSecond);
  EXPECT_EQ(parseDuration("250us"), 250);
  EXPECT_EQ(parseDuration("0s"), 0);
  EXPECT_EQ(parseDuration("0.1s"), 100 * kMillisecond);
  EXPECT_EQ(parseDuration("1e3s"), 1000 * kSecond);
}

TEST(Values, BadDurationsSayWhatWasExpected) {
  std::string expected;
  EXPECT_FALSE(parseDuration("2", &expected));
  EXPECT_NE(expected.find("with a unit (us, ms, s, m)"), std::string::npos) << expected;
  EXPECT_FALSE(parseDuration("5h", &expected));
  EXPECT_NE(expected.find("not 'h'"), std::string::npos) << expected;
  EXPECT_FALSE(parseDuration("-1s", &expected));
  EXPECT_NE(expected.find("non-negative"), std::string::npos) << expected;
  EXPECT_FALSE(parseDuration("2000000000s", &expected));
  EXPECT_NE(expected.find("at most"), std::string::npos) << expected;
  for (const char* bad : {"", "ms", "s", "1.5 s", "+1s", "nans", "infs", "1,5s", "0x10s"})
    EXPECT_FALSE(parseDuration(bad)) << bad;
}

TEST(Values, TimePointsAreSecondsOrDurations) {
  EXPECT_EQ(parseTimePoint("11"), 11 * kSecond);
  EXPECT_EQ(parseTimePoint("0.5"), 500 * kMillisecond);
  EXPECT_EQ(parseTimePoint("11s"), 11 * kSecond);
  EXPECT_EQ(parseTimePoint("800ms"), 800 * kMillisecond);
  EXPECT_EQ(parseTimePoint("-2s"), -2 * kSecond);
  EXPECT_FALSE(parseTimePoint("eleven"));
  EXPECT_FALSE(parseTimePoint("11 s"));
}

TEST(Values, PercentagesNeedTheSign) {
  EXPECT_EQ(parsePercent("50%"), 50.0);
  EXPECT_EQ(parsePercent("12.5%"), 12.5);
  EXPECT_EQ(parsePercent("0%"), 0.0);
  EXPECT_EQ(parsePercent("100%"), 100.0);
  std::string expected;
  EXPECT_FALSE(parsePercent("50", &expected));
  EXPECT_NE(expected.find("with the % sign"), std::string::npos) << expected;
  EXPECT_FALSE(parsePercent("150%", &expected));
  EXPECT_NE(expected.find("from 0% to 100%"), std::string::npos) << expected;
  EXPECT_FALSE(parsePercent("-1%"));
  EXPECT_FALSE(parsePercent("%"));
}

TEST(Values, CanonicalFormsParseBack) {
  EXPECT_EQ(formatDuration(800 * kMillisecond), "800ms");
  EXPECT_EQ(formatDuration(20 * kSecond), "20s");
  EXPECT_EQ(formatDuration(0), "0s");
  EXPECT_EQ(formatDuration(1500), "1500us");
  EXPECT_EQ(formatPercent(50), "50%");
  EXPECT_EQ(formatPercent(12.5), "12.5%");
  EXPECT_EQ(formatNumber(1.0), "1");
  EXPECT_EQ(formatSeconds(11 * kSecond), "11.0");
  EXPECT_EQ(formatSeconds(250 * kMillisecond), "0.25");
  for (Micros d : {Micros{0}, Micros{1}, Micros{999}, kMillisecond, 1234567 * Micros{1},
                   3 * kSecond, 90 * kSecond, kMaxDuration})
    EXPECT_EQ(parseDuration(formatDuration(d)), d) << d;
  for (double p : {0.0, 1.0 / 3.0 * 100, 50.0, 99.999, 100.0, 1e-7})
    EXPECT_EQ(parsePercent(formatPercent(p)), p) << p;
}

TEST(LoadErrorTest, WhatNamesFileLineAndColumn) {
  EXPECT_STREQ(LoadError("inc.yaml", 12, 14, "bad").what(), "inc.yaml:12:14: bad");
  EXPECT_STREQ(LoadError("inc.yaml", 12, 0, "bad").what(), "inc.yaml:12: bad");
  EXPECT_STREQ(LoadError("inc.yaml", 0, 0, "bad").what(), "inc.yaml: bad");
  const LoadError e("f", 3, 4, "msg");
  EXPECT_EQ(e.file(), "f");
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 4);
  EXPECT_EQ(e.message(), "msg");
}

}  // namespace
}  // namespace breakerlab
