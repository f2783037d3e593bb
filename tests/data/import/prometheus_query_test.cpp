// `import --prometheus URL` without a network: the arguments (times, steps, queries, URL,
// headers), what one answer says, and every way an answer is refused, with the server played by
// a fake HttpGet. The real server is in prometheus_server_test.cpp.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "../test_support.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/prometheus_query.h"
#include "prometheus_fleet.h"

// GCC says AddressSanitizer with __SANITIZE_ADDRESS__, clang with __has_feature.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BREAKERLAB_HAS_ASAN 1
#endif
#endif
#ifndef BREAKERLAB_HAS_ASAN
#define BREAKERLAB_HAS_ASAN 0
#endif

namespace breakerlab {
namespace {

using test::fleetFetch;
using test::kPrometheusFixtures;

// Answers each query by its PromQL (the `query=` of the URL, decoded); an unknown query gets
// an empty matrix. Records what was asked.
class FakePrometheus : public HttpGet {
 public:
  std::map<std::string, HttpResponse> answers;
  std::map<std::string, HttpError> failures;
  std::vector<HttpRequest> asked;

  HttpResponse get(const HttpRequest& request) override {
    asked.push_back(request);
    const std::string query = decodedQuery(request.url);
    if (auto f = failures.find(query); f != failures.end()) throw f->second;
    if (auto a = answers.find(query); a != answers.end()) {
      if (a->second.body.size() > request.max_body_bytes)
        throw HttpError(HttpError::Kind::too_large, "longer than the limit");
      return a->second;
    }
    return {200, "application/json",
            R"({"status":"success","data":{"resultType":"matrix","result":[]}})"};
  }

