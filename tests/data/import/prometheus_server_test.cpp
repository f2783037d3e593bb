// `import --prometheus URL` against a real Prometheus (Debian's `prometheus` 2.42), started by
// the test on 127.0.0.1 on a free port, with a storage folder of its own backfilled from
// tests/data/fixtures/prometheus/fleet-0908.om by `promtool tsdb create-blocks-from openmetrics`;
// and against sockets of the test's own that refuse, never answer, or answer HTML. Loopback only;
// each wait is bounded.
//
// Without the prometheus and promtool binaries the server's tests are skipped, saying so; when
// CI is set (.ci/run, whose setup installs them) they fail instead.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../test_support.h"
#include "breakerlab/core/outcome/expectations.h"
#include "breakerlab/core/outcome/pod_lanes.h"
#include "breakerlab/core/replay/simulate.h"
#include "breakerlab/data/file_io.h"
#include "breakerlab/data/incident_io.h"
#include "breakerlab/data/prometheus_query.h"
#include "prometheus_fleet.h"

namespace breakerlab {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using test::fleetFetch;
using test::kPrometheusFixtures;

// A program on PATH, or "".
std::string onPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

// A loopback socket bound to a port the kernel chose; listening when `backlog` >= 0.
struct LoopbackSocket {
  int fd = -1;
  int port = 0;
  explicit LoopbackSocket(int backlog) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return;
    socklen_t size = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &size);
    port = ntohs(addr.sin_port);
    if (backlog >= 0) ::listen(fd, backlog);
  }
  ~LoopbackSocket() {
    if (fd >= 0) ::close(fd);
  }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;
};

// A free port: bound, then closed (nothing listens there afterwards).
int freePort() {
  LoopbackSocket s(-1);
  return s.port;
}

// Runs `argv` with its output to `log`; returns its pid (-1 when it could not start). The child
// dies with the test process.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out >= 0) {
    ::dup2(out, 1);
    ::dup2(out, 2);
  }
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

// Waits at most `limit` for `pid` to end; its exit status, or -1 if it is still running.
int waitFor(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = Clock::now() + limit;
  for (;;) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    if (Clock::now() > until) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

std::string tail(const fs::path& log) {
  std::ifstream in(log);
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return all.size() > 3000 ? all.substr(all.size() - 3000) : all;
}

// One Prometheus for the suite: started in SetUpTestSuite, stopped in TearDownTestSuite.
class PrometheusServer : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // The proxy of the environment, if any, is not the way to 127.0.0.1.
    ::setenv("no_proxy", "127.0.0.1,localhost", 1);
    ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    const std::string prometheus = onPath("prometheus"), promtool = onPath("promtool");
    if (prometheus.empty() || promtool.empty()) {
      problem_ =
          "no prometheus and promtool on PATH (Debian's package `prometheus`; "
          "scripts/setup-debian.sh installs it)";
      return;
    }
    dir_ = fs::temp_directory_path() / ("breakerlab-prometheus-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "data");
    // Backfill: the fixture's samples as TSDB blocks in the server's storage folder.
    const pid_t backfill = spawn({promtool, "tsdb", "create-blocks-from", "openmetrics",
                                  kPrometheusFixtures + "fleet-0908.om", (dir_ / "data").string()},
                                 dir_ / "promtool.log");
    const int status = waitFor(backfill, std::chrono::seconds(60));
    if (status != 0) {
      if (status == -1) ::kill(backfill, SIGKILL), ::waitpid(backfill, nullptr, 0);
      problem_ =
          "promtool tsdb create-blocks-from openmetrics failed: " + tail(dir_ / "promtool.log");
      return;
    }
    // The four-pod fleet of 12 Sep (another day: blocks of its own).
    const pid_t backfill4 =
        spawn({promtool, "tsdb", "create-blocks-from", "openmetrics",
               kPrometheusFixtures + "fleet4-1209.om", (dir_ / "data").string()},
              dir_ / "promtool4.log");
    const int status4 = waitFor(backfill4, std::chrono::seconds(60));
    if (status4 != 0) {
      if (status4 == -1) ::kill(backfill4, SIGKILL), ::waitpid(backfill4, nullptr, 0);
      problem_ = "promtool tsdb create-blocks-from openmetrics failed on fleet4-1209.om: " +
                 tail(dir_ / "promtool4.log");
      return;
    }
    {
      std::ofstream config(dir_ / "prometheus.yml");
      config << "global:\n  scrape_interval: 1h\n";  // nothing to scrape
    }
    const int port = freePort();
    url_ = "http://127.0.0.1:" + std::to_string(port);
    // Retention far in the past's favour: the backfilled blocks are months old.
    pid_ = spawn(
        {prometheus, "--config.file=" + (dir_ / "prometheus.yml").string(),
         "--storage.tsdb.path=" + (dir_ / "data").string(), "--storage.tsdb.retention.time=100y",
         "--web.listen-address=127.0.0.1:" + std::to_string(port)},
        dir_ / "prometheus.log");
    // Ready: /-/ready answers 200 once the blocks are loaded.
    const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
    const auto until = Clock::now() + std::chrono::seconds(60);
    while (Clock::now() < until) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        problem_ = "prometheus exited while starting: " + tail(dir_ / "prometheus.log");
        return;
      }
      try {
        HttpRequest ready;
        ready.url = url_ + "/-/ready";
        ready.timeout = std::chrono::milliseconds(1000);
        ready.max_body_bytes = 4096;
        if (http->get(ready).status == 200) return;
      } catch (const HttpError&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    problem_ = "prometheus was not ready within 60 s: " + tail(dir_ / "prometheus.log");
  }

  static void TearDownTestSuite() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      if (waitFor(pid_, std::chrono::seconds(10)) == -1) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
      pid_ = -1;
    }
    if (!dir_.empty()) {
      std::error_code ignored;
      fs::remove_all(dir_, ignored);
    }
  }

  void SetUp() override {
    if (problem_.empty()) return;
    if (std::getenv("CI") != nullptr) FAIL() << problem_ << " (CI is set: it must run there)";
    GTEST_SKIP() << problem_;
  }

  static std::string errorOf(const PrometheusFetch& fetch) {
    const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
    const auto e = test::loadErrorOf([&] { importPrometheusUrl(fetch, *http, Config{}); });
    return e ? std::string(e->what()) : std::string();
  }

  static inline std::string problem_;
  static inline std::string url_;
  static inline fs::path dir_;
  static inline pid_t pid_ = -1;
};

