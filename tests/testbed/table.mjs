// Markdown tables for docs/validation.md:
//   node table.mjs NAME=compare.json ...     compare.mjs --json results
//   node table.mjs --summary REC ...          each recording's size, CPU and own latency
import fs from 'node:fs';
import path from 'node:path';

if (process.argv[2] === '--summary') {
  console.log('| recording | checkouts / s | wall s | CPU ms per checkout: pods | HAProxy | load generator | (dependency) | (Prometheus) | all parts, % of 2 cores | sends late p99 / max ms | HAProxy + loopback p50 / p99 ms | pod around a call p50 ms |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const rec of process.argv.slice(3)) {
    const m = JSON.parse(fs.readFileSync(path.join(rec, 'summary.json'), 'utf8'));
    const c = m.cpu_ms_per_checkout;
    const o = m.overhead_ms ?? {};
    console.log(`| ${m.scenario} | ${m.checkouts} / ${m.traffic_s} | ${m.wall_s} | ${c.pods} | ${c.haproxy} | ${c.loadgen} | ${c.dependency} | ${c.prometheus} | ${m.cpu_share_of_2_cores_pct} | ${m.loadgen_send_lag_ms?.p99 ?? '—'} / ${m.loadgen_send_lag_ms?.max ?? '—'} | ${o.lb_and_loopback_p50 ?? '—'} / ${o.lb_and_loopback_p99 ?? '—'} | ${o.pod_around_one_call_p50 ?? '—'} |`);
  }
  process.exit(0);
}
const f = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(d));
const sign = (x, d = 1) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(d)}`);
console.log('| scenario | run | failed % model / real (pts) | cached % model / real (pts) | p50 ratio | p99 ratio | first open Δ s | last close Δ s | pod transitions within 1 s |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const arg of process.argv.slice(2)) {
  const [name, file] = arg.includes('=') ? arg.split('=') : [arg, arg];
  for (const r of JSON.parse(fs.readFileSync(file, 'utf8'))) {
    const run = r.kind === 'replay' ? `replay ${r.log}` : `predict ${r.against} from ${r.log}`;
    const t = r.transitions_matched;
    console.log(`| ${name} | ${run} | ${f(r.failed_pct[0], 2)} / ${f(r.failed_pct[1], 2)} (${sign(r.failed_pct[2], 2)}) | ${f(r.cached_pct[0], 2)} / ${f(r.cached_pct[1], 2)} (${sign(r.cached_pct[2], 2)}) | ${f(r.p50_ms[2], 2)} | ${f(r.p99_ms[2], 2)} | ${sign(r.first_open_s[2], 2)} | ${sign(r.last_close_s[2], 2)} | ${t ? `${t.matched}/${t.of} (${f(100 * t.matched / t.of, 0)}%)` : '— (none)'} |`);
  }
}
