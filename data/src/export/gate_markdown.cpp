// The gate's report as a pull-request comment: the verdict, what changed in the config, and per
// incident the headline metrics base → head, the goals and the key moments.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "breakerlab/data/gate.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

constexpr std::string_view kRegression = "\u2717";  // ✗
constexpr std::string_view kFine = "\u2713";        // ✓
constexpr std::string_view kReported = "\u00b7";    // ·
constexpr std::string_view kMinus = "\u2212";       // −

// Text inside a table cell: a | would end the cell, a newline the row.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// `text` as inline code (a backtick inside would end it early).
std::string code(std::string_view text) {
  std::string inner = cell(text);
  std::replace(inner.begin(), inner.end(), '`', '\'');
  return "`" + inner + "`";
}

// 113284 -> "113,284"; 62914.559 -> "62,914.56" (at most `decimals`, trailing zeros dropped).
std::string grouped(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::abs(value));
  std::string digits = buf;
  std::string fraction;
  if (const std::size_t dot = digits.find('.'); dot != std::string::npos) {
    fraction = digits.substr(dot);
    digits.resize(dot);
    while (!fraction.empty() && (fraction.back() == '0' || fraction.back() == '.'))
      fraction.pop_back();
  }
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  const bool zero = out.find_first_not_of("0,") == std::string::npos && fraction.empty();
  return (value < 0 && !zero ? std::string(kMinus) : std::string()) + out + fraction;
}

std::string withUnit(const MetricInfo& metric, std::string number) {
  if (metric.unit.empty()) return number;
  if (metric.unit == "%" || metric.unit == "/s") return number + std::string(metric.unit);
  return number + " " + std::string(metric.unit);
}

std::string valueText(const MetricInfo& metric, const std::optional<double>& value) {
  if (!value) return "\u2014";  // —
  return withUnit(metric, grouped(*value, metric.integral ? 0 : 2));
}

std::string deltaText(const MetricComparison& m) {
  if (!m.base || !m.head) return "";
  const double d = *m.head - *m.base;
  if (m.verdict == MetricVerdict::unchanged) return "0";
  std::string number = grouped(d, m.metric->integral ? 0 : 2);
  if (d > 0) number = "+" + number;
  // A change of a share is in percentage points.
  if (m.metric->unit == "%") return number + " pp";
  return withUnit(*m.metric, number);
}

std::string_view marker(const MetricComparison& m) {
  if (m.metric->direction == MetricDirection::neutral) return kReported;
  switch (m.verdict) {
    case MetricVerdict::regression:
      return kRegression;
    case MetricVerdict::neutral:
    case MetricVerdict::one_sided:
      return kReported;
    default:
      return kFine;
  }
}