TEST_F(PrometheusServer, TheImportIsTheImportOfTheSavedAnswers) {
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  const PrometheusFetch fetch = fleetFetch(url_);
  const PrometheusImport by_url = importPrometheusUrl(fetch, *http, Config{});
  const PrometheusPlan plan = planPrometheusFetch(fetch);
  const std::string saved = readTextFile(kPrometheusFixtures + "fleet-0908-answers.json");
  const ImportedIncident from_file =
      importPrometheusRange(saved, plan.shown, Config{}, prometheusOrigin(plan));
  EXPECT_EQ(incidentToYaml(by_url.imported.incident), incidentToYaml(from_file.incident));
  const ImportedIncident resaved =
      importPrometheusRange(by_url.responses, plan.shown, Config{}, prometheusOrigin(plan));
  EXPECT_EQ(incidentToYaml(resaved.incident), incidentToYaml(from_file.incident));

  // A useful incident: the recorded lane, three pods' traffic, Pricing's bad minute and a half.
  const Incident& inc = by_url.imported.incident;
  ASSERT_NE(inc.recorded.lane("breaker"), nullptr);
  double requests = 0;
  for (const RatePiece& p : inc.traffic.rate)
    requests += p.rps_from * static_cast<double>(p.to - p.from) / kSecond;
  EXPECT_NEAR(requests, 36.0 * 610, 1) << "3 pods at 12 calls a second";
  bool erroring = false;
  for (const DependencySegment& s : inc.dependency.segments) erroring |= s.state == "erroring";
  EXPECT_TRUE(erroring);
  EXPECT_EQ(inc.dependency.name, "pricing");
}

