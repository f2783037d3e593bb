#include "breakerlab/core/inputs/work_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace breakerlab {

namespace {

// 40, 0.5, 6e9, 1.2e10: short enough for a one-line message, exact for the small numbers.
std::string number(double v) {
  char buf[32];
  if (std::abs(v) < 1e6 && v == std::floor(v)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.3g", v);
  std::string s = buf;
  // "6e+09" -> "6e9", "1.2e-05" -> "1.2e-5"
  const std::size_t e = s.find('e');
  if (e == std::string::npos) return s;
  std::string exponent = s.substr(e + 1);
  const bool negative = !exponent.empty() && exponent[0] == '-';
  if (!exponent.empty() && (exponent[0] == '+' || exponent[0] == '-')) exponent.erase(0, 1);
  exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
  return s.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
}

std::string seconds(Micros d) {
  return number(toSeconds(d)) + " s";
}

double spanSeconds(Micros from, Micros to) {
  return to > from ? toSeconds(to - from) : 0.0;
}

void addRateTerms(const Incident& incident, WorkEstimate& w) {
  const Traffic& traffic = incident.traffic;
  const Micros start = incident.start, end = incident.end;
  if (traffic.arrivals == ArrivalProcess::recorded) {
    const auto in_window = std::count_if(traffic.recorded.begin(), traffic.recorded.end(),
                                         [&](Micros t) { return t >= start && t < end; });
    w.window_arrivals = static_cast<double>(in_window);
    w.terms.push_back({"traffic.times " + number(w.window_arrivals) + " arrivals in the window",
                       w.window_arrivals});
    const double rps = w.window_arrivals / spanSeconds(start, end);
    w.lead_in_arrivals = rps * toSeconds(traffic.lead_in);
    if (w.lead_in_arrivals > 0)
      w.terms.push_back({"traffic.lead_in " + seconds(traffic.lead_in) + " at their mean " +
                             number(rps) + " rps = " + number(w.lead_in_arrivals) + " requests",
                         w.lead_in_arrivals});
    return;
  }
  std::vector<WorkTerm> pieces;
  for (std::size_t i = 0; i < traffic.rate.size(); ++i) {
    const RatePiece& p = traffic.rate[i];
    const Micros from = std::max(p.from, start), to = std::min(p.to, end);
    if (to <= from) continue;
    // The rate at the clipped ends of a ramp.
    const double length = toSeconds(p.to - p.from);
    const double f0 = toSeconds(from - p.from) / length, f1 = toSeconds(to - p.from) / length;
    const double r0 = p.rps_from + f0 * (p.rps_to - p.rps_from);
    const double r1 = p.rps_from + f1 * (p.rps_to - p.rps_from);
    const double amount = 0.5 * (r0 + r1) * toSeconds(to - from);
    if (amount <= 0) continue;
    const std::string key = "traffic.rate[" + std::to_string(i) + "]";
    const std::string rate = p.rps_from == p.rps_to ? key + ".rps " + number(p.rps_from)
                                                    : key + " " + number(p.rps_from) + " to " +
                                                          number(p.rps_to) + " rps";
    pieces.push_back(
        {rate + " over " + seconds(to - from) + " = " + number(amount) + " requests", amount});
    w.window_arrivals += amount;
  }
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const WorkTerm& a, const WorkTerm& b) { return a.amount > b.amount; });
  // The three largest by name; the rest as one term, so a file of a million pieces gives a
  // message of one line.
  constexpr std::size_t kNamed = 3;
  for (std::size_t i = 0; i < std::min(pieces.size(), kNamed); ++i) w.terms.push_back(pieces[i]);
  if (pieces.size() > kNamed) {
    double rest = 0;
    for (std::size_t i = kNamed; i < pieces.size(); ++i) rest += pieces[i].amount;
    w.terms.push_back({std::to_string(pieces.size() - kNamed) +
                           " more traffic.rate pieces = " + number(rest) + " requests",
                       rest});
  }
  double rps = 0;
  for (const RatePiece& p : traffic.rate) {
    if (p.from <= start && start < p.to) {
      rps = p.rps_from +
            toSeconds(start - p.from) / toSeconds(p.to - p.from) * (p.rps_to - p.rps_from);
      break;
    }
  }
  w.lead_in_arrivals = rps * toSeconds(traffic.lead_in);
  if (w.lead_in_arrivals > 0)
    w.terms.push_back({"traffic.lead_in " + seconds(traffic.lead_in) + " at " + number(rps) +
                           " rps = " + number(w.lead_in_arrivals) + " requests",
                       w.lead_in_arrivals});
}

}  // namespace

