// Runs one scenario on 127.0.0.1 and writes its recording folder (README.md, "Recording").
//   node run.mjs SCENARIO.yaml OUTDIR        (run.sh calls this)
// Every part is a child process: the dependency, the pods, HAProxy, Prometheus, the load
// generator. A part that exits before the end stops the run and is named. The recording is
// written into OUTDIR.partial-XXXXXX and renamed to OUTDIR only when it is whole, with a
// `complete` marker; a stopped run leaves the .partial folder (never OUTDIR).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, execFileSync } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseScenario, clientConfigYaml, ScenarioError } from './lib/scenario.mjs';
import { nowMs, sleep } from './lib/common.mjs';
import { writeRecording } from './lib/recording.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const wallStart = nowMs();
const say = msg => process.stderr.write(`testbed: ${msg}\n`);

function usage(msg) {
  if (msg) say(msg);
  process.stderr.write('usage: run.sh SCENARIO.yaml OUTDIR\n');
  process.exit(2);
}

const [scenarioFile, outArg] = process.argv.slice(2);
if (!scenarioFile || !outArg) usage();
let scenario;
try {
  scenario = parseScenario(scenarioFile);
} catch (err) {
  if (err instanceof ScenarioError) { say(err.message); process.exit(2); }
  throw err;
}
// The testbed's own cost, measured (docs/validation.md): about 7 ms of CPU per checkout for the
// pods, HAProxy, the load generator and the dependency together. Above half the machine, the
// machine would shape the results: say so before running.
{
  const cores = os.cpus().length;
  const peak = Math.max(...scenario.traffic.phases.map(p => p.rate));
  const share = (peak * 7) / (10 * cores);
  if (share > 50) say(`warning: at ${peak} checkouts/s the testbed itself needs about ${share.toFixed(0)}% of this machine's ${cores} cores (7 ms of CPU a checkout); its own delays will show in the recording`);
}
const outDir = path.resolve(outArg);
if (fs.existsSync(outDir)) usage(`${outArg}: already exists; remove it or name another folder (a recording is never overwritten)`);
if (!fs.existsSync(path.dirname(outDir))) usage(`${outArg}: its parent folder ${path.dirname(outDir)} does not exist`);
for (const tool of ['haproxy', 'prometheus']) {
  try { execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }); } catch {
    say(`${tool} is not installed: run scripts/setup-debian.sh (it installs haproxy and prometheus)`); process.exit(2);
  }
}
if (!fs.existsSync(path.join(here, 'node_modules', 'opossum'))) {
  say(`${here}/node_modules is missing: run (cd tests/testbed && npm ci), or scripts/setup-debian.sh`); process.exit(2);
}

// ---- ports ----------------------------------------------------------------------------------
function tryListen(port) {
  return new Promise(resolve => {
    const srv = net.createServer();
    srv.once('error', err => resolve({ ok: false, code: err.code }));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const p = srv.address().port;
      srv.close(() => resolve({ ok: true, port: p }));
    });
  });
}
const taken = new Set();
async function port(fixed, what) {
  if (fixed) {
    const r = await tryListen(fixed);
    if (!r.ok) {
      say(`${scenario.portNodes[what] ?? scenarioFile}: ports.${what}: port ${fixed} on 127.0.0.1 is not free (${r.code === 'EADDRINUSE' ? 'in use by another process' : r.code}); choose another or 0 for a free one`);
      process.exit(2);
    }
    if (taken.has(fixed)) { say(`${scenario.portNodes[what]}: ports.${what}: port ${fixed} is given twice`); process.exit(2); }
    taken.add(fixed);
    return fixed;
  }
  for (let i = 0; i < 50; i++) {
    const r = await tryListen(0);
    if (r.ok && !taken.has(r.port)) { taken.add(r.port); return r.port; }
  }
  say('no free port on 127.0.0.1'); process.exit(2);
}