TEST_F(PrometheusServer, TheDefaultQueryFindsEachPodsStateSeries) {
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  PrometheusFetch fetch = fleetFetch(url_);
  fetch.queries.clear();
  fetch.step = 0;  // the default 15 s
  const PrometheusImport imported = importPrometheusUrl(fetch, *http, Config{});
  bool found = false;
  for (const ImportFinding& f : imported.imported.report.findings)
    if (f.what == "query breaker_state") {
      found = true;
      // resilience4j_circuitbreaker_state{instance="pod-N",name="pricing",state=...}: 3 x 3
      // series, 41 points each.
      EXPECT_NE(f.detail.find(": 9 series, 369 samples"), std::string::npos) << f.detail;
    }
  EXPECT_TRUE(found);
  const PrometheusAnswer answer = readPrometheusAnswer(imported.responses);
  EXPECT_EQ(answer.json_error, "");
  EXPECT_NE(imported.responses.find(R"("instance":"pod-3")"), std::string::npos);
}

// Done when (issue 31): a resilience4j per-instance state series, served by a real Prometheus,
// imports by URL into per-pod recorded lanes, and a replay is compared against them.
TEST_F(PrometheusServer, PerInstanceStatesImportByUrlAsPodLanesAndAReplayIsComparedWithThem) {
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  PrometheusFetch fetch;
  fetch.url = url_;
  fetch.from = 1789203600;  // 2026-09-12T09:00:00Z
  fetch.to = 1789204200;    // 09:10:00
  fetch.step = 10;
  fetch.queries = {{"", R"(resilience4j_circuitbreaker_state{name="pricing"})"}};
  const PrometheusImport imported = importPrometheusUrl(fetch, *http, Config{});
  const Incident& inc = imported.imported.incident;

  // Four pods, sorted by instance, each its own lane; the fleet lane open while any pod is,
  // half-open while pod-3 probes alone.
  const auto at = [](const Lane& lane) {
    std::vector<std::pair<std::string, double>> out;
    for (const LaneInterval& i : lane.intervals) out.emplace_back(i.state, toSeconds(i.from));
    return out;
  };
  using Steps = std::vector<std::pair<std::string, double>>;
  ASSERT_EQ(inc.recorded.pod_breakers.size(), 4u);
  EXPECT_EQ(inc.recorded.pod_breakers[0].name, "pod-1");
  EXPECT_EQ(at(inc.recorded.pod_breakers[0]),
            (Steps{{"closed", 0}, {"open", 120}, {"half-open", 180}, {"closed", 190}}));
  EXPECT_EQ(at(inc.recorded.pod_breakers[1]), (Steps{{"closed", 0}}));
  EXPECT_EQ(inc.recorded.pod_breakers[2].name, "pod-3");
  EXPECT_EQ(at(inc.recorded.pod_breakers[2]), (Steps{{"closed", 0},
                                                     {"open", 150},
                                                     {"half-open", 210},
                                                     {"open", 220},
                                                     {"half-open", 280},
                                                     {"closed", 290}}));
  EXPECT_EQ(at(inc.recorded.pod_breakers[3]), (Steps{{"closed", 0}}));
  EXPECT_EQ(inc.recorded.pod_breakers[3].intervals.back().to, 610 * kSecond);
  ASSERT_NE(inc.recorded.lane("breaker"), nullptr);
  EXPECT_EQ(at(*inc.recorded.lane("breaker")), (Steps{{"closed", 0},
                                                      {"open", 120},
                                                      {"half-open", 210},
                                                      {"open", 220},
                                                      {"half-open", 280},
                                                      {"closed", 290}}));
  EXPECT_EQ(inc.deployed.load_balancer.pods, 4u);

  // The import by URL is the import of the same answer made by hand.
  const PrometheusPlan plan = planPrometheusFetch(fetch);
  const std::string saved = readTextFile(kPrometheusFixtures + "fleet4-1209-state.json");
  const ImportedIncident from_file =
      importPrometheusRange(saved, plan.shown, Config{}, prometheusOrigin(plan));
  EXPECT_EQ(from_file.incident.recorded.pod_breakers, inc.recorded.pod_breakers);

  // Through the incident file and back, then replayed: the metrics say nothing of the
  // dependency, so the replay's four per-pod breakers stay closed. Pods 2 and 4 match their
  // recorded lanes exactly; pods 1 and 3, which tripped, do not.
  const Incident reread = parseIncident(incidentToYaml(inc), "fleet4.yaml");
  EXPECT_EQ(reread.recorded.pod_breakers, inc.recorded.pod_breakers);
  const Result result = simulate(reread, reread.deployed);
  ASSERT_EQ(result.pod_breakers.size(), 4u);
  const PodLaneComparison c =
      comparePodLanes(reread.recorded.pod_breakers, result.pod_breakers, 10 * kSecond);
  EXPECT_EQ(c.matching, 2u);
  EXPECT_EQ(c.states_match, 2u);
  EXPECT_EQ(c.replayed_pods, 4u);
  EXPECT_EQ(c.worst_boundary_error, 0);
  ASSERT_EQ(c.pods.size(), 4u);
  EXPECT_FALSE(c.pods[0].comparison.matches);
  EXPECT_TRUE(c.pods[1].comparison.matches);
  EXPECT_FALSE(c.pods[2].comparison.matches);
  EXPECT_TRUE(c.pods[3].comparison.matches);
  EXPECT_EQ(c.pods[1].replayed, "pod 2");
  EXPECT_EQ(c.summary(),
            "2 of 4 pods match; worst boundary 0 s off; pod-1: recorded has 4 intervals, "
            "replayed 1");
  // The calibration check the import wrote says the same.
  const std::vector<ExpectationResult> checks = evaluate(reread.expect, reread, result);
  ASSERT_EQ(checks.size(), 2u);
  EXPECT_EQ(checks[1].expectation->lane, "every pod");
  EXPECT_FALSE(checks[1].passed);
  EXPECT_EQ(checks[1].actual, c.summary());
}

