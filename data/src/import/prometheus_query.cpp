// Range queries against a Prometheus server, into the file importer (see prometheus_query.h).
#include "breakerlab/data/prometheus_query.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "breakerlab/data/load_error.h"
#include "breakerlab/data/memory_budget.h"
#include "breakerlab/data/values.h"

namespace breakerlab {

namespace {

constexpr std::string_view kApiPath = "/api/v1/query_range";

bool isRole(std::string_view key) {
  const auto keys = prometheusRoleKeys();
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::string roleList() {
  std::string out;
  for (std::string_view k : prometheusRoleKeys()) out += (out.empty() ? "" : ", ") + std::string(k);
  return out;
}

std::string trimQuery(std::string_view s) {
  const std::size_t a = s.find_first_not_of(" \t");
  if (a == std::string_view::npos) return {};
  const std::size_t b = s.find_last_not_of(" \t");
  return std::string(s.substr(a, b - a + 1));
}

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

std::string percentEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// "query request_rate 'sum(rate(...))'": how each error names its query.
std::string queryName(const PrometheusQuery& q) {
  return "query " + (q.role.empty() ? std::string() : q.role + " ") + "'" + clipText(q.promql) +
         "'";
}

// The body's first characters, on one line, for an answer that is not what was expected.
std::string bodyStart(std::string_view body) {
  std::string out;
  for (char c : body.substr(0, std::min<std::size_t>(body.size(), 200)))
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  out = trimQuery(out);
  return out.empty() ? std::string("an empty body") : "\"" + clipText(out, 60) + "\"";
}

// What a SAX pass collects of an answer: {"status", "errorType", "error", "data": {"resultType",
// "result": [{"metric": {"__name__"}, "values": [[t, "v"], ...]}, ...]}}.
class AnswerReader : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit AnswerReader(PrometheusAnswer& out) : out_(out) {}

  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool string(string_t& value) override {
    const std::size_t depth = stack_.size();
    if (depth == 1 && stack_[0].object) {
      const std::string& key = stack_[0].key;
      if (key == "status") out_.status = clipText(value, 40);
      if (key == "errorType") out_.error_type = clipText(value, 40);
      if (key == "error") out_.error = clipText(value, 300);
    } else if (depth == 2 && inData() && stack_[1].key == "resultType") {
      out_.result_type = clipText(value, 40);
    } else if (depth == 5 && inSeries() && stack_[3].key == "metric" && stack_[4].object &&
               stack_[4].key == "__name__") {
      series_name_ = value;
    }
    return scalar();
  }
  bool start_object(std::size_t) override {
    if (stack_.empty()) out_.object = true;
    if (stack_.size() == 3 && inResult()) series_name_.reset();
    stack_.push_back({true, {}});
    return true;
  }
  bool key(string_t& key) override {
    stack_.back().key = key.size() > 64 ? std::string() : key;
    return true;
  }
  bool end_object() override {
    stack_.pop_back();
    if (stack_.size() == 3 && inResult()) {
      ++out_.series;
      const bool breaker = series_name_ && isPrometheusBreakerStateName(*series_name_);
      if (!breaker && out_.breaker_state) {
        out_.breaker_state = false;
        out_.first_metric_name = series_name_ ? clipText(*series_name_, 60) : std::string();
      }
    }
    return true;
  }
  bool start_array(std::size_t) override {
    // A sample: an array inside a series' "values".
    if (stack_.size() == 5 && inSeries() && !stack_[4].object && stack_[3].key == "values")
      ++out_.samples;
    stack_.push_back({false, {}});
    return true;
  }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& e) override {
    std::string what = e.what();
    if (const std::size_t colon = what.find(": ", what.find("parse error"));
        colon != std::string::npos)
      what = what.substr(colon + 2);
    out_.json_error = "at byte " + std::to_string(position) + ": " + clipText(what, 120);
    return false;
  }

