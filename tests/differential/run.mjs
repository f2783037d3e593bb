// Differential test: random call logs (healthy, failing and recovering phases, slow failures,
// simultaneous calls, steady traffic near a threshold) through the real opossum 10 and
// cockatiel 4, on a fake clock that reads a production Date.now(), and through
// `breakerlab-cli breaker --library ...`; every decision, every held call's time and every
// transition must be the same.
//
//   node run.mjs --cli PATH [--logs N] [--calls N] [--short N] [--fleets N] [--fleet-calls N]
//                [--seed S] [--library opossum|cockatiel]
//   node run.mjs --cli PATH --library opossum|cockatiel --policy FILE --log CALLS.csv  (one log,
//     e.g. a reproducer: start_s,duration_s,outcome in whole ms)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replay, DEFAULT_EPOCH } from './driver.mjs';
import { parseArgs, rng, pick, int } from './common.mjs';

const args = parseArgs();
const CLI = args.cli;
const LOGS = Number(args.logs ?? 12);
const CALLS = Number(args.calls ?? 2000);
const SHORT = Number(args.short ?? 30);
const SEED = Number(args.seed ?? 1);
const ONLY = args.library;
const FLEETS = Number(args.fleets ?? 10);       // fleet logs per library
const FLEET_CALLS = Number(args['fleet-calls'] ?? 3000);
if (!CLI || (args.policy && (!args.log || !ONLY))) {
  console.error('usage: node run.mjs --cli PATH [--logs N] [--calls N] [--short N] [--seed S]\n' +
    '       node run.mjs --cli PATH --library opossum|cockatiel --policy FILE --log CALLS.csv');
  process.exit(2);
}


// A log of `n` calls in phases: healthy, failing (fast or slow failures), recovering, and
// steady traffic whose failure rate hovers near a threshold (where the windows' phase decides
// the trip), some of it with completions on a grid of window-sized steps (rotations at exactly
// `now - startedAt == windowSize`).
// `start`: {hover, rate} starts the log with a steady phase of `rate` calls a second, `hover` of
// them failing.
function randomLog(r, n, start) {
  const calls = [];
  let t = 0;
  while (calls.length < n) {
    const first = start && calls.length === 0;
    const phase = first ? 'steady'
      : pick(r, ['healthy', 'failing', 'failing_slow', 'recovering', 'idle', 'steady', 'steady']);
    const length = first ? n : int(r, 5, 400);
    // Calls per second: fixed rates, and any rate in between (log-uniform).
    const rate = first ? start.rate : r() < 0.7 ? pick(r, [0.5, 2, 8, 10, 40, 200]) : 0.5 * 400 ** r();
    const hover = first ? start.hover : 0.1 + 0.5 * r(); // a steady phase's failure rate
    const grid = r() < 0.4 ? pick(r, [100, 200, 500, 923, 1000]) : 0; // ms; 0: no grid
    for (let k = 0; k < length && calls.length < n; k++) {
      if (phase === 'steady') {
        // Evenly spaced arrivals with a little jitter, as a steady client sends them.
        t += Math.max(0, Math.round((1000 / rate) * (0.75 + 0.5 * r())));
      } else {
        // Some calls share a millisecond with the previous one.
        t += r() < 0.06 ? 0 : Math.max(1, Math.round((-Math.log(1 - r()) / rate) * 1000));
      }
      if (phase === 'idle' && k === 0) t += int(r, 1000, 40000);
      const failP = { healthy: 0.03, failing: 0.85, failing_slow: 0.7, recovering: 0.3, idle: 0.1,
                      steady: hover }[phase];
      let outcome = 'success';
      if (r() < failP) outcome = pick(r, ['failure', 'failure', 'timeout', 'server_error', 'refused']);
      else if (r() < 0.08) outcome = 'client_error';
      let duration;
      if (r() < 0.01) duration = 0;
      else if (outcome !== 'success' && outcome !== 'client_error' && phase === 'failing_slow')
        duration = int(r, 500, 15000);
      else duration = int(r, 1, 300);
      // On a grid: the call completes on the next multiple of the grid step.
      if (grid && phase === 'steady') duration = Math.min(Math.ceil((t + 1) / grid) * grid - t, 15000);
      calls.push({ start: t, duration, outcome });
    }
  }
  return calls;
}

function classificationVariant(r) {
  const v = r();
  if (v < 0.7) return undefined;
  if (v < 0.8) return { failures: ['timeout', 'refused', 'server_error', 'client_error'] };
  if (v < 0.9) return { failures: ['refused', 'server_error'], ignored: ['timeout'] };
  return { failures: ['timeout', 'server_error'], ignored: ['client_error'] };
}

