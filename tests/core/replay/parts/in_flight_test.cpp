#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "dependency/random.h"
#include "replay/parts/in_flight.h"

namespace breakerlab {
namespace {

// Drives the queue as the simulator does: arrivals in time order, every completion due by an
// arrival popped before it, latencies below the timeout with many exact ties.
std::vector<std::uint32_t> simulateOrder(Micros timeout, Micros mean_gap, int calls,
                                         std::vector<std::uint32_t>& reference) {
  InFlight in_flight(-1000, timeout);
  const CounterRng rng(static_cast<std::uint64_t>(timeout + mean_gap));
  std::vector<std::tuple<Micros, std::uint64_t, std::uint32_t>> expected;
  std::vector<std::uint32_t> popped;
  Micros now = 0;
  for (int i = 0; i < calls; ++i) {
    const auto r = static_cast<std::uint64_t>(i);
    now += static_cast<Micros>(rng.uniform(Stream::window, r, 0, Purpose::arrival_gap) * 2 *
                               static_cast<double>(mean_gap));
    while (!in_flight.empty() && in_flight.nextAt() <= now)
      popped.push_back(in_flight.pop().record);
    const bool hang = rng.uniform(Stream::window, r, 0, Purpose::outcome) < 0.1;
    const auto latency =
        hang ? timeout
             : static_cast<Micros>(rng.uniform(Stream::window, r, 0, Purpose::latency) *
                                   static_cast<double>(timeout / 8)) *
                   8 % timeout;
    PendingCall call{now + latency,
                     now,
                     0,
                     static_cast<std::uint32_t>(i),
                     0,
                     static_cast<std::int32_t>(latency),
                     {},
                     CallOutcome::success,
                     0};
    if (hang) {
      in_flight.pushTimeout(call);
    } else {
      in_flight.push(call);
    }
    expected.emplace_back(call.at, r, call.record);
  }
  while (!in_flight.empty()) popped.push_back(in_flight.pop().record);
  std::sort(expected.begin(), expected.end());
  reference.clear();
  for (const auto& e : expected) reference.push_back(std::get<2>(e));
  return popped;
}

TEST(InFlight, PopsByCompletionTimeThenAdmissionAtAnyRate) {
  std::vector<std::uint32_t> reference;
  // Dense (hundreds in flight), sparse (idle gaps longer than the timeout), and in between.
  for (auto [timeout, gap] : {std::pair<Micros, Micros>{800 * kMillisecond, 60},
                              {800 * kMillisecond, 25 * kMillisecond},
                              {30 * kSecond, 7 * kSecond},
                              {2 * kSecond, 900}}) {
    const auto popped = simulateOrder(timeout, gap, 20000, reference);
    EXPECT_EQ(popped, reference) << "timeout " << timeout << " gap " << gap;
  }
}

TEST(InFlight, MergesTimeoutsAndSampledCallsByTimeThenAdmission) {
  InFlight calls(0, kSecond);
  auto call = [](Micros at, std::uint32_t record) {
    return PendingCall{
        at, 100, 0, record, 0, static_cast<std::int32_t>(at - 100), {}, CallOutcome::success, 0};
  };
  calls.pushTimeout(call(800, 1));  // admitted first
  calls.push(call(800, 2));         // same completion time, admitted second
  calls.push(call(300, 3));
  calls.pushTimeout(call(900, 4));
  std::vector<std::uint32_t> order;
  while (!calls.empty()) order.push_back(calls.pop().record);
  EXPECT_EQ(order, (std::vector<std::uint32_t>{3, 1, 2, 4}));
}

}  // namespace
}  // namespace breakerlab
