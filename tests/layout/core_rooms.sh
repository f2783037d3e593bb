#!/usr/bin/env bash
# core/ is in rooms (docs/hacking.md, "Where things are"): each folder of core/src (and of
# core/include/breakerlab/core) has one job. This fails when
#   - a room includes, directly or through others, a room that includes it back (tsort finds the
#     loop), or
#   - a room has no line in hacking.md's map.
# Usage: core_rooms.sh SOURCE_DIR
set -euo pipefail
root="${1:?usage: core_rooms.sh SOURCE_DIR}"
cd "$root"

# The room of a path under core/src/ or core/include/breakerlab/core/: its folder, with
# replay/parts a room of its own inside replay (the parts never reach back into the simulation);
# breakers/libraries and inputs/native are folders of their rooms.
room_of() {
  local rel=$1
  rel=${rel#core/src/}
  rel=${rel#core/include/breakerlab/core/}
  rel=${rel#breakerlab/core/}
  case "$rel" in
    */parts/*) echo "${rel%%/parts/*}/parts" ;;
    */*) echo "${rel%%/*}" ;;
    *) echo "(top)" ;;
  esac
}

status=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
rooms=()
while IFS= read -r file; do
  from=$(room_of "$file")
  if [ "$from" = "(top)" ]; then
    echo "core_rooms: $file is in no room (core/src and core/include/breakerlab/core have only folders)"
    status=1
    continue
  fi
  rooms+=("$from")
  echo "$from $from" >>"$edges"
  # Includes of the model's own headers: public ("breakerlab/core/ROOM/...") and private
  # ("ROOM/...", from core/src).
  while IFS= read -r included; do
    case "$included" in
      breakerlab/core/*) to=$(room_of "$included") ;;
      */*) [ -e "core/src/$included" ] || continue; to=$(room_of "$included") ;;
      *) continue ;;
    esac
    [ "$to" = "$from" ] && continue
    # tsort orders "a b" as a before b: the included room comes first.
    echo "$to $from" >>"$edges"
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find core/src core/include/breakerlab/core -type f \( -name '*.h' -o -name '*.cpp' \) | sort)

loop=$(tsort "$edges" 2>&1 >/dev/null || true)
if [ -n "$loop" ]; then
  echo "core_rooms: the rooms include each other in a loop (tsort names the rooms on it):"
  echo "$loop" | sed 's/^/  /'
  echo "  what each room includes:"
  sort -u "$edges" | awk '$1 != $2 { print "    " $2 " includes " $1 }'
  status=1
fi

# Every room has its line in hacking.md's map.
for room in $(printf '%s\n' "${rooms[@]}" | sort -u); do
  if ! grep -q "^| \`core/src/$room/\`" docs/hacking.md; then
    echo "core_rooms: docs/hacking.md's map has no row \"| \`core/src/$room/\` | ...\""
    status=1
  fi
done
[ $status -eq 0 ] && echo "core_rooms: $(printf '%s\n' "${rooms[@]}" | sort -u | wc -l) rooms, no loop, each in the map"
exit $status
