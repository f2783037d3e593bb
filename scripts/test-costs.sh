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
# The costs only (the failed tests after "---" would otherwise be started first in every run),
# of the tests the build has now: ctest keeps the costs of tests long renamed or removed.
ctest --preset "$preset" -N | sed -n 's/^ *Test *#[0-9]*: //p' | sed 's/  # GetParam() = .*//' >"$from.names"
sed '/^---$/,$d' "$from" |
  awk 'NR == FNR { known[$0] = 1; next }
       { name = $0; sub(/ [0-9]+ [0-9.eE+-]+$/, "", name); if ((name in known) && !seen[name]++) print $NF "\t" $0 }' \
    "$from.names" - | sort -t "$(printf '\t')" -k1,1 -g -r | cut -f2- >"tests/ctest-costs/$preset.txt"
rm -f "$from.names"
echo "test-costs: $(wc -l <"tests/ctest-costs/$preset.txt") tests in tests/ctest-costs/$preset.txt"