const nPods = scenario.fleet.max_pods;
if (scenario.ports.pods.length && scenario.ports.pods.length !== nPods) {
  say(`${scenario.file}: ports.pods: ${scenario.ports.pods.length} ports for ${nPods} pods (fleet.max_pods)`); process.exit(2);
}
const ports = {
  load_balancer: await port(scenario.ports.load_balancer, 'load_balancer'),
  dependency: await port(scenario.ports.dependency, 'dependency'),
  prometheus: await port(scenario.ports.prometheus, 'prometheus'),
  pods: [],
};
for (let i = 0; i < nPods; i++) ports.pods.push(await port(scenario.ports.pods[i] ?? 0, `pods[${i}]`));

// ---- the partial folder -----------------------------------------------------------------------
const work = fs.mkdtempSync(`${outDir}.partial-`);
const raw = path.join(work, 'raw');
const logs = path.join(work, 'logs');
fs.mkdirSync(raw);
fs.mkdirSync(logs);
fs.copyFileSync(scenarioFile, path.join(work, 'scenario.yaml'));
fs.writeFileSync(path.join(work, 'client-config.yaml'), clientConfigYaml(scenario.client));
const runFile = path.join(work, 'run.json');
const runInfo = { scenario, ports, raw, work, started: new Date().toISOString() };
fs.writeFileSync(runFile, JSON.stringify(runInfo, null, 1));
say(`${scenario.name}: ${scenario.duration / 1000}s of traffic, ${scenario.client.load_balancer.pods} of ${nPods} pods in rotation, ${scenario.client.breaker.library}; recording into ${work}`);

// ---- children -------------------------------------------------------------------------------------
const children = new Map(); // name -> {proc, name, expectedExit}
let stopping = false;
let failure = null;
let failed; // resolves when a part dies
const died = new Promise(resolve => { failed = resolve; });

function start(name, cmd, argv, { onLine } = {}) {
  const out = fs.createWriteStream(path.join(logs, `${name}.out`));
  const err = fs.createWriteStream(path.join(logs, `${name}.err`));
  const proc = spawn(cmd, argv, { cwd: here, stdio: ['pipe', 'pipe', 'pipe'] });
  const c = { name, proc, expectedExit: false, lines: [], exited: null };
  children.set(name, c);
  fs.appendFileSync(path.join(work, 'pids'), `${proc.pid} ${name}\n`);
  readline.createInterface({ input: proc.stdout }).on('line', line => {
    out.write(line + '\n');
    c.lines.push(line);
    onLine?.(line, nowMs());
  });
  proc.stderr.pipe(err);
  proc.on('exit', (code, signal) => {
    c.exited = { code, signal };
    if (!c.expectedExit && !stopping) {
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = fs.existsSync(path.join(logs, `${name}.err`)) ? fs.readFileSync(path.join(logs, `${name}.err`), 'utf8').trim().split('\n').slice(-3).join(' | ') : '';
      failure = `${name} (pid ${proc.pid}) ${why} ${t0 ? `at t=${((nowMs() - t0) / 1000).toFixed(1)}s` : 'while starting'}${tail ? `: ${tail}` : ''}`;
      failed(failure);
    }
  });
  proc.on('error', e => { failure = `${name}: cannot start ${cmd}: ${e.message}`; failed(failure); });
  return c;
}

function waitLine(c, re, ms, what) {
  return Promise.race([
    new Promise((resolve, reject) => {
      const t0w = nowMs();
      const poll = setInterval(() => {
        if (c.lines.some(l => re.test(l))) { clearInterval(poll); resolve(); }
        else if (nowMs() - t0w > ms) { clearInterval(poll); reject(new Error(`${c.name} did not say it was ready within ${ms / 1000}s (${what}); see ${logs}/${c.name}.err`)); }
      }, 20);
    }),
    died.then(f => { throw new Error(f); }),
  ]);
}

