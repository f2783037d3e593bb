#!/usr/bin/env bash
# A big request log: on a terminal the import shows its progress on stderr (and clears it), off a
# terminal it prints none; Ctrl+C stops it with exit 130 and says so.
#   ctrl_c_import.sh BREAKERLAB_CLI WORK_DIR
set -u
cli=$1
work=$2
mkdir -p "$work"
log="$work/big-request-log.csv"
err="$work/import.err"
out="$work/import.out"
# Not /dev/null: a test run as root must never put the machine's /dev/null at risk.
imported="$work/imported.yaml"
trap 'rm -f "$log" "$err" "$out" "$imported"' EXIT
. "$(dirname "$0")/wait_for_sigint_handler.sh"
# 4 M calls (about 130 MB): long enough to interrupt and to show progress on any machine here.
awk 'BEGIN {
  print "timestamp,duration_ms,status,key"
  for (i = 0; i < 4000000; i++)
    printf "%d.%06d,12.5,%d,k%d\n", 1767225600 + int(i / 2000), (i % 2000) * 500,
           (i % 50 == 0 ? 503 : 200), i % 100
}' >"$log" || { echo "cannot write $log"; exit 1; }

# Off a terminal: no progress line.
"$cli" import "$log" -o "$imported" >"$out" 2>"$err"
code=$?
[ "$code" -eq 0 ] || { echo "import failed ($code): $(cat "$err")"; exit 1; }
if grep -q 'reading ' "$err"; then echo "progress printed off a terminal"; exit 1; fi

# On a terminal (script gives the command a pseudo-terminal): "reading FILE: NN%".
if command -v script >/dev/null; then
  script -qec "\"$cli\" import \"$log\" -o \"$imported\"" /dev/null >"$out" 2>&1 </dev/null
  grep -aEq 'reading big-request-log\.csv: +[0-9]+% \(Ctrl\+C stops\)' "$out" ||
    { echo "no progress on a terminal: $(tr '\r' '\n' <"$out" | head -5)"; exit 1; }
else
  echo "script(1) not installed: the terminal check is skipped"
fi

# Ctrl+C. A background job of a non-interactive shell ignores SIGINT unless it is given back.
(trap - INT; exec "$cli" import "$log" -o "$imported" >"$out" 2>"$err") &
pid=$!
wait_for_sigint_handler "$pid" "$cli" || { kill -KILL "$pid" 2>/dev/null; echo "the import never caught SIGINT"; exit 1; }
sleep 0.2
kill -INT "$pid"
started=$SECONDS
wait "$pid"
code=$?
took=$((SECONDS - started))
echo "exit $code after ${took}s; stderr: $(cat "$err")"
[ "$code" -eq 130 ] || { echo "expected exit 130"; exit 1; }
grep -q "^breakerlab-cli: import of .*big-request-log\.csv cancelled$" "$err" ||
  { echo "unexpected stderr"; exit 1; }
[ "$took" -le 5 ] || { echo "took ${took}s to stop"; exit 1; }