  static std::string decodedQuery(const std::string& url) {
    const std::size_t at = url.find("?query=") + 7;
    const std::string encoded = url.substr(at, url.find('&', at) - at);
    std::string out;
    for (std::size_t i = 0; i < encoded.size(); ++i) {
      if (encoded[i] == '%' && i + 2 < encoded.size()) {
        out += static_cast<char>(std::stoi(encoded.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += encoded[i];
      }
    }
    return out;
  }
};

// The server of the saved answers: each fleet query answered with its role's part of
// fleet-0908-answers.json.
FakePrometheus savedFleet() {
  const auto saved =
      nlohmann::json::parse(readTextFile(kPrometheusFixtures + "fleet-0908-answers.json"));
  FakePrometheus fake;
  for (const PrometheusQuery& q : test::fleetQueries())
    fake.answers[q.promql] = {200, "application/json", saved.at(q.role).dump()};
  return fake;
}

std::string fetchErrorOf(const PrometheusFetch& fetch, HttpGet& http) {
  const auto e = test::loadErrorOf([&] { importPrometheusUrl(fetch, http, Config{}); });
  return e ? std::string(e->what()) : std::string();
}

const char* kMatrix = R"({"status":"success","data":{"resultType":"matrix","result":[)";

TEST(PrometheusQuery, TimesAreRfc3339OrUnixSeconds) {
  EXPECT_EQ(parsePrometheusTime("2026-09-08T14:00:00Z", "--from"), 1788876000);
  EXPECT_EQ(parsePrometheusTime("2026-09-08t14:00:00z", "--from"), 1788876000);
  EXPECT_EQ(parsePrometheusTime("2026-09-08T16:00:00+02:00", "--from"), 1788876000);
  EXPECT_EQ(parsePrometheusTime("2026-09-08T09:30:00-04:30", "--from"), 1788876000);
  EXPECT_EQ(parsePrometheusTime("2026-09-08T14:00:00.5Z", "--from"), 1788876000.5);
  EXPECT_EQ(parsePrometheusTime("1788876000", "--from"), 1788876000);
  EXPECT_EQ(parsePrometheusTime(" 1788876000.25 ", "--from"), 1788876000.25);
  EXPECT_EQ(formatRfc3339(1788876000), "2026-09-08T14:00:00Z");
  EXPECT_EQ(formatRfc3339(1788876000.5), "2026-09-08T14:00:00.5Z");
  for (const char* bad :
       {"", "yesterday", "2026-09-08", "2026-09-08T14:00:00", "2026-09-08T14:00:00+25:00",
        "2026-13-08T14:00:00Z", "-5", "1e3", "99999999999999"}) {
    const auto e = test::loadErrorOf([&] { parsePrometheusTime(bad, "--from"); });
    ASSERT_TRUE(e) << bad;
    EXPECT_EQ(e->file(), "--from");
    EXPECT_NE(e->message().find("expected RFC 3339"), std::string::npos) << e->what();
  }
}

TEST(PrometheusQuery, StepsAreDurationsOrSeconds) {
  EXPECT_EQ(parsePrometheusStep("15s", "--step"), 15);
  EXPECT_EQ(parsePrometheusStep("1m", "--step"), 60);
  EXPECT_EQ(parsePrometheusStep("500ms", "--step"), 0.5);
  EXPECT_EQ(parsePrometheusStep("30", "--step"), 30);
  for (const char* bad : {"", "0", "0s", "-5", "fast", "0.0001"})
    EXPECT_TRUE(test::loadErrorOf([&] { parsePrometheusStep(bad, "--step"); })) << bad;
}

TEST(PrometheusQuery, ARolePrefixIsARoleKeyBeforeOneEqualsSign) {
  const auto q = [](std::string_view arg) { return parsePrometheusQuery(arg, "--query"); };
  EXPECT_EQ(q("request_rate=sum(rate(x[1m]))").role, "request_rate");
  EXPECT_EQ(q("request_rate=sum(rate(x[1m]))").promql, "sum(rate(x[1m]))");
  EXPECT_EQ(q(" latency_p99 = max(y) ").role, "latency_p99");
  EXPECT_EQ(q(" latency_p99 = max(y) ").promql, "max(y)");
  // PromQL's own '=': a label matcher, a comparison, or a name that is no role.
  EXPECT_EQ(q(R"(x{name="pricing"})").role, "");
  EXPECT_EQ(q("breaker_state==1").role, "");
  EXPECT_EQ(q("breaker_state==1").promql, "breaker_state==1");
  EXPECT_EQ(q("request_rates=x").role, "");
  EXPECT_TRUE(test::loadErrorOf([&] { q("  "); }));
  EXPECT_TRUE(test::loadErrorOf([&] { q("error_ratio="); }));
  // The default asks for every metric name the file importer reads as a breaker state.
  const auto defaults = defaultPrometheusQueries();
  ASSERT_EQ(defaults.size(), 1u);
  EXPECT_EQ(defaults[0].role, "breaker_state");
  for (std::string_view name : kPrometheusBreakerStateNames)
    EXPECT_NE(defaults[0].promql.find(name), std::string::npos) << name;
}

TEST(PrometheusQuery, TheUrlIsTheServerOrItsQueryRangeApi) {
  PrometheusFetch f = fleetFetch("http://prometheus:9090");
  EXPECT_EQ(planPrometheusFetch(f).endpoint, "http://prometheus:9090/api/v1/query_range");
  f.url = "https://metrics.example/prom/";
  EXPECT_EQ(planPrometheusFetch(f).endpoint, "https://metrics.example/prom/api/v1/query_range");
  f.url = "http://h:9090/api/v1/query_range";
  EXPECT_EQ(planPrometheusFetch(f).endpoint, "http://h:9090/api/v1/query_range");
  f.url = "http://h:9090/api/v1";
  EXPECT_EQ(planPrometheusFetch(f).endpoint, "http://h:9090/api/v1/query_range");
  // A password in the URL is sent, never shown.
  f.url = "http://reader:s3cret@h:9090";
  const PrometheusPlan plan = planPrometheusFetch(f);
  EXPECT_EQ(plan.endpoint, "http://reader:s3cret@h:9090/api/v1/query_range");
  EXPECT_EQ(plan.shown, "http://h:9090/api/v1/query_range");
  EXPECT_EQ(prometheusQueryUrl(plan, {"", R"(up{job="a b"})"}),
            "http://reader:s3cret@h:9090/api/v1/query_range?query=up%7Bjob%3D%22a%20b%22%7D"
            "&start=1788876000&end=1788876600&step=10");
  for (const char* bad : {"prometheus:9090", "ftp://h", "http://", "http://h:9090?x=1",
                          "http://h 9090", "http://:9090"}) {
    f.url = bad;
    const auto e = test::loadErrorOf([&] { planPrometheusFetch(f); });
    ASSERT_TRUE(e) << bad;
    EXPECT_EQ(e->file(), "--prometheus") << e->what();
  }
}

TEST(PrometheusQuery, HeadersRangeStepAndRolesAreCheckedBeforeAsking) {
  const auto error = [](const PrometheusFetch& f) {
    const auto e = test::loadErrorOf([&] { planPrometheusFetch(f); });
    return e ? std::string(e->what()) : std::string();
  };
  PrometheusFetch f = fleetFetch("http://h:9090");
  f.headers = {"Authorization: Bearer abc"};
  EXPECT_EQ(planPrometheusFetch(f).headers, f.headers);
  f.headers = {"Bearer abc"};
  EXPECT_NE(error(f).find("--header: expected 'Name: value'"), std::string::npos) << error(f);
  f.headers = {"X-Scope: a\r\nHost: evil"};
  EXPECT_NE(error(f).find("line break"), std::string::npos);
  EXPECT_EQ(error(f).find("evil"), std::string::npos) << "a header's value may be a secret";
  f = fleetFetch("http://h:9090");
  f.to = f.from;
  EXPECT_NE(error(f).find("--to: the range ends"), std::string::npos) << error(f);
  f = fleetFetch("http://h:9090");
  f.to = f.from + 86400;
  f.step = 1;
  EXPECT_NE(error(f).find("86401 points per series"), std::string::npos) << error(f);
  EXPECT_NE(error(f).find("raise --step to 8 s"), std::string::npos) << error(f);
  f.step = 0;  // the default 15 s, raised for three days
  f.to = f.from + 3 * 86400;
  const PrometheusPlan plan = planPrometheusFetch(f);
  EXPECT_TRUE(plan.step_raised);
  EXPECT_EQ(plan.step, 24);
  EXPECT_LE((f.to - f.from) / plan.step + 1, kPrometheusMaxPointsPerSeries);
  f = fleetFetch("http://h:9090");
  f.queries.push_back({"request_rate", "sum(x)"});
  EXPECT_NE(error(f).find("two queries for the role request_rate"), std::string::npos) << error(f);
}

TEST(PrometheusQuery, AnAnswerIsReadWithoutBuildingIt) {
  PrometheusAnswer a = readPrometheusAnswer(
      std::string(kMatrix) +
      R"({"metric":{"__name__":"resilience4j_circuitbreaker_state","state":"open"},
          "values":[[1,"0"],[2,"1"]]},
         {"metric":{"__name__":"resilience4j_circuitbreaker_state","state":"closed"},
          "values":[[1,"1"],[2,"0"],[3,"0"]]}]}})");
  EXPECT_EQ(a.json_error, "");
  EXPECT_EQ(a.status, "success");
  EXPECT_EQ(a.result_type, "matrix");
  EXPECT_EQ(a.series, 2u);
  EXPECT_EQ(a.samples, 5u);
  EXPECT_TRUE(a.breaker_state);
  a = readPrometheusAnswer(std::string(kMatrix) + R"({"metric":{},"values":[[1,"4"]]}]}})");
  EXPECT_FALSE(a.breaker_state);
  EXPECT_EQ(a.first_metric_name, "");
  a = readPrometheusAnswer(R"({"status":"error","errorType":"bad_data","error":"parse error"})");
  EXPECT_EQ(a.status, "error");
  EXPECT_EQ(a.error_type, "bad_data");
  EXPECT_EQ(a.error, "parse error");
  a = readPrometheusAnswer("<html><body>Sign in</body></html>");
  EXPECT_NE(a.json_error, "");
  EXPECT_EQ(a.status, "");
  a = readPrometheusAnswer(R"({"status":"success","data":{"resultType":"matrix","result":[)");
  EXPECT_NE(a.json_error, "") << "a cut answer is not JSON";
  a = readPrometheusAnswer(std::string(100000, '[') + std::string(100000, ']'));
  EXPECT_EQ(a.json_error, "") << "deep nesting is read without recursion";
  EXPECT_FALSE(a.object);
}

