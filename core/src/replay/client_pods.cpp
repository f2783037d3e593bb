// The client's pods: the load balancer's round robin and health checks, each pod's workers and
// call threads, and its connection pool.
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

// The load balancer picks a pod in rotation, round robin; the pod gives a worker or queues.
void Simulation::arriveAtPod(Micros t, std::uint32_t key, std::uint32_t record,
                             std::uint32_t request) {
  const bool counted = record != kLeadInRecord;
  const std::uint32_t pods = config_.load_balancer.pods;
  if (client_.in_rotation == 0) {
    if (counted) {
      ++facts_.no_pod_rejections;
      finish(record, CheckoutOutcome::failed, FailReason::no_pod, 0);
    }
    return;
  }
  std::uint32_t pod;
  do {
    pod = client_.round_robin;
    client_.round_robin = client_.round_robin + 1 == pods ? 0 : client_.round_robin + 1;
  } while (!client_.pods[pod].in_rotation);
  Pod& p = client_.pods[pod];
  if (counted && config_.breaker.enabled && !breakers_.single())
    result_.checkouts[record].breaker_closed =
        breakers_.of(static_cast<std::uint16_t>(pod)).state() == BreakerState::closed;
  if (workers_limit_ > 0) {
    if (p.workers_busy >= workers_limit_) {
      noteWorkersFull(p.workers_busy);
      if (p.worker_queue.size() < config_.workers.queue) {
        p.worker_queue.push_back({t, key, record, request});
      } else if (counted) {
        ++facts_.worker_rejections;
        finish(record, CheckoutOutcome::failed, FailReason::no_worker, 0);
      }
      return;
    }
    noteWorkersFree(p.workers_busy);
    ++p.workers_busy;
    levels_.workers.set(t, ++client_.workers_busy);
  }
  if (!beginRequest(t, t, static_cast<std::uint16_t>(pod), key, record, request))
    releaseWorker(static_cast<std::uint16_t>(pod), t);
}

// A worker of the call's pod to make the call on; without one the attempt fails at once.
bool Simulation::takeCallThread(const PendingCall& call) {
  Pod& p = client_.pods[call.pod];
  if (p.workers_busy < workers_limit_) {
    noteWorkersFree(p.workers_busy);
    ++p.workers_busy;
    levels_.workers.set(call.at, ++client_.workers_busy);
    return true;
  }
  noteWorkersFull(p.workers_busy);
  PendingCall failed = call;
  failed.outcome = CallOutcome::pool_exhausted;
  if (isCheckout(call.record)) ++facts_.pool_exhausted;
  lead_in_times_.failures = true;
  complete(failed);
  return false;
}

// The call's worker stays with it until the dependency answers, even after the request gave
// up on it; a call that never answers frees it at the attempt timeout.
void Simulation::holdCallThread(Micros t, std::uint16_t pod, Micros true_latency, Micros duration) {
  const Micros busy = true_latency == kNever ? duration : std::max(duration, true_latency);
  client_.thread_releases.push_back({t + busy, pod});
  std::push_heap(client_.thread_releases.begin(), client_.thread_releases.end(), std::greater<>{});
}

void Simulation::releaseCallThread() {
  std::pop_heap(client_.thread_releases.begin(), client_.thread_releases.end(), std::greater<>{});
  const ClientState::ThreadRelease r = client_.thread_releases.back();
  client_.thread_releases.pop_back();
  releaseWorker(r.pod, r.at);
}

// Takes a connection of the call's pod, or queues the call for one. Returns whether it got one.
bool Simulation::takeConnection(const PendingCall& call) {
  Pod& p = client_.pods[call.pod];
  if (p.pool_busy < pool_limit_) {
    ++p.pool_busy;
    levels_.pool.set(call.at, ++client_.pool_busy);
    if (call.at >= incident_.start) ++facts_.pool_acquisitions;
    return true;
  }
  const Micros max_wait = config_.pool.max_wait;
  const Micros give_up_at = max_wait > 0 ? call.at + max_wait : kNever;
  const std::uint32_t w = client_.addWaiter(call, give_up_at);
  p.pool_queue.push_back(w);
  if (max_wait > 0) client_.addGiveUp({w, client_.pool_waiters[w].generation, give_up_at});
  return false;
}

