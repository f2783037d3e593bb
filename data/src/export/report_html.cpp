// The report as one HTML file: CSS and images inline, nothing fetched. The markup keeps to what
// QTextDocument also lays out (tables with border attributes, class selectors), so the PDF is
// the same document.
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "breakerlab/data/report.h"
#include "breakerlab/data/report_table_layout.h"

namespace breakerlab {

namespace {

constexpr std::string_view kStyle = R"(
body { font-family: sans-serif; font-size: 10pt; color: #202020; max-width: 60em; margin: 1.5em auto; }
h1 { font-size: 17pt; margin-bottom: 4pt; }
h2 { font-size: 13pt; margin-top: 18pt; margin-bottom: 4pt; border-bottom: 1px solid #b0b0b0; }
h3 { font-size: 11pt; margin-top: 10pt; margin-bottom: 3pt; }
table { border-collapse: collapse; margin-top: 3pt; margin-bottom: 6pt; }
th { background-color: #eeeeee; text-align: left; }
td.num, th.num { text-align: right; white-space: nowrap; }
th.config { text-align: right; }
h1, h2, h3 { page-break-after: avoid; break-after: avoid; }
tr, img.lanes { page-break-inside: avoid; break-inside: avoid; }
td, th { border: 1px solid #c8c8c8; }
.key { font-family: monospace; }
.name { color: #606060; font-size: 8pt; font-family: monospace; }
.pass { color: #1b7a2f; font-weight: bold; }
.fail { color: #b3261e; font-weight: bold; }
.better { color: #1b7a2f; }
.worse { color: #b3261e; }
.note { color: #505050; }
.summary { margin-top: 6pt; }
img.lanes { max-width: 100%; }
.footer { color: #808080; font-size: 8pt; margin-top: 18pt; }
)";

class Html {
 public:
  Html& raw(std::string_view s) {
    out_ += s;
    return *this;
  }
  Html& text(std::string_view s) {
    out_ += escapeHtml(s);
    return *this;
  }
  // <tag class="...">escaped text</tag>
  Html& element(std::string_view tag, std::string_view text, std::string_view cls = {}) {
    open(tag, cls);
    this->text(text);
    return close(tag);
  }
  Html& open(std::string_view tag, std::string_view cls = {}) {
    out_ += '<';
    out_ += tag;
    if (!cls.empty()) {
      out_ += " class=\"";
      out_ += cls;
      out_ += '"';
    }
    out_ += '>';
    return *this;
  }
  Html& close(std::string_view tag) {
    out_ += "</";
    out_ += tag;
    out_ += ">";
    return *this;
  }
  // A table the browser styles by CSS and QTextDocument by its attributes; `full`: the text's
  // width, for tables whose columns of numbers would otherwise run into each other.
  Html& table(bool full = false) {
    return raw(full ? "<table width=\"100%\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">"
                    : "<table border=\"1\" cellspacing=\"0\" cellpadding=\"3\">");
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
};

void checksTable(Html& h, const std::vector<ReportDocument::Check>& checks) {
  h.table(true).raw(
      "<thead><tr><th>Result</th><th>Check</th><th>Measured</th><th class=\"num\">Line</th></tr>"
      "</thead>");
  for (const auto& c : checks) {
    h.raw("<tr>").element("td", c.passed ? "PASS" : "FAIL", c.passed ? "pass" : "fail");
    h.open("td", "key").text(c.text).close("td").element("td", c.result);
    h.element("td", c.line > 0 ? std::to_string(c.line) : "", "num").raw("</tr>");
  }
  h.raw("</table>");
}

std::string_view directionClass(int direction) {
  return direction > 0 ? "num better" : direction < 0 ? "num worse" : "num";
}

// A column's width as the share of its table the layout gave it.
std::string widthShare(double width, double table_width) {
  char text[32];
  std::snprintf(text, sizeof text, " width=\"%.1f%%\"", 100.0 * width / table_width);
  return text;
}

// The metrics as one table or, when the configs do not fit the page's width side by side,
// several, each with the deployed config first (report_table_layout.h): every column as wide as
// the layout says, so that no renderer squeezes the names to a letter a line.
void metricsTables(Html& h, const ReportDocument& report, double text_width) {
  MetricsTableText text;
  text.config_titles = report.config_titles;
  for (const ReportMetric& m : report.metrics)
    text.rows.push_back({m.label, m.name, m.values, m.deltas});
  const std::vector<MetricsTablePart> parts = layoutMetricsTable(text, text_width);
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const MetricsTablePart& part = parts[p];
    if (parts.size() > 1) {
      std::string others;
      for (std::size_t k = 1; k < part.configs.size(); ++k)
        others += (k == 1                         ? ""
                   : k + 1 == part.configs.size() ? " and "
                                                  : ", ") +
                  report.config_titles[part.configs[k]];
      h.element("p",
                "Metrics " + std::to_string(p + 1) + " of " + std::to_string(parts.size()) + ": " +
                    others + " against the deployed config.",
                "note");
    }
    double table_width = part.name_width;
    for (std::size_t k = 0; k < part.configs.size(); ++k)
      table_width += part.value_widths[k] + part.delta_widths[k];
    char table_share[16];
    std::snprintf(table_share, sizeof table_share, "%.1f%%",
                  std::min(100.0, 100.0 * table_width / text_width));
    h.raw("<table width=\"")
        .raw(table_share)
        .raw("\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">");
    // Its header row in <thead>: QTextDocument repeats it on each page the table continues on.
    h.raw("<thead><tr><th" + widthShare(part.name_width, table_width) + ">Metric</th>");
    for (std::size_t k = 0; k < part.configs.size(); ++k) {
      h.raw("<th class=\"config\"" + widthShare(part.value_widths[k], table_width) + ">")
          .text(report.config_titles[part.configs[k]])
          .raw("</th>");
      if (k > 0)
        h.raw("<th class=\"num\"" + widthShare(part.delta_widths[k], table_width) + ">\u0394</th>");
    }
    h.raw("</tr></thead>\n");
    for (const ReportMetric& m : report.metrics) {
      h.raw("<tr><td>")
          .text(m.label)
          .raw("<br><span class=\"name\">")
          .text(m.name)
          .raw("</span></td>");
      for (std::size_t k = 0; k < part.configs.size(); ++k) {
        const std::size_t i = part.configs[k];
        h.element("td", m.values[i], "num");
        if (k > 0) h.element("td", m.deltas[i], directionClass(m.directions[i]));
      }
      h.raw("</tr>\n");
    }
    h.raw("</table>\n");
  }
}

}  // namespace

std::string escapeHtml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 |
                       static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kAlphabet[(v >> shift) & 63];
  }
  if (const std::size_t rest = bytes.size() - i; rest > 0) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string reportImageName(std::size_t config_index) {
  return "lanes-" + std::to_string(config_index) + ".png";
}

std::string reportHtml(const ReportDocument& report, const HtmlOptions& options) {
  Html h;
  h.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
      .text(report.title)
      .raw("</title>\n<style>")
      .raw(kStyle)
      .raw("</style>\n</head>\n<body>\n");

  h.element("h1", report.title).raw("\n");
  h.table();
  for (const auto& [name, value] : report.facts)
    h.raw("<tr>").element("th", name).element("td", value).raw("</tr>");
  h.raw("</table>\n");
  if (!report.summary.empty()) h.element("p", report.summary, "summary").raw("\n");

  h.element("h2", "Lanes").raw("\n");
  for (std::size_t i = 0; i < report.lanes.size(); ++i) {
    const auto& lanes = report.lanes[i];
    h.element("h3", lanes.title);
    if (!lanes.description.empty()) h.element("p", lanes.description, "note");
    if (lanes.png.empty()) {
      h.element("p", "(no lanes image)", "note");
      continue;
    }
    h.raw("<p><img class=\"lanes\" alt=\"").text("Lanes: " + lanes.title).raw("\" src=\"");
    if (options.images == HtmlOptions::Images::inline_png) {
      h.raw("data:image/png;base64,").raw(base64(lanes.png)).raw("\"");
    } else {
      h.text(reportImageName(i)).raw("\"");
      if (options.image_width > 0) h.raw(" width=\"" + std::to_string(options.image_width) + "\"");
    }
    h.raw("></p>\n");
  }

  h.element("h2", "Config changes against the deployed config").raw("\n");
  h.element("p", "In the terms of " + report.target + ".", "note");
  if (report.changes.empty()) h.element("p", "Only the deployed config is in this report.", "note");
  for (const auto& c : report.changes) {
    h.element("h3", c.title);
    if (c.changes.empty()) {
      h.element("p", "No setting of " + report.target + " differs from the deployed config.",
                "note");
    } else {
      h.table(true)
          .raw("<thead><tr><th>Setting</th><th>Deployed</th><th></th><th>")
          .text(c.title)
          .raw("</th></tr></thead>");
      for (const SettingChange& s : c.changes) {
        h.raw("<tr>").element("td", s.key, "key");
        h.element("td", s.before.empty() ? "(not set)" : s.before, "key").raw("<td>\u2192</td>");
        h.element("td", s.after.empty() ? "(not set)" : s.after, "key").raw("</tr>");
      }
      h.raw("</table>\n");
    }
    if (!c.newly_not_expressible.empty()) {
      h.element("p", "Changed beyond what " + report.target + " can express:", "note").raw("<ul>");
      for (const std::string& item : c.newly_not_expressible) h.element("li", item);
      h.raw("</ul>\n");
    }
  }

  h.element("h2", "Metrics").raw("\n");
  metricsTables(h, report, options.text_width);

  h.element("h2", "Calibration checks and goals").raw("\n");
  if (report.check_groups.empty() && report.goals.empty())
    h.element("p", "The incident has no calibration checks or goals.", "note");
  for (const auto& group : report.check_groups) {
    h.element("h3", group.title);
    checksTable(h, group.checks);
  }
  if (!report.goals.empty()) {
    h.element("h3", "Goals");
    h.table(true).raw("<thead><tr><th>Goal</th>");
    for (const std::string& title : report.config_titles) h.element("th", title);
    h.raw("</tr></thead>\n");
    for (const auto& goal : report.goals) {
      h.raw("<tr>").element("td", goal.text, "key");
      for (const auto& cell : goal.per_config) {
        h.raw("<td>");
        if (!cell.text.empty())
          h.element("span", cell.passed ? "met" : "NOT MET", cell.passed ? "pass" : "fail")
              .text(" (" + cell.result + ")");
        h.raw("</td>");
      }
      h.raw("</tr>\n");
    }
    h.raw("</table>\n");
    for (const std::string& verdict : report.goal_verdicts) h.element("p", verdict);
  }

  h.element("h2", "What " + report.target + " cannot express").raw("\n");
  for (const auto& n : report.not_expressible) {
    h.element("h3", n.title);
    if (n.items.empty()) {
      h.element("p", "Everything in this config is expressible in " + report.target + ".", "note");
      continue;
    }
    h.raw("<ul>");
    for (const std::string& item : n.items) h.element("li", item);
    h.raw("</ul>\n");
  }

  if (report.import_report) {
    const ImportReport& r = *report.import_report;
    h.element("h2", "Import report").raw("\n");
    h.element("p", "Imported from " + r.source + " (" + r.format + "): " +
                       std::to_string(r.count(ImportFinding::Kind::recognised)) + " recognised, " +
                       std::to_string(r.count(ImportFinding::Kind::assumed)) + " assumed, " +
                       std::to_string(r.count(ImportFinding::Kind::missing)) + " missing, " +
                       std::to_string(r.count(ImportFinding::Kind::calibrated)) + " calibrated.");
    h.table(true).raw(
        "<thead><tr><th>Kind</th><th class=\"num\">Line</th><th>What</th><th>Detail</th></tr>"
        "</thead>\n");
    for (const ImportFinding& f : r.findings) {
      h.raw("<tr>").element("td", toString(f.kind));
      h.element("td", f.line > 0 ? std::to_string(f.line) : "", "num");
      h.element("td", f.what, "key").element("td", f.detail).raw("</tr>\n");
    }
    h.raw("</table>\n");
  }

  if (!report.generator.empty()) h.element("p", "Made by " + report.generator + ".", "footer");
  h.raw("</body>\n</html>\n");
  return h.take();
}

}  // namespace breakerlab
