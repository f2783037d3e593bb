// Small helpers the testbed's programs share: a seeded random stream, the wall clock with
// sub-millisecond resolution, JSON Lines output that is flushed before the process exits.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';

// Milliseconds since the epoch, with the fraction performance.now() gives (microseconds).
export const nowMs = () => performance.timeOrigin + performance.now();

// mulberry32: a small, fast, seeded generator; good enough for arrivals, latencies and jitter.
export function rng(seed) {
  let a = (seed >>> 0) || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A standard normal draw (Box-Muller) from a uniform stream.
export function normal(u) {
  const a = Math.max(u(), 1e-12);
  return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u());
}

// A lognormal latency with the given p50 and p99 (ms): ln X ~ N(ln p50, (ln(p99/p50)/2.3263)^2).
export function lognormal(u, p50, p99) {
  if (p99 <= p50) return p50;
  const sigma = Math.log(p99 / p50) / 2.3263478740408408;
  return Math.exp(Math.log(p50) + sigma * normal(u));
}

export function jsonl(file) {
  const stream = fs.createWriteStream(file, { flags: 'w' });
  return {
    write: obj => stream.write(JSON.stringify(obj) + '\n'),
    close: () => new Promise(resolve => stream.end(resolve)),
  };
}

// --name value pairs.
export function args(argv = process.argv.slice(2)) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith('--')) out[argv[i].slice(2)] = argv[i + 1]?.startsWith('--') ? true : argv[++i];
  }
  return out;
}

export const sleep = ms => new Promise(resolve => setTimeout(resolve, Math.max(0, ms)));
