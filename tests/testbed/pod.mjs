// A client pod: serves /checkout (fetches a price from the dependency) and /health behind HAProxy,
// with the scenario's client config, every part a real library or a real limit:
//   - the breaker: opossum 10 (`new CircuitBreaker`) or cockatiel 4 (`circuitBreaker`), with the
//     native options of client.opossum / client.cockatiel; transitions from the library's events;
//   - the connection pool: an undici Pool with `pool.size` connections; undici has no wait limit
//     for a connection, so an attempt first takes one of `size` permits (FIFO, at most
//     `pool.max_wait`, else pool_exhausted) and holds it until the attempt ends or times out;
//   - the per-attempt timeout (an AbortController) and the total deadline;
//   - retries with backoff (none/fixed/exponential) and jitter (none/full/equal/decorrelated);
//   - the in-process price cache (a Map, TTL) as the fallback of a failed or rejected call;
//   - worker slots: at most `workers.per_pod` checkouts at once, `workers.queue` waiting FIFO,
//     else 503 no_worker; /health answers 503 when every slot is busy if the health check shares
//     the slots (load_balancer.health_check.pool: shared).
// prom-client /metrics; every dependency call, checkout and breaker transition logged as JSON Lines.
//
//   node pod.mjs --run RUN.json --pod N      (N from 1; prints "ready PORT" once listening)
import fs from 'node:fs';
import http from 'node:http';
import CircuitBreaker from 'opossum';
import {
  circuitBreaker, handleWhen, ConsecutiveBreaker, CountBreaker, SamplingBreaker,
  ExponentialBackoff, CircuitState, isBrokenCircuitError, isIsolatedCircuitError,
} from 'cockatiel';
import { Pool } from 'undici';
import client from 'prom-client';
import { args, jsonl, nowMs, rng, sleep } from './lib/common.mjs';

const a = args();
const run = JSON.parse(fs.readFileSync(a.run, 'utf8'));
const podIndex = Number(a.pod);
const pod = `pod${podIndex}`;
const port = run.ports.pods[podIndex - 1];
const cfg = run.scenario.client;
const u = rng(run.scenario.seed * 104729 + podIndex);
const callLog = jsonl(`${run.raw}/calls-${pod}.jsonl`);
const checkoutLog = jsonl(`${run.raw}/checkouts-${pod}.jsonl`);
const transitionLog = jsonl(`${run.raw}/transitions-${pod}.jsonl`);

// ---- metrics ------------------------------------------------------------------------------
const registry = new client.Registry();
registry.setDefaultLabels({ pod });
let breakerState = 0; // 0 closed, 1 open, 2 half-open (BreakerLab's *breaker_state convention)
const workers = { busy: 0, queue: [] };
const pool = { inUse: 0, waiters: [] };
new client.Gauge({ name: 'testbed_breaker_state', help: 'Breaker state: 0 closed, 1 open, 2 half-open', registers: [registry], collect() { this.set(breakerState); } });
new client.Gauge({ name: 'testbed_pool_in_use', help: 'Connections of the pool in use', registers: [registry], collect() { this.set(pool.inUse); } });
new client.Gauge({ name: 'testbed_pool_waiting', help: 'Attempts waiting for a connection', registers: [registry], collect() { this.set(pool.waiters.length); } });
new client.Gauge({ name: 'testbed_workers_busy', help: 'Worker slots held by checkouts', registers: [registry], collect() { this.set(workers.busy); } });
new client.Gauge({ name: 'testbed_workers_queued', help: 'Checkouts waiting for a worker slot', registers: [registry], collect() { this.set(workers.queue.length); } });
const callsTotal = new client.Counter({ name: 'testbed_dependency_calls_total', help: 'Dependency calls by outcome', labelNames: ['outcome'], registers: [registry] });
const checkoutsTotal = new client.Counter({ name: 'testbed_checkouts_total', help: 'Checkouts by outcome (fresh, cached, failed)', labelNames: ['outcome'], registers: [registry] });
const callSeconds = new client.Histogram({ name: 'testbed_dependency_call_seconds', help: 'Dependency call duration', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60], registers: [registry] });
const checkoutSeconds = new client.Histogram({ name: 'testbed_checkout_seconds', help: 'Checkout duration at the pod', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60], registers: [registry] });
for (const o of ['success', 'timeout', 'refused', 'server_error', 'client_error', 'pool_exhausted']) callsTotal.inc({ outcome: o }, 0);
for (const o of ['fresh', 'cached', 'failed']) checkoutsTotal.inc({ outcome: o }, 0);

