// Replays testbed recordings with breakerlab-cli and prints how close the model came.
//
//   node compare.mjs REC                 replay REC's request log under REC's config, against REC
//   node compare.mjs REC_A REC_B         also the predictions in both directions: A's log under
//                                        B's config against the real run B, and B's under A's
//   options: --cli PATH (default: ../../build/release/app/breakerlab-cli, or $BREAKERLAB_CLI)
//            --json FILE (the table as JSON too)
//            --per-pod (an experiment standing in for per-pod breakers: each pod's own calls
//            replayed alone, as one pod without health checks, so each pod has its own breaker
//            and its own cache; the fleet's numbers are the pods' sums, latencies ≈ weighted)
//            --seeds N (also replay under seeds 1..N and print the spread)
//            --floors (exit 1 when a floor of issue 32 is missed: a replay within 2 points of
//            failed and cached checkouts with 90% of the pods' transitions matched; a prediction
//            within 3 points and its p99 within 25%); --floors=replay checks the replays only
//
// What BreakerLab is given: the recording's calls.csv (the request-log importer infers the
// dependency's behaviour over time from it) and a client-config.yaml. It is never given the
// scenario's dependency schedule. The operators' scale-outs and scale-ins it recorded
// (operator-changes.csv) are given as an incident's `changes:` (the log is imported first).
//
// The testbed has a breaker per pod. With BreakerLab's per-pod breakers (breaker.scope: per_pod,
// the default) the replay's pod lanes (replay --json's pod_lanes) are paired with the real pods
// (alignPods) and a recorded transition of a pod is matched when its paired lane enters the same
// state within 1 s of it; with one breaker for the fleet (breaker.scope: shared), against the one
// replayed lane. Trip and close
// times are fleet-level: the median over the pods of each pod's first open and last close.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { readCsv, median, recorded, firstArrivalSecond, matchShare, alignPods } from './lib/recorded.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const opt = name => { const i = argv.indexOf(`--${name}`); if (i < 0) return undefined; const v = argv[i + 1]; argv.splice(i, 2); return v; };
const cli = opt('cli') ?? process.env.BREAKERLAB_CLI ?? path.resolve(here, '../../build/release/app/breakerlab-cli');
const jsonOut = opt('json');
const perPodAt = argv.indexOf('--per-pod');
const perPod = perPodAt >= 0;
if (perPod) argv.splice(perPodAt, 1);
// --seeds N: also replay under seeds 1..N (the draws of calls the original did not make) and
// print the spread, to tell a model error from a coin flip.
const seedsAt = argv.indexOf('--seeds');
const seeds = seedsAt >= 0 ? Number(argv[seedsAt + 1]) : 0;
if (seedsAt >= 0) argv.splice(seedsAt, 2);
if (seedsAt >= 0 && !(Number.isInteger(seeds) && seeds >= 1 && seeds <= 100)) { console.error('compare: --seeds takes a whole number from 1 to 100'); process.exit(2); }
let seedArgs = [];
// --floors (every floor) or --floors=replay (only the replays' floors).
const floorsAt = argv.findIndex(a => a === '--floors' || a.startsWith('--floors='));
const floors = floorsAt >= 0;
const floorsReplayOnly = floors && argv[floorsAt] === '--floors=replay';
if (floors) argv.splice(floorsAt, 1);
const recs = argv;
if (recs.length < 1 || recs.length > 2) {
  console.error('usage: node compare.mjs RECORDING [OTHER_RECORDING] [--cli PATH] [--json FILE]');
  process.exit(2);
}
if (!fs.existsSync(cli)) { console.error(`compare: ${cli} not found: build BreakerLab (cmake --preset release && cmake --build build/release) or pass --cli`); process.exit(2); }
for (const r of recs) {
  if (!fs.existsSync(path.join(r, 'complete'))) {
    console.error(`compare: ${r} is not a whole recording (no 'complete' marker): a run that stopped leaves OUTDIR.partial-*`);
    process.exit(2);
  }
}