 private:
  struct Frame {
    bool object = false;
    std::string key;
  };
  bool inData() const { return stack_[0].object && stack_[0].key == "data" && stack_[1].object; }
  bool inResult() const {
    return stack_.size() >= 3 && inData() && stack_[1].key == "result" && !stack_[2].object;
  }
  bool inSeries() const { return stack_.size() >= 4 && inResult() && stack_[3].object; }
  static bool scalar() { return true; }

  PrometheusAnswer& out_;
  std::vector<Frame> stack_;
  std::optional<std::string> series_name_;
};

// "1000 bytes", "2.5 MB".
std::string querySizeText(std::uint64_t bytes) {
  return bytes < 1'000'000 ? std::to_string(bytes) + " bytes" : memoryText(bytes);
}

[[noreturn]] void failQuery(const std::string& file, const std::string& message) {
  throw LoadError(file, 0, 0, message);
}

}  // namespace

PrometheusQuery parsePrometheusQuery(std::string_view argument, const std::string& option) {
  PrometheusQuery q;
  const std::size_t eq = argument.find('=');
  if (eq != std::string_view::npos && (eq + 1 >= argument.size() || argument[eq + 1] != '=') &&
      isRole(trimQuery(argument.substr(0, eq)))) {
    q.role = trimQuery(argument.substr(0, eq));
    q.promql = trimQuery(argument.substr(eq + 1));
  } else {
    q.promql = trimQuery(argument);
  }
  if (q.promql.empty())
    failQuery(option, "an empty query: expected PROMQL or ROLE=PROMQL (roles: " + roleList() + ")");
  return q;
}

std::vector<PrometheusQuery> defaultPrometheusQueries() {
  std::string names;
  for (std::string_view n : kPrometheusBreakerStateNames)
    names += (names.empty() ? "" : "|") + std::string(n);
  return {{"breaker_state", "{__name__=~\".*(" + names + ").*\"}"}};
}

double parsePrometheusTime(std::string_view text, const std::string& option) {
  const std::string t = trimQuery(text);
  const std::string expected =
      "expected RFC 3339 (2026-09-08T14:00:00Z, 2026-09-08T16:00:00+02:00) or unix seconds "
      "(1788876000), got \"" +
      clipText(t, 40) + "\"";
  if (t.empty()) failQuery(option, expected);
  if (std::all_of(t.begin(), t.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; })) {
    const std::optional<double> v = parseNumber(t);
    if (!v || *v > 1e11) failQuery(option, expected);
    return *v;
  }
  // An offset (+02:00, -05:30) is taken off; parseUtcTimestamp reads the rest as UTC.
  std::string utc = t;
  double offset = 0;
  if (utc.size() > 6 && (utc[utc.size() - 6] == '+' || utc[utc.size() - 6] == '-') &&
      utc[utc.size() - 3] == ':' && utc.find_first_of("Tt ") != std::string::npos) {
    const std::string hh = utc.substr(utc.size() - 5, 2), mm = utc.substr(utc.size() - 2);
    if (!std::isdigit(static_cast<unsigned char>(hh[0])) ||
        !std::isdigit(static_cast<unsigned char>(hh[1])) ||
        !std::isdigit(static_cast<unsigned char>(mm[0])) ||
        !std::isdigit(static_cast<unsigned char>(mm[1])))
      failQuery(option, expected);
    const int h = std::stoi(hh), m = std::stoi(mm);
    if (h > 23 || m > 59) failQuery(option, expected);
    offset = (utc[utc.size() - 6] == '-' ? -1 : 1) * (h * 3600.0 + m * 60.0);
    utc = utc.substr(0, utc.size() - 6) + "Z";
  } else if (!utc.empty() && utc.back() == 'z') {
    utc.back() = 'Z';
  }
  if (const std::size_t tee = utc.find('t'); tee != std::string::npos) utc[tee] = 'T';
  if (utc.empty() || utc.back() != 'Z' || utc.find('T') == std::string::npos)
    failQuery(option, expected + (utc.find(':') != std::string::npos
                                      ? " (RFC 3339 needs a date, a T, and a Z or an offset)"
                                      : ""));
  const std::optional<Micros> at = parseUtcTimestamp(utc);
  if (!at || *at < 0) failQuery(option, expected);
  return static_cast<double>(*at) / 1e6 - offset;
}

