#pragma once
// How the report's metrics table fits the page's width (issue #33: with three configs its name
// column was one character wide and the names broke letter by letter). The name column is never
// narrower than its widest word, so a name wraps between words and never inside one (a metric's
// name such as time_to_close_after_recovery_s is one word); each config's value and Δ columns are
// as narrow as their widest cell, which never wraps; the configs that do not fit beside the
// deployed one go into further tables, each starting with the deployed config, the baseline of
// every Δ. Pure: widths are estimated from the text, in characters of the report's body text, the
// unit the page's width is given in; nothing is rendered.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace breakerlab {

// How a cell's text is set: the body's proportional font, its bold (headers), or the small
// monospace of a metric's name under its label.
enum class TableTextStyle { body, bold, metric_name };

// How wide `text` is on one line, in characters of the body text (a UTF-8 sequence is one).
double tableTextWidth(std::string_view text, TableTextStyle style);
// The widest of its words: the narrowest a wrapped cell can be. Words end at spaces and after
// hyphens, where renderers break lines too ("What-if early-probe": "What-", "if", "early-",
// "probe"); a metric's name, in underscores, is one word.
double widestWordWidth(std::string_view text, TableTextStyle style);

// The metrics table's text, as the report shows it.
struct MetricsTableText {
  std::vector<std::string> config_titles;  // the deployed config's first
  struct Row {
    std::string label;                // "Cached while healthy": wraps between words
    std::string name;                 // "cached_while_healthy_s": one word
    std::vector<std::string> values;  // one per config, never wrapped
    std::vector<std::string> deltas;  // one per config, the deployed config's empty
  };
  std::vector<Row> rows;
};

// One table of the metrics: its configs and its columns' widths, in the page width's unit, each
// with its cell's padding. A table is as wide as its text needs, never wider than the page unless
// the narrowest its columns can be is wider (a title word or a value wider than the page leaves
// no choice).
struct MetricsTablePart {
  std::vector<std::size_t> configs;  // indices into config_titles: 0, then those beside it
  double name_width = 0;
  std::vector<double> value_widths;  // per config of the part
  std::vector<double> delta_widths;  // per config of the part; 0 for the deployed (no Δ column)
};

// The tables the metrics need on a page `page_width` characters wide: as few as hold every
// config with the name column at its natural width (up to kNameShareOfPage of the page) or, when
// that leaves no room for one more config, at its widest word; the configs shared out evenly
// between them, in order.
std::vector<MetricsTablePart> layoutMetricsTable(const MetricsTableText& table, double page_width);

// The share of the page the name column keeps before a config goes to another table.
inline constexpr double kNameShareOfPage = 0.35;
// What a cell adds to its text's width: cellpadding="3" on each side and the borders, in
// characters of the body text.
inline constexpr double kTableCellPadding = 1.5;
// The widths of bold header text and of the metric names' 8 pt monospace against the 10 pt body
// text, a character of which is one: from the fonts' advance widths (DejaVu Sans Bold on config
// titles 1.06, DejaVu Sans Mono on metric names 0.90, against DejaVu Sans on a metrics row),
// rounded up where a narrow estimate would wrap a word the layout meant to keep.
inline constexpr double kBoldTextWidth = 1.1;
inline constexpr double kMetricNameTextWidth = 0.9;

}  // namespace breakerlab