// The operators' changes of a recording (operator-changes.csv: the runtime API commands, from
// the recording, not the scenario), as an incident's `changes:` on the replay's clock.
function operatorChanges(rec) {
  const f = path.join(rec, 'operator-changes.csv');
  if (!fs.existsSync(f)) return [];
  const t0 = firstArrivalSecond(path.join(rec, 'calls.csv')) * 1000;
  const byTime = new Map();
  for (const c of readCsv(f)) {
    const at = Math.round(Date.parse(c.time) - t0 + Number(`0.${c.time.split('.')[1].slice(3, 6)}`));
    const key = Math.round(at / 1000); // the commands of one change are sent within milliseconds
    byTime.set(key, { at: byTime.get(key)?.at ?? at, pods: Number(c.to) });
  }
  return [...byTime.values()];
}

function replay(rec, configRec, { log = path.join(rec, 'calls.csv'), extra = [] } = {}) {
  let input = log;
  let tmp = null;
  const changes = log === path.join(rec, 'calls.csv') ? operatorChanges(rec) : [];
  if (changes.length) {
    // A request log has no place for them: import it as an incident and add them.
    tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'testbed-incident-'));
    input = path.join(tmp, 'incident.yaml');
    execFileSync(cli, ['import', log, '-o', input, '--config', path.join(configRec, 'client-config.yaml')], { stdio: ['ignore', 'ignore', 'pipe'] });
    fs.appendFileSync(input, 'changes:\n' + changes.map(c => `  - {at: ${c.at}ms, set: {load_balancer.pods: ${c.pods}}, label: "scaled to ${c.pods} pods (HAProxy runtime API)"}\n`).join(''));
  }
  const args = ['replay', input, '--config', path.join(configRec, 'client-config.yaml'), ...extra, ...seedArgs, '--json'];
  let out;
  try {
    out = execFileSync(cli, args, { maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  } catch (err) {
    // Exit 1 (a check failed) still prints the report; anything else is an error.
    if (err.status !== 1) throw new Error(`${cli} ${args.join(' ')}: exit ${err.status}: ${err.stderr}`);
    out = err.stdout.toString();
  }
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  const r = JSON.parse(out);
  const m = r.metrics;
  const lane = r.lanes.breaker;
  // With a breaker per pod (breaker.scope: per_pod) each pod's lane; else the fleet's one.
  const podLanes = r.pod_lanes ?? [];
  const trans = podLanes.length
    ? podLanes.flatMap((l, q) => l.slice(1).filter(s => s.state !== 'no pod').map(s => ({ pod: `model-${q}`, state: s.state, t: s.from })))
    : lane.slice(1).map(s => ({ state: s.state, t: s.from }));
  const opens = trans.filter(t => t.state === 'open');
  const closes = trans.filter(t => t.state === 'closed');
  return {
    checkouts: m.checkouts,
    failed_pct: m.failed_pct,
    cached_pct: 100 * m.cached_checkouts / m.checkouts,
    p50: m.latency_p50_ms,
    p99: m.latency_p99_ms,
    transitions: trans,
    first_open_s: opens[0]?.t ?? null,
    last_close_s: closes.at(-1)?.t ?? null,
    cmd: `breakerlab-cli ${args.join(' ')}`,
    changes: changes.length,
  };
}

// Each pod's calls replayed alone (one pod, no health checks): a breaker and a cache per pod.
function replayPerPod(rec, configRec) {
  const text = fs.readFileSync(path.join(rec, 'calls.csv'), 'utf8').split('\n').filter(Boolean);
  const header = text.shift();
  const podCol = header.split(',').indexOf('pod');
  const byPod = new Map();
  let noPod = 0;
  for (const line of text) {
    const pod = line.split(',')[podCol];
    if (pod === 'none') { noPod++; continue; }
    if (!byPod.has(pod)) byPod.set(pod, []);
    byPod.get(pod).push(line);
  }
  const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'testbed-perpod-'));
  const total = { checkouts: noPod, failed: noPod, cached: 0, p50w: 0, p99w: 0, transitions: [], firstOpen: [], lastClose: [] };
  for (const [pod, lines] of [...byPod].sort()) {
    const f = path.join(tmp, `${pod}.csv`);
    fs.writeFileSync(f, [header, ...lines].join('\n') + '\n');
    const r = replay(rec, configRec, { log: f, extra: ['--set', 'load_balancer.pods=1', '--set', 'load_balancer.health_check.enabled=false'] });
    total.checkouts += r.checkouts;
    total.failed += r.failed_pct * r.checkouts / 100;
    total.cached += r.cached_pct * r.checkouts / 100;
    total.p50w += r.p50 * r.checkouts;
    total.p99w += r.p99 * r.checkouts;
    total.transitions.push(...r.transitions.map(t => ({ ...t, pod, t: t.t + podOffset(f, rec) })));
    if (r.first_open_s !== null) total.firstOpen.push(r.first_open_s + podOffset(f, rec));
    if (r.last_close_s !== null) total.lastClose.push(r.last_close_s + podOffset(f, rec));
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  const n = total.checkouts;
  return {
    checkouts: n,
    failed_pct: 100 * total.failed / n,
    cached_pct: 100 * total.cached / n,
    p50: total.p50w / (n - noPod),
    p99: total.p99w / (n - noPod),
    transitions: total.transitions,
    first_open_s: median(total.firstOpen),
    last_close_s: median(total.lastClose),
    cmd: `breakerlab-cli replay POD.csv --config ${path.join(configRec, 'client-config.yaml')} --set load_balancer.pods=1 --set load_balancer.health_check.enabled=false (each pod's lines of calls.csv)`,
  };
}

