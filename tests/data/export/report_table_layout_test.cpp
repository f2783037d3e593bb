// The metrics table's widths and its split into tables, from text alone (issue #33: with three
// configs the name column was one character wide). Widths are in characters of the body text:
// a cell adds kTableCellPadding (1.5), bold header text is 1.1 a character, the monospace
// metric names 0.9.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "breakerlab/data/report_table_layout.h"

namespace breakerlab {
namespace {

struct MetricName {
  std::string label;
  std::string name;
};

// Every row shows `value` for each config and `delta` for each after the deployed one.
MetricsTableText metricsTableOf(const std::vector<MetricName>& names,
                                const std::vector<std::string>& titles, const std::string& value,
                                const std::string& delta) {
  MetricsTableText table;
  table.config_titles = titles;
  for (const MetricName& n : names) {
    MetricsTableText::Row row{n.label, n.name, {}, {}};
    for (std::size_t i = 0; i < titles.size(); ++i) {
      row.values.push_back(value);
      row.deltas.push_back(i == 0 ? std::string() : delta);
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

const std::vector<MetricName> kShortNames = {{"Failed checkouts", "failed_checkouts"}};
// "time_to_close_after_recovery_s" is one word of 27.0 characters, padded 28.5; the labels on
// one line need 29.5.
const std::vector<MetricName> kLongNames = {
    {"Time to close after recovery", "time_to_close_after_recovery_s"},
    {"Failed checkouts", "failed_checkouts"}};

struct ExpectedTable {
  std::vector<std::size_t> configs;
  double name;
  std::vector<double> values;
  std::vector<double> deltas;
};

struct LayoutCase {
  const char* what;
  std::vector<MetricName> names;
  std::vector<std::string> titles;
  std::string value, delta;
  double page_width;
  std::vector<ExpectedTable> parts;
};

TEST(ReportTableLayout, WidthsAndTablesForNamesConfigsAndPage) {
  const std::string wide = "1,234,567,890,123,456,789";
  const LayoutCase cases[] = {
      {"two configs with room: each column as wide as its text on one line",
       kShortNames,
       {"Deployed", "Early"},
       "1,760",
       "+42",
       60,
       {{{0, 1}, 17.5, {10.3, 7.0}, {0, 4.5}}}},
      {"the deployed config alone: the names and the title on one line",
       kLongNames,
       {"Deployed config"},
       "1,760",
       "",
       80,
       {{{0}, 29.5, {18.0}, {0}}}},
      {"three configs with long titles (the issue's report): one table, the names whole, the "
       "titles wrapped between words and after hyphens where the page runs out",
       kLongNames,
       {"Deployed config", "What-if early-probe", "Tuned: knobs"},
       "1,760",
       "+42",
       80,
       {{{0, 1, 2}, 29.5, {18.0, 15.4, 8.1}, {0, 4.5, 4.5}}}},
      {"four beside the deployed with room for three: two tables of two, each with the deployed",
       kShortNames,
       {"Deployed", "A", "B", "C", "D"},
       "1,760",
       "+42",
       63,
       {{{0, 1, 2}, 17.5, {10.3, 6.5, 6.5}, {0, 4.5, 4.5}},
        {{0, 3, 4}, 17.5, {10.3, 6.5, 6.5}, {0, 4.5, 4.5}}}},
      {"five on a narrow page: a table each",
       kShortNames,
       {"Deployed", "A", "B", "C", "D", "E"},
       "1,760",
       "+42",
       40,
       {{{0, 1}, 17.5, {10.3, 6.5}, {0, 4.5}},
        {{0, 2}, 17.5, {10.3, 6.5}, {0, 4.5}},
        {{0, 3}, 17.5, {10.3, 6.5}, {0, 4.5}},
        {{0, 4}, 17.5, {10.3, 6.5}, {0, 4.5}},
        {{0, 5}, 17.5, {10.3, 6.5}, {0, 4.5}}}},
      {"a config too wide for the names on one line: the names wrap at their widest word, "
       "never inside it, and keep what the page has left",
       kLongNames,
       {"Deployed", "X"},
       wide,
       "+" + wide,
       109,
       {{{0, 1}, 28.5, {26.5, 26.5}, {0, 27.5}}}},
  };
  for (const LayoutCase& c : cases) {
    const std::vector<MetricsTablePart> parts =
        layoutMetricsTable(metricsTableOf(c.names, c.titles, c.value, c.delta), c.page_width);
    ASSERT_EQ(parts.size(), c.parts.size()) << c.what;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      const MetricsTablePart& got = parts[p];
      const ExpectedTable& want = c.parts[p];
      EXPECT_EQ(got.configs, want.configs) << c.what << ", table " << p;
      EXPECT_NEAR(got.name_width, want.name, 1e-9) << c.what << ", table " << p;
      ASSERT_EQ(got.value_widths.size(), want.values.size()) << c.what;
      ASSERT_EQ(got.delta_widths.size(), want.deltas.size()) << c.what;
      for (std::size_t k = 0; k < want.values.size(); ++k) {
        EXPECT_NEAR(got.value_widths[k], want.values[k], 1e-9) << c.what << ", column " << k;
        EXPECT_NEAR(got.delta_widths[k], want.deltas[k], 1e-9) << c.what << ", Δ column " << k;
      }
    }
  }
}

// Whatever the page, the names never break inside a word and every config is in exactly one
// table beside the deployed one; a table fits the page whenever its narrowest columns do.
TEST(ReportTableLayout, NamesKeepTheirWidestWordOnAnyPage) {
  const std::vector<std::string> titles = {"Deployed config", "What-if early-probe",
                                           "What-if short-ttl", "Tuned: open interval 12 s",
                                           "B: breaker-before-saturation"};
  const MetricsTableText table = metricsTableOf(kLongNames, titles, "14.09 s", "-12.04 s");
  double widest_word = 0;
  for (const MetricName& n : kLongNames)
    widest_word = std::max({widest_word, widestWordWidth(n.label, TableTextStyle::body),
                            tableTextWidth(n.name, TableTextStyle::metric_name)});
  for (double page = 20; page <= 200; page += 1) {
    const std::vector<MetricsTablePart> parts = layoutMetricsTable(table, page);
    std::multiset<std::size_t> shown;
    for (const MetricsTablePart& part : parts) {
      ASSERT_FALSE(part.configs.empty());
      EXPECT_EQ(part.configs.front(), 0u) << "page " << page;
      shown.insert(part.configs.begin() + 1, part.configs.end());
      EXPECT_GE(part.name_width, widest_word + kTableCellPadding) << "page " << page;
      double width = part.name_width;
      for (std::size_t k = 0; k < part.configs.size(); ++k)
        width += part.value_widths[k] + part.delta_widths[k];
      // From 61 characters on, the widest config ("B: breaker-before-saturation", 22.0 with
      // its Δ) fits beside the names' widest word (28.5) and the deployed config (10.3).
      if (page >= 61) {
        EXPECT_LE(width, page + 1e-9) << "page " << page;
      }
    }
    EXPECT_EQ(shown, (std::multiset<std::size_t>{1, 2, 3, 4})) << "page " << page;
  }
}

TEST(ReportTableLayout, TextWidths) {
  EXPECT_DOUBLE_EQ(tableTextWidth("Failed checkouts", TableTextStyle::body), 16);
  EXPECT_DOUBLE_EQ(tableTextWidth("\u0394", TableTextStyle::bold), kBoldTextWidth);
  EXPECT_DOUBLE_EQ(tableTextWidth("failed_checkouts", TableTextStyle::metric_name),
                   16 * kMetricNameTextWidth);
  EXPECT_DOUBLE_EQ(widestWordWidth("Time to close after recovery", TableTextStyle::body), 8);
  EXPECT_DOUBLE_EQ(widestWordWidth("", TableTextStyle::body), 0);
  // A hyphen ends a word and stays with it; an underscore does not.
  EXPECT_DOUBLE_EQ(widestWordWidth("What-if early-probe", TableTextStyle::body), 6);
  EXPECT_DOUBLE_EQ(widestWordWidth("breaker-before-saturation", TableTextStyle::body), 10);
  EXPECT_DOUBLE_EQ(widestWordWidth("time_to_trip_s", TableTextStyle::body), 14);
}

}  // namespace
}  // namespace breakerlab