WorkEstimate estimateWork(const Incident& incident, const Config& config) {
  WorkEstimate w;
  w.keys = incident.traffic.keys.count;
  w.max_attempts = std::max<std::uint32_t>(1, config.retry.max_attempts);
  // A timed change may raise the attempts: the estimate takes the most the run reaches.
  Config changed = config;
  for (const TimedChange& c : orderedChanges(incident.changes)) {
    applyChange(changed, c);
    w.max_attempts = std::max(w.max_attempts, changed.retry.max_attempts);
  }
  addRateTerms(incident, w);
  const double arrivals = w.window_arrivals + w.lead_in_arrivals;
  const Micros run_start = incident.start - incident.traffic.lead_in;
  const double run_seconds = spanSeconds(run_start, incident.end);

  if (config.pricing.mode == PricingMode::cache_first && config.cache.enabled) {
    // At most one refresh per checkout, and per key at most one per refresh_after.
    double refreshes = arrivals;
    if (config.pricing.refresh_after > 0)
      refreshes =
          std::min(refreshes, static_cast<double>(w.keys) *
                                  (run_seconds / toSeconds(config.pricing.refresh_after) + 1));
    w.refreshes = refreshes;
    if (refreshes > 0)
      w.terms.push_back(
          {"pricing.mode cache_first: up to " + number(refreshes) + " refreshes", refreshes});
  }
  // The terms so far are requests; each may take every attempt (all time out).
  const double requests = (arrivals + w.refreshes) * w.max_attempts;

  const HealthCheckConfig& hc = config.load_balancer.health_check;
  if (hc.enabled && hc.interval > 0) {
    const double checks = config.load_balancer.pods * (run_seconds / toSeconds(hc.interval) + 1);
    w.timer_events += checks;
    w.terms.push_back({"load_balancer.pods " + number(config.load_balancer.pods) +
                           " × (window + lead_in) " + number(run_seconds) +
                           " s / load_balancer.health_check.interval " + seconds(hc.interval) +
                           " = " + number(checks) + " health checks",
                       checks});
  }
  const BreakerConfig& b = config.breaker;
  if (b.enabled && b.library == BreakerLibrary::breakerlab && b.early_probe &&
      b.early_probe_poll > 0) {
    // Polls run only while the breaker is open; the whole run is the bound.
    const double polls = run_seconds / toSeconds(b.early_probe_poll);
    w.timer_events += polls;
    w.terms.push_back({"breaker.open.early_probe.poll " + seconds(b.early_probe_poll) + " over " +
                           number(run_seconds) + " s = " + number(polls) + " polls",
                       polls});
  }
  w.simulated_requests = requests + w.timer_events;
  w.checkout_buckets = incident.checkout_lane.bucket > 0
                           ? std::ceil(static_cast<double>(incident.end - incident.start) /
                                       static_cast<double>(incident.checkout_lane.bucket))
                           : 0;
  return w;
}

std::string WorkEstimate::explain() const {
  std::string requests, timers;
  for (const WorkTerm& t : terms) {
    const bool timer = t.text.find("health checks") != std::string::npos ||
                       t.text.find(" polls") != std::string::npos;
    std::string& into = timer ? timers : requests;
    if (!into.empty()) into += " + ";
    into += t.text;
  }
  std::string out = requests;
  if (!requests.empty() && max_attempts > 1)
    out += "; × retry.max_attempts " + std::to_string(max_attempts) + " = " +
           number((window_arrivals + lead_in_arrivals + refreshes) * max_attempts) + " attempts";
  if (!timers.empty()) out += (out.empty() ? "" : "; + ") + timers;
  return out.empty() ? "no requests" : out;
}

WorkEstimate largestWork(const Incident& incident, std::string* label) {
  WorkEstimate largest = estimateWork(incident, incident.deployed);
  if (label != nullptr) *label = "deployed";
  for (const WhatIf& w : incident.what_ifs) {
    WorkEstimate e = estimateWork(incident, w.config);
    if (e.simulated_requests > largest.simulated_requests) {
      largest = std::move(e);
      if (label != nullptr) *label = "what-if '" + w.name + "'";
    }
  }
  return largest;
}

std::string workLimitProblem(const WorkEstimate& estimate, double max_requests) {
  // NaN never passes: a rate that overflowed is as much too large as a huge one.
  if (estimate.simulated_requests <= max_requests) return {};
  char limit[32];
  std::snprintf(limit, sizeof limit, "%.0f", max_requests);
  const char* what = estimate.timer_events > 0 ? " requests and timer events" : " requests";
  return "the replay would simulate " + number(estimate.simulated_requests) + what +
         ", above the limit of " + limit + ": " + estimate.explain();
}

}  // namespace breakerlab
