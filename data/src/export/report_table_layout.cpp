// The metrics table's columns and its split into tables, from the widths of its text alone.
#include "breakerlab/data/report_table_layout.h"

#include <algorithm>
#include <limits>

namespace breakerlab {

namespace {

// UTF-8 sequences, not bytes: "Δ" and "→" are one character each.
std::size_t codePointCount(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }));
}

double styleFactor(TableTextStyle style) {
  switch (style) {
    case TableTextStyle::bold:
      return kBoldTextWidth;
    case TableTextStyle::metric_name:
      return kMetricNameTextWidth;
    case TableTextStyle::body:
      break;
  }
  return 1.0;
}

// A column's narrowest (its widest word or unbroken cell) and natural (every cell on one line)
// widths, padding included.
struct ColumnExtent {
  double least = 0;
  double natural = 0;
  void holdWrapped(std::string_view text, TableTextStyle style) {
    least = std::max(least, widestWordWidth(text, style) + kTableCellPadding);
    natural = std::max(natural, tableTextWidth(text, style) + kTableCellPadding);
  }
  void holdUnbroken(std::string_view text, TableTextStyle style) {
    const double width = tableTextWidth(text, style) + kTableCellPadding;
    least = std::max(least, width);
    natural = std::max(natural, width);
  }
};

// The configs after the deployed one, in order, in groups whose narrowest columns fit `room`,
// at most `most_per_group` to a group; a config too wide for any room gets a group of its own.
std::vector<std::vector<std::size_t>> groupConfigs(const std::vector<double>& config_least,
                                                   double room, std::size_t most_per_group) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> group;
  double used = 0;
  for (std::size_t i = 1; i < config_least.size(); ++i) {
    if (!group.empty() && (used + config_least[i] > room || group.size() == most_per_group)) {
      groups.push_back(std::move(group));
      group.clear();
      used = 0;
    }
    group.push_back(i);
    used += config_least[i];
  }
  if (!group.empty()) groups.push_back(std::move(group));
  return groups;
}

}  // namespace

double tableTextWidth(std::string_view text, TableTextStyle style) {
  return static_cast<double>(codePointCount(text)) * styleFactor(style);
}

double widestWordWidth(std::string_view text, TableTextStyle style) {
  double widest = 0;
  while (!text.empty()) {
    // A piece ends at a space, which goes, or after a hyphen, which stays on its line.
    const std::size_t end = text.find_first_of(" -");
    if (end == std::string_view::npos) return std::max(widest, tableTextWidth(text, style));
    const std::size_t kept = text[end] == '-' ? end + 1 : end;
    widest = std::max(widest, tableTextWidth(text.substr(0, kept), style));
    text.remove_prefix(end + 1);
  }
  return widest;
}

std::vector<MetricsTablePart> layoutMetricsTable(const MetricsTableText& table, double page_width) {
  const std::size_t configs = table.config_titles.size();
  if (configs == 0) return {};

  ColumnExtent name;
  name.holdWrapped("Metric", TableTextStyle::bold);
  std::vector<ColumnExtent> values(configs), deltas(configs);
  for (std::size_t i = 0; i < configs; ++i) {
    values[i].holdWrapped(table.config_titles[i], TableTextStyle::bold);
    if (i > 0) deltas[i].holdUnbroken("\u0394", TableTextStyle::bold);
  }
  for (const MetricsTableText::Row& row : table.rows) {
    name.holdWrapped(row.label, TableTextStyle::body);
    name.holdUnbroken(row.name, TableTextStyle::metric_name);
    for (std::size_t i = 0; i < std::min(configs, row.values.size()); ++i)
      values[i].holdUnbroken(row.values[i], TableTextStyle::body);
    for (std::size_t i = 1; i < std::min(configs, row.deltas.size()); ++i)
      deltas[i].holdUnbroken(row.deltas[i], TableTextStyle::body);
  }

  // The narrowest each config's columns can be: its value, and its Δ after the first.
  std::vector<double> config_least(configs);
  for (std::size_t i = 0; i < configs; ++i) config_least[i] = values[i].least + deltas[i].least;

  // The name column whole up to its share of the page; at its widest word only when that share
  // leaves some config no room beside the deployed one, since names on more lines beat a
  // table per config.
  double name_width = std::min(name.natural, std::max(name.least, kNameShareOfPage * page_width));
  double widest_config = 0;
  for (std::size_t i = 1; i < configs; ++i)
    widest_config = std::max(widest_config, config_least[i]);
  if (configs > 1 && name_width + config_least[0] + widest_config > page_width)
    name_width = name.least;
  const double room = page_width - name_width - config_least[0];

  // As few tables as hold the configs, then the configs shared out evenly between that many
  // (5 beside the deployed with room for 4: 3 and 2, not 4 and 1).
  std::vector<std::vector<std::size_t>> groups =
      groupConfigs(config_least, room, std::numeric_limits<std::size_t>::max());
  if (groups.size() > 1) {
    const std::size_t most = (configs - 1 + groups.size() - 1) / groups.size();
    std::vector<std::vector<std::size_t>> even = groupConfigs(config_least, room, most);
    if (even.size() == groups.size()) groups = std::move(even);
  }
  if (groups.empty()) groups.emplace_back();  // the deployed config alone

  std::vector<MetricsTablePart> parts;
  for (const std::vector<std::size_t>& group : groups) {
    MetricsTablePart part;
    part.configs.push_back(0);
    part.configs.insert(part.configs.end(), group.begin(), group.end());
    part.name_width = name_width;
    double used = name_width;
    for (std::size_t i : part.configs) {
      part.value_widths.push_back(values[i].least);
      part.delta_widths.push_back(deltas[i].least);
      used += values[i].least + deltas[i].least;
    }
    // What the page has left: the names on one line first, then the titles.
    double spare = std::max(0.0, page_width - used);
    const double name_growth = std::min(spare, std::max(0.0, name.natural - part.name_width));
    part.name_width += name_growth;
    spare -= name_growth;
    for (std::size_t k = 0; k < part.configs.size(); ++k) {
      const ColumnExtent& value = values[part.configs[k]];
      const double growth = std::min(spare, value.natural - value.least);
      part.value_widths[k] += growth;
      spare -= growth;
    }
    parts.push_back(std::move(part));
  }
  return parts;
}

}  // namespace breakerlab
