// The BreakerLab side of tests/differential/grpc_throttle.mjs: the retry loop the replay uses
// (RetryLoop: retryAfter, the queue, then the throttle asked when the retry would start), fed the
// same answers the real grpc-js client got, one request after another.
//
// Input (stdin), one log:
//   policy MAX_ATTEMPTS MAX_TOKENS TOKEN_RATIO
//   request ANSWERS      one line per request; ANSWERS the server's answer to each attempt in
//                        order: o (OK), u (UNAVAILABLE, retryable), i (INVALID_ARGUMENT, not)
// Output (stdout): one line per request, "ATTEMPTS LAST", LAST the answer the request ended with.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "replay/parts/retry_loop.h"

namespace breakerlab {
namespace {

CallOutcome outcomeOf(char answer) {
  switch (answer) {
    case 'o':
      return CallOutcome::success;
    case 'u':
      return CallOutcome::server_error;
    default:
      return CallOutcome::client_error;
  }
}

int run() {
  std::string word;
  RetryConfig r;
  double max_tokens = 0, token_ratio = 0;
  std::uint32_t max_attempts = 0;
  if (!(std::cin >> word >> max_attempts >> max_tokens >> token_ratio) || word != "policy") {
    std::cerr << "retry_throttle_driver: the first line must be: policy MAX_ATTEMPTS MAX_TOKENS "
                 "TOKEN_RATIO\n";
    return 2;
  }
  r.max_attempts = max_attempts;
  // gRPC retries the statuses of retryableStatusCodes (UNAVAILABLE here) and nothing else.
  r.retry_on = OutcomeSet{CallOutcome::server_error};
  r.backoff = BackoffKind::none;
  r.jitter = Jitter::none;
  r.throttling = {max_tokens, token_ratio};
  const TimeoutConfig no_deadline{};
  RetryLoop loop(r, 1);
  const auto no_jitter = [](std::uint32_t) { return 0.0; };

  Micros now = 0;
  std::string line;
  std::getline(std::cin, line);  // the rest of the policy line
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string answers;
    if (!(in >> word >> answers) || word != "request" || answers.empty()) {
      std::cerr << "retry_throttle_driver: expected: request ANSWERS, got: " << line << "\n";
      return 2;
    }
    PendingCall call{};
    call.request_start = now;
    std::uint32_t attempts = 0;
    char last = answers[0];
    for (;;) {
      if (call.attempt >= answers.size()) {
        std::cerr << "retry_throttle_driver: request " << line << " made more attempts\n";
        return 2;
      }
      last = answers[call.attempt];
      ++attempts;
      call.at = now;
      call.outcome = outcomeOf(last);
      loop.onAttemptAnswered(call.pod, call.outcome, r);
      // As Simulation::complete: only a failure is retried (a client error is an answer).
      const bool failed =
          call.outcome != CallOutcome::success && call.outcome != CallOutcome::client_error;
      if (!failed ||
          loop.retryAfter(call, false, r, no_deadline, no_jitter) != RetryLoop::Verdict::scheduled)
        break;
      const PendingCall retry = loop.pop();
      now += 1;
      // As Simulation::startRetry: the throttle decides when the retry would start.
      if (!loop.throttleAllowsRetry(retry.pod)) break;
      call = retry;
    }
    std::cout << attempts << ' ' << last << '\n';
    now += 1000;
  }
  return 0;
}

}  // namespace
}  // namespace breakerlab

int main() {
  return breakerlab::run();
}