// A pod's log starts at its own first arrival's whole second: its t = 0 against the fleet's.
function podOffset(podLog, rec) {
  return firstArrivalSecond(podLog) - firstArrivalSecond(path.join(rec, 'calls.csv'));
}


const fmt = (x, d = 1) => (x === null || x === undefined ? '—' : x.toFixed(d));
const rows = [];
function row(kind, logRec, configRec, real) {
  const model = perPod ? replayPerPod(logRec, configRec) : replay(logRec, configRec);
  alignPods(real, model);
  const share = matchShare(real, model);
  const r = {
    kind,
    log: path.basename(logRec),
    config: path.basename(configRec),
    against: path.basename(configRec),
    checkouts: [model.checkouts, real.checkouts],
    failed_pct: [model.failed_pct, real.failed_pct, model.failed_pct - real.failed_pct],
    cached_pct: [model.cached_pct, real.cached_pct, model.cached_pct - real.cached_pct],
    p50_ms: [model.p50, real.p50, model.p50 / real.p50],
    p99_ms: [model.p99, real.p99, model.p99 / real.p99],
    first_open_s: [model.first_open_s, real.first_open_s, model.first_open_s !== null && real.first_open_s !== null ? model.first_open_s - real.first_open_s : null],
    last_close_s: [model.last_close_s, real.last_close_s, model.last_close_s !== null && real.last_close_s !== null ? model.last_close_s - real.last_close_s : null],
    transitions_matched: share,
    model_transitions: model.transitions.length,
    pods_tripped: `${real.pods_tripped} of ${real.pods}`,
    cmd: model.cmd,
  };
  if (seeds) {
    const runs = [];
    for (let seed = 1; seed <= seeds; seed++) {
      seedArgs = ['--seed', String(seed)];
      const m = perPod ? replayPerPod(logRec, configRec) : replay(logRec, configRec);
      alignPods(real, m);
      const sh = matchShare(real, m);
      runs.push({ failed: m.failed_pct - real.failed_pct, cached: m.cached_pct - real.cached_pct, p99: m.p99 / real.p99, matched: sh ? sh.matched / sh.of : null });
    }
    seedArgs = [];
    const range = k => { const v = runs.map(x => x[k]).filter(x => x !== null); return v.length ? [Math.min(...v), Math.max(...v)] : null; };
    r.seeds = { n: seeds, failed_pts: range('failed'), cached_pts: range('cached'), p99_ratio: range('p99'), matched_share: range('matched') };
  }
  rows.push(r);
}

const real = recs.map(recorded);
row('replay', recs[0], recs[0], real[0]);
if (recs.length === 2) {
  row('replay', recs[1], recs[1], real[1]);
  row('prediction', recs[0], recs[1], real[1]);
  row('prediction', recs[1], recs[0], real[0]);
}

