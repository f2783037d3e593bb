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

# Records both scenarios into $1 and compares them; the compare's exit code.
record_and_compare() {
  local dir="$1"
  mkdir -p "$dir"
  # One after the other: two fleets at once on 2 cores disturb each other's timing (a run beside
  # another saw its load generator send up to 350 ms late, and its p99 moved by a quarter).
  for s in ci-short ci-short-b; do
    if ! "$here/run.sh" "$here/scenarios/$s.yaml" "$dir/$s" > "$dir/$s.log" 2>&1; then
      echo "testbed ci: $s failed:"; tail -5 "$dir/$s.log"; return 2
    fi
  done
  cat "$dir/ci-short/complete" "$dir/ci-short-b/complete"
  # The replays' floors decide; the predictions are printed. A prediction of B's close from A's
  # log misses by the seconds A's open breakers hid the dependency's recovery
  # (docs/validation.md, item 3): --floors (all) once the model knows the dependency's health
  # over those seconds.
  node "$here/compare.mjs" "$dir/ci-short" "$dir/ci-short-b" --floors=replay --json "$dir/compare.json"
}

# A real fleet differs from run to run: a half-open probe that met a failing call in one
# recording meets a good one in the next. A replay that misses a floor is recorded once more,
# and both outcomes are printed: the check fails when the second recording misses too (measured
# on 7 Dec 2026: 1 of 3 fresh-clone runs missed by 0.38 points, one pod reopening in the replay
# where the real one closed; docs/validation.md).
rc=0
record_and_compare "$out/first" || rc=$?
if [ $rc -eq 1 ]; then
  echo "testbed ci: the first recording missed a replay floor (above); recording again"
  rc=0
  record_and_compare "$out/second" || rc=$?
fi
echo "testbed ci: $(( $(date +%s) - start )) s of wall time"
if [ $rc -eq 0 ] && [ $keep -eq 0 ]; then rm -rf "$out"; else echo "testbed ci: recordings in $out"; fi
exit $rc
