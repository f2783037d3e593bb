#!/usr/bin/env bash
# Runs a testbed scenario on 127.0.0.1 and writes its recording folder (README.md).
#   tests/testbed/run.sh SCENARIO.yaml OUTDIR
# Exit 0: OUTDIR holds a whole recording (with its `complete` marker). 1: a part died or the
# run failed (OUTDIR.partial-* is left, never OUTDIR). 2: bad input. 130: interrupted.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -ne 2 ]; then
  echo "usage: $0 SCENARIO.yaml OUTDIR" >&2
  exit 2
fi
out="$(cd "$(dirname "$2")" 2>/dev/null && pwd)/$(basename "$2")"
node "$here/run.mjs" "$1" "$2" &
runner=$!
# Whatever happens to the runner (even kill -9), no part outlives this script: every part's pid
# is in OUTDIR.partial-*/pids while it runs.
cleanup() {
  kill -TERM "$runner" 2>/dev/null && wait "$runner" 2>/dev/null
  for f in "$out".partial-*/pids; do
    [ -f "$f" ] || continue
    while read -r pid name; do
      if kill -0 "$pid" 2>/dev/null; then
        echo "testbed: stopping $name (pid $pid) left running" >&2
        kill -TERM "$pid" 2>/dev/null; sleep 0.5; kill -KILL "$pid" 2>/dev/null
      fi
    done < "$f"
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM
wait "$runner"
rc=$?
trap - EXIT
cleanup
exit $rc
