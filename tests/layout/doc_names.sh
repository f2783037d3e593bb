#!/usr/bin/env bash
# A recipe that names a table or a function the code no longer has sends the next engineer
# looking as surely as a missing file. This fails when a Markdown file names, in `backticks`, a
# code name that no source file spells: a table (`kSources`), a member (`KnobSpec::get`,
# `Simulation::renewPod`) or a function in camelCase (`applyScenario`, `detectIncidentSource`),
# with or without `()`. Test names (Suite.Name) count as spelled where the test is.
# Usage: doc_names.sh SOURCE_DIR FILE.md...
set -euo pipefail
root="${1:?usage: doc_names.sh SOURCE_DIR FILE.md...}"
shift
cd "$root"
sources=(core data views app tests scripts)
status=0
checked=0
for doc in "$@"; do
  while IFS=: read -r line token; do
    token=${token%()}
    [[ "$token" == *"<"* ]] && continue  # a pattern: looksLike<Format>
    # A code name: kTable, Type::member, Suite.TestName, or lowerCamelCase.
    if [[ "$token" =~ ^k[A-Z][A-Za-z0-9_]*$ || "$token" =~ ^[A-Z][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*$ ||
      "$token" =~ ^[a-z]+[A-Z][A-Za-z0-9]*$ || "$token" =~ ^[A-Z][A-Za-z0-9]*\.[A-Z][A-Za-z0-9]+$ ]]; then
      :
    else
      continue
    fi
    name=${token##*::}
    name=${name##*.}
    checked=$((checked + 1))
    if ! grep -rqw --include='*.cpp' --include='*.h' --include='*.sh' --include='*.mjs' \
      --include='CMakeLists.txt' -- "$name" "${sources[@]}"; then
      echo "$doc:$line: \`$token\` is named in no source file"
      status=1
    fi
  done < <(grep -no '`[^`]*`' "$doc" | sed 's/`//g')
done
[ $status -eq 0 ] && echo "doc_names: $checked code names in $*, each in the code"
exit $status
