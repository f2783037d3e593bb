// Turns the parts' raw JSON Lines into the recording's files (README.md, "Recording") and
// writes summary.json and the `complete` marker last. Times in the CSVs are ISO 8601 UTC with
// microseconds and `t_s`, seconds from the run's t0.
import fs from 'node:fs';
import path from 'node:path';

export function iso(ms) {
  const whole = Math.floor(ms);
  const micros = Math.round((ms - whole) * 1000);
  const base = new Date(whole).toISOString(); // ...sss Z
  return `${base.slice(0, -1)}${String(Math.min(micros, 999)).padStart(3, '0')}Z`;
}

function readJsonl(file) {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(l => JSON.parse(l));
}

const csvField = v => {
  const s = v === null || v === undefined ? '' : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
function writeCsv(file, header, rows) {
  const out = [header.join(',')];
  for (const r of rows) out.push(header.map(h => csvField(r[h])).join(','));
  fs.writeFileSync(file, out.join('\n') + '\n');
}

export function quantile(sorted, q) {
  if (!sorted.length) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

export function writeRecording({ work, raw, runInfo, series, lbEvents, opChanges, cpu, wallStart, trafficEnd }) {
  const t0 = runInfo.t0;
  const ts = ms => ((ms - t0) / 1000).toFixed(6);
  const files = fs.readdirSync(raw);
  const pods = runInfo.ports.pods.map((_, i) => `pod${i + 1}`);

  // checkouts.csv: what the load generator saw.
  const lg = readJsonl(path.join(raw, 'loadgen.jsonl')).sort((a, b) => a.sent - b.sent);
  writeCsv(path.join(work, 'checkouts.csv'), ['id', 'time', 't_s', 'key', 'pod', 'status', 'outcome', 'reason', 'latency_ms'],
    lg.map(r => ({ ...r, time: iso(r.sent), t_s: ts(r.sent), latency_ms: r.latency_ms.toFixed(3) })));

  // calls.csv: every dependency call the pods made, and a not_sent line for each checkout that
  // made none: a request log breakerlab-cli reads (docs/formats.md, "Request logs").
  const calls = files.filter(f => /^calls-pod\d+\.jsonl$/.test(f)).flatMap(f => readJsonl(path.join(raw, f)));
  const podCheckouts = files.filter(f => /^checkouts-pod\d+\.jsonl$/.test(f)).flatMap(f => readJsonl(path.join(raw, f)));
  const withCalls = new Set(calls.map(c => c.request_id));
  const rows = calls.map(c => ({ at: c.start, timestamp: iso(c.start), duration_ms: (c.end - c.start).toFixed(3), outcome: c.outcome, key: c.key, pod: c.pod, request_id: c.request_id, attempt: c.attempt, request_start: iso(Math.min(c.arrive, c.start)) }));
  const seen = new Set();
  for (const c of podCheckouts) {
    seen.add(c.request_id);
    if (!withCalls.has(c.request_id)) rows.push({ at: c.arrive, timestamp: iso(c.arrive), duration_ms: '0.000', outcome: 'not_sent', key: c.key, pod: c.pod, request_id: c.request_id, attempt: 0, request_start: iso(c.arrive) });
  }
  // Checkouts no pod answered (no pod in rotation): arrivals too.
  for (const r of lg) {
    if (!seen.has(r.id) && !withCalls.has(r.id)) rows.push({ at: r.sent, timestamp: iso(r.sent), duration_ms: '0.000', outcome: 'not_sent', key: r.key, pod: 'none', request_id: r.id, attempt: 0, request_start: iso(r.sent) });
  }
  rows.sort((a, b) => a.at - b.at);
  writeCsv(path.join(work, 'calls.csv'), ['timestamp', 'duration_ms', 'outcome', 'key', 'pod', 'request_id', 'attempt', 'request_start'], rows);

  // pod-checkouts.csv: each pod's own view (worker wait, the reason of a fallback).
  writeCsv(path.join(work, 'pod-checkouts.csv'), ['request_id', 'pod', 'arrive', 't_s', 'key', 'outcome', 'reason', 'worker_wait_ms', 'duration_ms'],
    podCheckouts.sort((a, b) => a.arrive - b.arrive).map(c => ({ ...c, arrive: iso(c.arrive), t_s: ts(c.arrive), worker_wait_ms: c.worker_wait_ms?.toFixed(3) ?? '', duration_ms: (c.end - c.arrive).toFixed(3) })));

  // dependency.csv: what the dependency saw (queueing included).
  const dep = readJsonl(path.join(raw, 'dependency.jsonl')).sort((a, b) => a.arrive - b.arrive);
  writeCsv(path.join(work, 'dependency.csv'), ['arrive', 't_s', 'pod', 'request_id', 'attempt', 'phase', 'queued_ms', 'service_ms', 'outcome', 'client_gone_t_s'],
    dep.map(d => ({ ...d, arrive: iso(d.arrive), t_s: ts(d.arrive), queued_ms: d.start !== null ? (d.start - d.arrive).toFixed(3) : '', service_ms: d.start !== null && d.end !== null ? (d.end - d.start).toFixed(3) : '', client_gone_t_s: d.client_gone ? ts(d.client_gone) : '' })));

  // transitions.csv: each pod's breaker transitions, from the library's own events.
  const trans = files.filter(f => /^transitions-pod\d+\.jsonl$/.test(f)).flatMap(f => readJsonl(path.join(raw, f))).sort((a, b) => a.time - b.time);
  writeCsv(path.join(work, 'transitions.csv'), ['time', 't_s', 'pod', 'state', 'initial'],
    trans.map(t => ({ ...t, time: iso(t.time), t_s: ts(t.time), initial: t.initial ? 1 : 0 })));

  writeCsv(path.join(work, 'lb-events.csv'), ['time', 't_s', 'pod', 'event', 'message'], lbEvents.map(e => ({ ...e, time: iso(e.time), t_s: ts(e.time) })));
  writeCsv(path.join(work, 'operator-changes.csv'), ['time', 't_s', 'command', 'answer', 'from', 'to'], opChanges.map(e => ({ ...e, time: iso(e.time), t_s: ts(e.time) })));

  // Prometheus: each query_range response, and the role bundle breakerlab-cli imports.
  fs.mkdirSync(path.join(work, 'prometheus'));
  for (const [role, resp] of Object.entries(series)) fs.writeFileSync(path.join(work, 'prometheus', `${role}.json`), JSON.stringify(resp));
  const bundle = {};
  for (const role of ['breaker_state', 'request_rate', 'error_ratio', 'latency_p50', 'latency_p99']) bundle[role] = series[role];
  fs.writeFileSync(path.join(work, 'prometheus.json'), JSON.stringify(bundle));
  fs.rmSync(path.join(work, 'prometheus-data'), { recursive: true, force: true });

  // The summary.
  const n = lg.length;
  const count = o => lg.filter(r => r.outcome === o).length;
  const lat = lg.map(r => r.latency_ms).sort((a, b) => a - b);
  const perPod = {};
  for (const p of pods) {
    const tp = trans.filter(t => t.pod === p && !t.initial);
    perPod[p] = { transitions: tp.length, opens: tp.filter(t => t.state === 'open').length, checkouts: lg.filter(r => r.pod === p).length };
  }
  const firstOpen = trans.find(t => t.state === 'open');
  const reasons = {};
  for (const r of lg) if (r.outcome !== 'fresh') reasons[`${r.outcome}:${r.reason}`] = (reasons[`${r.outcome}:${r.reason}`] ?? 0) + 1;
  const partsCpu = ['loadgen', 'haproxy', ...pods].reduce((s, k) => s + (cpu[k] ?? 0), 0);
  // The testbed's own latency: what HAProxy and loopback add (the load generator's latency less
  // the pod's), and what a pod adds around a single successful call (its checkout less the call).
  const podById = new Map(podCheckouts.map(c => [c.request_id, c]));
  const lbOver = lg.filter(r => podById.has(r.id)).map(r => r.latency_ms - (podById.get(r.id).end - podById.get(r.id).arrive)).sort((x, y) => x - y);
  const callsById = new Map();
  for (const c of calls) callsById.set(c.request_id, [...(callsById.get(c.request_id) ?? []), c]);
  const podOver = podCheckouts.filter(c => c.outcome === 'fresh' && callsById.get(c.request_id)?.length === 1)
    .map(c => (c.end - c.arrive) - (callsById.get(c.request_id)[0].end - callsById.get(c.request_id)[0].start)).sort((x, y) => x - y);
  const summary = {
    scenario: runInfo.scenario.name,
    t0: iso(t0),
    wall_s: +((Date.now() - wallStart) / 1000).toFixed(1),
    traffic_s: +((trafficEnd - t0) / 1000).toFixed(1),
    checkouts: n,
    fresh_pct: +(100 * count('fresh') / n).toFixed(2),
    cached_pct: +(100 * count('cached') / n).toFixed(2),
    failed_pct: +(100 * count('failed') / n).toFixed(2),
    latency_p50_ms: +quantile(lat, 0.5).toFixed(2),
    latency_p99_ms: +quantile(lat, 0.99).toFixed(2),
    not_fresh_by_reason: reasons,
    overhead_ms: {
      lb_and_loopback_p50: lbOver.length ? +quantile(lbOver, 0.5).toFixed(3) : null,
      lb_and_loopback_p99: lbOver.length ? +quantile(lbOver, 0.99).toFixed(3) : null,
      pod_around_one_call_p50: podOver.length ? +quantile(podOver, 0.5).toFixed(3) : null,
      pod_around_one_call_p99: podOver.length ? +quantile(podOver, 0.99).toFixed(3) : null,
    },
    dependency_calls: calls.length,
    breaker_transitions: trans.filter(t => !t.initial).length,
    first_open_s: firstOpen ? +((firstOpen.time - t0) / 1000).toFixed(3) : null,
    per_pod: perPod,
    lb_events: lbEvents.filter(e => ['up', 'down', 'maint'].includes(e.event)).length,
    operator_changes: opChanges.length,
    loadgen_send_lag_ms: runInfo.loadgen_lag_ms,
    cpu_s: cpu,
    cpu_ms_per_checkout: {
      pods_lb_loadgen: +(1000 * partsCpu / n).toFixed(3),
      pods: +(1000 * pods.reduce((s, k) => s + (cpu[k] ?? 0), 0) / n).toFixed(3),
      haproxy: +(1000 * (cpu.haproxy ?? 0) / n).toFixed(3),
      loadgen: +(1000 * (cpu.loadgen ?? 0) / n).toFixed(3),
      dependency: +(1000 * (cpu.dependency ?? 0) / n).toFixed(3),
      prometheus: +(1000 * (cpu.prometheus ?? 0) / n).toFixed(3),
    },
  };
  summary.cpu_share_of_2_cores_pct = +(100 * Object.values(cpu).reduce((s, v) => s + (v ?? 0), 0) / (2 * summary.traffic_s)).toFixed(1);
  fs.writeFileSync(path.join(work, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  const text = [
    `scenario ${summary.scenario}: ${n} checkouts in ${summary.traffic_s}s (wall ${summary.wall_s}s)`,
    `fresh ${summary.fresh_pct}%, cached ${summary.cached_pct}%, failed ${summary.failed_pct}%; latency p50 ${summary.latency_p50_ms} ms, p99 ${summary.latency_p99_ms} ms`,
    `${summary.dependency_calls} dependency calls; ${summary.breaker_transitions} breaker transitions (${Object.entries(perPod).map(([p, v]) => `${p} ${v.transitions}`).join(', ')}); first open at ${summary.first_open_s ?? '-'} s`,
    `${summary.lb_events} load-balancer server state changes; ${summary.operator_changes} operator commands; arrivals sent late by p99 ${summary.loadgen_send_lag_ms?.p99 ?? '-'} ms, max ${summary.loadgen_send_lag_ms?.max ?? '-'} ms`,
    `CPU per checkout: pods+LB+loadgen ${summary.cpu_ms_per_checkout.pods_lb_loadgen} ms (pods ${summary.cpu_ms_per_checkout.pods}, haproxy ${summary.cpu_ms_per_checkout.haproxy}, loadgen ${summary.cpu_ms_per_checkout.loadgen}); dependency ${summary.cpu_ms_per_checkout.dependency}, prometheus ${summary.cpu_ms_per_checkout.prometheus}; all parts ${summary.cpu_share_of_2_cores_pct}% of 2 cores`,
    '',
  ].join('\n');
  // Last: the marker. Only a folder with it (and renamed from .partial-*) is a whole recording.
  fs.writeFileSync(path.join(work, 'complete'), text);
  return text;
}