std::string formatRfc3339(double epoch_seconds) {
  return formatUtcTimestamp(static_cast<Micros>(std::llround(epoch_seconds * 1e6)));
}

double parsePrometheusStep(std::string_view text, const std::string& option) {
  const std::string t = trimQuery(text);
  double seconds = 0;
  if (const std::optional<double> n = parseNumber(t)) {
    seconds = *n;
  } else if (const std::optional<Micros> d = parseDuration(t)) {
    seconds = static_cast<double>(*d) / 1e6;
  } else {
    failQuery(option, "expected a step such as 15s, 1m, 500ms or 15 (seconds), got \"" +
                          clipText(t, 40) + "\"");
  }
  if (!(seconds >= 0.001))
    failQuery(option, "the step " + clipText(t, 40) + " is below 1 ms: expected 1ms or more");
  return seconds;
}

PrometheusPlan planPrometheusFetch(const PrometheusFetch& fetch) {
  PrometheusPlan plan;
  std::string url = trimQuery(fetch.url);
  const std::string bad = "\"" + clipText(url) + "\" is not the URL of a Prometheus server: ";
  const bool https = startsWithNoCase(url, "https://");
  if (!https && !startsWithNoCase(url, "http://"))
    failQuery("--prometheus", bad +
                                  "expected http://HOST:PORT or https://HOST (e.g. "
                                  "http://prometheus:9090)");
  const std::size_t host_at = url.find("://") + 3;
  if (url.find_first_of(" \t\r\n\"<>\\^`{|}", 0) != std::string::npos)
    failQuery("--prometheus", bad + "a URL has no spaces, quotes or braces");
  if (url.find_first_of("?#", host_at) != std::string::npos)
    failQuery("--prometheus", bad +
                                  "give the server without a query (?...) or fragment (#...); "
                                  "the queries are --query");
  while (url.size() > host_at && url.back() == '/') url.pop_back();
  const std::size_t path_at = url.find('/', host_at);
  const std::string authority =
      url.substr(host_at, path_at == std::string::npos ? std::string::npos : path_at - host_at);
  if (authority.empty() || authority.back() == '@' || authority.front() == ':')
    failQuery("--prometheus", bad + "no host");
  if (url.size() < kApiPath.size() ||
      url.compare(url.size() - kApiPath.size(), kApiPath.size(), kApiPath) != 0) {
    if (url.size() >= 7 && url.compare(url.size() - 7, 7, "/api/v1") == 0)
      url.resize(url.size() - 7);
    url += kApiPath;
  }
  plan.endpoint = url;
  plan.shown = url;
  if (const std::size_t at = authority.rfind('@'); at != std::string::npos)
    plan.shown = url.substr(0, host_at) + url.substr(host_at + at + 1);

  for (const std::string& h : fetch.headers) {
    const std::size_t colon = h.find(':');
    const std::string name = colon == std::string::npos ? std::string() : h.substr(0, colon);
    const bool token = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("!#$%&'*+-.^_`|~", c);
    });
    // The value is not quoted: it may be a secret.
    if (!token)
      failQuery("--header",
                "expected 'Name: value' (Authorization: Bearer ...), got a header "
                "without a name before its ':'");
    if (h.find_first_of("\r\n", 0) != std::string::npos || h.find('\0') != std::string::npos)
      failQuery("--header", "the header " + clipText(name, 40) + " holds a line break");
    plan.headers.push_back(h);
  }

  if (!std::isfinite(fetch.from) || !std::isfinite(fetch.to) || fetch.to <= fetch.from)
    failQuery("--to", "the range ends (" + formatRfc3339(fetch.to) + ") at or before it starts (" +
                          formatRfc3339(fetch.from) + ")");
  plan.from = fetch.from;
  plan.to = fetch.to;
  const double range = fetch.to - fetch.from;
  const double most = static_cast<double>(kPrometheusMaxPointsPerSeries - 1);
  if (fetch.step > 0) {
    plan.step = fetch.step;
    if (std::floor(range / plan.step) > most)
      failQuery("--step",
                formatNumber(std::floor(range / plan.step) + 1) + " points per series from " +
                    formatRfc3339(fetch.from) + " to " + formatRfc3339(fetch.to) + " every " +
                    formatNumber(plan.step) + " s: Prometheus answers at most " +
                    std::to_string(kPrometheusMaxPointsPerSeries) + "; raise --step to " +
                    formatNumber(std::ceil(range / most)) + " s or more, or narrow the range");
  } else {
    plan.step = kPrometheusDefaultStepSeconds;
    if (std::floor(range / plan.step) > most) {
      plan.step = std::ceil(range / most);
      plan.step_raised = true;
    }
  }
  plan.queries = fetch.queries.empty() ? defaultPrometheusQueries() : fetch.queries;
  for (std::size_t i = 0; i < plan.queries.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (!plan.queries[i].role.empty() && plan.queries[i].role == plan.queries[j].role)
        failQuery("--query", "two queries for the role " + plan.queries[i].role + " ('" +
                                 clipText(plan.queries[j].promql, 40) + "' and '" +
                                 clipText(plan.queries[i].promql, 40) +
                                 "'): a role takes one query; join them in PromQL (or, on)");
  return plan;
}

