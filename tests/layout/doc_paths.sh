#!/usr/bin/env bash
# A recipe that names a file which is not there sends the next engineer looking. This fails when
# a Markdown file names, in `backticks`, a path under the project's folders that does not exist.
# `a.{h,cpp}` names both; a path with a placeholder (<lib>) or a wildcard is a pattern: the folder
# before it must exist. build/ is made by the build and not checked.
# Usage: doc_paths.sh SOURCE_DIR FILE.md...
set -euo pipefail
root="${1:?usage: doc_paths.sh SOURCE_DIR FILE.md...}"
shift
cd "$root"
status=0
checked=0
for doc in "$@"; do
  while IFS=: read -r line token; do
    # A path's first folder is one of the project's top-level ones.
    case "$token" in
      core/* | data/* | views/* | app/* | tests/* | scripts/* | docs/* | resources/* | \
        installer/* | .ci/* | CMakeLists.txt | CMakePresets.json | README.md) ;;
      *) continue ;;
    esac
    case "$token" in
      *'...'* | *' '*) continue ;;
      *'<'* | *'*'*)
        # The folder that holds the pattern.
        token=${token%%[<*]*}
        token=${token%/*}/
        ;;
    esac
    token=${token%%:*}  # file:line
    token=${token%%#*}  # file#anchor
    paths=("$token")
    if [[ "$token" =~ ^(.*)\{([^}]*)\}(.*)$ ]]; then
      paths=()
      IFS=, read -r -a alts <<<"${BASH_REMATCH[2]}"
      for alt in "${alts[@]}"; do paths+=("${BASH_REMATCH[1]}$alt${BASH_REMATCH[3]}"); done
    fi
    for path in "${paths[@]}"; do
      checked=$((checked + 1))
      if [ ! -e "$path" ]; then
        echo "$doc:$line: \`$path\` does not exist"
        status=1
      fi
    done
  done < <(grep -no '`[^`]*`' "$doc" | sed 's/`//g')
done
[ $status -eq 0 ] && echo "doc_paths: $checked paths named in $*, each there"
exit $status
