// The client's pods as the replay drives them: the pods' state and its transitions are
// ClientPods' (replay/parts/client_pods.h); here the replay records what they did (facts,
// levels, the worker limits a run stands for) and goes on with the request's life.
#include <algorithm>

#include "replay/simulation.h"

namespace breakerlab {

// The load balancer picks a pod in rotation, round robin; the pod gives a worker or queues.
void Simulation::arriveAtPod(Micros t, std::uint32_t key, std::uint32_t record,
                             std::uint32_t request) {
  const bool counted = record != kLeadInRecord;
  if (pods_.inRotation() == 0) {
    if (counted) {
      ++facts_.no_pod_rejections;
      finish(record, CheckoutOutcome::failed, FailReason::no_pod, 0);
    }
    return;
  }
  const std::uint32_t pod = pods_.pickPod(config_.load_balancer.pods);
  if (counted && config_.breaker.enabled && !breakers_.single())
    result_.checkouts[record].breaker_closed =
        breakers_.of(static_cast<std::uint16_t>(pod)).state() == BreakerState::closed;
  if (workers_limit_ > 0) {
    const ClientPods::WorkerAsk worker = pods_.takeWorker(pod, podLimits());
    if (!worker.taken) {
      noteWorkersFull(worker.busy);
      if (!pods_.queueForWorker(pod, {t, key, record, request}, podLimits()) && counted) {
        ++facts_.worker_rejections;
        finish(record, CheckoutOutcome::failed, FailReason::no_worker, 0);
      }
      return;
    }
    noteWorkersFree(worker.busy);
    levels_.workers.set(t, pods_.workersBusy());
  }
  if (!beginRequest(t, t, static_cast<std::uint16_t>(pod), key, record, request))
    releaseWorker(static_cast<std::uint16_t>(pod), t);
}

// A worker of the call's pod to make the call on; without one the attempt fails at once.
bool Simulation::takeCallThread(const PendingCall& call) {
  const ClientPods::WorkerAsk worker = pods_.takeWorker(call.pod, podLimits());
  if (worker.taken) {
    noteWorkersFree(worker.busy);
    levels_.workers.set(call.at, pods_.workersBusy());
    return true;
  }
  noteWorkersFull(worker.busy);
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
  pods_.holdThread(pod, t + busy);
}

void Simulation::releaseCallThread() {
  const ClientPods::ThreadRelease r = pods_.popThreadRelease();
  releaseWorker(r.pod, r.at);
}

// Takes a connection of the call's pod, or queues the call for one. Returns whether it got one.
bool Simulation::takeConnection(const PendingCall& call) {
  if (!pods_.takeConnection(call, podLimits())) return false;
  levels_.pool.set(call.at, pods_.poolBusy());
  if (call.at >= incident_.start) ++facts_.pool_acquisitions;
  return true;
}

// A waiter's max wait ran out: the attempt fails with pool_exhausted.
void Simulation::giveUp() {
  PendingCall call;
  if (!pods_.popGiveUp(call)) return;  // it had its connection, or its slot went to a later one
  call.outcome = CallOutcome::pool_exhausted;
  if (isCheckout(call.record)) ++facts_.pool_exhausted;
  lead_in_times_.failures = true;
  complete(call);
}

// The call's connection goes to the pod's next waiter, or back to the pool.
void Simulation::releaseConnection(std::uint16_t pod, Micros t) {
  PendingCall waiter;
  if (pods_.returnConnection(pod, podLimits(), waiter)) {
    serveWaiter(waiter, t);
  } else {
    levels_.pool.set(t, pods_.poolBusy());
  }
}

// A connection goes at t to a call that waited for it, which is sent.
void Simulation::serveWaiter(const PendingCall& waiter, Micros t) {
  if (t >= incident_.start) {
    ++facts_.pool_acquisitions;
    ++facts_.pool_waits;
    facts_.pool_wait_sum += static_cast<std::uint64_t>(t - waiter.at);
  }
  send(waiter, t);
}

// The request's worker goes to the pod's next queued checkout, or becomes free.
void Simulation::releaseWorker(std::uint16_t pod, Micros t) {
  if (workers_limit_ == 0) return;
  while (pods_.anyWorkerWaiter(pod)) {
    const WorkerWaiter w = pods_.nextWorkerWaiter(pod);
    if (beginRequest(t, w.arrival, pod, w.key, w.record, w.request)) return;
  }
  levels_.workers.set(t, pods_.freeWorker(pod));
}

void Simulation::healthCheck() {
  const HealthCheckConfig& hc = config_.load_balancer.health_check;
  const ClientPods::DueCheck due = pods_.takeDueCheck(hc, config_.load_balancer.pods);
  bool passes = true;
  if (hc.pool != HealthCheckPool::separate && workers_limit_ != 0) {
    // The check waits for a worker of the pod like a request: it passes when one is free.
    const std::uint32_t busy = pods_.workersBusyOn(due.pod);
    passes = busy < workers_limit_;
    if (passes) {
      noteWorkersFree(busy);
    } else {
      noteWorkersFull(busy);
    }
  }
  const ClientPods::RotationMove move = pods_.countCheck(due.pod, passes, hc);
  if (move != ClientPods::RotationMove::none)
    setRotation(due.at, due.pod, move == ClientPods::RotationMove::join);
}

void Simulation::setRotation(Micros t, std::uint32_t pod, bool in) {
  const std::uint32_t in_rotation = pods_.setRotation(pod, in);
  levels_.ejected.set(t, shape_.max_pods - in_rotation);
  if (t >= incident_.start && t <= incident_.end)
    facts_.pod_events.push_back({t, pod, !in, in_rotation});
}

}  // namespace breakerlab