TEST_F(PrometheusServer, ABadQueryIsPrometheussOwnError) {
  PrometheusFetch fetch = fleetFetch(url_);
  fetch.queries[1].promql = "sum(rate(http_client_requests_total[30s])";
  const std::string error = errorOf(fetch);
  EXPECT_EQ(error.rfind(url_ + "/api/v1/query_range: query request_rate 'sum(rate(", 0), 0u)
      << error;
  EXPECT_NE(error.find("Prometheus refused it (HTTP 400, bad_data): "), std::string::npos) << error;
  EXPECT_NE(error.find("parse error"), std::string::npos) << error;
}

TEST_F(PrometheusServer, ALabelSetThatMatchesNothingIsAnError) {
  PrometheusFetch fetch = fleetFetch(url_);
  fetch.queries[0].promql = R"(resilience4j_circuitbreaker_state{name="payments"})";
  const std::string error = errorOf(fetch);
  EXPECT_NE(error.find("query breaker_state 'resilience4j_circuitbreaker_state{name=\"payments\"}"
                       "': matched no series from 2026-09-08T14:00:00Z to "
                       "2026-09-08T14:10:00Z every 10 s"),
            std::string::npos)
      << error;
}

TEST_F(PrometheusServer, TooManySamplesAndTooLongAnAnswerAreRefused) {
  PrometheusFetch fetch = fleetFetch(url_);
  fetch.max_samples = 500;
  std::string error = errorOf(fetch);
  EXPECT_NE(error.find("query breaker_state"), std::string::npos) << error;
  EXPECT_NE(error.find("549 samples in 9 series, more than the limit of 500 (--max-samples)"),
            std::string::npos)
      << error;
  fetch = fleetFetch(url_);
  fetch.max_response_bytes = 2000;
  error = errorOf(fetch);
  EXPECT_NE(error.find("the answer is larger than 2000 bytes (--max-response-mb)"),
            std::string::npos)
      << error;
  // A range vector (a subquery) is no answer to a range query: Prometheus says so.
  fetch = fleetFetch(url_);
  fetch.queries = {{"breaker_state", "resilience4j_circuitbreaker_state[1y:1s]"}};
  error = errorOf(fetch);
  EXPECT_NE(error.find("Prometheus refused it (HTTP 400, bad_data)"), std::string::npos) << error;
}

TEST_F(PrometheusServer, APathThatIsNotTheApiIsHttp404) {
  const std::string error = errorOf(fleetFetch(url_ + "/graph"));
  EXPECT_NE(error.find(url_ + "/graph/api/v1/query_range: query breaker_state"), std::string::npos)
      << error;
  EXPECT_NE(error.find("HTTP 404"), std::string::npos) << error;
  EXPECT_NE(error.find("give the server's address"), std::string::npos) << error;
}

