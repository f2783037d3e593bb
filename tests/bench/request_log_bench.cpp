// Importing a request log: lines per second and bytes held per call at peak, for a generated
// log of 1 M calls (CSV and JSON Lines), and a replay of it from its recorded calls.
//   build/release/tests/bench/request_log_bench
// With BREAKERLAB_REQUEST_LOG=FILE (e.g. scripts/gen_request_log.py /tmp/1g.csv --bytes 1G) it
// imports that file once instead and prints the time, calls and bytes per call; run it under
// /usr/bin/time -v for the peak RSS.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/request_log.h"

namespace {

using namespace breakerlab;

// 1 M calls of a client at 2000 requests/s with an outage in the middle; a retry after each
// failure.
void generate(const std::filesystem::path& path, RequestLogFormat format, int total) {
  std::ofstream out(path);
  if (format == RequestLogFormat::csv)
    out << "timestamp,duration_ms,status,key,pod,request_id,attempt\n";
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const std::int64_t start_us = 1'788'876'131'000'000;
  std::int64_t t = 0;
  char line[256];
  // In microseconds: a quarter of the span at 2000 requests/s, from an eighth of it.
  const std::int64_t outage_from = std::int64_t{total} / 8 * 1000,
                     outage_to = std::int64_t{total} / 4 * 1000;
  for (int calls = 0, request = 0; calls < total; ++request) {
    t += 1 + static_cast<std::int64_t>(-500.0 * std::log1p(-u(rng)));
    const bool outage = t > outage_from && t < outage_to;
    for (int attempt = 0; attempt < 2 && calls < total; ++attempt) {
      ++calls;  // before the `break` below: a success is a call too
      const bool failed = outage ? u(rng) < 0.6 : u(rng) < 0.01;
      const double ms = failed ? 2.0 : 5 + 40 * u(rng);
      const std::int64_t at = start_us + t + attempt * 60'000;
      if (format == RequestLogFormat::csv) {
        std::snprintf(line, sizeof line, "%lld.%06lld,%.3f,%d,k%d,pod-%d,%d,%d\n",
                      static_cast<long long>(at / 1'000'000),
                      static_cast<long long>(at % 1'000'000), ms, failed ? 503 : 200,
                      request % 5000, request % 16, request, attempt);
      } else {
        std::snprintf(line, sizeof line,
                      "{\"ts\":%lld.%06lld,\"duration_ms\":%.3f,\"status\":%d,\"key\":\"k%d\","
                      "\"pod\":\"pod-%d\",\"request_id\":%d,\"attempt\":%d}\n",
                      static_cast<long long>(at / 1'000'000),
                      static_cast<long long>(at % 1'000'000), ms, failed ? 503 : 200,
                      request % 5000, request % 16, request, attempt);
      }
      out << line;
      if (!failed) break;
    }
  }
}

std::filesystem::path generated(RequestLogFormat format) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("breakerlab-bench-" + std::to_string(::getpid()) +
                     (format == RequestLogFormat::csv ? ".csv" : ".jsonl"));
  if (!std::filesystem::exists(path)) generate(path, format, 1'000'000);
  return path;
}

void importLog(benchmark::State& state, RequestLogFormat format) {
  const auto path = generated(format);
  const auto bytes = static_cast<std::int64_t>(std::filesystem::file_size(path));
  RequestLog log;
  for (auto _ : state) {
    log = readRequestLog(path, format);
    benchmark::DoNotOptimize(log.calls.start.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(log.rows));
  state.counters["calls"] = static_cast<double>(log.rows);
  state.counters["peak_bytes_per_call"] =
      static_cast<double>(log.peak_bytes) / static_cast<double>(log.rows);
  state.counters["held_bytes_per_call"] =
      static_cast<double>(log.calls.bytes() + log.arrivals.capacity() * 12) /
      static_cast<double>(log.rows);
}
BENCHMARK_CAPTURE(importLog, csv_1M, RequestLogFormat::csv)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(importLog, jsonl_1M, RequestLogFormat::jsonl)->Unit(benchmark::kMillisecond);

// The recorded replay's hot path: every call looked up among the recorded ones.
void replayLog(benchmark::State& state) {
  ImportReport report;
  const Incident incident = incidentFromRequestLog(
      readRequestLog(generated(RequestLogFormat::csv), RequestLogFormat::csv), Config{}, report);
  Result r;
  for (auto _ : state) {
    r = simulate(incident, incident.deployed);
    benchmark::DoNotOptimize(r.metrics.failed_checkouts);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(r.simulated_requests));
  state.counters["dependency_calls"] = static_cast<double>(r.metrics.dependency_calls);
}
BENCHMARK(replayLog)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  // BREAKERLAB_REQUEST_LOG_GENERATE=N writes N calls (CSV) to BREAKERLAB_REQUEST_LOG and exits
  // (20000000 is about 1 GB): scripts/gen_request_log.py does the same, more slowly.
  if (const char* n = std::getenv("BREAKERLAB_REQUEST_LOG_GENERATE")) {
    generate(std::getenv("BREAKERLAB_REQUEST_LOG"), RequestLogFormat::csv, std::atoi(n));
    return 0;
  }
  if (const char* file = std::getenv("BREAKERLAB_REQUEST_LOG")) {
    const auto started = std::chrono::steady_clock::now();
    const RequestLog log = readRequestLog(file, RequestLogFormat::csv);
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf(
        "%s: %.2f s, %llu lines, %llu calls, %zu requests, %.1f bytes a call at peak "
        "(reader's arrays), %.1f held\n",
        file, s, static_cast<unsigned long long>(log.lines),
        static_cast<unsigned long long>(log.rows), log.arrivals.size(),
        static_cast<double>(log.peak_bytes) / static_cast<double>(log.rows),
        static_cast<double>(log.calls.bytes() + log.arrivals.capacity() * 12) /
            static_cast<double>(log.rows));
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  for (auto f : {RequestLogFormat::csv, RequestLogFormat::jsonl})
    std::filesystem::remove(generated(f));
  return 0;
}
