#include "expectation_reader.h"

#include "breakerlab/core/outcome/pod_lanes.h"

#include <algorithm>
#include <array>
#include <vector>

#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/metrics.h"
#include "breakerlab/data/expectation_text.h"
#include "breakerlab/data/values.h"

namespace breakerlab {
namespace data_detail {

namespace {

constexpr std::array<std::pair<std::string_view, CompareOp>, 6> kOps = {{
    {"==", CompareOp::eq},
    {"!=", CompareOp::ne},
    {"<=", CompareOp::le},
    {">=", CompareOp::ge},
    {"<", CompareOp::lt},
    {">", CompareOp::gt},
}};
constexpr std::string_view kOpList = "==, !=, <, <=, >, >=";
constexpr std::string_view kPlusMinus = "\xC2\xB1";  // ±
constexpr std::array<std::string_view, 4> kReplayedLanes = {"breaker", "dependency", "health",
                                                            "checkout"};

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool isSpace(char c) {
  return c == ' ' || c == '\t';
}
bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::optional<Amount> readAmount(std::string_view token, const MetricInfo& metric, bool tolerance,
                                 std::string& problem) {
  const std::string_view unit = metric.unit;
  if (auto n = parseNumber(token)) return Amount{*n, false};
  if (!token.empty() && token.back() == '%') {
    const auto n = parseNumber(token.substr(0, token.size() - 1));
    if (n && tolerance) return Amount{*n / 100.0, true};
    if (n && unit == "%") return Amount{*n, false};
    if (n) {
      problem = std::string(metric.name) + " is not a percentage; write the value without %";
      return std::nullopt;
    }
  }
  if (unit == "s" || unit == "ms") {
    if (auto t = parseTimePoint(token)) {
      const double per_unit = unit == "s" ? kSecond : kMillisecond;
      return Amount{static_cast<double>(*t) / per_unit, false};
    }
  }
  std::string expected = "a number";
  if (unit == "s" || unit == "ms")
    expected += " of " + std::string(unit == "s" ? "seconds" : "milliseconds") +
                " or a duration such as 1.5s";
  else if (unit == "%")
    expected += " or a percentage such as 5%";
  if (tolerance) expected += ", or a relative tolerance such as 1%";
  problem = "expected " + expected + ", got " + data_detail::quoted(token);
  return std::nullopt;
}

namespace {

std::optional<CompareOp> opFromText(std::string_view text) {
  for (const auto& [name, op] : kOps)
    if (name == text) return op;
  return std::nullopt;
}

std::string canonicalText(const Expectation& e, std::string_view value, std::string_view tol) {
  std::string text = e.metric + " " + std::string(toString(e.op)) + " " + std::string(value);
  if (!tol.empty()) text += " \xC2\xB1 " + std::string(tol);
  return text;
}

Expectation readLaneExpectation(const Source& src, const YAML::Node& item, const std::string& path,
                                const Recorded& recorded) {
  const MapReader m(src, item, path, {"lane", "matches", "within"});
  Expectation e;
  e.kind = Expectation::Kind::lane;
  const YAML::Node& lane = m.require("lane");
  e.lane = readString(src, lane, m.path("lane"));
  const bool every_pod = e.lane == kEveryPodLane;
  const bool one_pod = e.lane.starts_with(kPodLanePrefix);
  if (every_pod || one_pod) {
    // The recorded fleet, pod by pod: every pod, or one by its recorded name.
    if (recorded.pod_breakers.empty())
      fail(src, lane,
           m.path("lane") + ": there are no recorded pod lanes to compare with (add them under " +
               "recorded.pod_breakers)");
    const std::string name = e.lane.substr(every_pod ? 0 : kPodLanePrefix.size());
    if (one_pod && std::none_of(recorded.pod_breakers.begin(), recorded.pod_breakers.end(),
                                [&](const Lane& l) { return l.name == name; })) {
      std::string names;
      for (const Lane& l : recorded.pod_breakers)
        if (names.size() < 80) names += (names.empty() ? "" : ", ") + l.name;
      fail(src, lane,
           m.path("lane") + ": there is no recorded pod lane '" + clipText(name) +
               "' (recorded.pod_breakers has " + clipText(names) + ")");
    }
  } else if (std::find(kReplayedLanes.begin(), kReplayedLanes.end(), e.lane) ==
             kReplayedLanes.end()) {
    failExpected(src, lane, m.path("lane"),
                 "one of the replayed lanes breaker, dependency, health, checkout, \"every pod\" "
                 "or \"pod:NAME\" (a recorded pod lane)");
  }
  if (!every_pod && !one_pod && recorded.lane(e.lane) == nullptr)
    fail(src, lane,
         m.path("lane") + ": there is no recorded lane '" + clipText(e.lane) +
             "' to compare with (add it under recorded.lanes)");
  const YAML::Node& matches = m.require("matches");
  if (!matches.IsScalar() || matches.Scalar() != "recorded")
    failExpected(src, matches, m.path("matches"), "recorded");
  std::string within = "0s";
  if (auto* v = m.find("within")) {
    e.within = readDuration(src, *v, m.path("within"));
    within = v->Scalar();
  }
  e.text = e.lane + " lane matches recorded within " + within;
  return e;
}

Expectation readMetricMap(const Source& src, const YAML::Node& item, const std::string& path) {
  const MapReader m(src, item, path, {"metric", "op", "value", "tolerance"});
  Expectation e;
  const YAML::Node& name = m.require("metric");
  e.metric = readString(src, name, m.path("metric"));
  const MetricInfo* info = findMetric(e.metric);
  if (info == nullptr) fail(src, name, m.path("metric") + ": " + unknownMetricMessage(e.metric));
  const YAML::Node& op = m.require("op");
  std::optional<CompareOp> parsed_op;
  if (op.IsScalar()) parsed_op = opFromText(op.Scalar());
  if (!parsed_op) failExpected(src, op, m.path("op"), "one of " + std::string(kOpList));
  e.op = *parsed_op;
  const YAML::Node& value = m.require("value");
  std::string problem;
  std::optional<Amount> amount;
  if (value.IsScalar()) amount = readAmount(value.Scalar(), *info, false, problem);
  if (!amount) {
    if (problem.empty()) failExpected(src, value, m.path("value"), "a number");
    fail(src, value, m.path("value") + ": " + problem);
  }
  e.value = amount->value;
  std::string tol_text;
  if (auto* tol = m.find("tolerance")) {
    std::optional<Amount> t;
    if (tol->IsScalar()) t = readAmount(tol->Scalar(), *info, true, problem);
    if (!t) {
      if (problem.empty()) failExpected(src, *tol, m.path("tolerance"), "a number");
      fail(src, *tol, m.path("tolerance") + ": " + problem);
    }
    if (t->value < 0) failExpected(src, *tol, m.path("tolerance"), "a non-negative tolerance");
    e.tolerance = t->value;
    e.tolerance_relative = t->relative;
    tol_text = tol->Scalar();
  }
  e.text = canonicalText(e, value.Scalar(), tol_text);
  return e;
}

}  // namespace

std::string unknownMetricMessage(std::string_view name) {
  std::vector<std::pair<std::size_t, std::string_view>> scored;
  // The edit distance costs the product of the lengths: a name no metric is near is not scored.
  constexpr std::size_t kLongestScored = 64;
  for (const MetricInfo& m : metricRegistry()) {
    if (name.size() > kLongestScored) break;
    std::size_t d = editDistance(name, m.name);
    if (!name.empty() && m.name.find(name) != std::string_view::npos)
      d = std::min<std::size_t>(d, 1);
    scored.emplace_back(d, m.name);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  const std::size_t limit = std::max<std::size_t>(3, name.size() / 2);
  std::vector<std::string_view> close;
  for (const auto& [d, n] : scored)
    if (d <= limit && d <= scored.front().first + 2 && close.size() < 3) close.push_back(n);
  std::string message = "unknown metric '" + clipText(name) + "'";
  if (!close.empty()) {
    const std::string_view last = close.back();
    close.pop_back();
    message += ", did you mean " + (close.empty() ? std::string() : joinNames(close) + " or ") +
               std::string(last) + "?";
  }
  message += " (breakerlab-cli replay --list-metrics lists them all)";
  return message;
}

std::optional<TextProblem> parseExpectationText(std::string_view text, Expectation& out) {
  std::size_t pos = 0;
  const auto skipSpaces = [&] {
    while (pos < text.size() && isSpace(text[pos])) ++pos;
  };
  skipSpaces();
  const std::size_t name_start = pos;
  while (pos < text.size() && isNameChar(text[pos])) ++pos;
  if (pos == name_start)
    return TextProblem{pos,
                       "expected a metric name, then a comparison and a value, such as "
                       "\"failed_checkouts == 0\""};
  out.kind = Expectation::Kind::metric;
  out.metric = std::string(text.substr(name_start, pos - name_start));
  const MetricInfo* info = findMetric(out.metric);
  if (info == nullptr) return TextProblem{name_start, unknownMetricMessage(out.metric)};

  skipSpaces();
  std::optional<CompareOp> op;
  for (const auto& [name, o] : kOps) {
    if (text.substr(pos, name.size()) == name) {
      op = o;
      pos += name.size();
      break;
    }
  }
  if (!op || (pos < text.size() && (text[pos] == '=' || text[pos] == '<' || text[pos] == '>')))
    return TextProblem{pos,
                       "expected a comparison (" + std::string(kOpList) + ") after " + out.metric};
  out.op = *op;

  const auto tokenEnd = [&](std::size_t from) {
    std::size_t i = from;
    while (i < text.size() && !isSpace(text[i]) && text.substr(i, 2) != kPlusMinus &&
           text.substr(i, 2) != "+-" && text.substr(i, 3) != "+/-")
      ++i;
    return i;
  };
  skipSpaces();
  const std::size_t value_start = pos;
  pos = tokenEnd(pos);
  if (pos == value_start) return TextProblem{pos, "expected a value after the comparison"};
  std::string problem;
  const auto value = readAmount(text.substr(value_start, pos - value_start), *info, false, problem);
  if (!value) return TextProblem{value_start, problem};
  out.value = value->value;
  out.tolerance = 0;
  out.tolerance_relative = false;

  skipSpaces();
  if (pos == text.size()) return std::nullopt;
  if (text.substr(pos, 2) == kPlusMinus || text.substr(pos, 2) == "+-") {
    pos += 2;
  } else if (text.substr(pos, 3) == "+/-") {
    pos += 3;
  } else {
    return TextProblem{pos, "unexpected " + data_detail::quoted(text.substr(pos)) +
                                " after the value (a tolerance is written \"± 0.5\" or \"± 1%\")"};
  }
  skipSpaces();
  const std::size_t tol_start = pos;
  pos = tokenEnd(pos);
  if (pos == tol_start) return TextProblem{pos, "expected a tolerance after ±"};
  const auto tol = readAmount(text.substr(tol_start, pos - tol_start), *info, true, problem);
  if (!tol) return TextProblem{tol_start, problem};
  if (tol->value < 0) return TextProblem{tol_start, "the tolerance must not be negative"};
  out.tolerance = tol->value;
  out.tolerance_relative = tol->relative;
  skipSpaces();
  if (pos != text.size())
    return TextProblem{
        pos, "unexpected " + data_detail::quoted(text.substr(pos)) + " after the tolerance"};
  return std::nullopt;
}

Expectation readExpectation(const Source& src, const YAML::Node& item, const std::string& path,
                            const Recorded& recorded) {
  Expectation e;
  if (item.IsScalar()) {
    const std::string& text = item.Scalar();
    if (auto problem = parseExpectationText(text, e))
      failAt(src, positionWithin(src, item, problem->offset), path + ": " + problem->message);
    e.text = text;
  } else if (item.IsMap()) {
    const auto entries = mapEntries(src, item, path);
    const bool lane = std::any_of(entries.begin(), entries.end(),
                                  [](const auto& entry) { return entry.key == "lane"; });
    e = lane ? readLaneExpectation(src, item, path, recorded) : readMetricMap(src, item, path);
  } else {
    failExpected(src, item, path,
                 "an expectation such as \"failed_checkouts == 0\", {metric: ..., op: ..., "
                 "value: ...} or {lane: breaker, matches: recorded, within: 0.5s}");
  }
  e.line = positionOf(src, item).line;
  return e;
}

Expectation readGoal(const Source& src, const YAML::Node& item, const std::string& path) {
  if (item.IsMap()) {
    for (const auto& entry : mapEntries(src, item, path))
      if (entry.key == "lane")
        fail(src, entry.key_node,
             path +
                 ": a lane check is calibration, not a goal: goals compare a metric with a value "
                 "(such as \"failed_checkouts == 0\"); put lane checks under expect");
  } else if (!item.IsScalar()) {
    failExpected(src, item, path,
                 "a goal such as \"failed_checkouts == 0\" or {metric: ..., op: ..., value: ...}");
  }
  return readExpectation(src, item, path, Recorded{});
}

}  // namespace data_detail

Expectation parseExpectation(std::string_view text, const std::string& origin) {
  Expectation e;
  if (auto problem = data_detail::parseExpectationText(text, e))
    throw LoadError(origin, 0, 0,
                    problem->message + " (at character " + std::to_string(problem->offset + 1) +
                        " of " + data_detail::quoted(text) + ")");
  e.text = std::string(text);
  return e;
}

}  // namespace breakerlab
