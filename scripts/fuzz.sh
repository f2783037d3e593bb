#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz (in the clang ASan + UBSan build, `cmake --preset asan`,
# which scripts/test.sh has built already) and runs
# each for SECONDS (default 600), then prints every target's executions and findings (crashes,
# hangs, leaks, out-of-memory). Exits 1 when anything was found; the inputs that did it are in
# BUILD/fuzz-artifacts/TARGET/RUN/ (one folder per run, kept) and reproduce with
# `BUILD/tests/fuzz/fuzz_TARGET FILE`.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#   BREAKERLAB_FUZZ_BUILD=build/asan   where to build (the asan preset's directory by default)
#   BREAKERLAB_FUZZ_JOBS=1             targets run at once (each uses one core)
#   BREAKERLAB_FUZZ_SEED=0             libFuzzer's -seed (0: random)
#   BREAKERLAB_FUZZ_TIMEOUT=10         seconds one input may run before it is a hang; libFuzzer
#                                      counts wall time, so a run under `nice` on a busy machine
#                                      needs more (a starved input is not a hang)
#   BREAKERLAB_FUZZ_PREBUILT=1         run the targets as built, without building them first
#                                      (long runs while the sources are being edited; the
#                                      totals record the commit as COMMIT+prebuilt)
#
# New inputs that reach new code go to BUILD/fuzz-corpus/TARGET/ and are used again by the next
# run; the seeds in tests/fuzz/corpus/ are only read. Each run adds its executions, CPU seconds and
# findings per target, with the commit fuzzed, to a totals file, so that runs spread over days add
# up to a total per target (the table printed at the end has both this run's and the accumulated
# figures):
#   BREAKERLAB_FUZZ_TOTALS=BUILD/fuzz-totals.tsv   the default, gone with the build folder;
#   BREAKERLAB_FUZZ_TOTALS=tests/fuzz/totals.tsv   the project's record, committed after long runs
#                                                  (docs/hacking.md, "Fuzzing").
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
shift || true
build="${BREAKERLAB_FUZZ_BUILD:-build/asan}"
jobs="${BREAKERLAB_FUZZ_JOBS:-1}"
# 0: a new random seed each run (long runs explore); CI sets a fixed one, so that the same inputs
# are tried in every run and a green run stays green until the code changes.
seed="${BREAKERLAB_FUZZ_SEED:-0}"

# Every target of tests/fuzz/CMakeLists.txt, unless some are named.
if [ $# -gt 0 ]; then
  targets=("$@")
else
  # The set(fuzz_targets ...) list, which may go over several lines.
  read -r -a targets < <(sed -n '/^set(fuzz_targets/,/)/p' tests/fuzz/CMakeLists.txt | tr '\n' ' ' |
    sed 's/^set(fuzz_targets \([^)]*\)).*$/\1/') || true  # no newline at the end
  if [ ${#targets[@]} -eq 0 ]; then
    echo "fuzz: no set(fuzz_targets ...) in tests/fuzz/CMakeLists.txt" >&2
    exit 1
  fi
fi

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: clang++ is missing (scripts/setup-debian.sh installs clang and libclang-rt-14-dev)" >&2
  exit 1
fi

if [ "${BREAKERLAB_FUZZ_PREBUILT:-0}" = "1" ]; then
  for name in "${targets[@]}"; do
    if [ ! -x "$build/tests/fuzz/fuzz_$name" ]; then
      echo "fuzz: BREAKERLAB_FUZZ_PREBUILT=1 but $build/tests/fuzz/fuzz_$name is not built" >&2
      exit 1
    fi
  done
else
  echo "== fuzz: building ${targets[*]} in $build"
  cmake --preset asan -B "$build" >/dev/null
  cmake --build "$build" -j2 --target "${targets[@]/#/fuzz_}"
fi

# The longest seed of a target and some room: the postmortems are a few pages.
max_len_of() {
  case "$1" in
    postmortem) echo 32768 ;;
    # The readers' cost grows with the text (7 ms for 3 KB under ASan): short inputs reach the
    # same rules at thousands of runs a second instead of a hundred.
    postmortem_facts) echo 4096 ;;
    # A short document: the calibration replays its incident many times.
    calibrate) echo 2048 ;;
    go_ready_to_trip) echo 4096 ;;
    *) echo 16384 ;;
  esac
}

# The dictionaries of tests/fuzz/dict/ that fit a target (libFuzzer takes one: they are joined).
dict_parts_of() {
  case "$1" in
    otlp | prometheus | tune_partial | workspace) echo json ;;
    request_log | call_log) echo json ;;
    native_config) echo "json yaml" ;;
    incident | config | overrides | state_table | prometheus_metrics) echo yaml ;;
    postmortem | postmortem_facts) echo "markdown yaml" ;;
    calibrate) echo "markdown yaml postmortem" ;;
    *) echo "" ;;
  esac
}