// ---- the dependency's connection pool -----------------------------------------------------
const origin = `http://127.0.0.1:${run.ports.dependency}`;
const undiciPool = new Pool(origin, {
  connections: cfg.pool.size > 0 ? cfg.pool.size : null,
  pipelining: 1,
  keepAliveTimeout: 30000,
  headersTimeout: 0,
  bodyTimeout: 0,
  connect: { timeout: 10000 },
});

// Resolves true with a permit, false when max_wait passed first.
function acquireConnection() {
  if (cfg.pool.size === 0) return Promise.resolve(true);
  if (pool.inUse < cfg.pool.size) { pool.inUse++; return Promise.resolve(true); }
  return new Promise(resolve => {
    const w = { resolve };
    if (cfg.pool.max_wait > 0) {
      w.timer = setTimeout(() => {
        const i = pool.waiters.indexOf(w);
        if (i >= 0) pool.waiters.splice(i, 1);
        resolve(false);
      }, cfg.pool.max_wait);
    }
    pool.waiters.push(w);
  });
}
function releaseConnection() {
  if (cfg.pool.size === 0) return;
  const w = pool.waiters.shift();
  if (w) { clearTimeout(w.timer); w.resolve(true); } else pool.inUse--;
}

class CallError extends Error {
  constructor(outcome, detail) { super(`${outcome}${detail ? `: ${detail}` : ''}`); this.outcome = outcome; }
}

