// Reading a testbed recording: the real run's numbers that compare.mjs and repeat.mjs hold
// against a replay or against another run.
import fs from 'node:fs';
import path from 'node:path';
import { quantile } from './recording.mjs';

export function readCsv(file) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const header = lines.shift().split(',');
  return lines.map(l => {
    // The testbed's CSVs quote only the free-text columns, which come last; a simple split is
    // enough for the columns read here.
    const f = l.split(',');
    return Object.fromEntries(header.map((h, i) => [h, f[i]]));
  });
}

export const median = xs => { const s = [...xs].sort((a, b) => a - b); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : null; };

// The real run's numbers, times in seconds from the replay's t = 0 (the first arrival's whole second).
export function recorded(rec) {
  const checkouts = readCsv(path.join(rec, 'checkouts.csv'));
  const t0 = firstArrivalSecond(path.join(rec, 'calls.csv')) * 1000;
  const n = checkouts.length;
  const lat = checkouts.map(c => Number(c.latency_ms)).sort((a, b) => a - b);
  const trans = readCsv(path.join(rec, 'transitions.csv')).filter(t => t.initial === '0')
    .map(t => ({ pod: t.pod, state: t.state.replace('_', '-'), t: (Date.parse(t.time) - t0) / 1000 + Number(`0.${t.time.split('.')[1].slice(3, 6)}`) / 1000 }));
  const pods = [...new Set(readCsv(path.join(rec, 'transitions.csv')).map(t => t.pod))];
  const firstOpen = pods.map(p => trans.find(t => t.pod === p && t.state === 'open')?.t).filter(x => x !== undefined);
  const lastClose = pods.map(p => trans.filter(t => t.pod === p && t.state === 'closed').at(-1)?.t).filter(x => x !== undefined);
  return {
    checkouts: n,
    failed_pct: 100 * checkouts.filter(c => c.outcome === 'failed').length / n,
    cached_pct: 100 * checkouts.filter(c => c.outcome === 'cached').length / n,
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
    transitions: trans,
    first_open_s: median(firstOpen),
    last_close_s: median(lastClose),
    pods_tripped: firstOpen.length,
    pods: pods.length,
  };
}

// The whole second (epoch s) of a request log's first arrival: the replay's t = 0.
export function firstArrivalSecond(log) {
  const lines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const col = lines.shift().split(',').indexOf('request_start');
  return Math.floor(Math.min(...lines.map(l => Date.parse(l.split(',')[col]))) / 1000);
}

// The model's pods are numbered by its own round robin, not HAProxy's: each real pod is paired
// with the model pod (each used once) whose transitions match most of its own within 1 s, best
// pairs first; the model's transitions are then renamed after their real pod.
export function alignPods(real, model) {
  const modelPods = [...new Set(model.transitions.map(t => t.pod).filter(p => p && p.startsWith('model-')))];
  if (!modelPods.length) return;
  const realPods = [...new Set(real.transitions.map(t => t.pod))];
  const score = (p, q) => real.transitions.filter(t => t.pod === p && model.transitions.some(m => m.pod === q && m.state === t.state && Math.abs(m.t - t.t) <= 1)).length;
  const pairs = [];
  for (const p of realPods) for (const q of modelPods) pairs.push({ p, q, s: score(p, q) });
  pairs.sort((a, b) => b.s - a.s);
  const name = new Map(), used = new Set();
  for (const { p, q } of pairs) if (!name.has(q) && !used.has(p)) { name.set(q, p); used.add(p); }
  for (const t of model.transitions) if (name.has(t.pod)) t.pod = name.get(t.pod);
}

// The share of the real pods' transitions that `model` enters within 1 s: per pod when the
// model's transitions name pods (--per-pod, or another real run), else against its one lane.
export function matchShare(real, model) {
  if (!real.transitions.length) return null;
  const matched = real.transitions.filter(t => model.transitions.some(m => (m.pod === undefined || m.pod === t.pod) && m.state === t.state && Math.abs(m.t - t.t) <= 1));
  return { matched: matched.length, of: real.transitions.length };
}
