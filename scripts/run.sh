#!/usr/bin/env bash
# Installs what the build needs, builds BreakerLab and opens the workbench on the bundled 8 Sep
# incident. Extra arguments go to the workbench (e.g. --whatif early-probe). Without a display,
# it prints the headless replay of the incident instead.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup-debian.sh
cmake --preset release >/dev/null
cmake --build --preset release --target breakerlab breakerlab-cli

incident=resources/incidents/inc-2026-0908-pricing.yaml
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "run: no display (DISPLAY/WAYLAND_DISPLAY unset); printing the headless replay instead." >&2
  echo "run: for the workbench on a headless machine: xvfb-run -a ./scripts/run.sh" >&2
  exec ./build/release/app/breakerlab-cli replay "$incident"
fi
exec ./build/release/app/breakerlab "$incident" "$@"
