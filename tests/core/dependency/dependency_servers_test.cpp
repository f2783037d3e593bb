// DependencyServers' FIFO discipline: c servers, first come first served. The waits its heap of
// free times gives are those of a plain multiset model of the same servers, call for call, for
// server counts that fill the heap's levels exactly and those that leave the last one partial.
#include "dependency/dependency_servers.h"

#include <gtest/gtest.h>

#include <set>

#include "dependency/random.h"

namespace breakerlab {
namespace {

TEST(DependencyServers, WaitsAreThoseOfCServersServingInArrivalOrder) {
  const CounterRng rng(7);
  for (const std::uint32_t servers : {1u, 2u, 3u, 4u, 5u, 6u, 17u, 21u, 40u, 85u}) {
    DependencyCapacity capacity;
    capacity.concurrency = servers;
    DependencyServers model(capacity);
    std::multiset<Micros> free_at;  // the reference: when each busy server comes free
    Micros t = 0;
    for (std::uint64_t call = 0; call < 20000; ++call) {
      // Bursts and lulls: the servers fill up, queue, and drain again.
      const double gap = rng.uniform(Stream::window, call, 0, Purpose::arrival_gap);
      t += static_cast<Micros>(gap * gap * 4000);
      const auto service = static_cast<Micros>(
          1 + 20000 * servers * rng.uniform(Stream::window, call, 0, Purpose::latency) / 8);
      Micros begins = t;
      if (free_at.size() >= servers) {
        begins = std::max(t, *free_at.begin());
        free_at.erase(free_at.begin());
      }
      free_at.insert(begins + service);
      const DependencyServers::Admission a = model.admit(t, service, kNever);
      ASSERT_FALSE(a.queue_full);
      ASSERT_EQ(a.wait, begins - t) << servers << " servers, call " << call;
    }
  }
}

}  // namespace
}  // namespace breakerlab