TEST(PrometheusQuery, TheImportIsTheImportOfTheSavedAnswers) {
  FakePrometheus fake = savedFleet();
  const PrometheusFetch fetch = fleetFetch("http://127.0.0.1:9090");
  const PrometheusImport by_url = importPrometheusUrl(fetch, fake, Config{});
  ASSERT_EQ(fake.asked.size(), 5u);
  EXPECT_EQ(fake.asked[0].timeout, std::chrono::milliseconds(10'000));
  const PrometheusPlan plan = planPrometheusFetch(fetch);
  const std::string saved = readTextFile(kPrometheusFixtures + "fleet-0908-answers.json");
  const ImportedIncident from_file =
      importPrometheusRange(saved, plan.shown, Config{}, prometheusOrigin(plan));
  EXPECT_EQ(incidentToYaml(by_url.imported.incident), incidentToYaml(from_file.incident));
  // The answers as saved by --save-responses import to the same incident again.
  const ImportedIncident resaved =
      importPrometheusRange(by_url.responses, plan.shown, Config{}, prometheusOrigin(plan));
  EXPECT_EQ(incidentToYaml(resaved.incident), incidentToYaml(from_file.incident));
  EXPECT_EQ(by_url.imported.incident.id, "prometheus-20260908T140000Z");
  // The report says what was asked, and what came back.
  const std::vector<std::string> lines = by_url.imported.report.lines();
  const std::string report = [&] {
    std::string all;
    for (const std::string& l : lines) all += l + "\n";
    return all;
  }();
  EXPECT_NE(report.find("2026-09-08T14:00:00Z to 2026-09-08T14:10:00Z every 10 s"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("query breaker_state: 'resilience4j_circuitbreaker_state{name=\"pricing\"}'"
                        ": 9 series, 549 samples"),
            std::string::npos)
      << report;
}

TEST(PrometheusQuery, EachFailureNamesTheEndpointTheQueryAndTheCause) {
  const PrometheusFetch fetch = fleetFetch("http://127.0.0.1:9090");
  const std::string state_query = fetch.queries[0].promql;
  struct Case {
    const char* name;
    std::function<void(FakePrometheus&)> serve;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"refused",
       [&](FakePrometheus& p) {
         p.failures.emplace(state_query,
                            HttpError(HttpError::Kind::connect, "Failed to connect to 127.0.0.1"));
       },
       "could not connect (is Prometheus running there?): Failed to connect to 127.0.0.1"},
      {"timeout",
       [&](FakePrometheus& p) {
         p.failures.emplace(state_query,
                            HttpError(HttpError::Kind::timeout, "Operation timed out"));
       },
       "no answer within 10 s (--timeout): Operation timed out"},
      {"unresolved",
       [&](FakePrometheus& p) {
         p.failures.emplace(state_query,
                            HttpError(HttpError::Kind::resolve, "Could not resolve host: x"));
       },
       "the host name does not resolve: Could not resolve host: x"},
      {"prometheus error",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {
             400, "application/json",
             R"({"status":"error","errorType":"bad_data","error":"1:10: parse error"})"};
       },
       "Prometheus refused it (HTTP 400, bad_data): 1:10: parse error"},
      {"prometheus error at 200",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {
             200, "application/json",
             R"({"status":"error","errorType":"execution","error":"query processing would load too many samples into memory"})"};
       },
       "Prometheus refused it (execution: query processing would load too many samples"},
      {"HTTP 502",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {502, "text/html", "<html>Bad Gateway</html>\n"};
       },
       "HTTP 502, text/html: \"<html>Bad Gateway</html>\""},
      {"HTTP 401 empty",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {401, "", ""};
       },
       "HTTP 401: an empty body"},
      {"not JSON",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {200, "text/html", "<html><body>Sign in</body></html>"};
       },
       "the answer is not JSON (at byte 1: "},
      {"not the API",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {200, "application/json", "[1, 2]"};
       },
       "not a Prometheus API answer"},
      {"instant vector",
       [&](FakePrometheus& p) {
         p.answers[state_query] = {
             200, "application/json",
             R"({"status":"success","data":{"resultType":"vector","result":[]}})"};
       },
       "the answer's resultType is \"vector\", expected \"matrix\""},
      {"matches nothing", [](FakePrometheus&) {},
       "matched no series from 2026-09-08T14:00:00Z to 2026-09-08T14:10:00Z every 10 s"},
  };
  for (const Case& c : cases) {
    FakePrometheus fake = savedFleet();
    fake.answers.erase(state_query);
    c.serve(fake);
    const std::string error = fetchErrorOf(fetch, fake);
    EXPECT_EQ(error.rfind("http://127.0.0.1:9090/api/v1/query_range: query breaker_state "
                          "'resilience4j_circuitbreaker_state{name=\"pricing\"}': ",
                          0),
              0u)
        << c.name << ": " << error;
    EXPECT_NE(error.find(c.expected), std::string::npos) << c.name << ": " << error;
    EXPECT_EQ(fake.asked.size(), 1u) << c.name << ": the first failure ends the import";
  }
}

