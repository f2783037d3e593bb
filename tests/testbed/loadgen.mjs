// Open-loop traffic: Poisson arrivals at each traffic phase's rate (seeded), sent to HAProxy
// without waiting for answers (every checkout has its own connection when it needs one). Bounded:
// at most limits.max_checkouts arrivals, none after the run's duration, and every answer waited
// for at most `--answer-timeout` ms (then recorded as failed: loadgen_timeout).
// Records every checkout: id, key, send time, pod (the pod's x-pod header), outcome
// (fresh / cached / failed) and why (x-reason, or HAProxy's status when no pod answered), latency.
//
//   node loadgen.mjs --run RUN.json --t0 EPOCH_MS
// Exits 0 after the last answer (or its timeout); prints a one-line summary.
import fs from 'node:fs';
import { Agent } from 'undici';
import { args, jsonl, nowMs, rng, sleep } from './lib/common.mjs';

const a = args();
const run = JSON.parse(fs.readFileSync(a.run, 'utf8'));
const t0 = Number(a.t0);
const s = run.scenario;
const answerTimeout = Number(a['answer-timeout'] ?? 120000);
const u = rng(s.seed * 31337 + 17);
const log = jsonl(`${run.raw}/loadgen.jsonl`);
const base = `http://127.0.0.1:${run.ports.load_balancer}`;

// The arrival times (ms after t0), drawn up front: exponential gaps at each phase's rate; the
// process is memoryless, so at a phase boundary the next gap is drawn at the new rate.
const arrivals = [];
for (const p of s.traffic.phases) {
  if (p.rate <= 0) continue;
  let t = p.from;
  for (;;) {
    t += (-Math.log(1 - u()) / p.rate) * 1000;
    if (t >= p.to || arrivals.length >= s.limits.max_checkouts) break;
    arrivals.push({ t, key: Math.floor(u() * s.traffic.keys) });
  }
}

// One connection per checkout in flight: never queued behind a slow answer (open loop).
const agent = new Agent({ connections: null, pipelining: 1, keepAliveTimeout: 10000, headersTimeout: 0, bodyTimeout: 0 });
let inflight = 0;
let maxInflight = 0;
const counts = { fresh: 0, cached: 0, failed: 0 };

async function send(i, arr) {
  const id = `c${i}`;
  const sent = nowMs();
  const rec = { id, key: arr.key, scheduled: t0 + arr.t, sent, pod: '', status: 0, outcome: 'failed', reason: '', latency_ms: 0 };
  inflight++;
  maxInflight = Math.max(maxInflight, inflight);
  try {
    const res = await agent.request({
      origin: base,
      path: `/checkout?key=${arr.key}`,
      method: 'GET',
      headers: { 'x-request-id': id },
      signal: AbortSignal.timeout(answerTimeout),
    });
    await res.body.text();
    rec.status = res.statusCode;
    rec.pod = res.headers['x-pod'] ?? '';
    if (rec.pod) {
      rec.outcome = res.headers['x-outcome'] ?? 'failed';
      rec.reason = res.headers['x-reason'] ?? '';
    } else {
      rec.reason = res.statusCode === 503 ? 'no_pod' : `lb_${res.statusCode}`;
    }
  } catch (err) {
    rec.reason = err.name === 'TimeoutError' ? 'loadgen_timeout' : `lb_error ${err.code ?? err.message}`;
  }
  rec.end = nowMs();
  rec.latency_ms = rec.end - sent;
  counts[rec.outcome] = (counts[rec.outcome] ?? 0) + 1;
  inflight--;
  log.write(rec);
}

// Warm-up before t0: HAProxy's and the pods' /health through the load balancer (not recorded),
// so that the first checkouts find open connections and compiled code.
for (let round = 0; round < 3 && nowMs() < t0 - 500; round++) {
  await Promise.all(Array.from({ length: 16 }, () => agent.request({ origin: base, path: '/health', method: 'GET' })
    .then(r => r.body.text(), () => undefined)));
}
const pending = [];
const hardEnd = t0 + s.duration + answerTimeout + 5000;
await sleep(t0 - nowMs());
let lateMax = 0;
const lates = [];
for (let i = 0; i < arrivals.length; i++) {
  const due = t0 + arrivals[i].t;
  const wait = due - nowMs();
  if (wait > 1) await sleep(wait);
  const late = nowMs() - due;
  lateMax = Math.max(lateMax, late);
  lates.push(late);
  if (nowMs() > hardEnd) break;
  pending.push(send(i, arrivals[i]));
}
await Promise.all(pending);
await log.close();
await agent.close();
console.log(`loadgen: ${pending.length} checkouts (fresh ${counts.fresh}, cached ${counts.cached}, failed ${counts.failed}); most in flight ${maxInflight}; latest send ${lateMax.toFixed(1)} ms behind schedule`);
lates.sort((x, y) => x - y);
console.log(`lag p99 ${(lates[Math.floor(0.99 * (lates.length - 1))] ?? 0).toFixed(3)} max ${lateMax.toFixed(3)}`);
const cu = process.cpuUsage();
console.log(`cpu ${cu.user} ${cu.system}`);
process.exit(0);