// A waiter's max wait ran out: the attempt fails with pool_exhausted.
void Simulation::giveUp() {
  const ClientState::GiveUp g = client_.give_ups.front();
  client_.give_ups.pop_front();
  PoolWaiter& w = client_.pool_waiters[g.waiter];
  if (w.generation != g.generation || w.done) return;
  w.done = true;  // the pod's queue frees it when it reaches it
  PendingCall call = w.call;
  call.at = g.at;
  call.duration = static_cast<std::int32_t>(g.at - w.call.at);
  call.outcome = CallOutcome::pool_exhausted;
  if (isCheckout(call.record)) ++facts_.pool_exhausted;
  lead_in_times_.failures = true;
  complete(call);
}

// The call's connection goes to the pod's next waiter, or back to the pool.
void Simulation::releaseConnection(std::uint16_t pod, Micros t) {
  Pod& p = client_.pods[pod];
  // A pool shrunk below what it had in use closes connections as they come back.
  if (p.pool_busy > pool_limit_ || p.pool_queue.empty() || !serveNextWaiter(pod, t)) {
    --p.pool_busy;
    levels_.pool.set(t, --client_.pool_busy);
  }
}

// Hands a connection that is free (a given-back one, or a new one of a grown pool) to the
// pod's first live waiter. Whether there was one.
bool Simulation::serveNextWaiter(std::uint16_t pod, Micros t) {
  Pod& p = client_.pods[pod];
  while (!p.pool_queue.empty()) {
    const std::uint32_t i = p.pool_queue.front();
    p.pool_queue.pop_front();
    PoolWaiter& w = client_.pool_waiters[i];
    const bool waiting = !w.done;
    const PendingCall call = w.call;
    client_.freeWaiter(i);
    if (!waiting) continue;
    if (t >= incident_.start) {
      ++facts_.pool_acquisitions;
      ++facts_.pool_waits;
      facts_.pool_wait_sum += static_cast<std::uint64_t>(t - call.at);
    }
    send(call, t);
    return true;
  }
  return false;
}

// The request's worker goes to the pod's next queued checkout, or becomes free.
void Simulation::releaseWorker(std::uint16_t pod, Micros t) {
  if (workers_limit_ == 0) return;
  Pod& p = client_.pods[pod];
  while (!p.worker_queue.empty()) {
    const WorkerWaiter w = p.worker_queue.front();
    p.worker_queue.pop_front();
    if (beginRequest(t, w.arrival, pod, w.key, w.record, w.request)) return;
  }
  --p.workers_busy;
  levels_.workers.set(t, --client_.workers_busy);
}

void Simulation::healthCheck() {
  const Micros t = client_.next_check_at;
  const HealthCheckConfig& hc = config_.load_balancer.health_check;
  const std::uint32_t pods = config_.load_balancer.pods;  // the pods in service now
  const auto index = static_cast<std::uint32_t>(client_.checks_done % pods);
  ++client_.checks_done;
  // Pods are checked in turn, spread evenly over the interval.
  client_.next_check_at =
      client_.checks_origin + static_cast<Micros>(client_.checks_done) * hc.interval / pods;
  Pod& p = client_.pods[index];
  bool passes = true;
  if (hc.pool != HealthCheckPool::separate && workers_limit_ != 0) {
    passes = p.workers_busy < workers_limit_;
    if (passes) {
      noteWorkersFree(p.workers_busy);
    } else {
      noteWorkersFull(p.workers_busy);
    }
  }
  if (passes) {
    p.failed_checks = 0;
    ++p.passed_checks;
    if (!p.in_rotation && p.passed_checks >= hc.healthy_after) setRotation(t, index, true);
  } else {
    p.passed_checks = 0;
    ++p.failed_checks;
    if (p.in_rotation && p.failed_checks >= hc.unhealthy_after) setRotation(t, index, false);
  }
}

void Simulation::setRotation(Micros t, std::uint32_t pod, bool in) {
  client_.pods[pod].in_rotation = in;
  client_.in_rotation += in ? 1 : -1;
  levels_.ejected.set(t, shape_.max_pods - client_.in_rotation);
  if (t >= incident_.start && t <= incident_.end)
    facts_.pod_events.push_back({t, pod, !in, client_.in_rotation});
}

}  // namespace breakerlab
