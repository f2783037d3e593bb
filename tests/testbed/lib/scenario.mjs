// Reads and checks a testbed scenario (format breakerlab-testbed/1, README.md). Every error
// names the file, the line and column, the key and the cause:
//   scenarios/x.yaml:12:5: dependency.phases[1].from: 20s starts before the previous phase ends (30s)
// The result is a plain object with times in milliseconds, shares as numbers from 0 to 1.
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument, LineCounter, isMap, isSeq, isScalar } from 'yaml';

export class ScenarioError extends Error {}

const DURATION_RE = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60000, h: 3600000 };
const OUTCOMES = ['timeout', 'refused', 'server_error', 'client_error', 'pool_exhausted'];

class Reader {
  constructor(file, text) {
    this.file = file;
    this.lc = new LineCounter();
    this.doc = parseDocument(text, { lineCounter: this.lc, uniqueKeys: true, prettyErrors: true });
    if (this.doc.errors.length) {
      const e = this.doc.errors[0];
      const pos = e.linePos?.[0] ?? { line: 1, col: 1 };
      throw new ScenarioError(`${file}:${pos.line}:${pos.col}: not valid YAML: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
    }
  }
  where(node) {
    const off = node?.range?.[0] ?? 0;
    const p = this.lc.linePos(off);
    return `${this.file}:${p.line}:${p.col}`;
  }
  fail(node, key, msg) {
    throw new ScenarioError(`${this.where(node)}: ${key}: ${msg}`);
  }
  // A map's entries as [keyNode, valueNode, keyName]; unknown keys are an error naming the known.
  entries(node, key, known) {
    if (!isMap(node)) this.fail(node, key || '(top level)', 'expected a map of keys');
    const out = {};
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : '?';
      if (!known.includes(k)) {
        this.fail(pair.key, key ? `${key}.${k}` : k,
          `unknown key (known here: ${known.join(', ')})`);
      }
      out[k] = { node: pair.value, keyNode: pair.key, path: key ? `${key}.${k}` : k };
    }
    return out;
  }
  scalar(e) {
    if (!isScalar(e.node)) this.fail(e.node ?? e.keyNode, e.path, 'expected a single value');
    return e.node.value;
  }
  duration(e, { min = 0, allowZero = true } = {}) {
    const v = this.scalar(e);
    if (/^\s*-/.test(String(v))) this.fail(e.node, e.path, `${v} is negative: times count from the run's start (0s)`);
    const m = DURATION_RE.exec(String(v).trim());
    if (!m) this.fail(e.node, e.path, `expected a duration with a unit (800ms, 2s, 1m), got ${JSON.stringify(v)}`);
    const ms = Number(m[1]) * UNIT_MS[m[2]];
    if (ms < min || (!allowZero && ms === 0)) this.fail(e.node, e.path, `${v} is below the minimum ${min} ms${allowZero ? '' : ' (and must be above 0)'}`);
    return ms;
  }
  whole(e, lo, hi) {
    const v = this.scalar(e);
    if (typeof v !== 'number' || !Number.isInteger(v)) this.fail(e.node, e.path, `expected a whole number, got ${JSON.stringify(v)}`);
    if (v < lo || v > hi) this.fail(e.node, e.path, `${v} is out of range ${lo}..${hi}`);
    return v;
  }
  number(e, lo, hi) {
    const v = this.scalar(e);
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(e.node, e.path, `expected a number, got ${JSON.stringify(v)}`);
    if (v < lo || v > hi) this.fail(e.node, e.path, `${v} is out of range ${lo}..${hi}`);
    return v;
  }
  share(e) {
    const v = this.scalar(e);
    let x;
    if (typeof v === 'string' && /^\d+(\.\d+)?%$/.test(v.trim())) x = Number(v.trim().slice(0, -1)) / 100;
    else if (typeof v === 'number') x = v;
    else this.fail(e.node, e.path, `expected a share (5% or 0.05), got ${JSON.stringify(v)}`);
    if (!(x >= 0 && x <= 1)) this.fail(e.node, e.path, `${v} is not a share from 0 to 1 (0% to 100%)`);
    return x;
  }
  bool(e) {
    const v = this.scalar(e);
    if (typeof v !== 'boolean') this.fail(e.node, e.path, `expected true or false, got ${JSON.stringify(v)}`);
    return v;
  }
  oneOf(e, values) {
    const v = this.scalar(e);
    if (!values.includes(v)) this.fail(e.node, e.path, `expected one of ${values.join(', ')}, got ${JSON.stringify(v)}`);
    return v;
  }
  outcomeList(e) {
    if (!isSeq(e.node)) this.fail(e.node, e.path, `expected a list of ${OUTCOMES.join(', ')}`);
    const seen = new Set();
    return e.node.items.map((n, i) => {
      const item = { node: n, path: `${e.path}[${i}]` };
      const v = this.oneOf(item, OUTCOMES);
      if (seen.has(v)) this.fail(n, item.path, `${v} is listed twice`);
      seen.add(v);
      return v;
    });
  }
  // The native options of a library, as plain JSON (checked by the library when the pod starts,
  // and by check() below for their types).
  plain(e) {
    return e.node?.toJSON?.() ?? e.node;
  }
}

function readClient(r, node) {
  const c = {
    breaker: { enabled: true, library: 'opossum', placement: 'outside_retry', failures: ['timeout', 'refused', 'server_error', 'pool_exhausted'] },
    opossum: {},
    cockatiel: {},
    timeout: { attempt: 800, total: 0 },
    retry: { max_attempts: 1, backoff: { kind: 'exponential', base: 200, multiplier: 2, max: 5000 }, jitter: 'full', retry_on: ['timeout', 'refused', 'server_error', 'pool_exhausted'] },
    fallback: { cache: { enabled: true, ttl: 60000 } },
    pool: { size: 0, max_wait: 0 },
    workers: { per_pod: 0, queue: 0 },
    load_balancer: { pods: 1, health_check: { enabled: false, pool: 'shared', interval: 5000, unhealthy_after: 2, healthy_after: 2 } },
  };
  const top = r.entries(node, 'client', ['format', 'breaker', 'opossum', 'cockatiel', 'timeout', 'retry', 'fallback', 'pool', 'workers', 'load_balancer']);
  if (top.format && r.scalar(top.format) !== 'breakerlab-config/1') r.fail(top.format.node, top.format.path, 'must be breakerlab-config/1 when given');
  if (top.breaker) {
    const b = r.entries(top.breaker.node, 'client.breaker', ['enabled', 'library', 'placement', 'failures']);
    if (b.enabled) c.breaker.enabled = r.bool(b.enabled);
    if (b.library) c.breaker.library = r.oneOf(b.library, ['opossum', 'cockatiel']);
    if (b.placement) c.breaker.placement = r.oneOf(b.placement, ['outside_retry', 'inside_retry']);
    if (b.failures) c.breaker.failures = r.outcomeList(b.failures);
  }
  if (top.opossum) {
    const o = r.entries(top.opossum.node, 'client.opossum', ['errorThresholdPercentage', 'resetTimeout', 'rollingCountTimeout', 'rollingCountBuckets', 'volumeThreshold', 'allowWarmUp', 'timeout']);
    for (const [k, e] of Object.entries(o)) {
      if (k === 'allowWarmUp') c.opossum[k] = r.bool(e);
      else if (k === 'timeout' && r.scalar(e) === false) c.opossum[k] = false;
      else c.opossum[k] = r.number(e, 0, 1e12);
    }
  }
  if (top.cockatiel) {
    const o = r.entries(top.cockatiel.node, 'client.cockatiel', ['halfOpenAfter', 'breaker', 'halfOpenSampling']);
    if (o.halfOpenAfter) {
      if (isScalar(o.halfOpenAfter.node)) c.cockatiel.halfOpenAfter = r.number(o.halfOpenAfter, 0, 1e12);
      else {
        const h = r.entries(o.halfOpenAfter.node, o.halfOpenAfter.path, ['type', 'delay', 'initialDelay', 'maxDelay', 'exponent']);
        c.cockatiel.halfOpenAfter = r.plain(o.halfOpenAfter);
        if (h.type) r.oneOf(h.type, ['constant', 'exponential']);
      }
    }
    if (o.breaker) {
      const b = r.entries(o.breaker.node, o.breaker.path, ['type', 'threshold', 'size', 'minimumNumberOfCalls', 'duration', 'minimumRps']);
      if (!b.type) r.fail(o.breaker.node, o.breaker.path, 'needs a type: consecutive, count or sampling');
      r.oneOf(b.type, ['consecutive', 'count', 'sampling']);
      for (const [k, e] of Object.entries(b)) if (k !== 'type') r.number(e, 0, 1e12);
      c.cockatiel.breaker = r.plain(o.breaker);
    }
    if (o.halfOpenSampling) {
      const s = r.entries(o.halfOpenSampling.node, o.halfOpenSampling.path, ['calls', 'threshold']);
      for (const e of Object.values(s)) r.number(e, 0, 1e9);
      c.cockatiel.halfOpenSampling = r.plain(o.halfOpenSampling);
    }
  }
  if (top.timeout) {
    const t = r.entries(top.timeout.node, 'client.timeout', ['attempt', 'total']);
    if (t.attempt) c.timeout.attempt = r.duration(t.attempt, { allowZero: false });
    if (t.total) c.timeout.total = r.duration(t.total);
  }
  if (top.retry) {
    const t = r.entries(top.retry.node, 'client.retry', ['max_attempts', 'backoff', 'jitter', 'retry_on']);
    if (t.max_attempts) c.retry.max_attempts = r.whole(t.max_attempts, 1, 100);
    if (t.backoff) {
      const b = r.entries(t.backoff.node, 'client.retry.backoff', ['kind', 'base', 'multiplier', 'max']);
      if (b.kind) c.retry.backoff.kind = r.oneOf(b.kind, ['none', 'fixed', 'exponential']);
      if (b.base) c.retry.backoff.base = r.duration(b.base);
      if (b.multiplier) c.retry.backoff.multiplier = r.number(b.multiplier, 1, 100);
      if (b.max) c.retry.backoff.max = r.duration(b.max);
    }
    if (t.jitter) c.retry.jitter = r.oneOf(t.jitter, ['none', 'full', 'equal', 'decorrelated']);
    if (t.retry_on) c.retry.retry_on = r.outcomeList(t.retry_on);
  }
  if (top.fallback) {
    const f = r.entries(top.fallback.node, 'client.fallback', ['cache']);
    if (f.cache) {
      const k = r.entries(f.cache.node, 'client.fallback.cache', ['enabled', 'ttl']);
      if (k.enabled) c.fallback.cache.enabled = r.bool(k.enabled);
      if (k.ttl) c.fallback.cache.ttl = r.duration(k.ttl);
    }
  }
  if (top.pool) {
    const p = r.entries(top.pool.node, 'client.pool', ['size', 'max_wait']);
    if (p.size) c.pool.size = r.whole(p.size, 0, 10000);
    if (p.max_wait) c.pool.max_wait = r.duration(p.max_wait);
  }
  if (top.workers) {
    const w = r.entries(top.workers.node, 'client.workers', ['per_pod', 'queue']);
    if (w.per_pod) c.workers.per_pod = r.whole(w.per_pod, 0, 100000);
    if (w.queue) c.workers.queue = r.whole(w.queue, 0, 100000);
    if (c.workers.queue > 0 && c.workers.per_pod === 0) r.fail(w.queue.node, 'client.workers.queue', 'needs workers.per_pod above 0');
  }
  if (top.load_balancer) {
    const l = r.entries(top.load_balancer.node, 'client.load_balancer', ['pods', 'health_check']);
    if (l.pods) c.load_balancer.pods = r.whole(l.pods, 1, 16);
    if (l.health_check) {
      const h = r.entries(l.health_check.node, 'client.load_balancer.health_check', ['enabled', 'pool', 'interval', 'unhealthy_after', 'healthy_after']);
      const hc = c.load_balancer.health_check;
      if (h.enabled) hc.enabled = r.bool(h.enabled);
      if (h.pool) hc.pool = r.oneOf(h.pool, ['shared', 'separate']);
      if (h.interval) hc.interval = r.duration(h.interval, { min: 100 });
      if (h.unhealthy_after) hc.unhealthy_after = r.whole(h.unhealthy_after, 1, 100);
      if (h.healthy_after) hc.healthy_after = r.whole(h.healthy_after, 1, 100);
    }
  }
  return c;
}

function readPhases(r, e, durationMs, readOne) {
  if (!isSeq(e.node) || e.node.items.length === 0) r.fail(e.node, e.path, 'expected a non-empty list of phases');
  const phases = e.node.items.map((n, i) => readOne(n, `${e.path}[${i}]`));
  // Sorted, contiguous from 0, inside the run: an overlap, a gap or a negative time is an error.
  phases.forEach((p, i) => {
    const n = e.node.items[i];
    if (i === 0 && p.from !== 0) r.fail(n, `${e.path}[0].from`, `the first phase must start at 0s (it starts at ${p.from / 1000}s)`);
    if (p.from >= durationMs) r.fail(n, `${e.path}[${i}].from`, `${p.from / 1000}s is at or after the end of the run (duration ${durationMs / 1000}s)`);
    if (p.to !== undefined && p.to <= p.from) r.fail(n, `${e.path}[${i}].to`, `${p.to / 1000}s is not after from (${p.from / 1000}s)`);
    if (i > 0) {
      const prev = phases[i - 1];
      if (p.from < prev.from) r.fail(n, `${e.path}[${i}].from`, `${p.from / 1000}s is before the previous phase's from (${prev.from / 1000}s): phases must be in time order`);
      if (prev.to !== undefined && prev.to > p.from) r.fail(n, `${e.path}[${i}].from`, `${p.from / 1000}s overlaps the previous phase, which runs to ${prev.to / 1000}s`);
      if (prev.to !== undefined && prev.to < p.from) r.fail(n, `${e.path}[${i}].from`, `a gap: the previous phase ends at ${prev.to / 1000}s, this one starts at ${p.from / 1000}s`);
    }
  });
  const last = phases[phases.length - 1];
  if (last.to !== undefined && last.to < durationMs) r.fail(e.node.items.at(-1), `${e.path}[${phases.length - 1}].to`, `the phases end at ${last.to / 1000}s, before the end of the run (${durationMs / 1000}s); leave the last phase's to out`);
  phases.forEach((p, i) => { p.to = i + 1 < phases.length ? phases[i + 1].from : durationMs; });
  return phases;
}

export function parseScenario(file, text = undefined) {
  if (text === undefined) {
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new ScenarioError(`${file}: cannot read the scenario: ${err.code ?? err.message}`);
    }
  }
  const r = new Reader(file, text);
  const root = r.doc.contents;
  if (!root) throw new ScenarioError(`${file}:1:1: (top level): the file is empty`);
  const top = r.entries(root, '', ['format', 'name', 'description', 'seed', 'duration', 'fleet', 'load_balancer', 'client', 'traffic', 'dependency', 'changes', 'ports', 'limits']);
  for (const k of ['format', 'duration', 'client', 'traffic', 'dependency']) {
    if (!top[k]) r.fail(root, k, 'missing (required)');
  }
  if (r.scalar(top.format) !== 'breakerlab-testbed/1') r.fail(top.format.node, 'format', `must be breakerlab-testbed/1, got ${JSON.stringify(r.scalar(top.format))}`);
  const s = {
    file: path.resolve(file),
    name: top.name ? String(r.scalar(top.name)) : path.basename(file).replace(/\.ya?ml$/, ''),
    description: top.description ? String(r.scalar(top.description)) : '',
    seed: top.seed ? r.whole(top.seed, 0, 2 ** 31 - 1) : 1,
    duration: r.duration(top.duration, { min: 1000 }),
  };
  if (s.duration > 3600000) r.fail(top.duration.node, 'duration', 'at most 1h');
  s.client = readClient(r, top.client.node);
  s.fleet = { max_pods: s.client.load_balancer.pods };
  if (top.fleet) {
    const f = r.entries(top.fleet.node, 'fleet', ['max_pods']);
    if (f.max_pods) s.fleet.max_pods = r.whole(f.max_pods, 1, 16);
    if (s.fleet.max_pods < s.client.load_balancer.pods) r.fail(f.max_pods.node, 'fleet.max_pods', `${s.fleet.max_pods} is below client.load_balancer.pods (${s.client.load_balancer.pods})`);
  }
  s.load_balancer = { check_timeout: Math.min(1000, s.client.load_balancer.health_check.interval) };
  if (top.load_balancer) {
    const l = r.entries(top.load_balancer.node, 'load_balancer', ['check_timeout']);
    if (l.check_timeout) s.load_balancer.check_timeout = r.duration(l.check_timeout, { min: 10 });
  }

  const tr = r.entries(top.traffic.node, 'traffic', ['keys', 'phases']);
  if (!tr.phases) r.fail(top.traffic.node, 'traffic.phases', 'missing (required)');
  s.traffic = { keys: tr.keys ? r.whole(tr.keys, 1, 1000000) : 50 };
  s.traffic.phases = readPhases(r, tr.phases, s.duration, (n, p) => {
    const e = r.entries(n, p, ['from', 'to', 'rate']);
    if (!e.from) r.fail(n, `${p}.from`, 'missing (required)');
    if (!e.rate) r.fail(n, `${p}.rate`, 'missing (required)');
    return { from: r.duration(e.from), to: e.to ? r.duration(e.to) : undefined, rate: r.number(e.rate, 0, 500) };
  });

  const dep = r.entries(top.dependency.node, 'dependency', ['phases']);
  if (!dep.phases) r.fail(top.dependency.node, 'dependency.phases', 'missing (required)');
  s.dependency = {};
  s.dependency.phases = readPhases(r, dep.phases, s.duration, (n, p) => {
    const e = r.entries(n, p, ['from', 'to', 'latency', 'refused', 'hang', 'server_error', 'client_error', 'capacity', 'queue']);
    if (!e.from) r.fail(n, `${p}.from`, 'missing (required)');
    const ph = { from: r.duration(e.from), to: e.to ? r.duration(e.to) : undefined, latency: { p50: 20, p99: 80 }, refused: false, hang: 0, server_error: 0, client_error: 0, capacity: 0, queue: 100000 };
    if (e.latency) {
      const l = r.entries(e.latency.node, `${p}.latency`, ['p50', 'p99']);
      if (l.p50) ph.latency.p50 = r.duration(l.p50, { allowZero: false });
      if (l.p99) ph.latency.p99 = r.duration(l.p99, { allowZero: false });
      if (ph.latency.p99 < ph.latency.p50) r.fail(e.latency.node, `${p}.latency.p99`, `${ph.latency.p99} ms is below p50 (${ph.latency.p50} ms)`);
    }
    if (e.refused) ph.refused = r.bool(e.refused);
    for (const k of ['hang', 'server_error', 'client_error']) if (e[k]) ph[k] = r.share(e[k]);
    if (ph.hang + ph.server_error + ph.client_error > 1) r.fail(n, p, `hang + server_error + client_error is ${(ph.hang + ph.server_error + ph.client_error) * 100}%, above 100%`);
    if (e.capacity) ph.capacity = r.whole(e.capacity, 0, 100000);
    if (e.queue) ph.queue = r.whole(e.queue, 0, 1000000);
    if (ph.refused && (e.hang || e.server_error || e.client_error || e.capacity)) r.fail(n, p, 'a refused phase (listener closed) cannot also hang, answer errors or have a capacity');
    return ph;
  });

  s.changes = [];
  if (top.changes) {
    if (!isSeq(top.changes.node)) r.fail(top.changes.node, 'changes', 'expected a list');
    let prevAt = -1;
    top.changes.node.items.forEach((n, i) => {
      const p = `changes[${i}]`;
      const e = r.entries(n, p, ['at', 'pods']);
      if (!e.at || !e.pods) r.fail(n, p, 'needs at and pods (scale the pods in rotation to this number)');
      const at = r.duration(e.at);
      if (at >= s.duration) r.fail(e.at.node, `${p}.at`, `${at / 1000}s is at or after the end of the run (${s.duration / 1000}s)`);
      if (at < prevAt) r.fail(e.at.node, `${p}.at`, 'changes must be in time order');
      prevAt = at;
      const pods = r.whole(e.pods, 1, 16);
      if (pods > s.fleet.max_pods) r.fail(e.pods.node, `${p}.pods`, `${pods} is above fleet.max_pods (${s.fleet.max_pods}): declare the pods the run may scale to`);
      s.changes.push({ at, pods });
    });
  }

  s.ports = { load_balancer: 0, dependency: 0, prometheus: 0, pods: [] };
  s.portNodes = {};
  if (top.ports) {
    const p = r.entries(top.ports.node, 'ports', ['load_balancer', 'dependency', 'prometheus', 'pods']);
    for (const k of ['load_balancer', 'dependency', 'prometheus']) {
      if (p[k]) { s.ports[k] = r.whole(p[k], 0, 65535); s.portNodes[k] = r.where(p[k].node); }
    }
    if (p.pods) {
      if (!isSeq(p.pods.node)) r.fail(p.pods.node, 'ports.pods', 'expected a list of ports, one per pod');
      s.ports.pods = p.pods.node.items.map((n, i) => {
        s.portNodes[`pods[${i}]`] = r.where(n);
        return r.whole({ node: n, path: `ports.pods[${i}]` }, 0, 65535);
      });
      if (s.ports.pods.length !== s.fleet.max_pods) r.fail(p.pods.node, 'ports.pods', `${s.ports.pods.length} ports for ${s.fleet.max_pods} pods (fleet.max_pods): give one per pod, 0 for a free one`);
    }
  }
  s.limits = { max_checkouts: 200000 };
  if (top.limits) {
    const l = r.entries(top.limits.node, 'limits', ['max_checkouts']);
    if (l.max_checkouts) s.limits.max_checkouts = r.whole(l.max_checkouts, 1, 1000000);
  }
  const maxRate = Math.max(...s.traffic.phases.map(p => p.rate));
  if (maxRate > 200) r.fail(tr.phases.node, 'traffic.phases', `a rate of ${maxRate}/s is above the testbed's 200/s (a 2-core machine would be the bottleneck)`);
  return s;
}

// The client section as a breakerlab-config/1 file, for `breakerlab-cli replay --config`.
export function clientConfigYaml(c) {
  const d = ms => `${ms}ms`;
  const lines = [
    'format: breakerlab-config/1',
    'breaker:',
    `  enabled: ${c.breaker.enabled}`,
    `  library: ${c.breaker.library}`,
    `  placement: ${c.breaker.placement}`,
    `  failures: [${c.breaker.failures.join(', ')}]`,
    `timeout: {attempt: ${d(c.timeout.attempt)}, total: ${d(c.timeout.total)}}`,
    'retry:',
    `  max_attempts: ${c.retry.max_attempts}`,
    `  backoff: {kind: ${c.retry.backoff.kind}, base: ${d(c.retry.backoff.base)}, multiplier: ${c.retry.backoff.multiplier}, max: ${d(c.retry.backoff.max)}}`,
    `  jitter: ${c.retry.jitter}`,
    `  retry_on: [${c.retry.retry_on.join(', ')}]`,
    `fallback: {cache: {enabled: ${c.fallback.cache.enabled}, ttl: ${d(c.fallback.cache.ttl)}}}`,
    `pool: {size: ${c.pool.size}, max_wait: ${d(c.pool.max_wait)}}`,
    `workers: {per_pod: ${c.workers.per_pod}, queue: ${c.workers.queue}}`,
    'load_balancer:',
    `  pods: ${c.load_balancer.pods}`,
    `  health_check: {enabled: ${c.load_balancer.health_check.enabled}, pool: ${c.load_balancer.health_check.pool}, interval: ${d(c.load_balancer.health_check.interval)}, unhealthy_after: ${c.load_balancer.health_check.unhealthy_after}, healthy_after: ${c.load_balancer.health_check.healthy_after}}`,
    'pricing: {mode: sync}',
  ];
  if (c.breaker.library === 'opossum') lines.push(`opossum: ${JSON.stringify(c.opossum)}`);
  if (c.breaker.library === 'cockatiel') lines.push(`cockatiel: ${JSON.stringify(c.cockatiel)}`);
  return lines.join('\n') + '\n';
}

// `node lib/scenario.mjs FILE...`: check scenarios; prints the parsed form with --json.
if (import.meta.url === `file://${process.argv[1]}`) {
  const files = process.argv.slice(2).filter(a => !a.startsWith('--'));
  const json = process.argv.includes('--json');
  let bad = 0;
  for (const f of files) {
    try {
      const s = parseScenario(f);
      console.log(json ? JSON.stringify(s, null, 2) : `${f}: ok (${s.duration / 1000}s, ${s.client.load_balancer.pods} pods, ${s.client.breaker.library})`);
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err;
      console.error(err.message);
      bad++;
    }
  }
  process.exit(bad ? 2 : 0);
}