// "09:47:12 (+2,712 s)" on an incident with a wall clock, "+11.2 s" otherwise: to the second on
// the clock, a tenth in the offset, enough to read a lane by.
std::string momentText(const GateIncident& incident, Micros t) {
  const std::string offset = "+" + grouped(toSeconds(t - incident.start), 1) + " s";
  if (!incident.clock_start) return offset;
  constexpr Micros kDay = 86400 * kSecond;
  const Micros of_day = ((*incident.clock_start + t) % kDay + kDay) % kDay;
  const auto seconds = static_cast<int>(of_day / kSecond);
  char clock[16];
  std::snprintf(clock, sizeof clock, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return std::string(clock) + " (" + offset + ")";
}

std::string gateWindowText(const GateIncident& incident) {
  if (incident.clock_start)
    return formatClockTime(*incident.clock_start + incident.start) + "\u2013" +
           formatClockTime(*incident.clock_start + incident.end) + " UTC";
  return formatSeconds(incident.start) + "\u2013" + formatSeconds(incident.end) + " s";
}

std::string plural(std::size_t n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

void writeChanges(std::string& out, const std::vector<SettingChange>& changes) {
  out += "| Key | Base | Head |\n|---|---|---|\n";
  for (const SettingChange& c : changes)
    out += "| " + code(c.key) + " | " + (c.before.empty() ? "(not set)" : code(c.before)) + " | " +
           (c.after.empty() ? "(not set)" : code(c.after)) + " |\n";
}

void writeMetrics(std::string& out, const GateIncident& incident) {
  out += "| Metric | Base | Head | \u0394 | Tolerance | |\n|---|--:|--:|--:|--:|:-:|\n";
  for (const MetricComparison& m : incident.metrics) {
    // A metric neither run defines (no breaker, no pool) would be a row of dashes.
    if (!m.base && !m.head) continue;
    const bool gated = m.metric->direction != MetricDirection::neutral;
    out += "| " + cell(m.metric->label) + " | " + valueText(*m.metric, m.base) + " | " +
           valueText(*m.metric, m.head) + " | " + deltaText(m) + " | " +
           (gated ? toleranceText(*m.metric, m.tolerance) : "reported") + " | " +
           std::string(marker(m)) + " |\n";
  }
}

void writeGoals(std::string& out, const GateIncident& incident) {
  if (incident.goals.empty()) {
    out += "The incident states no goals.\n";
    return;
  }
  std::size_t base_met = 0, head_met = 0;
  for (const GoalRow& g : incident.goals) {
    base_met += g.base_met ? 1 : 0;
    head_met += g.head_met ? 1 : 0;
  }
  out += "**Goals**: " + std::to_string(head_met) + " of " + std::to_string(incident.goals.size()) +
         " met on head (base: " + std::to_string(base_met) + ")\n\n";
  out += "| Goal | Base | Head | |\n|---|---|---|:-:|\n";
  for (const GoalRow& g : incident.goals) {
    const auto met = [](bool yes, const std::string& actual) {
      return std::string(yes ? "met" : "**not met**") + " (" + cell(actual) + ")";
    };
    const std::string_view mark = g.regression() ? kRegression : g.head_met ? kFine : kReported;
    out += "| " + code(g.text) + " | " + met(g.base_met, g.base_actual) + " | " +
           met(g.head_met, g.head_actual) + " | " + std::string(mark) + " |\n";
  }
}

void writeMoments(std::string& out, const GateIncident& incident) {
  struct Row {
    std::string name;
    std::string base;
    std::string head;
  };
  std::vector<Row> rows;
  const KeyMoments& b = incident.base_moments;
  const KeyMoments& h = incident.head_moments;
  const auto at = [&](const std::optional<Micros>& t, bool applies, std::string_view none) {
    if (!applies) return std::string(none);
    return t ? momentText(incident, *t) : std::string("never");
  };
  rows.push_back({"First failed checkout", at(b.first_failed_checkout, true, ""),
                  at(h.first_failed_checkout, true, "")});
  if (b.has_breaker || h.has_breaker) {
    const auto trip = [&](const KeyMoments& k) {
      std::string text = at(k.first_trip, k.has_breaker, "no breaker");
      if (k.time_to_trip)
        text += ", " + grouped(*k.time_to_trip, 1) + " s after the first failed call";
      if (k.first_trip) text += "; " + plural(k.trips, "trip", "trips");
      return text;
    };
    rows.push_back({"Breaker first opened", trip(b), trip(h)});
  }
  if (b.has_pool || h.has_pool)
    rows.push_back({"Connection pool first full", at(b.pool_first_full, b.has_pool, "no limit"),
                    at(h.pool_first_full, h.has_pool, "no limit")});
  if (b.has_ceiling || h.has_ceiling)
    rows.push_back({"Dependency first saturated (99% of its ceiling)",
                    at(b.dependency_first_saturated, b.has_ceiling, "no ceiling"),
                    at(h.dependency_first_saturated, h.has_ceiling, "no ceiling")});
  out += "**Key moments**\n\n| | Base | Head |\n|---|---|---|\n";
  for (const Row& r : rows) out += "| " + r.name + " | " + r.base + " | " + r.head + " |\n";
}

bool sameChangesEverywhere(const GateReport& report) {
  for (const GateIncident& i : report.incidents) {
    const auto& first = report.incidents.front().config_changes;
    if (i.config_changes.size() != first.size()) return false;
    for (std::size_t k = 0; k < first.size(); ++k)
      if (i.config_changes[k].key != first[k].key ||
          i.config_changes[k].before != first[k].before ||
          i.config_changes[k].after != first[k].after)
        return false;
  }
  return true;
}

}  // namespace

std::string gateMarkdown(const GateReport& report) {
  std::string out;
  const std::size_t regressions = report.regressions();
  const bool changed = report.configChanged();
  // Lets a CI job find its own earlier comment and replace it.
  out += "<!-- breakerlab-gate -->\n";
  out += std::string("## ") + (report.passed() ? "\u2705" : "\u274c") + " BreakerLab gate: **" +
         (report.passed() ? "PASS" : "FAIL") + "** \u00b7 " +
         plural(report.incidents.size(), "incident", "incidents") + " \u00b7 " +
         plural(regressions, "regression", "regressions") +
         (changed ? "" : " \u00b7 no config change") + "\n\n";
  out += "- Base: " + code(report.base.file) + " \u00b7 " + cell(report.base.format) + "\n";
  out += "- Head: " + code(report.head.file) + " \u00b7 " + cell(report.head.format) + "\n\n";
  out +=
      "Each is laid over every incident's deployed config: what a file states replaces the "
      "incident's, the rest stays as the incident had it.\n\n";

  const bool shared = !report.incidents.empty() && sameChangesEverywhere(report);
  out += "### What changed\n\n";
  if (!changed) {
    out +=
        "No config change: base and head give every incident the same config, so every "
        "replay is the same.\n\n";
  } else if (shared) {
    writeChanges(out, report.incidents.front().config_changes);
    out += "\n";
  } else {
    out +=
        "The change differs by incident (a key one file states and the other leaves to the "
        "incident); each incident lists its own.\n\n";
  }

  for (const GateIncident& i : report.incidents) {
    const std::size_t n = i.regressions();
    out += "### " + (n == 0 ? std::string(kFine) : std::string(kRegression)) + " " + cell(i.id) +
           (i.title.empty() ? "" : " \u00b7 " + cell(i.title)) + "\n\n";
    out += code(i.name) + " \u00b7 " + gateWindowText(i) + " \u00b7 " + grouped(i.checkouts, 0) +
           " checkouts \u00b7 " +
           (n == 0 ? "no regression" : plural(n, "regression", "regressions")) + "\n\n";
    if (changed && !shared) {
      if (i.config_changes.empty()) {
        out += "No config change on this incident.\n\n";
      } else {
        writeChanges(out, i.config_changes);
        out += "\n";
      }
    }
    writeMetrics(out, i);
    out += "\n";
    writeGoals(out, i);
    out += "\n";
    writeMoments(out, i);
    out += "\n";
  }

  if (!report.notes.empty()) {
    out += "<details><summary>What the config files' import noted (" +
           std::to_string(report.notes.size()) + ")</summary>\n\n";
    for (const std::string& note : report.notes) out += "- " + cell(note) + "\n";
    out += "\n</details>\n\n";
  }
  out += "<sub>" + std::string(kFine) + " better, unchanged or within tolerance \u00b7 " +
         std::string(kRegression) + " regression: a goal met on base and not on head, or a " +
         "metric worse beyond its tolerance \u00b7 " + std::string(kReported) +
         " reported only (a neutral metric, one defined in one run only, a goal met on neither)" +
         (report.generator.empty() ? "" : " \u00b7 " + cell(report.generator)) + "</sub>\n";
  return out;
}

}  // namespace breakerlab