TEST(PrometheusQuery, SamplesAndBytesAreBounded) {
  PrometheusFetch fetch = fleetFetch("http://127.0.0.1:9090");
  FakePrometheus fake = savedFleet();
  fetch.max_samples = 700;  // the states' 549 pass, the rates' 183 more do not
  std::string error = fetchErrorOf(fetch, fake);
  EXPECT_NE(error.find("query request_rate"), std::string::npos) << error;
  EXPECT_NE(error.find("183 samples in 3 series (732 with the queries before it), more than the "
                       "limit of 700 (--max-samples)"),
            std::string::npos)
      << error;
  fetch = fleetFetch("http://127.0.0.1:9090");
  fetch.max_response_bytes = 1000;
  fake = savedFleet();
  error = fetchErrorOf(fetch, fake);
  EXPECT_NE(error.find("query breaker_state"), std::string::npos) << error;
  EXPECT_NE(error.find("the answer is larger than 1000 bytes (--max-response-mb)"),
            std::string::npos)
      << error;
  EXPECT_EQ(fake.asked.at(0).max_body_bytes, 1000u);
}

// In a death test's child: an address-space limit `room` bytes above what is mapped (as
// `prlimit --as` sets it), then the import; exits 2 with the LoadError on stderr.
[[noreturn]] void importUnderALimitAboveWhatIsMapped(FakePrometheus& fake, std::uint64_t room) {
  std::ifstream status("/proc/self/status");
  std::string line;
  unsigned long long vm_kb = 0;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) std::sscanf(line.c_str() + 7, "%llu", &vm_kb);
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = (vm_kb << 10) + room;
  ::setrlimit(RLIMIT_AS, &limit);
  try {
    importPrometheusUrl(fleetFetch("http://127.0.0.1:9090"), fake, Config{});
    std::fprintf(stderr, "imported");
    std::_Exit(0);
  } catch (const LoadError& e) {
    std::fprintf(stderr, "%s", e.what());
    std::_Exit(2);
  } catch (...) {
    std::fprintf(stderr, "another exception");
    std::_Exit(3);
  }
}

