// How well the real fleet repeats itself: two recordings of the same scenario file, the second
// held against the first with the numbers compare.mjs holds a replay to (failed and cached
// checkouts in points, p50/p99 ratios, first open and last close, each pod's transitions matched
// by the same pod's within 1 s). The floors of a replay mean little below this noise.
//   node repeat.mjs REC_1 REC_2 [--json FILE]
import fs from 'node:fs';
import path from 'node:path';
import { recorded, matchShare } from './lib/recorded.mjs';
import { parseScenario } from './lib/scenario.mjs';

const argv = process.argv.slice(2);
const j = argv.indexOf('--json');
const jsonOut = j >= 0 ? argv.splice(j, 2)[1] : undefined;
if (argv.length !== 2) { console.error('usage: node repeat.mjs RECORDING_1 RECORDING_2 [--json FILE]'); process.exit(2); }
for (const r of argv) {
  if (!fs.existsSync(path.join(r, 'complete'))) { console.error(`repeat: ${r} is not a whole recording (no 'complete' marker)`); process.exit(2); }
}
const [a, b] = argv.map(recorded);
// The same scenario means the same parsed scenario (comments and layout aside).
const same = argv.map(r => { const s = parseScenario(path.join(r, 'scenario.yaml')); delete s.file; delete s.portNodes; return JSON.stringify(s); });
if (same[0] !== same[1]) console.error('repeat: note: the two recordings are of different scenarios');
const share = matchShare(a, b);
const d = (x, y) => (x === null || y === null ? null : y - x);
const out = {
  first: path.basename(argv[0]), second: path.basename(argv[1]),
  failed_pts: b.failed_pct - a.failed_pct, cached_pts: b.cached_pct - a.cached_pct,
  p50_ratio: b.p50 / a.p50, p99_ratio: b.p99 / a.p99,
  first_open_s: d(a.first_open_s, b.first_open_s), last_close_s: d(a.last_close_s, b.last_close_s),
  transitions: [a.transitions.length, b.transitions.length], matched: share,
};
const f = (x, n = 2) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(n)}`);
console.log(`${out.second} against ${out.first} (the same scenario run twice):`);
console.log(`  failed ${a.failed_pct.toFixed(2)} -> ${b.failed_pct.toFixed(2)} % (${f(out.failed_pts)} points), cached ${a.cached_pct.toFixed(2)} -> ${b.cached_pct.toFixed(2)} % (${f(out.cached_pts)} points)`);
console.log(`  p50 ratio ${out.p50_ratio.toFixed(2)}, p99 ratio ${out.p99_ratio.toFixed(2)}; first open ${f(out.first_open_s)} s, last close ${f(out.last_close_s)} s`);
console.log(`  transitions ${a.transitions.length} and ${b.transitions.length}; of the first run's, ${share ? `${share.matched} (${(100 * share.matched / share.of).toFixed(0)}%)` : '—'} have the same pod's same transition within 1 s in the second`);
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(out, null, 1) + '\n');