function classify(err) {
  const code = err?.code ?? err?.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'refused';
  if (['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) return 'refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'timeout';
  return 'refused';
}

// One attempt: a connection, the request, the per-attempt timeout (cut at the deadline).
async function attempt(ctx, n) {
  const waitStart = nowMs();
  const got = await acquireConnection();
  const start = nowMs();
  if (!got) {
    const rec = { pod, request_id: ctx.id, attempt: n, key: ctx.key, arrive: ctx.arrive, start: waitStart, end: start, pool_wait_ms: start - waitStart, outcome: 'pool_exhausted', status: 0 };
    callLog.write(rec);
    callsTotal.inc({ outcome: 'pool_exhausted' });
    throw new CallError('pool_exhausted');
  }
  let limit = cfg.timeout.attempt;
  if (ctx.deadline) limit = Math.min(limit, ctx.deadline - start);
  const ac = new AbortController();
  const timer = setTimeout(() => ac.abort(), Math.max(0, limit));
  let outcome = 'success';
  let status = 0;
  let detail = '';
  try {
    const res = await undiciPool.request({
      path: `/price?key=${ctx.key}`,
      method: 'GET',
      headers: { 'x-pod': pod, 'x-request-id': ctx.id, 'x-attempt': String(n) },
      signal: ac.signal,
    });
    status = res.statusCode;
    await res.body.text();
    if (status >= 500 || status === 429) outcome = 'server_error';
    else if (status >= 400) outcome = 'client_error';
  } catch (err) {
    if (ac.signal.aborted) outcome = 'timeout';
    else { outcome = classify(err); detail = err.code ?? err.message; }
  } finally {
    clearTimeout(timer);
    releaseConnection();
  }
  const end = nowMs();
  callLog.write({ pod, request_id: ctx.id, attempt: n, key: ctx.key, arrive: ctx.arrive, start, end, pool_wait_ms: start - waitStart, outcome, status, ...(detail ? { detail } : {}) });
  callsTotal.inc({ outcome });
  callSeconds.observe((end - start) / 1000);
  if (outcome !== 'success') throw new CallError(outcome, detail);
  return status;
}

function backoffDelay(n, prev) {
  const b = cfg.retry.backoff;
  if (cfg.retry.jitter === 'decorrelated') {
    const hi = Math.max(b.base, 3 * prev);
    const d = b.base + u() * (hi - b.base);
    return b.max > 0 ? Math.min(b.max, d) : d;
  }
  let d = b.kind === 'none' ? 0 : b.kind === 'fixed' ? b.base : b.base * b.multiplier ** (n - 1);
  if (b.max > 0) d = Math.min(b.max, d);
  if (cfg.retry.jitter === 'full') d = u() * d;
  else if (cfg.retry.jitter === 'equal') d = d / 2 + u() * (d / 2);
  return d;
}

// The retry loop; `guard` wraps each attempt (the breaker when it sits inside the retry).
async function withRetries(ctx, guard) {
  let prev = cfg.retry.backoff.base;
  for (let n = 0; ; n++) {
    try {
      return await guard(() => attempt(ctx, n));
    } catch (err) {
      const outcome = err.outcome;
      const last = n + 1 >= cfg.retry.max_attempts;
      if (!outcome || last || !cfg.retry.retry_on.includes(outcome)) throw err;
      const d = backoffDelay(n + 1, prev);
      prev = d;
      if (ctx.deadline && nowMs() + d >= ctx.deadline) throw err;
      await sleep(d);
    }
  }
}

// ---- the breaker ----------------------------------------------------------------------------
const counted = err => err instanceof CallError && cfg.breaker.failures.includes(err.outcome);
function transition(state) {
  breakerState = { closed: 0, open: 1, half_open: 2 }[state];
  transitionLog.write({ pod, time: nowMs(), state });
}

let guardBreaker = fn => fn();
let isRejection = () => false;
if (cfg.breaker.enabled && cfg.breaker.library === 'opossum') {
  const options = { timeout: false, ...cfg.opossum, name: pod };
  // errorFilter returning true: the error does not count as a failure.
  options.errorFilter = err => !counted(err);
  const breaker = new CircuitBreaker(fn => fn(), options);
  breaker.on('open', () => transition('open'));
  breaker.on('halfOpen', () => transition('half_open'));
  breaker.on('close', () => transition('closed'));
  guardBreaker = fn => breaker.fire(fn);
  isRejection = err => err?.code === 'EOPENBREAKER' || err?.code === 'ESEMLOCKED';
} else if (cfg.breaker.enabled && cfg.breaker.library === 'cockatiel') {
  const c = cfg.cockatiel;
  const h = c.halfOpenAfter ?? 10000;
  const halfOpenAfter = typeof h === 'number' ? h : h.type === 'constant' ? h.delay
    : new ExponentialBackoff({ initialDelay: h.initialDelay ?? 128, maxDelay: h.maxDelay ?? 30000, exponent: h.exponent ?? 2 });
  const b = c.breaker ?? { type: 'consecutive', threshold: 5 };
  const opt = (k, v) => (v !== undefined ? { [k]: v } : {});
  const impl = b.type === 'consecutive' ? new ConsecutiveBreaker(b.threshold ?? 5)
    : b.type === 'count' ? new CountBreaker({ threshold: b.threshold, size: b.size, ...opt('minimumNumberOfCalls', b.minimumNumberOfCalls) })
      : new SamplingBreaker({ threshold: b.threshold, duration: b.duration, ...opt('minimumRps', b.minimumRps) });
  const options = { halfOpenAfter, breaker: impl };
  if (c.halfOpenSampling) options.halfOpenSampling = c.halfOpenSampling;
  const breaker = circuitBreaker(handleWhen(counted), options);
  const names = { [CircuitState.Closed]: 'closed', [CircuitState.Open]: 'open', [CircuitState.HalfOpen]: 'half_open', [CircuitState.Isolated]: 'open' };
  breaker.onStateChange(state => transition(names[state]));
  guardBreaker = fn => breaker.execute(fn);
  isRejection = err => isBrokenCircuitError(err) || isIsolatedCircuitError(err);
}

// ---- the price, with the cache as fallback ---------------------------------------------------
const cache = new Map(); // key -> time the price was fetched
async function price(ctx) {
  if (cfg.timeout.total > 0) ctx.deadline = ctx.arrive + cfg.timeout.total;
  try {
    if (cfg.breaker.placement === 'inside_retry') await withRetries(ctx, guardBreaker);
    else await guardBreaker(() => withRetries(ctx, fn => fn()));
    if (cfg.fallback.cache.enabled) cache.set(ctx.key, nowMs());
    return { outcome: 'fresh', reason: '' };
  } catch (err) {
    const reason = isRejection(err) ? 'breaker_open' : err.outcome ?? `error ${err.message}`;
    const at = cache.get(ctx.key);
    if (cfg.fallback.cache.enabled && at !== undefined && nowMs() - at < cfg.fallback.cache.ttl) return { outcome: 'cached', reason };
    return { outcome: 'failed', reason };
  }
}

// ---- worker slots ---------------------------------------------------------------------------
function takeWorker() {
  const limit = cfg.workers.per_pod;
  if (limit === 0 || workers.busy < limit) { workers.busy++; return Promise.resolve(true); }
  if (workers.queue.length >= cfg.workers.queue) return Promise.resolve(false);
  return new Promise(resolve => workers.queue.push(resolve));
}
function releaseWorker() {
  const next = workers.queue.shift();
  if (next) next(true); else workers.busy--;
}

// ---- the server ------------------------------------------------------------------------------
let seq = 0;
async function checkout(req, res, url) {
  const arrive = nowMs();
  const ctx = { id: req.headers['x-request-id'] ?? `${pod}-${++seq}`, key: url.searchParams.get('key') ?? '0', arrive };
  let result;
  let gotWorker = false;
  if (!(await takeWorker())) result = { outcome: 'failed', reason: 'no_worker' };
  else {
    gotWorker = true;
    const workerAt = nowMs();
    try {
      result = await price(ctx);
    } catch (err) {
      result = { outcome: 'failed', reason: `error ${err.message}` };
    }
    result.worker_wait_ms = workerAt - arrive;
  }
  const end = nowMs();
  if (gotWorker) releaseWorker();
  checkoutsTotal.inc({ outcome: result.outcome });
  checkoutSeconds.observe((end - arrive) / 1000);
  checkoutLog.write({ pod, request_id: ctx.id, key: ctx.key, arrive, end, ...result });
  const status = result.outcome === 'failed' ? 503 : 200;
  res.writeHead(status, { 'content-type': 'application/json', 'x-pod': pod, 'x-outcome': result.outcome, 'x-reason': result.reason });
  res.end(`{"outcome":"${result.outcome}"}`);
}

const server = http.createServer({ keepAliveTimeout: 65000, requestTimeout: 0 }, (req, res) => {
  const url = new URL(req.url, 'http://pod');
  if (url.pathname === '/checkout') {
    checkout(req, res, url);
  } else if (url.pathname === '/health') {
    const shared = cfg.load_balancer.health_check.pool === 'shared';
    const full = cfg.workers.per_pod > 0 && workers.busy >= cfg.workers.per_pod;
    res.writeHead(shared && full ? 503 : 200, { 'content-type': 'text/plain' });
    res.end(shared && full ? 'no free worker\n' : 'ok\n');
  } else if (url.pathname === '/metrics') {
    registry.metrics().then(text => { res.writeHead(200, { 'content-type': registry.contentType }); res.end(text); });
  } else {
    res.writeHead(404);
    res.end();
  }
});
server.on('error', err => {
  console.error(`${pod}: cannot listen on 127.0.0.1:${port}: ${err.code ?? err.message}`);
  process.exit(3);
});
// Warm-up before "ready": open the pool's connections and run undici's code once with requests
// to the dependency's /health (not logged, no breaker, no cache), so that the first checkouts do
// not pay for TCP connects and a cold JIT. The same for every scenario.
async function warmUp() {
  const n = cfg.pool.size > 0 ? Math.min(cfg.pool.size, 16) : 8;
  for (let round = 0; round < 3; round++) {
    await Promise.all(Array.from({ length: n }, () => undiciPool.request({ path: '/health', method: 'GET' })
      .then(r => r.body.text(), () => undefined)));
  }
}
server.listen({ port, host: '127.0.0.1', exclusive: true }, async () => {
  await warmUp();
  transitionLog.write({ pod, time: nowMs(), state: 'closed', initial: true });
  process.stdout.write(`ready ${port}\n`);
});

async function stop() {
  server.close();
  await Promise.all([callLog.close(), checkoutLog.close(), transitionLog.close()]);
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
