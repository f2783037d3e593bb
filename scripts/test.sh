#!/usr/bin/env bash
# Installs what the build needs, builds BreakerLab and runs every test: the release build, then
# the AddressSanitizer + UBSan build (skip it with BREAKERLAB_SKIP_SANITIZERS=1).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup-debian.sh

export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/runtime-$(id -u)}"
mkdir -p -m 700 "$XDG_RUNTIME_DIR"

echo "== release build and tests"
cmake --workflow --preset release

if [ "${BREAKERLAB_SKIP_SANITIZERS:-0}" != "1" ]; then
  echo "== AddressSanitizer + UBSan build and tests"
  cmake --workflow --preset asan
fi
