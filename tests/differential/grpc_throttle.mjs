// Differential test of gRPC retry throttling: random logs of answers go to a real @grpc/grpc-js
// server on a loopback address (127.1.x.y), called by a real grpc-js client whose service config
// has a retryPolicy and retryThrottling; the same answers go through BreakerLab's retry loop
// (retry_throttle_driver). For every request, the attempts the server saw and the answer the
// request ended with must be the same.
//
// Requests go one after another (the next starts when the last has ended), so the order in which
// the throttle sees successes and failures does not depend on the network's timing; the answers
// are scripted per request and attempt, read by the server from the request's metadata and
// grpc-js's `grpc-previous-rpc-attempts` header.
//
//   node grpc_throttle.mjs --driver PATH [--logs N] [--requests N] [--seed S]
import { execFileSync } from 'node:child_process';
import grpc from '@grpc/grpc-js';
import { parseArgs, rng, pick, int } from './common.mjs';

const args = parseArgs();
const DRIVER = args.driver;
const LOGS = Number(args.logs ?? 12);
const REQUESTS = Number(args.requests ?? 300);
const SEED = Number(args.seed ?? 1);
if (!DRIVER) {
  console.error('usage: node grpc_throttle.mjs --driver PATH [--logs N] [--requests N] [--seed S]');
  process.exit(2);
}
// Every load loop is bounded in time as well as count.
const DEADLINE = Date.now() + Number(args['max-seconds'] ?? 240) * 1000;

const three = (x) => Math.round(x * 1000) / 1000;

// A policy: grpc-js caps maxAttempts at 5; maxTokens in (0, 1000], tokenRatio > 0, three
// decimals each (validateRetryThrottling). Small token counts reach the threshold often.
function randomPolicy(r) {
  return {
    maxAttempts: int(r, 2, 5),
    maxTokens: r() < 0.6 ? pick(r, [1, 2, 3, 4, 5, 10, 7.5, 0.5]) : three(0.001 + 40 * r()),
    tokenRatio: r() < 0.6 ? pick(r, [0.1, 0.5, 1, 0.001, 0.25]) : three(0.001 + 2 * r()),
  };
}

// Answers in phases (healthy, failing, partial outage, near the share the ratio pays for), with
// a few non-retryable ones; each request scripts as many answers as it could use.
function randomLog(r, policy, n) {
  const requests = [];
  while (requests.length < n) {
    const phase = pick(r, ['healthy', 'failing', 'partial', 'edge', 'edge']);
    const length = int(r, 3, 60);
    const fail = { healthy: 0.02, failing: 0.95, partial: 0.4,
                   edge: policy.tokenRatio / (1 + policy.tokenRatio) }[phase];
    for (let k = 0; k < length && requests.length < n; k++) {
      let answers = '';
      for (let a = 0; a < policy.maxAttempts; a++) {
        const x = r();
        answers += x < fail ? 'u' : x < fail + 0.03 ? 'i' : 'o';
      }
      requests.push(answers);
    }
  }
  return requests;
}

const service = {
  call: {
    path: '/breakerlab.Throttle/Call',
    requestStream: false,
    responseStream: false,
    requestSerialize: (b) => b,
    requestDeserialize: (b) => b,
    responseSerialize: (b) => b,
    responseDeserialize: (b) => b,
  },
};
const Client = grpc.makeGenericClientConstructor(service, 'Throttle');
const STATUS = { o: grpc.status.OK, u: grpc.status.UNAVAILABLE, i: grpc.status.INVALID_ARGUMENT };
const LETTER = Object.fromEntries(Object.entries(STATUS).map(([k, v]) => [v, k]));