run_target() {
  local name=$1
  local binary="$build/tests/fuzz/fuzz_$name"
  local corpus="$build/fuzz-corpus/$name"
  # One folder per run, kept: a finding of one run of a chain was once cleared by the next run
  # of the same target before anyone read it (7 Dec 2026).
  local artifacts
  artifacts="$build/fuzz-artifacts/$name/$(date -u +%Y%m%dT%H%M%SZ)-$$"
  local log="$build/fuzz-logs/$name.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  # The dictionaries of the target's formats (JSON, YAML, Markdown) and its own, joined: libFuzzer
  # takes one.
  local dict_args=()
  local parts
  parts=$(dict_parts_of "$name")
  [ -f "tests/fuzz/dict/$name.dict" ] && parts="$parts $name"
  if [ -n "${parts// /}" ]; then
    local dict="$build/fuzz-dicts/$name.dict"
    mkdir -p "$(dirname "$dict")"
    : >"$dict"
    for part in $parts; do cat "tests/fuzz/dict/$part.dict" >>"$dict"; done
    dict_args=(-dict="$dict")
  fi
  # -timeout: one input that runs longer is a hang; -rss_limit_mb (and the malloc limit it
  # implies): an input that makes the reader allocate without bound is a finding too.
  # -report_slow_units at the same wall time: libFuzzer's default (10 s) wrote a "slow unit" for
  # inputs that ran in 7 and 18 ms while the fuzzer was starved behind a build (7 Dec 2026), and
  # every artefact counts as a finding here.
  set +e
  # intercept_tls_get_addr=0: see CMakePresets.json's asan test preset (the LSan tracer crash).
  ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=0:malloc_context_size=8:intercept_tls_get_addr=0" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
    /usr/bin/time -f '%U %S' -o "$log.cpu" \
    "$binary" -max_total_time="$seconds" -seed="$seed" -max_len="$(max_len_of "$name")" -timeout="${BREAKERLAB_FUZZ_TIMEOUT:-10}" \
    -report_slow_units="${BREAKERLAB_FUZZ_TIMEOUT:-10}" \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" ${dict_args[@]+"${dict_args[@]}"} \
    "$corpus" "tests/fuzz/corpus/$name" >"$log" 2>&1
  local code=$?
  set -e
  local execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  local found
  found=$(find "$artifacts" -type f | wc -l)
  local cpu
  cpu=$(awk 'END { printf "%d", $1 + $2 }' "$log.cpu" 2>/dev/null || echo 0)
  printf '%s %s %s %s %s\n' "$name" "${execs:-0}" "$found" "$code" "${cpu:-0}" >"$log.summary"
}

pids=()
for name in "${targets[@]}"; do
  run_target "$name" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
wait

# The running totals: one line per run and target (date, target, executions, CPU seconds).
# One line per run and target: date, commit, target, executions, CPU seconds, findings.
totals="${BREAKERLAB_FUZZ_TOTALS:-$build/fuzz-totals.tsv}"
if [ ! -s "$totals" ]; then
  printf 'date\tcommit\ttarget\texecutions\tcpu_seconds\tfindings\n' >"$totals"
fi
run_date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
if [ "${BREAKERLAB_FUZZ_PREBUILT:-0}" = "1" ]; then
  commit="$commit+prebuilt"  # built earlier: this commit's code or an older one's
elif [ -n "$(git status --porcelain --untracked-files=no -- core data tests/fuzz 2>/dev/null)" ]; then
  commit="$commit+changes"  # the fuzzed code is not exactly the commit's
fi
for name in "${targets[@]}"; do
  read -r _ execs found _ cpu <"$build/fuzz-logs/$name.log.summary"
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$run_date" "$commit" "$name" "$execs" "$cpu" "$found" >>"$totals"
done
total_of() {  # total_of TARGET COLUMN (4: executions, 5: CPU seconds)
  awk -F'\t' -v t="$1" -v c="$2" '$3 == t { s += $c } END { printf "%d", s }' "$totals"
}

echo "== fuzz: ${seconds}s per target (totals: every run recorded in $totals)"
printf '%-18s %14s %8s %9s %16s %12s\n' target executions cpu_s findings total_executions total_cpu_h
failed=0
for name in "${targets[@]}"; do
  read -r _ execs found code cpu <"$build/fuzz-logs/$name.log.summary"
  printf '%-18s %14s %8s %9s %16s %12s\n' "$name" "$execs" "$cpu" "$found" "$(total_of "$name" 4)" \
    "$(awk -v s="$(total_of "$name" 5)" 'BEGIN { printf "%.2f", s / 3600 }')"
  if [ "$found" -gt 0 ] || [ "$code" -ne 0 ]; then
    failed=1
    echo "   exit $code; see $build/fuzz-logs/$name.log and the newest folder of $build/fuzz-artifacts/$name/" >&2
    grep -m 3 -E "ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY" \
      "$build/fuzz-logs/$name.log" >&2 || true
  fi
done
exit "$failed"