function randomOpossum(r) {
  const buckets = int(r, 1, 20);
  const p = {
    timeout: pick(r, [false, int(r, 200, 3000), int(r, 3000, 12000), 10000]),
    errorThresholdPercentage: pick(r, [50, int(r, 1, 99), 10, 90]),
    resetTimeout: pick(r, [int(r, 50, 2000), int(r, 2000, 30000), 10000]),
    rollingCountTimeout: pick(r, [10000, int(r, 500, 30000)]),
    rollingCountBuckets: buckets,
    volumeThreshold: pick(r, [0, int(r, 1, 40), 20]),
    allowWarmUp: r() < 0.2,
  };
  if (p.rollingCountTimeout / buckets < 1) p.rollingCountBuckets = 1;
  if (r() < 0.25) p.capacity = int(r, 1, 30);
  const c = classificationVariant(r);
  if (c) p.breakerlab = c;
  return p;
}

function randomCockatiel(r, only) {
  const kind = only ?? pick(r, ['consecutive', 'count', 'sampling']);
  let breaker;
  if (kind === 'consecutive') breaker = { type: 'consecutive', threshold: int(r, 1, 12) };
  else if (kind === 'count') {
    const size = int(r, 1, 120);
    breaker = { type: 'count', threshold: pick(r, [0.5, 0.1, 0.9, Math.round(r() * 98 + 1) / 100]), size };
    if (r() < 0.7) breaker.minimumNumberOfCalls = int(r, 1, size);
  } else {
    // Durations: whole seconds (one 1 s window a second), any length (windows of a rounded
    // width), under a second (5 short windows), a few ms off a whole second (rounding).
    breaker = { type: 'sampling', threshold: pick(r, [0.5, 0.2, 0.8, 0.3, Math.round(r() * 98 + 1) / 100]),
                duration: pick(r, [10000, int(r, 1000, 30000), int(r, 100, 999), 1000 * int(r, 5, 30),
                                   1000 * int(r, 1, 15) + int(r, -3, 3)]) };
    if (r() < 0.7) breaker.minimumRps = pick(r, [2, 1, 0.5, int(r, 1, 20), Math.round(r() * 40) / 10 || 0.1]);
  }
  const p = {
    halfOpenAfter: r() < 0.7 ? pick(r, [10000, int(r, 50, 20000)])
      : { type: 'exponential', initialDelay: int(r, 20, 4000), maxDelay: int(r, 4000, 40000), exponent: 2 },
    breaker,
  };
  if (r() < 0.6) p.halfOpenSampling = { calls: int(r, 1, 6), threshold: pick(r, [0, 0.34, 0.5, Math.round(r() * 90) / 100]) };
  const c = classificationVariant(r);
  if (c) p.breakerlab = c;
  return p;
}

// Fixed policies at the edges of each option's range, then random ones.
const FIXED = {
  opossum: [
    { errorThresholdPercentage: 50, resetTimeout: 10000, rollingCountTimeout: 10000, rollingCountBuckets: 10, volumeThreshold: 20 },
    { timeout: 1000, errorThresholdPercentage: 25, resetTimeout: 3000, volumeThreshold: 5, capacity: 3 },
    { timeout: false, errorThresholdPercentage: 1, resetTimeout: 500, rollingCountTimeout: 1000, rollingCountBuckets: 1 },
    { errorThresholdPercentage: 99, resetTimeout: 20000, volumeThreshold: 0, allowWarmUp: true },
  ],
  cockatiel: [
    { halfOpenAfter: 10000, breaker: { type: 'consecutive', threshold: 5 } },
    { halfOpenAfter: 10000, breaker: { type: 'count', threshold: 0.5, size: 100, minimumNumberOfCalls: 20 } },
    { halfOpenAfter: 10000, breaker: { type: 'sampling', threshold: 0.5, duration: 10000, minimumRps: 2 } },
    // The policy of the cockatiel-sampling-early-trip reproducer.
    { halfOpenAfter: 9000, breaker: { type: 'sampling', threshold: 0.3, duration: 12000, minimumRps: 1 } },
    { halfOpenAfter: { type: 'exponential', initialDelay: 500, maxDelay: 8000 }, breaker: { type: 'consecutive', threshold: 3 },
      halfOpenSampling: { calls: 3, threshold: 0.34 } },
  ],
};

function toCsv(calls) {
  return 'start_s,duration_s,outcome\n' +
    calls.map(c => `${c.start / 1000},${c.duration / 1000},${c.outcome}`).join('\n') + '\n';
}

const ms = s => (s === null || s === undefined ? null : Math.round(s * 1000));

