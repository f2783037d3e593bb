#!/usr/bin/env bash
# Installs what the build needs, builds BreakerLab and runs every test: the release build and its
# tests, the testbed's short real-fleet check, then the one instrumented build (clang,
# AddressSanitizer + UBSan at -O1, with the libFuzzer targets) and its tests (skip it with
# BREAKERLAB_SKIP_SANITIZERS=1), then each libFuzzer target for 20 s in that build
# (BREAKERLAB_SKIP_FUZZ=1 skips them). The instrumented build starts beside the testbed, at idle
# priority: the testbed mostly waits on its fleet's clock. Each stage's wall time is printed as
# it ends and again, all together, at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's time, and after each a look at /dev/null: a tool that renames an output over its
# target would turn the machine's /dev/null into a regular file (CI runs this as root), and
# every later program that writes to it would write to that file.
started=$SECONDS
stage_started=$SECONDS
stage_times=()
stage() {
  local now=$SECONDS
  echo "== stage done in $((now - stage_started)) s (total $((now - started)) s)"
  stage_times+=("$(printf '%6d s  %s' $((now - stage_started)) "$1")")
  stage_started=$now
  if [ ! -c /dev/null ]; then
    echo "test.sh: /dev/null is no longer a character device: something replaced it" >&2
    ls -l /dev/null >&2
    exit 1
  fi
}

# The stage times again, together, however the run ends; and no build left running behind a
# failed stage.
sanitizer_build_pid=""
on_exit() {
  if [ -n "$sanitizer_build_pid" ]; then kill -- "-$sanitizer_build_pid" 2>/dev/null || true; fi
  echo "== stage times"
  if [ ${#stage_times[@]} -gt 0 ]; then printf '%s\n' "${stage_times[@]}"; fi
  echo "$(printf '%6d s' $((SECONDS - started)))  in all"
}
trap on_exit EXIT

./scripts/setup-debian.sh
stage "set-up (packages)"

# Compiles go through ccache (CMakeLists.txt): paths under this checkout are hashed as relative
# ones and the working folder not at all, so a fresh clone elsewhere on the machine reuses what an
# earlier build compiled. The counts at the end say how much it did.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
command -v ccache >/dev/null && ccache --zero-stats >/dev/null

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

# ctest starts the longest tests first when it knows what each costs
# (BUILD/Testing/Temporary/CTestCostData.txt, which every run rewrites); a fresh clone knows
# nothing, and a long test that starts last leaves one core idle at the end. tests/ctest-costs/
# holds each preset's costs from a run on a 2-core machine (names and seconds; only their order
# matters), copied in when the build has none. Regenerate: scripts/test-costs.sh.
seed_test_costs() {  # seed_test_costs PRESET
  local costs="tests/ctest-costs/$1.txt" into="build/$1/Testing/Temporary/CTestCostData.txt"
  if [ -f "$costs" ] && [ ! -f "$into" ]; then
    mkdir -p "$(dirname "$into")"
    cp "$costs" "$into"
  fi
}

sanitizers=1
if [ "${BREAKERLAB_SKIP_SANITIZERS:-0}" = "1" ]; then sanitizers=0; fi

echo "== release build"
# The fuzz targets' seed corpora are replayed by the sanitizer build's tests; the release build
# replays them only when that build does not run.
cmake --preset release -DBREAKERLAB_FUZZ_DRIVERS="$([ $sanitizers = 1 ] && echo OFF || echo ON)"
cmake --build --preset release
stage "release build"
echo "== release tests"
seed_test_costs release
ctest --preset release
stage "release tests"

if [ $sanitizers = 1 ]; then
  echo "== AddressSanitizer + UBSan configure (clang -O1, with the fuzz targets)"
  cmake --preset asan
fi

# The testbed (tests/testbed, docs/validation.md): a real fleet on 127.0.0.1 (Node.js pods with
# the real opossum and cockatiel, HAProxy, Prometheus, a scripted dependency) records a short
# outage under two client configs; the release CLI replays each recording and must come within
# the replay floors. About 140 s, most of it waiting on the fleet's clock (about 15 % of the two
# cores busy), so the sanitizer build runs beside it under SCHED_IDLE: it gets only the CPU the
# fleet leaves, and never delays a pod or the load generator that wakes up. BREAKERLAB_SKIP_TESTBED=1
# skips it.
if [ "${BREAKERLAB_SKIP_TESTBED:-0}" != "1" ]; then
  beside=""
  if [ $sanitizers = 1 ]; then
    # Its own process group (set -m), so that a failing testbed stops the whole build.
    set -m
    chrt --idle 0 cmake --build --preset asan > build/asan-build.log 2>&1 &
    sanitizer_build_pid=$!
    set +m
    beside=", the sanitizer build beside it at idle priority"
  fi
  echo "== testbed: a real fleet recorded and replayed (tests/testbed/ci.sh)$beside"
  BREAKERLAB_CLI="$PWD/build/release/app/breakerlab-cli" tests/testbed/ci.sh
  stage "testbed$beside"
fi

if [ $sanitizers = 1 ]; then
  echo "== AddressSanitizer + UBSan build"
  if [ -n "$sanitizer_build_pid" ]; then
    build_rc=0
    wait "$sanitizer_build_pid" || build_rc=$?
    sanitizer_build_pid=""
    cat build/asan-build.log
    if [ $build_rc -ne 0 ]; then exit $build_rc; fi
  else
    cmake --build --preset asan
  fi
  stage "sanitizer build (the part after the testbed)"
  echo "== AddressSanitizer + UBSan tests"
  seed_test_costs asan
  ctest --preset asan
  stage "sanitizer tests"
fi

# Every fuzz target for a short time (scripts/fuzz.sh runs them long); skip with
# BREAKERLAB_SKIP_FUZZ=1.
if [ "${BREAKERLAB_SKIP_FUZZ:-0}" != "1" ]; then
  echo "== fuzz targets, ${BREAKERLAB_FUZZ_SECONDS:-20}s each, two at a time"
  BREAKERLAB_FUZZ_JOBS=2 BREAKERLAB_FUZZ_SEED="${BREAKERLAB_FUZZ_SEED:-1}" \
    ./scripts/fuzz.sh "${BREAKERLAB_FUZZ_SECONDS:-20}"
  stage "fuzz targets"
fi

echo "== all stages done in $((SECONDS - started)) s"
command -v ccache >/dev/null && ccache --show-stats | sed -n '1,6p' || true
