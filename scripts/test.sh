#!/usr/bin/env bash
# Installs what the build needs, builds BreakerLab and runs every test: the release build, then
# each libFuzzer target for 20 s (BREAKERLAB_SKIP_FUZZ=1 skips them), then the AddressSanitizer +
# UBSan build (skip it with BREAKERLAB_SKIP_SANITIZERS=1).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup-debian.sh

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

echo "== release build and tests"
cmake --workflow --preset release

# Every fuzz target for a short time (scripts/fuzz.sh runs them long); skip with
# BREAKERLAB_SKIP_FUZZ=1.
if [ "${BREAKERLAB_SKIP_FUZZ:-0}" != "1" ]; then
  echo "== fuzz targets, ${BREAKERLAB_FUZZ_SECONDS:-20}s each, two at a time"
  BREAKERLAB_FUZZ_JOBS=2 BREAKERLAB_FUZZ_SEED="${BREAKERLAB_FUZZ_SEED:-1}" \
    ./scripts/fuzz.sh "${BREAKERLAB_FUZZ_SECONDS:-20}"
fi

if [ "${BREAKERLAB_SKIP_SANITIZERS:-0}" != "1" ]; then
  echo "== AddressSanitizer + UBSan build and tests"
  cmake --workflow --preset asan
fi
