#pragma once
// The fleet of tests/data/fixtures/prometheus/fleet-0908.om: three pods' resilience4j breakers
// ("pricing", one series per state and instance), their calls to Pricing and its latency, from
// 13:58 to 14:10 UTC on 8 Sep 2026, every 10 s. Pricing fails 40% of calls from 14:01:40 to
// 14:03:20; pod-1 opens at 14:02:00 and closes at 14:03:10, pod-2 opens at 14:02:10, probes at
// 14:03:10, opens again and closes at 14:04:20, pod-3 opens at 14:02:30 and closes at 14:03:40.
//
// fleet-0908-answers.json holds Prometheus 2.42's answers to kFleetQueries from 14:00:00 to
// 14:10:00 every 10 s, saved with curl from a server backfilled with the .om file:
//   promtool tsdb create-blocks-from openmetrics fleet-0908.om data
//   prometheus --storage.tsdb.path=data --storage.tsdb.retention.time=100y ...
//   curl -G $URL/api/v1/query_range --data-urlencode "query=$Q" --data-urlencode start=1788876000
//        --data-urlencode end=1788876600 --data-urlencode step=10
// each under its role: {"breaker_state": ..., "request_rate": ..., ...}.
#include <string>
#include <vector>

#include "breakerlab/data/prometheus_query.h"

namespace breakerlab::test {

inline const std::string kPrometheusFixtures =
    std::string(BREAKERLAB_DATA_FIXTURES) + "/prometheus/";
inline constexpr double kFleetFrom = 1788876000;  // 2026-09-08T14:00:00Z
inline constexpr double kFleetTo = 1788876600;    // 14:10:00
inline constexpr double kFleetStep = 10;

inline std::vector<PrometheusQuery> fleetQueries() {
  return {
      {"breaker_state", R"(resilience4j_circuitbreaker_state{name="pricing"})"},
      {"request_rate",
       R"(sum by (instance) (rate(http_client_requests_total{uri="/prices"}[30s])))"},
      {"error_ratio",
       R"(sum(rate(http_client_requests_total{uri="/prices",outcome="SERVER_ERROR"}[30s])) / sum(rate(http_client_requests_total{uri="/prices"}[30s])))"},
      {"latency_p50", "max(pricing_latency_p50_seconds)"},
      {"latency_p99", "max(pricing_latency_p99_seconds)"},
  };
}

inline PrometheusFetch fleetFetch(const std::string& url) {
  PrometheusFetch f;
  f.url = url;
  f.from = kFleetFrom;
  f.to = kFleetTo;
  f.step = kFleetStep;
  f.queries = fleetQueries();
  return f;
}

}  // namespace breakerlab::test