console.log(perPod
  ? "BreakerLab, each pod's log replayed alone (a breaker and a cache per pod), against the testbed; model / real"
  : 'BreakerLab (one breaker for the fleet) against the testbed (one breaker per pod); model / real');
for (const r of rows) {
  const s = r.transitions_matched;
  console.log(`\n${r.kind}: ${r.log}'s log under ${r.config}'s config, against ${r.against}`);
  console.log(`  checkouts            ${r.checkouts[0]} / ${r.checkouts[1]}`);
  console.log(`  failed %             ${fmt(r.failed_pct[0], 2)} / ${fmt(r.failed_pct[1], 2)}   (${r.failed_pct[2] >= 0 ? '+' : ''}${fmt(r.failed_pct[2], 2)} points)`);
  console.log(`  cached %             ${fmt(r.cached_pct[0], 2)} / ${fmt(r.cached_pct[1], 2)}   (${r.cached_pct[2] >= 0 ? '+' : ''}${fmt(r.cached_pct[2], 2)} points)`);
  console.log(`  latency p50 ms       ${fmt(r.p50_ms[0])} / ${fmt(r.p50_ms[1])}   (ratio ${fmt(r.p50_ms[2], 2)})`);
  console.log(`  latency p99 ms       ${fmt(r.p99_ms[0])} / ${fmt(r.p99_ms[1])}   (ratio ${fmt(r.p99_ms[2], 2)})`);
  console.log(`  first open s         ${fmt(r.first_open_s[0], 2)} / ${fmt(r.first_open_s[1], 2)} (median of ${r.pods_tripped} pods)   (${fmt(r.first_open_s[2], 2)} s)`);
  console.log(`  last close s         ${fmt(r.last_close_s[0], 2)} / ${fmt(r.last_close_s[1], 2)}   (${fmt(r.last_close_s[2], 2)} s)`);
  console.log(`  per-pod transitions within 1 s of the replayed ${perPod ? "pod's lane" : 'lane'}: ${s ? `${s.matched} of ${s.of} (${fmt(100 * s.matched / s.of, 0)}%)` : 'none recorded'}; the replayed ${perPod ? 'lanes have' : 'lane has'} ${r.model_transitions}`);
  if (r.seeds) {
    const g = r.seeds;
    const rg = (x, d, k = 1) => (x ? `${(x[0] * k).toFixed(d)} to ${(x[1] * k).toFixed(d)}` : '—');
    console.log(`  over replay seeds 1..${g.n}: failed ${rg(g.failed_pts, 2)} points, cached ${rg(g.cached_pts, 2)} points, p99 ratio ${rg(g.p99_ratio, 2)}, transitions matched ${rg(g.matched_share, 0, 100)}%`);
  }
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(rows, null, 1) + '\n');

if (floors) {
  const missed = [];
  for (const r of rows) {
    if (floorsReplayOnly && r.kind !== 'replay') continue;
    const name = `${r.kind} ${r.log} -> ${r.against}`;
    const pts = r.kind === 'replay' ? 2 : 3;
    if (Math.abs(r.failed_pct[2]) > pts) missed.push(`${name}: failed checkouts ${r.failed_pct[2].toFixed(2)} points off (floor ${pts})`);
    if (Math.abs(r.cached_pct[2]) > pts) missed.push(`${name}: cached checkouts ${r.cached_pct[2].toFixed(2)} points off (floor ${pts})`);
    if (r.kind === 'replay' && r.transitions_matched && r.transitions_matched.matched < 0.9 * r.transitions_matched.of) missed.push(`${name}: ${r.transitions_matched.matched} of ${r.transitions_matched.of} transitions matched within 1 s (floor 90%)`);
    if (r.kind === 'prediction' && Math.abs(r.p99_ms[2] - 1) > 0.25) missed.push(`${name}: p99 ratio ${r.p99_ms[2].toFixed(2)} (floor within 25%)`);
  }
  const which = floorsReplayOnly ? "the replays' floors" : 'every floor';
  console.log(missed.length ? `\nfloors missed:\n  ${missed.join('\n  ')}` : `\n${which} met`);
  process.exit(missed.length ? 1 : 0);
}
