#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "in_flight.h"
#include "random.h"

namespace breakerlab {
namespace {

TEST(RadixQueue, PopsInKeyOrderWithTiesInPushOrder) {
  // A monotone workload like the simulator's: pushes never go below the last popped key.
  RadixQueue<int> q;
  std::vector<std::pair<std::uint64_t, int>> reference;  // (key, push index)
  std::vector<std::pair<std::uint64_t, int>> popped;
  const CounterRng rng(1);
  std::uint64_t now = 0;
  int pushed = 0;
  for (int step = 0; step < 20000; ++step) {
    const double u = rng.uniform(Stream::window, static_cast<std::uint64_t>(step), 0, Purpose::key);
    if (u < 0.55 || q.empty()) {
      // Latencies with many exact ties (multiples of 8).
      const auto delay =
          static_cast<std::uint64_t>(
              rng.uniform(Stream::window, static_cast<std::uint64_t>(step), 0, Purpose::latency) *
              64) *
          8;
      q.push(now + delay, pushed);
      reference.emplace_back(now + delay, pushed);
      ++pushed;
    } else {
      now = q.topKey();
      popped.emplace_back(q.topKey(), q.top());
      q.pop();
    }
  }
  while (!q.empty()) {
    popped.emplace_back(q.topKey(), q.top());
    q.pop();
  }
  std::stable_sort(reference.begin(), reference.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  EXPECT_EQ(popped, reference);
}

TEST(InFlight, MergesTimeoutsAndSampledCallsByTimeThenAdmission) {
  InFlight calls(0);
  auto call = [](Micros at, std::uint32_t record) {
    return PendingCall{at, 0, 0, record, {}, CallOutcome::success};
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