std::string prometheusQueryUrl(const PrometheusPlan& plan, const PrometheusQuery& query) {
  return plan.endpoint + "?query=" + percentEncode(query.promql) +
         "&start=" + percentEncode(formatNumber(plan.from)) +
         "&end=" + percentEncode(formatNumber(plan.to)) +
         "&step=" + percentEncode(formatNumber(plan.step));
}

PrometheusAnswer readPrometheusAnswer(std::string_view body) {
  PrometheusAnswer out;
  AnswerReader reader(out);
  const bool ok = nlohmann::json::sax_parse(body.begin(), body.end(), &reader,
                                            nlohmann::json::input_format_t::json, true);
  if (!ok) {
    const std::string error = out.json_error.empty() ? "not JSON" : out.json_error;
    out = PrometheusAnswer{};
    out.json_error = error;
  }
  return out;
}

PrometheusOrigin prometheusOrigin(const PrometheusPlan& plan) {
  std::string stamp;
  for (char c : formatRfc3339(plan.from))
    if (c != '-' && c != ':') stamp += c == '.' ? '_' : c;
  PrometheusOrigin o;
  o.id = "prometheus-" + stamp;
  o.title = "Prometheus metrics from " + formatRfc3339(plan.from) + " to " + formatRfc3339(plan.to);
  o.source = plan.shown + " " + formatRfc3339(plan.from) + " to " + formatRfc3339(plan.to) +
             " every " + formatNumber(plan.step) + " s";
  return o;
}

