#include "breakerlab/core/breakers/libraries/gobreaker.h"

namespace breakerlab {

namespace {

constexpr Micros kDefaultTimeout = 60 * kSecond;

void onSuccess(GobreakerCounts& c) {
  ++c.total_successes;
  ++c.consecutive_successes;
  c.consecutive_failures = 0;
}
void onFailure(GobreakerCounts& c) {
  ++c.total_failures;
  ++c.consecutive_failures;
  c.consecutive_successes = 0;
}
std::uint32_t minusClamped(std::uint32_t a, std::uint32_t b) {
  return a > b ? a - b : 0;
}

}  // namespace

GobreakerModel::GobreakerModel(const GobreakerSettings& settings, Micros created_at)
    : settings_(settings),
      max_requests_(settings.max_requests == 0 ? 1 : settings.max_requests),
      timeout_(settings.timeout <= 0 ? kDefaultTimeout : settings.timeout) {
  // NewCircuitBreaker: Interval rounded up to a multiple of BucketPeriod.
  std::int64_t buckets = 1;
  if (settings.interval <= 0) {
    interval_ = 0;
    bucket_period_ = 0;
  } else if (settings.bucket_period <= 0) {
    interval_ = settings.interval;
    bucket_period_ = interval_;
  } else {
    bucket_period_ = settings.bucket_period;
    interval_ = (settings.interval + bucket_period_ - 1) / bucket_period_ * bucket_period_;
    buckets = interval_ / bucket_period_;
  }
  buckets_.assign(static_cast<std::size_t>(buckets), GobreakerCounts{});
  consecutive_rule_ = true;
  for (const auto& clause : settings.ready_to_trip.any_of)
    for (const auto& c : clause)
      if (c.numerator != fieldBit(GobreakerField::consecutive_failures) || c.denominator != 0)
        consecutive_rule_ = false;
  toNewGeneration(created_at);
}

std::uint64_t GobreakerModel::ageAt(Micros now) const {
  if (bucket_period_ == 0) return 0;
  const Micros elapsed = now - start_;
  if (elapsed < 0) return 0;
  return static_cast<std::uint64_t>(elapsed / bucket_period_);
}

void GobreakerModel::toNewGeneration(Micros now) {
  ++generation_;
  start_ = now;
  clearCounts();
  switch (state_) {
    case BreakerState::closed:
      expiry_zero_ = interval_ == 0 || buckets_.size() >= 2;
      expiry_ = expiry_zero_ ? 0 : now + interval_;
      break;
    case BreakerState::open:
      expiry_zero_ = false;
      expiry_ = now + timeout_;
      break;
    case BreakerState::half_open:
      expiry_zero_ = true;
      expiry_ = 0;
      break;
  }
}

void GobreakerModel::setState(BreakerState to, Micros now, BreakerTransition::Cause cause) {
  if (state_ == to) return;
  const GobreakerCounts& c = counts_;
  // The trip as its rule saw it: the run of failures, or the window's totals.
  if (cause == BreakerTransition::Cause::trip_rule && consecutive_rule_) {
    report(now, to, BreakerTransition::Cause::consecutive, c.consecutive_failures,
           c.consecutive_failures);
  } else {
    report(now, to, cause, c.total_successes + c.total_failures, c.total_failures);
  }
  toNewGeneration(now);
}

void GobreakerModel::currentState(Micros now) {
  switch (state_) {
    case BreakerState::closed:
      if (!expiry_zero_ && expiry_ < now) {
        toNewGeneration(now);
        endEpisode();
      } else if (buckets_.size() >= 2) {
        grow(ageAt(now));
      }
      break;
    case BreakerState::open:
      if (expiry_ < now)  // expiry.Before(now): at exactly the expiry it is still open
        setState(BreakerState::half_open, now, BreakerTransition::Cause::first_call_after_wait);
      break;
    case BreakerState::half_open:
      break;
  }
}

BreakerPermit GobreakerModel::acquire(Micros now, std::uint32_t /*token*/) {
  currentState(now);
  if (state_ == BreakerState::open) return rejectCall();  // ErrOpenState
  if (state_ == BreakerState::half_open &&
      counts_.requests - counts_.total_exclusions >= max_requests_)
    return rejectCall();  // ErrTooManyRequests
  ++counts_.requests;
  ++buckets_[index(age_)].requests;
  return permitCall(static_cast<std::uint32_t>(generation_), 0, static_cast<std::uint32_t>(age_));
}

void GobreakerModel::record(Micros now, const BreakerPermit& permit, CallOutcome outcome,
                            Micros duration) {
  currentState(now);
  if (permit.generation != static_cast<std::uint32_t>(generation_)) return;
  const std::uint64_t age = permit.probe_index;
  switch (settings_.classification.classify(outcome)) {
    case OutcomeClassification::Verdict::ignored:
      if (inWindow(age)) {
        ++counts_.total_exclusions;
        ++buckets_[index(age)].total_exclusions;
      }
      return;
    case OutcomeClassification::Verdict::success:
      if (inWindow(age)) {
        onSuccess(counts_);
        onSuccess(buckets_[index(age)]);
      }
      if (state_ == BreakerState::closed) {
        if (counts_.total_failures == 0 || consecutive_rule_) endEpisode();
      } else if (state_ == BreakerState::half_open &&
                 counts_.consecutive_successes >= max_requests_) {
        setState(BreakerState::closed, now, BreakerTransition::Cause::probes_succeeded);
      }
      return;
    case OutcomeClassification::Verdict::failure:
      if (state_ == BreakerState::closed) {
        if (inWindow(age)) {
          onFailure(counts_);
          onFailure(buckets_[index(age)]);
          noteFailure(now - duration);
        }
        // ReadyToTrip sees the counts even when the failure fell out of the window.
        if (settings_.ready_to_trip.evaluate(counts_))
          setState(BreakerState::open, now, BreakerTransition::Cause::trip_rule);
      } else if (state_ == BreakerState::half_open) {
        setState(BreakerState::open, now, BreakerTransition::Cause::probes_failed);
      }
      return;
  }
}

bool GobreakerModel::inWindow(std::uint64_t age) const {
  if (age > age_) return false;
  return age_ - age < buckets_.size();
}

void GobreakerModel::clearCounts() {
  counts_ = {};
  age_ = 0;
  for (auto& b : buckets_) b = {};
}

void GobreakerModel::grow(std::uint64_t age) {
  if (age <= age_) return;
  const std::uint64_t diff = age - age_;
  if (diff >= buckets_.size()) {
    clearCounts();
    age_ = age;
    endEpisode();
    return;
  }
  for (std::uint64_t i = 0; i < diff; ++i) roll();
}

void GobreakerModel::roll() {
  ++age_;
  const std::size_t current = index(age_);
  subtract(current);
  buckets_[current] = {};
  if (counts_.total_failures == 0) endEpisode();
}

// rollingCounts.subtract, including its guess at how much of a consecutive run the leaving
// bucket held: the run is shortened only when it spans every failure still in the window.
void GobreakerModel::subtract(std::uint64_t oldest) {
  const std::size_t length = buckets_.size();
  if (length == 0) return;
  oldest %= length;
  const GobreakerCounts bucket = buckets_[oldest];

  // gobreaker sums the other buckets' totals in a loop; counts_ holds the sum of every bucket
  // (both are counted together), so the other buckets' share is counts_ less this bucket's.
  const std::uint32_t successes =
      bucket.consecutive_successes + (counts_.total_successes - bucket.total_successes);
  const std::uint32_t failures =
      bucket.consecutive_failures + (counts_.total_failures - bucket.total_failures);
  if (counts_.consecutive_successes == successes)
    counts_.consecutive_successes =
        minusClamped(counts_.consecutive_successes, bucket.consecutive_successes);
  if (counts_.consecutive_failures == failures)
    counts_.consecutive_failures =
        minusClamped(counts_.consecutive_failures, bucket.consecutive_failures);
  counts_.requests = minusClamped(counts_.requests, bucket.requests);
  counts_.total_successes = minusClamped(counts_.total_successes, bucket.total_successes);
  counts_.total_failures = minusClamped(counts_.total_failures, bucket.total_failures);
  counts_.total_exclusions = minusClamped(counts_.total_exclusions, bucket.total_exclusions);
}

}  // namespace breakerlab
