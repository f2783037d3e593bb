#!/usr/bin/env bash
# The testbed's CI check (about 150 s of wall time): runs ci-short.yaml and ci-short-b.yaml (the
# same outage and traffic, two client configs) one after the other, then compares BreakerLab's replay of
# each and its predictions in both directions (compare.mjs --floors=replay: exit 1 when a replay
# misses a floor). Recordings go to $1 (default: a temporary folder, removed on success).
#   tests/testbed/ci.sh [OUTDIR]          BREAKERLAB_CLI=path/to/breakerlab-cli to override
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-}"
keep=1
if [ -z "$out" ]; then out="$(mktemp -d)"; keep=0; fi
mkdir -p "$out"
start=$(date +%s)
rc=0
# One after the other: two fleets at once on 2 cores disturb each other's timing (a run beside
# another saw its load generator send up to 350 ms late, and its p99 moved by a quarter).
for s in ci-short ci-short-b; do
  if ! "$here/run.sh" "$here/scenarios/$s.yaml" "$out/$s" > "$out/$s.log" 2>&1; then
    echo "testbed ci: $s failed:"; tail -5 "$out/$s.log"; rc=1; break
  fi
done
[ $rc -eq 0 ] || exit 1
cat "$out/ci-short/complete" "$out/ci-short-b/complete"
# The replays' floors decide; the predictions are printed. A prediction of B's close from A's log
# misses by the seconds A's open breakers hid the dependency's recovery (docs/validation.md, item
# 3): --floors (all) once the model knows the dependency's health over those seconds.
node "$here/compare.mjs" "$out/ci-short" "$out/ci-short-b" --floors=replay --json "$out/compare.json" || rc=$?
echo "testbed ci: $(( $(date +%s) - start )) s of wall time"
if [ $rc -eq 0 ] && [ $keep -eq 0 ]; then rm -rf "$out"; else echo "testbed ci: recordings in $out"; fi
exit $rc