PrometheusImport importPrometheusUrl(const PrometheusFetch& fetch, HttpGet& http,
                                     const Config& deployed) {
  const PrometheusPlan plan = planPrometheusFetch(fetch);
  const std::string& file = plan.shown;
  const std::string range = formatRfc3339(plan.from) + " to " + formatRfc3339(plan.to) + " every " +
                            formatNumber(plan.step) + " s";
  // The memory the import may take: each answer is bounded by what is left of it once the
  // earlier answers are parsed too.
  const std::uint64_t available =
      availableMemoryBytes().value_or(std::numeric_limits<std::uint64_t>::max());
  const std::uint64_t memory_cap = available / kPrometheusPeakBytesPerResponseByte;

  struct Done {
    PrometheusQuery query;
    std::string body;
    PrometheusAnswer answer;
  };
  std::vector<Done> done;
  std::uint64_t bytes = 0;
  std::size_t samples = 0;
  for (const PrometheusQuery& query : plan.queries) {
    const std::string name = queryName(query);
    HttpRequest request;
    request.url = prometheusQueryUrl(plan, query);
    request.headers = plan.headers;
    request.timeout = fetch.timeout;
    const std::uint64_t by_memory = memory_cap > bytes ? memory_cap - bytes : 0;
    request.max_body_bytes = std::min(fetch.max_response_bytes, by_memory);
    HttpResponse response;
    try {
      response = http.get(request);
    } catch (const HttpError& e) {
      const std::string cause = e.what();
      switch (e.kind()) {
        case HttpError::Kind::bad_url:
          failQuery(file, name + ": not a URL libcurl can use: " + cause);
        case HttpError::Kind::resolve:
          failQuery(file, name + ": the host name does not resolve: " + cause);
        case HttpError::Kind::connect:
          failQuery(file, name + ": could not connect (is Prometheus running there?): " + cause);
        case HttpError::Kind::timeout:
          failQuery(file, name + ": no answer within " +
                              formatNumber(static_cast<double>(fetch.timeout.count()) / 1000) +
                              " s (--timeout): " + cause);
        case HttpError::Kind::too_large:
          if (request.max_body_bytes < fetch.max_response_bytes)
            failQuery(file, name + ": the answer is larger than the memory left for it (" +
                                querySizeText(request.max_body_bytes) + ": " +
                                memoryText(available) + " available, about " +
                                std::to_string(kPrometheusPeakBytesPerResponseByte) +
                                " bytes at the peak per byte of answer); narrow the range, raise "
                                "--step or select fewer series");
          failQuery(file,
                    name + ": the answer is larger than " +
                        querySizeText(fetch.max_response_bytes) +
                        " (--max-response-mb); narrow the range, raise --step or select fewer "
                        "series");
        case HttpError::Kind::transport:
          break;
      }
      failQuery(file, name + ": " + cause);
    }
    PrometheusAnswer answer = readPrometheusAnswer(response.body);
    const std::string type =
        response.content_type.empty() ? std::string() : ", " + clipText(response.content_type, 60);
    if (response.status != 200) {
      if (answer.json_error.empty() && answer.status == "error")
        failQuery(file, name + ": Prometheus refused it (HTTP " + std::to_string(response.status) +
                            (answer.error_type.empty() ? "" : ", " + answer.error_type) +
                            "): " + (answer.error.empty() ? "no error given" : answer.error));
      failQuery(file, name + ": HTTP " + std::to_string(response.status) + type + ": " +
                          bodyStart(response.body) +
                          (response.status == 404 ? " (is " + plan.shown +
                                                        " Prometheus's query_range API? give the "
                                                        "server's address, http://HOST:9090)"
                                                  : std::string()));
    }
    if (!answer.json_error.empty())
      failQuery(file, name + ": the answer is not JSON (" + answer.json_error + type +
                          "; it starts " + bodyStart(response.body) + "): is " + plan.shown +
                          " Prometheus's query_range API?");
    if (answer.status == "error")
      failQuery(file, name + ": Prometheus refused it (" +
                          (answer.error_type.empty() ? "" : answer.error_type + ": ") +
                          (answer.error.empty() ? "no error given" : answer.error) + ")");
    if (!answer.object || answer.status != "success")
      failQuery(file, name +
                          ": not a Prometheus API answer (expected {\"status\": \"success\", "
                          "\"data\": ...}; it starts " +
                          bodyStart(response.body) + ")");
    if (answer.result_type != "matrix")
      failQuery(file, name + ": the answer's resultType is \"" + answer.result_type +
                          "\", expected \"matrix\"");
    if (answer.series == 0)
      failQuery(file, name + ": matched no series from " + range +
                          " (check the metric and label names, and the range)");
    samples += answer.samples;
    if (samples > fetch.max_samples)
      failQuery(file,
                name + ": " + std::to_string(answer.samples) + " samples in " +
                    std::to_string(answer.series) + " series" +
                    (samples > answer.samples
                         ? " (" + std::to_string(samples) + " with the queries before it)"
                         : std::string()) +
                    ", more than the limit of " + std::to_string(fetch.max_samples) +
                    " (--max-samples); narrow the range, raise --step or select fewer series");
    bytes += response.body.size();
    done.push_back({query, std::move(response.body), std::move(answer)});
  }

  // Each answer under its role: a query without one is a breaker state's, or says what to do.
  std::string bundle = "{";
  std::vector<std::string> roles;
  for (Done& d : done) {
    std::string role = d.query.role;
    if (role.empty()) {
      // The answer checks the built-in names; the metric table may name others (opossum's
      // `circuit`): the importer then reads every series by the table.
      if (!d.answer.breaker_state &&
          (d.answer.first_metric_name.empty() ||
           fetch.metrics.matchNamed(d.answer.first_metric_name) == nullptr))
        failQuery(file,
                  queryName(d.query) + ": its series" +
                      (d.answer.first_metric_name.empty()
                           ? std::string(" have no metric name (rate() and sum() drop it)")
                           : " are of '" + d.answer.first_metric_name + "'") +
                      ", not a breaker's state: give its role, --query ROLE=QUERY with ROLE one "
                      "of " +
                      roleList());
      role = "breaker_state";
    }
    if (std::find(roles.begin(), roles.end(), role) != roles.end())
      failQuery(file, queryName(d.query) + ": a second query for the role " + role +
                          " (a query without a role is read as breaker_state)");
    roles.push_back(role);
    nlohmann::json key = role;
    bundle += (bundle.size() > 1 ? ",\n" : "\n") + key.dump() + ": ";
    bundle += d.body;
    std::string().swap(d.body);
  }
  bundle += "\n}\n";
  requireMemoryFor(bundle.size() * kPrometheusPeakBytesPerResponseByte, file,
                   "the answers (" + memoryText(bundle.size()) + " of JSON)",
                   "narrow the range, raise --step or select fewer series");

  PrometheusImport out;
  try {
    const PrometheusOrigin origin = prometheusOrigin(plan);
    out.imported = importPrometheusRange(bundle, file, deployed, &origin, fetch.metrics);
  } catch (const LoadError& e) {
    // "/request_rate/data/result/0/values/3: ..." names a role: say which query it was.
    std::string message = e.message();
    for (std::size_t i = 0; i < done.size(); ++i)
      if (message.rfind("/" + roles[i] + "/", 0) == 0 ||
          message.rfind("/" + roles[i] + ":", 0) == 0)
        message += " (the answer to " + queryName(done[i].query) + ")";
    throw LoadError(e.file(), e.line(), e.column(), message);
  }
  ImportReport& report = out.imported.report;
  report.format = "Prometheus range queries (query_range, by URL)";
  std::vector<ImportFinding> asked;
  asked.push_back({ImportFinding::Kind::recognised, 0, "range",
                   range + " from " + plan.shown +
                       (plan.step_raised ? " (the default step of 15 s raised to keep within "
                                           "Prometheus's 11,000 points per series)"
                        : fetch.step > 0 ? ""
                                         : " (the default step)")});
  for (std::size_t i = 0; i < done.size(); ++i)
    asked.push_back({ImportFinding::Kind::recognised, 0, "query " + roles[i],
                     "'" + clipText(done[i].query.promql, 200) +
                         "': " + std::to_string(done[i].answer.series) + " series, " +
                         std::to_string(done[i].answer.samples) + " samples"});
  report.findings.insert(report.findings.begin(), asked.begin(), asked.end());
  out.responses = std::move(bundle);
  return out;
}

}  // namespace breakerlab