// The memory budget bounds an answer below --max-response-mb: 40 MB left take an answer of at
// most 40 MB / 14, and a 4 MB one is refused, not parsed into bad_alloc.
TEST(PrometheusQuery, AnAnswerLargerThanTheMemoryLeftIsRefused) {
#if defined(__SANITIZE_ADDRESS__) || BREAKERLAB_HAS_ASAN
  GTEST_SKIP() << "AddressSanitizer maps terabytes of shadow memory: an address-space limit "
                  "stops its allocator, not the import";
#endif
  FakePrometheus fake = savedFleet();
  std::string body = std::string(kMatrix) +
                     R"({"metric":{"__name__":"resilience4j_circuitbreaker_state"},"values":[)";
  for (int i = 0; body.size() < (4u << 20); ++i)
    body += (i > 0 ? "," : "") + std::string("[") + std::to_string(1788876000 + i) + ",\"1\"]";
  body += "]}]}}";
  fake.answers[test::fleetQueries()[0].promql].body = std::move(body);
  EXPECT_EXIT(
      importUnderALimitAboveWhatIsMapped(fake, 40u << 20), ::testing::ExitedWithCode(2),
      "query breaker_state .*: the answer is larger than the memory left for it "
      "\\([0-9.]+ (bytes|KB|MB): [0-9.]+ MB available, about 14 bytes at the peak per byte of "
      "answer\\); narrow the range");
}

TEST(PrometheusQuery, AQueryWithoutARoleMustBeABreakersState) {
  PrometheusFetch fetch = fleetFetch("http://127.0.0.1:9090");
  FakePrometheus fake = savedFleet();
  fetch.queries[0].role.clear();  // the state series classify themselves
  EXPECT_NO_THROW(importPrometheusUrl(fetch, fake, Config{}));
  fetch.queries[1].role.clear();  // a rate's series have no name
  const std::string error = fetchErrorOf(fetch, fake);
  EXPECT_NE(error.find("its series have no metric name (rate() and sum() drop it), not a "
                       "breaker's state: give its role"),
            std::string::npos)
      << error;
}

TEST(PrometheusQuery, TheImportersErrorsNameTheQueryTheyCameFrom) {
  PrometheusFetch fetch = fleetFetch("http://127.0.0.1:9090");
  FakePrometheus fake = savedFleet();
  // An error ratio given in percent.
  fake.answers[fetch.queries[2].promql].body =
      std::string(kMatrix) + R"({"metric":{},"values":[[1788876000,"50"]]}]}})";
  const std::string error = fetchErrorOf(fetch, fake);
  EXPECT_NE(error.find("/error_ratio/data/result/0/values/0: error_ratio 50 is not a ratio"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("(the answer to query error_ratio 'sum(rate("), std::string::npos) << error;
}

}  // namespace
}  // namespace breakerlab
