// What the differential tests share: their command line and their seeded random numbers.

// `--name value` pairs of the command line, as an object.
export function parseArgs(argv = process.argv.slice(2)) {
  return Object.fromEntries(
    argv.reduce((acc, a, i, all) => {
      if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
      return acc;
    }, []));
}

// mulberry32: a small seeded generator, so that a failure names a seed that reproduces it.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
export const int = (r, lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
