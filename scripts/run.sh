#!/usr/bin/env bash
# Installs what the build needs, builds BreakerLab and replays the bundled 8 Sep incident.
# Extra arguments go to the replay (e.g. --whatif early-probe, --set timeout.attempt=2s, --json).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup-debian.sh
cmake --preset release >/dev/null
cmake --build --preset release --target breakerlab-cli

exec ./build/release/app/breakerlab-cli replay resources/incidents/inc-2026-0908-pricing.yaml "$@"
