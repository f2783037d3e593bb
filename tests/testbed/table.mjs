// Markdown table of compare.mjs --json outputs (docs/validation.md):
//   node table.mjs NAME=compare.json ...
import fs from 'node:fs';
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
