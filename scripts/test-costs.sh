#!/usr/bin/env bash
# Copies what each test cost in the last run of a preset's ctest into tests/ctest-costs/PRESET.txt,
# which scripts/test.sh gives ctest in a fresh clone so that the longest tests start first. Run
# it after a whole `ctest --preset PRESET` on an otherwise quiet machine; commit the file.
#   scripts/test-costs.sh release|asan
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:?usage: scripts/test-costs.sh release|asan}"
from="build/$preset/Testing/Temporary/CTestCostData.txt"
if [ ! -f "$from" ]; then
  echo "test-costs: no $from: run ctest --preset $preset first" >&2
  exit 1
fi
mkdir -p tests/ctest-costs
# The costs only: the failed tests after "---" would otherwise be started first in every run.
sed '/^---$/,$d' "$from" | sort -k3,3 -g -r >"tests/ctest-costs/$preset.txt"
echo "test-costs: $(wc -l <"tests/ctest-costs/$preset.txt") tests in tests/ctest-costs/$preset.txt"
