#!/usr/bin/env bash
# Every output option of breakerlab-cli at every kind of target, in a scratch folder:
#   a new file and a regular file   written whole (and replaced atomically)
#   a symlink                       its target written, the link kept
#   a FIFO                          written through to its reader, still a FIFO
#   "-"                             standard output, no file named "-"
#   a character device (root only)  a null device node of the test's own, still a device
#   a directory                     refused with exit 2 naming the path
# Never the machine's /dev/null: a test run as root must not put it at risk.
# (`import --prometheus … --save-responses` needs a server: tests/app/prometheus_url.sh writes it
# to a file, through a symlink and to "-".)
#   output_targets.sh BREAKERLAB_CLI RESOURCES_DIR WORK_DIR [gui]
set -u
cli=$1
resources=$2
work=$3
with_gui=${4:-}
incident="$resources/incidents/inc-2026-0908-pricing.yaml"
postmortem="$resources/postmortems/inc-2026-0908-pricing-postmortem.md"
gate_base="$(dirname "$0")/fixtures/gate/timeout-30s.yaml"
gate_head="$(dirname "$0")/fixtures/gate/timeout-2s.yaml"
policy="$resources/configs/inc-2026-0908-resilience4j.yml"
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
failures=0
checks=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# Each output: a name, the suffix its file takes, a text its contents hold, and the command with
# OUT where the path goes.
outputs=(
  "import|.yaml|format: breakerlab/1|import $postmortem -o OUT"
  "calls-out|.csv|timestamp,duration_ms,outcome|replay $incident --calls-out OUT"
  "sweep|.csv|breaker.open.interval|sweep $incident --knob breaker.open.interval=5..20 --points 3 --metric failed_checkouts -o OUT"
  "tune|.yaml|breaker|tune $incident --knob breaker.open.interval=5..20 --minimize cached_while_healthy_s --budget 4 --threads 1 -o OUT"
  "tune-partial|.json|breakerlab-tune-partial/1|tune $incident --knob breaker.open.interval=5..20 --minimize cached_while_healthy_s --budget 4 --threads 1 --shard 0/2 --partial OUT"
  "gate-markdown|.md|breakerlab-gate|gate --base $gate_base --head $gate_head --markdown OUT inc-2026-0908-pricing"
  "export|.yml|slidingWindowType: COUNT_BASED|export --policy $policy -o OUT"
  "export-library|.go|gobreaker.Settings|export --policy $policy --library gobreaker -o OUT"
)
if [ "$with_gui" = gui ]; then
  outputs+=("report|.html|<html|report $incident -o OUT")
fi

# Runs one output's command with OUT replaced by $2; stdout and stderr to files; echoes the code.
run() {
  local spec=$1 out=$2
  local command=${spec##*|}
  local -a args
  read -r -a args <<<"${command//OUT/$out}"
  # Bounded: a FIFO nobody reads, or an output that waits on one, fails instead of hanging.
  timeout 120 "$cli" "${args[@]}" >stdout.txt 2>stderr.txt </dev/null
  echo $?
}

for spec in "${outputs[@]}"; do
  IFS='|' read -r name suffix marker _ <<<"$spec"
  ok_codes="0"
  # gate exits 1 on a regression, tune when no config meets the goals: either is written.
  case "$name" in gate-markdown | tune*) ok_codes="0 1" ;; esac
  ok() { [[ " $ok_codes " == *" $1 "* ]]; }

  # A new file, then the same file again (replaced).
  checks=$((checks + 1))
  code=$(run "$spec" "new$suffix")
  ok "$code" && grep -qF -- "$marker" "new$suffix" || fail "$name: new file (exit $code): $(head -c 300 stderr.txt)"
  code=$(run "$spec" "new$suffix")
  ok "$code" && [ "$(find . -maxdepth 1 -name '.new*' | wc -l)" -eq 0 ] ||
    fail "$name: replacing left a temporary file (exit $code)"

  # A symlink (relative, into a folder): the target written, the link kept.
  checks=$((checks + 1))
  mkdir -p real
  rm -f "real/target$suffix" "link$suffix"
  echo old >"real/target$suffix"
  ln -s "real/target$suffix" "link$suffix"
  code=$(run "$spec" "link$suffix")
  { ok "$code" && [ -L "link$suffix" ] && grep -qF -- "$marker" "real/target$suffix"; } ||
    fail "$name: symlink (exit $code; link kept: $([ -L "link$suffix" ] && echo yes || echo no))"

  # A FIFO with a reader: written through, still a FIFO.
  checks=$((checks + 1))
  rm -f "fifo$suffix" fifo.got
  mkfifo "fifo$suffix"
  timeout 60 cat "fifo$suffix" >fifo.got &
  reader=$!
  code=$(run "$spec" "fifo$suffix")
  wait "$reader"
  { ok "$code" && [ -p "fifo$suffix" ] && grep -qF -- "$marker" fifo.got; } ||
    fail "$name: FIFO (exit $code; still a FIFO: $([ -p "fifo$suffix" ] && echo yes || echo no))"

  # "-": standard output.
  if [ "$name" != report ]; then  # a report's type comes from its suffix
    checks=$((checks + 1))
    code=$(run "$spec" "-")
    # Only the output on standard output (the command's own text goes to stderr): the same
    # bytes as the file written above.
    { ok "$code" && cmp -s stdout.txt "new$suffix" && [ ! -e ./- ]; } ||
      fail "$name: - (exit $code; the same as the file: $(cmp -s stdout.txt "new$suffix" && echo yes || echo no); a file named -: $([ -e ./- ] && echo yes || echo no))"
    rm -f ./-
  fi

  # A character device of the test's own (c 1 3 is the null device).
  if [ "$(id -u)" -eq 0 ]; then
    checks=$((checks + 1))
    rm -f "null$suffix"
    mknod -m 666 "null$suffix" c 1 3
    code=$(run "$spec" "null$suffix")
    { ok "$code" && [ -c "null$suffix" ]; } ||
      fail "$name: character device (exit $code; still a device: $([ -c "null$suffix" ] && echo yes || echo no))"
  fi

  # A directory: refused, named, left alone.
  checks=$((checks + 1))
  mkdir -p "folder$suffix"
  code=$(run "$spec" "folder$suffix")
  { [ "$code" -eq 2 ] && grep -q "folder$suffix: cannot write: a directory, not a regular file" stderr.txt &&
    [ -d "folder$suffix" ]; } || fail "$name: directory (exit $code): $(head -c 300 stderr.txt)"
done

echo "$((checks - failures)) passed, $failures failed"
[ "$failures" -eq 0 ]