// One log through the real grpc-js: a fresh server and client on a loopback address of the
// log's own. grpc-js keeps one throttler per target in a process and carries a target's tokens
// over to the next channel's config (RETRY_THROTTLER_MAP in src/internal-channel.ts), and the
// kernel hands a closed port out again, so a new port alone would not make a new target.
async function viaGrpc(policy, log, index) {
  const host = `127.1.${Math.floor(index / 250) % 250}.${(index % 250) + 1}`;
  const seen = log.map(() => 0);
  const server = new grpc.Server();
  server.addService(service, {
    call: (call, callback) => {
      const request = Number(call.metadata.get('x-request')[0]);
      const attempt = Number(call.metadata.get('grpc-previous-rpc-attempts')[0] ?? 0);
      seen[request] += 1;
      if (attempt !== seen[request] - 1) {
        callback({ code: grpc.status.INTERNAL, details: `attempt ${attempt} out of order` });
        return;
      }
      const answer = log[request][attempt];
      if (answer === 'o') callback(null, Buffer.alloc(0));
      else callback({ code: STATUS[answer], details: 'scripted' });
    },
  });
  const port = await new Promise((resolve, reject) =>
    server.bindAsync(`${host}:0`, grpc.ServerCredentials.createInsecure(),
                     (err, p) => (err ? reject(err) : resolve(p))));
  const config = {
    methodConfig: [{
      name: [{ service: 'breakerlab.Throttle' }],
      retryPolicy: {
        maxAttempts: policy.maxAttempts,
        initialBackoff: '0.001s',
        maxBackoff: '0.001s',
        backoffMultiplier: 1,
        retryableStatusCodes: ['UNAVAILABLE'],
      },
    }],
    retryThrottling: { maxTokens: policy.maxTokens, tokenRatio: policy.tokenRatio },
  };
  const client = new Client(`${host}:${port}`, grpc.credentials.createInsecure(),
                            { 'grpc.service_config': JSON.stringify(config) });
  const ended = [];
  try {
    for (let k = 0; k < log.length; k++) {
      if (Date.now() > DEADLINE) throw new Error('out of time');
      const md = new grpc.Metadata();
      md.set('x-request', String(k));
      const code = await new Promise((resolve) => {
        client.call(Buffer.alloc(0), md, { deadline: Date.now() + 10000 },
                    (err) => resolve(err ? err.code : grpc.status.OK));
      });
      if (!(code in LETTER)) throw new Error(`request ${k} ended with status ${code}`);
      ended.push(`${seen[k]} ${LETTER[code]}`);
    }
  } finally {
    client.close();
    server.forceShutdown();
  }
  return ended;
}

function viaBreakerLab(policy, log) {
  const input = `policy ${policy.maxAttempts} ${policy.maxTokens} ${policy.tokenRatio}\n` +
    log.map((a) => `request ${a}\n`).join('');
  return execFileSync(DRIVER, { input, encoding: 'utf8' }).trim().split('\n');
}

const r = rng(SEED);
let requests = 0;
let refused = 0;
for (let i = 0; i < LOGS; i++) {
  const policy = randomPolicy(r);
  const log = randomLog(r, policy, REQUESTS);
  const real = await viaGrpc(policy, log, i);
  const ours = viaBreakerLab(policy, log);
  for (let k = 0; k < log.length; k++) {
    if (real[k] !== ours[k]) {
      console.error(`log ${i} (seed ${SEED}), policy ${JSON.stringify(policy)}: request ${k} ` +
                    `(answers ${log[k]}): grpc-js made "${real[k]}" (attempts, last answer), ` +
                    `BreakerLab "${ours[k]}"`);
      console.error('requests before it:', log.slice(Math.max(0, k - 8), k).join(' '));
      process.exit(1);
    }
    // A request that ended on a retryable answer with attempts to spare was throttled.
    const [made, last] = real[k].split(' ');
    if (last === 'u' && Number(made) < policy.maxAttempts) refused += 1;
  }
  requests += log.length;
}
console.log(`grpc-js retry throttling: ${LOGS} logs, ${requests} requests, ${refused} retries ` +
            'refused by the throttle: every request made the same attempts and ended the same');
if (refused === 0) {
  console.error('no retry was throttled: the logs do not reach the threshold');
  process.exit(1);
}
