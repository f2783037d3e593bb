// The flaky dependency (the "pricing" service): an HTTP server on 127.0.0.1 that follows the
// scenario's dependency.phases. Per phase: a lognormal latency (p50/p99), shares of hangs (the
// request is never answered; the client must time out), 5xx (503) and 4xx (404) answers, refused
// connections (its listener closed and every open connection dropped), and a capacity: at most
// `capacity` requests served at once, the rest queued first come first served (at most `queue`;
// beyond it an immediate 503). A queued request whose client has gone is skipped when its turn
// comes; one being served holds its slot until its service time ends, as a real server does.
//
//   node dependency.mjs --run RUN.json
// Prints "ready PORT" once listening, then reads "start T0" (epoch ms) on stdin: the schedule's
// t = 0. Writes every request it saw to raw/dependency.jsonl (not /health, not /metrics).
// SIGTERM: flush and exit 0.
import fs from 'node:fs';
import http from 'node:http';
import readline from 'node:readline';
import { args, jsonl, lognormal, nowMs, rng } from './lib/common.mjs';

const a = args();
const run = JSON.parse(fs.readFileSync(a.run, 'utf8'));
const phases = run.scenario.dependency.phases;
const port = run.ports.dependency;
const u = rng(run.scenario.seed * 7919 + 1);
const log = jsonl(`${run.raw}/dependency.jsonl`);

let t0 = null;
let phase = phases[0];
let listening = false;
let serving = 0;
const queue = [];
let seq = 0;

const server = http.createServer({ keepAliveTimeout: 65000, requestTimeout: 0, headersTimeout: 60000 }, handle);
server.on('error', err => {
  console.error(`dependency: cannot listen on 127.0.0.1:${port}: ${err.code ?? err.message}`);
  process.exit(3);
});

function listen(cb) {
  server.listen({ port, host: '127.0.0.1', exclusive: true }, () => { listening = true; cb?.(); });
}

function closeListener() {
  if (!listening) return;
  listening = false;
  server.close();
  server.closeAllConnections(); // keep-alive connections too: every new call is refused
}

function rel(t) { return t0 === null ? null : (t - t0) / 1000; }

function handle(req, res) {
  const arrive = nowMs();
  if (req.url === '/health') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok\n');
    return;
  }
  if (req.url === '/metrics') {
    // Scraped by Prometheus: its `up` for this job is the dependency's health as a user's
    // monitoring would see it (0 while the listener is closed).
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end([
      '# HELP testbed_dependency_serving Requests being served',
      '# TYPE testbed_dependency_serving gauge',
      `testbed_dependency_serving ${serving}`,
      '# HELP testbed_dependency_queued Requests waiting for capacity',
      '# TYPE testbed_dependency_queued gauge',
      `testbed_dependency_queued ${queue.length}`,
      '',
    ].join('\n'));
    return;
  }
  const rec = {
    n: ++seq,
    pod: req.headers['x-pod'] ?? '',
    request_id: req.headers['x-request-id'] ?? '',
    attempt: Number(req.headers['x-attempt'] ?? 0),
    arrive,
    start: null,
    end: null,
    outcome: null,
    phase: phases.indexOf(phase),
  };
  const job = { req, res, rec, gone: false };
  res.on('close', () => {
    if (rec.end !== null) return;
    job.gone = true;
    rec.client_gone = nowMs();
    // Being served: the work goes on and holds its slot until its service time ends.
    if (job.held && job.timer) return;
    rec.end = rec.client_gone;
    rec.outcome = rec.outcome ?? 'client_gone';
    finish(job);
  });
  if (phase.capacity > 0 && serving >= phase.capacity) {
    if (queue.length >= phase.queue) {
      rec.start = arrive;
      respond(job, 503, 'queue_full');
      return;
    }
    queue.push(job);
    return;
  }
  serve(job);
}

function serve(job) {
  const { rec } = job;
  serving++;
  job.held = true;
  rec.start = nowMs();
  const p = phase;
  const x = u();
  const latency = lognormal(u, p.latency.p50, p.latency.p99);
  rec.latency_ms = latency;
  if (x < p.hang) {
    rec.outcome = 'hang'; // never answered; the slot is held until the client goes
    return;
  }
  let status = 200;
  let outcome = 'success';
  if (x < p.hang + p.server_error) { status = 503; outcome = 'server_error'; }
  else if (x < p.hang + p.server_error + p.client_error) { status = 404; outcome = 'client_error'; }
  job.timer = setTimeout(() => respond(job, status, outcome), latency);
}

function respond(job, status, outcome) {
  const { res, rec } = job;
  if (rec.end !== null) return;
  rec.outcome = outcome;
  rec.end = nowMs();
  if (!res.destroyed) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status === 200 ? `{"price":${(rec.n % 997) + 1}}` : `{"error":"${outcome}"}`);
  }
  finish(job);
}

function finish(job) {
  if (job.logged) return;
  job.logged = true;
  clearTimeout(job.timer);
  const { rec } = job;
  if (job.held) { job.held = false; serving--; }
  log.write({ ...rec, t_arrive: rel(rec.arrive) });
  drain();
}

function drain() {
  while (queue.length && (phase.capacity === 0 || serving < phase.capacity)) {
    const next = queue.shift();
    if (next.gone) continue;
    serve(next);
  }
}

function enter(i) {
  phase = phases[i];
  if (phase.refused) {
    // Queued and served requests lose their connections with the listener.
    closeListener();
    for (const j of queue.splice(0)) j.gone = true;
  } else if (!listening) {
    listen();
  }
  drain();
  process.stdout.write(`phase ${i} at ${rel(nowMs()).toFixed(3)}s\n`);
}

listen(() => process.stdout.write(`ready ${port}\n`));

readline.createInterface({ input: process.stdin }).on('line', line => {
  const m = /^start (\d+(?:\.\d+)?)$/.exec(line.trim());
  if (!m) return;
  t0 = Number(m[1]);
  phases.forEach((p, i) => {
    if (i === 0) return;
    setTimeout(() => enter(i), t0 + p.from - nowMs());
  });
  if (phases[0].refused) setTimeout(() => enter(0), t0 - nowMs());
});

async function stop() {
  closeListener();
  for (const j of queue.splice(0)) { j.rec.end = nowMs(); j.rec.outcome = 'stopped'; finish(j); }
  await log.close();
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