// Sockets of the test's own: no Prometheus needed.
TEST(PrometheusSockets, ARefusedConnectionIsSaid) {
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  const int port = freePort();
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  const auto started = Clock::now();
  const auto e = test::loadErrorOf([&] {
    importPrometheusUrl(fleetFetch("http://127.0.0.1:" + std::to_string(port)), *http, Config{});
  });
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("could not connect (is Prometheus running there?): "),
            std::string::npos)
      << e->what();
  EXPECT_LT(Clock::now() - started, std::chrono::seconds(5));
}

TEST(PrometheusSockets, AServerThatNeverAnswersTimesOut) {
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  // Listening, never accepting: the kernel completes the connection, nothing ever answers.
  LoopbackSocket blackhole(16);
  ASSERT_GT(blackhole.port, 0);
  PrometheusFetch fetch = fleetFetch("http://127.0.0.1:" + std::to_string(blackhole.port));
  fetch.timeout = std::chrono::milliseconds(400);
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  const auto started = Clock::now();
  const auto e = test::loadErrorOf([&] { importPrometheusUrl(fetch, *http, Config{}); });
  const auto took = Clock::now() - started;
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("no answer within 0.4 s (--timeout): "), std::string::npos)
      << e->what();
  EXPECT_GE(took, std::chrono::milliseconds(350));
  EXPECT_LT(took, std::chrono::seconds(5));
}

// Answers every connection with `answer` (one at a time) until stopped.
class CannedServer {
 public:
  explicit CannedServer(std::string answer) : socket_(8), answer_(std::move(answer)) {
    thread_ = std::thread([this] { serve(); });
  }
  ~CannedServer() {
    stop_ = true;
    ::shutdown(socket_.fd, SHUT_RDWR);
    thread_.join();
  }
  int port() const { return socket_.port; }
  std::string lastRequest() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_request_;
  }

 private:
  void serve() {
    while (!stop_) {
      const int client = ::accept(socket_.fd, nullptr, nullptr);
      if (client < 0) return;
      std::string request;
      char buffer[4096];
      while (request.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(client, buffer, sizeof buffer, 0);
        if (n <= 0) break;
        request.append(buffer, static_cast<std::size_t>(n));
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        last_request_ = request;
      }
      (void)!::send(client, answer_.data(), answer_.size(), MSG_NOSIGNAL);
      ::close(client);
    }
  }
  LoopbackSocket socket_;
  std::string answer_;
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::string last_request_;
  std::thread thread_;
};

TEST(PrometheusSockets, AnHtmlPageIsNotJson) {
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  const std::string page = "<html><head><title>Sign in</title></head></html>\n";
  CannedServer server("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " +
                      std::to_string(page.size()) + "\r\nConnection: close\r\n\r\n" + page);
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  const auto e = test::loadErrorOf([&] {
    importPrometheusUrl(fleetFetch("http://127.0.0.1:" + std::to_string(server.port())), *http,
                        Config{});
  });
  ASSERT_TRUE(e);
  const std::string error = e->what();
  EXPECT_NE(error.find("the answer is not JSON (at byte 1: "), std::string::npos) << error;
  EXPECT_NE(error.find("text/html; it starts \"<html><head><title>Sign in"), std::string::npos)
      << error;
}

TEST(PrometheusSockets, TheHeadersAreSent) {
  ::setenv("no_proxy", "127.0.0.1,localhost", 1);
  // The canned server answers 401 like a proxy that wants a token; the request is what counts.
  CannedServer server(
      "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
  PrometheusFetch fetch = fleetFetch("http://127.0.0.1:" + std::to_string(server.port()));
  fetch.headers = {"Authorization: Bearer t0ken"};
  const std::unique_ptr<HttpGet> http = makeCurlHttpGet();
  const auto e = test::loadErrorOf([&] { importPrometheusUrl(fetch, *http, Config{}); });
  ASSERT_TRUE(e);
  EXPECT_NE(std::string(e->what()).find("HTTP 401: an empty body"), std::string::npos) << e->what();
  EXPECT_EQ(std::string(e->what()).find("t0ken"), std::string::npos);
  const std::string request = server.lastRequest();
  EXPECT_EQ(request.rfind("GET /api/v1/query_range?query=", 0), 0u) << request;
  EXPECT_NE(request.find("\r\nAuthorization: Bearer t0ken\r\n"), std::string::npos) << request;
}

}  // namespace
}  // namespace breakerlab
