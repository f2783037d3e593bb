#!/usr/bin/env bash
# The testbed's CI check (about 80 s of wall time): runs ci-short.yaml and ci-short-b.yaml (the
# same outage and traffic, two client configs) side by side, then compares BreakerLab's replay of
# each and its predictions in both directions (compare.mjs --floors: exit 1 when a floor is
# missed). Recordings go to $1 (default: a temporary folder, removed on success).
#   tests/testbed/ci.sh [OUTDIR]          BREAKERLAB_CLI=path/to/breakerlab-cli to override
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:-}"
keep=1
if [ -z "$out" ]; then out="$(mktemp -d)"; keep=0; fi
mkdir -p "$out"
start=$(date +%s)
"$here/run.sh" "$here/scenarios/ci-short.yaml" "$out/ci-short" > "$out/ci-short.log" 2>&1 &
a=$!
"$here/run.sh" "$here/scenarios/ci-short-b.yaml" "$out/ci-short-b" > "$out/ci-short-b.log" 2>&1 &
b=$!
rc=0
wait $a || { echo "testbed ci: ci-short failed:"; tail -5 "$out/ci-short.log"; rc=1; }
wait $b || { echo "testbed ci: ci-short-b failed:"; tail -5 "$out/ci-short-b.log"; rc=1; }
[ $rc -eq 0 ] || exit 1
cat "$out/ci-short/complete" "$out/ci-short-b/complete"
node "$here/compare.mjs" "$out/ci-short" "$out/ci-short-b" --floors --json "$out/compare.json" || rc=$?
echo "testbed ci: $(( $(date +%s) - start )) s of wall time"
if [ $rc -eq 0 ] && [ $keep -eq 0 ]; then rm -rf "$out"; else echo "testbed ci: recordings in $out"; fi
exit $rc