async function stopAll() {
  stopping = true;
  const alive = [...children.values()].filter(c => c.exited === null);
  for (const c of alive) { c.expectedExit = true; c.proc.kill('SIGTERM'); }
  const deadline = nowMs() + 5000;
  while (alive.some(c => c.exited === null) && nowMs() < deadline) await sleep(50);
  for (const c of alive) if (c.exited === null) c.proc.kill('SIGKILL');
  while (alive.some(c => c.exited === null) && nowMs() < deadline + 2000) await sleep(50);
}

let t0 = null;
let sockDir = null; // HAProxy's runtime API socket's folder, once made
let aborting = false;
async function abort(msg, code = 1) {
  if (aborting) return new Promise(() => {}); // the first reason stands; exit follows
  aborting = true;
  say(`run stopped: ${msg}`);
  await stopAll();
  if (sockDir) fs.rmSync(sockDir, { recursive: true, force: true });
  say(`the unfinished recording stays in ${work} (no ${path.basename(outDir)} was written)`);
  process.exit(code);
}
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => abort(`${sig} received`, 130));

// CPU time (user + system, seconds) of a child and its own children, from /proc.
const tick = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / tick; // utime, stime
  } catch { return null; }
}

// ---- HAProxy and Prometheus configs --------------------------------------------------------------
const hc = scenario.client.load_balancer.health_check;
// The runtime API's socket lives in a short folder of its own: a unix socket's path has at most
// 107 bytes, and OUTDIR may be long.
sockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'testbed-lb-'));
const sock = path.join(sockDir, 'haproxy.sock');
const haproxyCfg = [
  'global',
  '  maxconn 8000',
  `  stats socket ${sock} mode 600 level admin`,
  '  log stdout format raw local0',
  'defaults',
  '  mode http',
  '  log global',
  '  option log-health-checks',
  '  option httplog',
  '  option dontlog-normal',
  '  timeout connect 2s',
  '  timeout client 300s',
  '  timeout server 300s',
  `  timeout check ${scenario.load_balancer.check_timeout}ms`,
  '  retries 0',
  'frontend checkout',
  `  bind 127.0.0.1:${ports.load_balancer}`,
  '  default_backend pods',
  'backend pods',
  '  balance roundrobin',
  ...(hc.enabled ? ['  option httpchk GET /health', `  default-server inter ${hc.interval}ms fall ${hc.unhealthy_after} rise ${hc.healthy_after}`] : []),
  ...ports.pods.map((p, i) => `  server pod${i + 1} 127.0.0.1:${p}${hc.enabled ? ' check' : ''}${i + 1 > scenario.client.load_balancer.pods ? ' disabled' : ''}`),
  '',
].join('\n');
fs.writeFileSync(path.join(work, 'haproxy.cfg'), haproxyCfg);

const promCfg = [
  'global:',
  '  scrape_interval: 1s',
  '  scrape_timeout: 900ms',
  'scrape_configs:',
  '  - job_name: pods',
  '    static_configs:',
  `      - targets: [${ports.pods.map(p => `'127.0.0.1:${p}'`).join(', ')}]`,
  '  - job_name: dependency',
  '    static_configs:',
  `      - targets: ['127.0.0.1:${ports.dependency}']`,
  '',
].join('\n');
fs.writeFileSync(path.join(work, 'prometheus.yml'), promCfg);

// HAProxy's runtime API (the stats socket): one command a connection.
function haproxyCommand(cmd) {
  return new Promise((resolve, reject) => {
    const c = net.createConnection(sock);
    let out = '';
    c.on('data', d => { out += d; });
    c.on('end', () => resolve(out.trim()));
    c.on('error', reject);
    c.write(cmd + '\n');
  });
}

const lbEvents = [];
function haproxyLine(line, at) {
  // "Server pods/pod2 is DOWN, reason: Layer7 wrong status, code: 503, ..."
  // "Health check for server pods/pod2 failed, reason: ..., check duration: 0ms, status: 1/2 UP."
  const m = /Server pods\/(pod\d+) (is UP|is DOWN|is going DOWN for maintenance|was DOWN and now enters maintenance|is UP\/READY)/.exec(line);
  if (m) {
    const event = /leaving|is UP/.test(line) ? 'up' : /maintenance/.test(line) ? 'maint' : 'down';
    lbEvents.push({ time: at, pod: m[1], event, message: line });
  }
  else if (/Health check for server pods\/pod\d+ (failed|succeeded)/.test(line)) {
    const h = /server pods\/(pod\d+) (failed|succeeded)/.exec(line);
    lbEvents.push({ time: at, pod: h[1], event: `check_${h[2]}`, message: line });
  }
}

