#!/usr/bin/env bash
# Ctrl+C during a long replay: breakerlab-cli stops within a second or two, says so on stderr,
# prints no report and exits 130.
#   ctrl_c.sh BREAKERLAB_CLI INCIDENT
set -u
cli=$1
incident=$2
err=$(mktemp)
out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
. "$(dirname "$0")/wait_for_sigint_handler.sh"
# A background job of a non-interactive shell ignores SIGINT unless it is given back.
(trap - INT; exec "$cli" replay "$incident" --no-incident-expect >"$out" 2>"$err") &
pid=$!
wait_for_sigint_handler "$pid" "$cli" || { kill -KILL "$pid" 2>/dev/null; echo "the replay never caught SIGINT"; exit 1; }
sleep 0.5
kill -INT "$pid"
started=$SECONDS
wait "$pid"
code=$?
took=$((SECONDS - started))
echo "exit $code after ${took}s; stderr: $(cat "$err")"
[ "$code" -eq 130 ] || { echo "expected exit 130"; exit 1; }
grep -q '^breakerlab-cli: replay cancelled (Ctrl+C) at [0-9]*% of the simulated time; no report$' "$err" ||
  { echo "unexpected stderr"; exit 1; }
[ ! -s "$out" ] || { echo "a report was printed"; exit 1; }
[ "$took" -le 5 ] || { echo "took ${took}s to stop"; exit 1; }
