#!/usr/bin/env bash
# Keeps what long fuzzing found: adds to each target's seed corpus (tests/fuzz/corpus/TARGET, run
# by ctest in every build) the inputs of BUILD/fuzz-corpus/TARGET (scripts/fuzz.sh's working
# corpus) that reach code the seeds do not, with libFuzzer's -merge=1. The seeds stay; an input
# is added only for new coverage, and none longer than MAX_LEN bytes (the corpus is committed and
# replayed under ASan on every CI run). Prints each target's count and size before and after.
#
#   scripts/fuzz-keep.sh [TARGET...]       every target with a working corpus when none is named
#   BREAKERLAB_FUZZ_BUILD=build/asan       the build whose fuzz targets and working corpus to use
#   BREAKERLAB_FUZZ_KEEP_MAX_LEN=4096      the longest input kept
set -euo pipefail
cd "$(dirname "$0")/.."

build="${BREAKERLAB_FUZZ_BUILD:-build/asan}"
max_len="${BREAKERLAB_FUZZ_KEEP_MAX_LEN:-4096}"
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=()
  for dir in "$build"/fuzz-corpus/*/; do
    [ -d "$dir" ] && targets+=("$(basename "$dir")")
  done
fi
if [ ${#targets[@]} -eq 0 ]; then
  echo "fuzz-keep: no working corpus under $build/fuzz-corpus (run scripts/fuzz.sh first)" >&2
  exit 1
fi

size_of() { du -sk "$1" | cut -f1; }
printf '%-18s %8s %8s %8s %8s\n' target seeds kB_before kept kB_after
for name in "${targets[@]}"; do
  binary="$build/tests/fuzz/fuzz_$name"
  seeds="tests/fuzz/corpus/$name"
  found="$build/fuzz-corpus/$name"
  if [ ! -x "$binary" ] || [ ! -d "$found" ] || [ ! -d "$seeds" ]; then
    echo "fuzz-keep: $name: needs $binary, $found and $seeds" >&2
    exit 1
  fi
  before=$(find "$seeds" -type f | wc -l)
  kb_before=$(size_of "$seeds")
  # Only the inputs short enough to keep are offered to the merge.
  offered=$(mktemp -d)
  find "$found" -type f -size -"$((max_len + 1))"c -exec cp {} "$offered"/ \;
  ASAN_OPTIONS="detect_leaks=0:intercept_tls_get_addr=0" \
    "$binary" -merge=1 -max_len="$max_len" -timeout=60 "$seeds" "$offered" \
    >"$build/fuzz-keep-$name.log" 2>&1 || {
    echo "fuzz-keep: $name: the merge failed; see $build/fuzz-keep-$name.log" >&2
    rm -rf "$offered"
    exit 1
  }
  rm -rf "$offered"
  after=$(find "$seeds" -type f | wc -l)
  printf '%-18s %8d %8d %8d %8d\n' "$name" "$before" "$kb_before" "$((after - before))" \
    "$(size_of "$seeds")"
done
