// Replays a call log through the real opossum or cockatiel under a fake clock, with the order at
// equal times that breakerlab-cli promises (docs/libraries.md, "The replay contract"): library
// timers first, then completions in the order the calls started, then new calls in log order.
import FakeTimers from '@sinonjs/fake-timers';
import CircuitBreaker from 'opossum';
import {
  circuitBreaker,
  handleWhen,
  ConsecutiveBreaker,
  CountBreaker,
  SamplingBreaker,
  ExponentialBackoff,
  noJitterGenerator,
  CircuitState,
} from 'cockatiel';

const DEFAULT_FAILURES = ['failure', 'timeout', 'refused', 'server_error', 'pool_exhausted'];

// The verdict BreakerLab's classification gives an outcome (breaker_types.h).
function classifier(policy) {
  const ext = policy.breakerlab ?? {};
  const failures = new Set(ext.failures ?? DEFAULT_FAILURES);
  const ignored = new Set(ext.ignored ?? []);
  return outcome => {
    if (outcome === 'failure') return 'failure';
    if (ignored.has(outcome)) return 'ignored';
    return failures.has(outcome) ? 'failure' : 'success';
  };
}

// Setimmediate is not faked: it runs after every pending promise reaction.
const flush = () => new Promise(resolve => setImmediate(resolve));

function makeOpossum(policy, verdict, action, transitions, now) {
  const { breakerlab, ...options } = policy;
  options.errorFilter = err => {
    const outcome = err.code === 'ESEMLOCKED' ? 'pool_exhausted'
      : err.breakerlabOutcome ?? (err.code === 'ETIMEDOUT' ? 'timeout' : 'failure');
    return verdict(outcome) !== 'failure';
  };
  const breaker = new CircuitBreaker(action, options);
  breaker.on('open', () => transitions.push([now(), 'open']));
  breaker.on('halfOpen', () => transitions.push([now(), 'half_open']));
  breaker.on('close', () => transitions.push([now(), 'closed']));
  return {
    run: rec => breaker.fire(rec),
    shutdown: () => breaker.shutdown(),
    opened: () => breaker.opened,
    resetTimeout: () => breaker.options.resetTimeout,
  };
}

function cockatielBackoff(h) {
  if (typeof h === 'number') return h;
  if (h.type === 'constant') return h.delay;
  return new ExponentialBackoff({
    initialDelay: h.initialDelay ?? 128,
    maxDelay: h.maxDelay ?? 30000,
    exponent: h.exponent ?? 2,
    generator: noJitterGenerator,
  });
}

function cockatielBreaker(b) {
  switch (b.type) {
    case 'consecutive':
      return new ConsecutiveBreaker(b.threshold);
    case 'count':
      return new CountBreaker({
        threshold: b.threshold,
        size: b.size,
        ...(b.minimumNumberOfCalls !== undefined ? { minimumNumberOfCalls: b.minimumNumberOfCalls } : {}),
      });
    case 'sampling':
      return new SamplingBreaker({
        threshold: b.threshold,
        duration: b.duration,
        ...(b.minimumRps !== undefined ? { minimumRps: b.minimumRps } : {}),
      });
    default:
      throw new Error(`unknown cockatiel breaker ${b.type}`);
  }
}

function makeCockatiel(policy, verdict, action, transitions, now) {
  const options = {
    halfOpenAfter: cockatielBackoff(policy.halfOpenAfter ?? 10000),
    breaker: cockatielBreaker(policy.breaker ?? { type: 'consecutive', threshold: 5 }),
  };
  if (policy.halfOpenSampling) options.halfOpenSampling = policy.halfOpenSampling;
  const breaker = circuitBreaker(handleWhen(err => err.handled === true), options);
  const names = {
    [CircuitState.Closed]: 'closed',
    [CircuitState.Open]: 'open',
    [CircuitState.HalfOpen]: 'half_open',
  };
  breaker.onStateChange(state => transitions.push([now(), names[state]]));
  return { run: rec => breaker.execute(() => action(rec)), shutdown: () => {} };
}

// A Date.now() such as a production process reads (1 Jan 2026, 00:00 UTC). The libraries are
// created at the log's t = 0 with the clock reading epoch + 0: a clock that starts at 0 would
// hide what they do with times near the Unix epoch (cockatiel's SamplingBreaker windows start
// at `startedAt: 0`, so its first sample rotates only when Date.now() is a window past 0).
export const DEFAULT_EPOCH = 1767225600000;

// calls: [{start, duration, outcome}] in whole ms, sorted by start; epoch: Date.now() at the
// log's t = 0, in whole ms.
// Returns {calls: [{permitted, waited_until}], transitions: [[t, to]]}, times in ms of the log.
export async function replay(library, policy, calls, epoch = DEFAULT_EPOCH) {
  const clock = FakeTimers.install({
    now: epoch,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  const now = () => clock.now - epoch;
  const verdict = classifier(policy);
  const transitions = [];
  const records = calls.map(() => ({ invokedAt: null, rejectedAt: null }));
  const pending = []; // completions: {at, seq, settle}
  let seq = 0;

  const action = rec => {
    const r = records[rec.index];
    r.invokedAt = now();
    return new Promise((resolve, reject) => {
      pending.push({
        at: now() + rec.duration,
        seq: seq++,
        settle: () => {
          const v = verdict(rec.outcome);
          if (v === 'success') return resolve('ok');
          const err = new Error(rec.outcome);
          err.breakerlabOutcome = rec.outcome;
          err.handled = v === 'failure';
          reject(err);
        },
      });
    });
  };

  let breaker;
  try {
    breaker = (library === 'opossum' ? makeOpossum : makeCockatiel)(
      policy, verdict, action, transitions, now);
    let next = 0;
    for (;;) {
      let first = -1;
      for (let i = 0; i < pending.length; i++) {
        const p = pending[i];
        if (first < 0 || p.at < pending[first].at ||
            (p.at === pending[first].at && p.seq < pending[first].seq)) first = i;
      }
      const completionAt = first >= 0 ? pending[first].at : Infinity;
      const callAt = next < calls.length ? calls[next].start : Infinity;
      if (completionAt === Infinity && callAt === Infinity) break;
      const t = Math.min(completionAt, callAt);
      if (t > now()) await clock.tickAsync(t - now()); // timers up to t, in order
      if (completionAt <= callAt) {
        const [p] = pending.splice(first, 1);
        p.settle();
      } else {
        const index = next++;
        const rec = { index, ...calls[index] };
        breaker.run(rec).catch(() => {
          const r = records[index];
          if (r.invokedAt === null && r.rejectedAt === null) r.rejectedAt = now();
        });
      }
      await flush();
    }
    // After the log's last call, up to the timer-driven half-open if one is due (opossum's
    // resetTimeout; cockatiel has no timers).
    if (library === 'opossum' && breaker.opened()) {
      await clock.tickAsync(breaker.resetTimeout());
      await flush();
    }
  } finally {
    breaker?.shutdown();
    clock.uninstall();
  }
  return {
    calls: calls.map((c, i) => {
      const r = records[i];
      const permitted = r.invokedAt !== null;
      const decided = permitted ? r.invokedAt : r.rejectedAt;
      return { permitted, waited_until: decided !== null && decided !== c.start ? decided : null };
    }),
    transitions,
  };
}