// ---- start ---------------------------------------------------------------------------------------------
try {
  const dep = start('dependency', process.execPath, ['dependency.mjs', '--run', runFile]);
  await waitLine(dep, /^ready /, 10000, 'listening');
  // The pods warm their pools up against the dependency before they say ready.
  const pods = ports.pods.map((_, i) => start(`pod${i + 1}`, process.execPath, ['pod.mjs', '--run', runFile, '--pod', String(i + 1)]));
  for (const p of pods) await waitLine(p, /^ready /, 15000, 'listening and warmed up');
  const lb = start('haproxy', 'haproxy', ['-db', '-f', path.join(work, 'haproxy.cfg')], { onLine: haproxyLine });
  const prom = start('prometheus', 'prometheus', [
    `--config.file=${path.join(work, 'prometheus.yml')}`,
    `--storage.tsdb.path=${path.join(work, 'prometheus-data')}`,
    `--web.listen-address=127.0.0.1:${ports.prometheus}`,
    '--storage.tsdb.retention.time=1d',
    '--log.level=warn',
  ]);
  // Ready when HAProxy's socket answers and Prometheus says so.
  const readyBy = nowMs() + 30000;
  for (;;) {
    if (failure) throw new Error(failure);
    let ok = false;
    try {
      const info = await haproxyCommand('show servers state pods');
      const promReady = await fetch(`http://127.0.0.1:${ports.prometheus}/-/ready`).then(r => r.ok, () => false);
      ok = /pod1/.test(info) && promReady;
    } catch { ok = false; }
    if (ok) break;
    if (nowMs() > readyBy) throw new Error(`HAProxy or Prometheus not ready within 30s; see ${logs}/haproxy.err and prometheus.err`);
    await sleep(100);
  }
  void lb; void prom;
} catch (err) {
  await abort(err.message);
}

// ---- run ---------------------------------------------------------------------------------------------------
// Two seconds for Prometheus's first scrapes and HAProxy's first checks before t = 0.
t0 = Math.ceil(nowMs() / 1000) * 1000 + 2000;
runInfo.t0 = t0;
runInfo.t0_iso = new Date(t0).toISOString();
fs.writeFileSync(runFile, JSON.stringify(runInfo, null, 1));
children.get('dependency').proc.stdin.write(`start ${t0}\n`);
const opChanges = [];
let inRotation = scenario.client.load_balancer.pods;
for (const ch of scenario.changes) {
  setTimeout(async () => {
    const from = inRotation;
    const cmds = [];
    for (let i = inRotation + 1; i <= ch.pods; i++) cmds.push(`set server pods/pod${i} state ready`);
    for (let i = inRotation; i > ch.pods; i--) cmds.push(`set server pods/pod${i} state maint`);
    inRotation = ch.pods;
    for (const cmd of cmds) {
      const at = nowMs();
      let answer;
      try { answer = await haproxyCommand(cmd); } catch (e) { answer = `error ${e.message}`; }
      opChanges.push({ time: at, command: cmd, answer, from, to: ch.pods });
    }
    say(`t=${((nowMs() - t0) / 1000).toFixed(1)}s: pods in rotation ${from} -> ${ch.pods}`);
  }, t0 + ch.at - nowMs());
}
const answerTimeout = Math.max(60000, scenario.client.timeout.attempt * scenario.client.retry.max_attempts * 2 + 10000);
const loadgen = start('loadgen', process.execPath, ['loadgen.mjs', '--run', runFile, '--t0', String(t0), '--answer-timeout', String(answerTimeout)]);
loadgen.expectedExit = true;
const loadgenDone = new Promise(resolve => loadgen.proc.on('exit', code => resolve(code)));
const progress = setInterval(() => say(`t=${((nowMs() - t0) / 1000).toFixed(0)}s of ${scenario.duration / 1000}s`), 15000);
const code = await Promise.race([loadgenDone, died.then(() => 'died')]);
clearInterval(progress);
if (code === 'died') await abort(failure);
if (code !== 0) await abort(`loadgen exited with code ${code}; see ${logs}/loadgen.err`);
const trafficEnd = nowMs();
say(loadgen.lines.find(l => l.startsWith('loadgen:')) ?? 'loadgen finished');

