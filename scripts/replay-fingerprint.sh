#!/usr/bin/env bash
# Prints a hash of `breakerlab-cli replay --json` for each of 138 configs: every bundled
# incident, deployed and each what-if, each with a few knobs overridden. A change meant to make
# replays faster, not different, must leave every line as it was:
#   scripts/replay-fingerprint.sh build/release/app/breakerlab-cli > before.txt
#   (change, rebuild)
#   scripts/replay-fingerprint.sh build/release/app/breakerlab-cli | diff before.txt -
set -euo pipefail
cli=$(realpath "${1:?usage: replay-fingerprint.sh PATH-TO-breakerlab-cli}")
cd "$(dirname "$0")/.."
declare -A whatifs=(
  [inc-2026-0814-orders]="- remediation backoff-and-breaker no-retries pricing-client-bulkhead"
  [inc-2026-0908-pricing]="- early-probe short-ttl"
  [inc-2026-0912-payment-timeout]="- no-scale-up breaker-from-09:14 timeout-2s scale-to-40-pods breaker-at-40-pods"
  [inc-payment-retry-amplification]="- flag-left-on background-retries retries-disabled breaker-before-saturation"
  [teach-metastable-retries]="- backoff-and-jitter no-retries retry-budget grpc-retry-throttling client-throttling")
overrides=("" "timeout.attempt=700ms" "workers.per_pod=17" "pool.size=9" "retry.max_attempts=2"
  "timeout.attempt=3s workers.per_pod=60")
for incident in "${!whatifs[@]}"; do
  for whatif in ${whatifs[$incident]}; do
    for set in "${overrides[@]}"; do
      args=(replay "$incident" --json)
      if [ "$whatif" != "-" ]; then args+=(--whatif "$whatif"); fi
      for kv in $set; do args+=(--set "$kv"); done
      # Errors are hashed too: a config refused before must still be refused.
      echo "$incident $whatif [$set] $("$cli" "${args[@]}" 2>&1 | sha1sum | cut -c1-12)"
    done
  done
done | sort