function cliReplay(dir, library, policy, calls) {
  const policyFile = join(dir, `${library}.json`);
  const callsFile = join(dir, 'calls.csv');
  writeFileSync(policyFile, JSON.stringify(policy, null, 2));
  writeFileSync(callsFile, toCsv(calls));
  const out = execFileSync(CLI, ['breaker', '--library', library, '--policy', policyFile,
    '--calls', callsFile, '--json'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  const report = JSON.parse(out.toString());
  return {
    calls: report.calls.map(c => ({ permitted: c.permitted, waited_until: ms(c.waited_until) })),
    transitions: report.transitions.map(t => [ms(t.t), t.to]),
  };
}

// Routes a log's calls over a fleet: 1 to 50 pods, some in service from the start and the rest
// joining at a random call, some leaving at a random call (one pod always stays); calls go round
// robin over the pods in service, or to one of them at random.
function routeOverFleet(r, calls) {
  const n = int(r, 1, 50);
  const joins = [], leaves = [];
  for (let p = 0; p < n; p++) {
    joins.push(p === 0 || r() < 0.6 ? 0 : int(r, 0, calls.length - 1));
    leaves.push(p === 0 || r() < 0.7 ? calls.length : int(r, joins[p] + 1, calls.length));
  }
  const randomRouting = r() < 0.3;
  let next = 0;
  return calls.map((c, i) => {
    const serving = [];
    for (let p = 0; p < n; p++) if (joins[p] <= i && i < leaves[p]) serving.push(p);
    const pod = randomRouting ? pick(r, serving) : serving[next++ % serving.length];
    return { ...c, pod };
  });
}

function cliFleetReplay(dir, library, policy, calls) {
  const policyFile = join(dir, `${library}.json`);
  const callsFile = join(dir, 'calls.csv');
  writeFileSync(policyFile, JSON.stringify(policy, null, 2));
  writeFileSync(callsFile, 'start_s,duration_s,outcome,pod\n' +
    calls.map(c => `${c.start / 1000},${c.duration / 1000},${c.outcome},${c.pod}`).join('\n') + '\n');
  const out = execFileSync(CLI, ['breaker', '--library', library, '--policy', policyFile,
    '--calls', callsFile, '--json'], { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
  const report = JSON.parse(out.toString());
  return {
    calls: report.calls.map(c => ({ permitted: c.permitted, waited_until: ms(c.waited_until) })),
    transitions: report.transitions.map(t => [t.pod, ms(t.t), t.to]),
  };
}

function firstDifference(real, ours, calls) {
  const n = Math.max(real.calls.length, ours.calls.length);
  for (let i = 0; i < n; i++) {
    const a = real.calls[i], b = ours.calls[i];
    if (!a || !b || a.permitted !== b.permitted || a.waited_until !== b.waited_until)
      return `call ${i} (start ${calls[i]?.start} ms, ${calls[i]?.duration} ms, ${calls[i]?.outcome}): ` +
        `library ${JSON.stringify(a)}, breakerlab ${JSON.stringify(b)}`;
  }
  const m = Math.max(real.transitions.length, ours.transitions.length);
  for (let i = 0; i < m; i++) {
    const a = real.transitions[i], b = ours.transitions[i];
    if (!a || !b || a[0] !== b[0] || a[1] !== b[1])
      return `transition ${i}: library ${JSON.stringify(a)}, breakerlab ${JSON.stringify(b)}`;
  }
  return null;
}

const dir = mkdtempSync(join(tmpdir(), 'breakerlab-diff-'));
let logs = 0, fleets = 0, mismatches = 0, decisions = 0, transitions = 0, held = 0;
try {
  for (const library of ['opossum', 'cockatiel']) {
    if (ONLY && ONLY !== library) continue;
    const r = rng(SEED * 7919 + (library === 'opossum' ? 1 : 2));
    const runs = FIXED[library].map(policy => ({ policy }));
    for (let k = 0; k < LOGS; k++) runs.push({ policy: library === 'opossum' ? randomOpossum(r) : randomCockatiel(r) });
    // cockatiel's SamplingBreaker over short logs of steady traffic failing at about the
    // threshold (mostly just under it) for 1.5 to 4 durations. The ring of windows decides such
    // a trip only once it has come round, and then where the windows start decides which
    // results it forgets; only the first trip depends on that start (closing resets the windows
    // alike in every model). Long logs mostly trip early, or in a failing phase far above any
    // threshold. (opossum's buckets rotate on timers from its creation: no such start.)
    for (let k = 0; library === 'cockatiel' && k < SHORT; k++) {
      const policy = randomCockatiel(r, 'sampling');
      const n = int(r, 60, 300);
      const rate = Math.min(400, Math.max(0.5, n / ((policy.breaker.duration / 1000) * (1.5 + 2.5 * r()))));
      if (r() < 0.7) // a minimum the traffic reaches
        policy.breaker.minimumRps = Math.max(0.1, Math.round(rate * (0.2 + 0.7 * r()) * 10) / 10);
      const hover = Math.min(0.95, Math.max(0.02, policy.breaker.threshold + 0.03 - 0.1 * r()));
      runs.push({ policy, n, start: { hover, rate } });
    }
    if (args.policy) {
      const lines = readFileSync(args.log, 'utf8').trim().split('\n').slice(1);
      runs.splice(0, runs.length, {
        policy: JSON.parse(readFileSync(args.policy, 'utf8')),
        calls: lines.map(line => {
          const [startS, durationS, outcome] = line.trim().split(',');
          return { start: Math.round(startS * 1000), duration: Math.round(durationS * 1000), outcome };
        }),
      });
    }
    for (const [p, { policy, n, start, calls: given }] of runs.entries()) {
      const logSeed = Math.floor(r() * 1e9);
      const calls = given ?? randomLog(rng(logSeed), n ?? CALLS, start);
      // Date.now() at t = 0: a production clock at any millisecond of a day (the replay's result
      // must not depend on it).
      const epoch = DEFAULT_EPOCH + int(rng(logSeed + 1), 0, 86_400_000);
      const real = await replay(library, policy, calls, epoch);
      const ours = cliReplay(dir, library, policy, calls);
      logs++;
      decisions += calls.length;
      transitions += real.transitions.length;
      held += real.calls.filter(c => c.waited_until !== null).length;
      const diff = firstDifference(real, ours, calls);
      if (diff) {
        mismatches++;
        console.log(`MISMATCH ${library} policy #${p} ${JSON.stringify(policy)} log seed ${logSeed} ` +
          `epoch ${epoch}: ${diff}`);
      }
    }
  }

  // Fleets: every pod keeps its own breaker, as each library keeps one in its process. A log is
  // routed over 1-50 pods (round robin over the pods in service, or at random), pods join and
  // leave mid-log, and each real pod's breaker is fed the calls routed to it; breakerlab-cli
  // replays the log with its pod column, one breaker per pod.
  for (const library of ['opossum', 'cockatiel']) {
    if (ONLY && ONLY !== library) continue;
    const r = rng(SEED * 104729 + (library === 'opossum' ? 3 : 4));
    for (let k = 0; k < FLEETS; k++) {
      const policy = k < FIXED[library].length ? FIXED[library][k]
        : library === 'opossum' ? randomOpossum(r) : randomCockatiel(r);
      const logSeed = Math.floor(r() * 1e9);
      const calls = routeOverFleet(rng(logSeed + 2), randomLog(rng(logSeed), FLEET_CALLS));
      const epoch = DEFAULT_EPOCH + int(rng(logSeed + 1), 0, 86_400_000);
      const pods = [...new Set(calls.map(c => c.pod))].sort((a, b) => a - b);
      // The real library, one instance per pod, fed that pod's calls in log order.
      const real = { calls: new Array(calls.length), transitions: [] };
      for (const pod of pods) {
        const index = [];
        calls.forEach((c, i) => { if (c.pod === pod) index.push(i); });
        const result = await replay(library, policy, index.map(i => calls[i]), epoch);
        result.calls.forEach((c, j) => { real.calls[index[j]] = c; });
        for (const t of result.transitions) real.transitions.push([pod, ...t]);
      }
      const ours = cliFleetReplay(dir, library, policy, calls);
      logs++;
      fleets++;
      decisions += calls.length;
      transitions += real.transitions.length;
      held += real.calls.filter(c => c.waited_until !== null).length;
      // Each pod's transitions in its own order, pod by pod: [pod:time, state].
      const byPod = ts => ts.slice().sort((a, b) => a[0] - b[0]).map(([pod, t, to]) => [`${pod}:${t}`, to]);
      const diff = firstDifference({ calls: real.calls, transitions: byPod(real.transitions) },
                                   { calls: ours.calls, transitions: byPod(ours.transitions) }, calls);
      if (diff) {
        mismatches++;
        console.log(`MISMATCH fleet ${library} #${k} of ${pods.length} pods ${JSON.stringify(policy)} ` +
          `log seed ${logSeed} epoch ${epoch}: ${diff}`);
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${logs} logs (${fleets} of them over a fleet), ${decisions} decisions, ${transitions} transitions, ${held} held calls; ` +
  `${mismatches} logs differ`);
process.exit(mismatches === 0 ? 0 : 1);