// CPU (user + system seconds) of each part before it stops; the load generator reports its own
// (process.cpuUsage) on its last line, as it has exited by now.
const cpu = {};
for (const [name, c] of children) if (c.exited === null) cpu[name] = cpuSeconds(c.proc.pid);
const lg = loadgen.lines.map(l => /^cpu (\d+) (\d+)$/.exec(l)).find(Boolean);
cpu.loadgen = lg ? (Number(lg[1]) + Number(lg[2])) / 1e6 : null;
const lag = loadgen.lines.map(l => /^lag p99 ([\d.]+) max ([\d.]+)$/.exec(l)).find(Boolean);
runInfo.loadgen_lag_ms = lag ? { p99: Number(lag[1]), max: Number(lag[2]) } : null;

// ---- Prometheus series --------------------------------------------------------------------------------------
await sleep(2000); // the last scrapes
const q = async query => {
  const url = `http://127.0.0.1:${ports.prometheus}/api/v1/query_range?` + new URLSearchParams({ query, start: String(t0 / 1000 - 5), end: String(Math.ceil(trafficEnd / 1000) + 1), step: '1' });
  const r = await fetch(url);
  if (!r.ok) throw new Error(`Prometheus query ${query}: HTTP ${r.status}`);
  return r.json();
};
const series = {};
try {
  const queries = {
    breaker_state: 'testbed_breaker_state',
    pool_in_use: 'testbed_pool_in_use',
    pool_waiting: 'testbed_pool_waiting',
    workers_busy: 'testbed_workers_busy',
    workers_queued: 'testbed_workers_queued',
    calls_by_outcome: 'sum by (pod, outcome) (rate(testbed_dependency_calls_total[5s]))',
    checkouts_by_outcome: 'sum by (pod, outcome) (rate(testbed_checkouts_total[5s]))',
    request_rate: 'sum by (pod) (rate(testbed_checkouts_total[5s]))',
    error_ratio: 'sum(rate(testbed_dependency_calls_total{outcome!="success"}[5s])) / sum(rate(testbed_dependency_calls_total[5s]))',
    latency_p50: 'histogram_quantile(0.5, sum by (le) (rate(testbed_dependency_call_seconds_bucket[5s])))',
    latency_p99: 'histogram_quantile(0.99, sum by (le) (rate(testbed_dependency_call_seconds_bucket[5s])))',
    dependency_up: 'up{job="dependency"}',
    dependency_queued: 'testbed_dependency_queued',
    dependency_serving: 'testbed_dependency_serving',
  };
  for (const [role, query] of Object.entries(queries)) series[role] = await q(query);
} catch (err) {
  await abort(`reading Prometheus: ${err.message}`);
}
await stopAll();

// ---- the recording -----------------------------------------------------------------------------------------
try {
  const summary = writeRecording({ work, raw, runInfo, series, lbEvents, opChanges, cpu, wallStart, trafficEnd });
  fs.rmSync(path.join(work, 'pids'), { force: true });
  fs.rmSync(sockDir, { recursive: true, force: true });
  fs.renameSync(work, outDir);
  say(`recorded ${outDir}`);
  process.stdout.write(summary);
} catch (err) {
  say(`writing the recording failed: ${err.stack}`);
  say(`the unfinished recording stays in ${work}`);
  process.exit(1);
}
