#!/usr/bin/env bash
# `breakerlab --grab` does not reopen the workspace used last: a picture of an incident has no
# business saving it into the user's workspace (the third walkthrough of issue #33: each --grab
# added its incident to the workspace a workbench had open). The settings name a workspace as
# the one used last; after a grab of another incident, the workspace file is byte for byte as it
# was, and no -wal was left beside it.
#   grab_leaves_workspace.sh BREAKERLAB BREAKERLAB_CLI RESOURCES_DIR WORK_DIR
set -u
gui=$1
cli=$2
resources=$3
work=$4
rm -rf "$work"
mkdir -p "$work/config/BreakerLab"
workspace="$work/last.breakerlab"
"$cli" replay "$resources/incidents/inc-2026-0908-pricing.yaml" --workspace "$workspace" \
  >/dev/null 2>&1 || { echo "FAIL: could not make the workspace"; exit 1; }
printf '[workspace]\nlast=%s\n' "$workspace" >"$work/config/BreakerLab/BreakerLab.conf"
before=$(sha256sum <"$workspace")
XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen \
  "$gui" "$resources/incidents/inc-2026-0814-orders.yaml" --grab "$work/grab.png" >"$work/grab.log" 2>&1
code=$?
[ "$code" -eq 0 ] || { echo "FAIL: --grab exited $code"; cat "$work/grab.log"; exit 1; }
[ -s "$work/grab.png" ] || { echo "FAIL: no picture"; exit 1; }
after=$(sha256sum <"$workspace")
[ "$before" = "$after" ] || { echo "FAIL: --grab changed the workspace used last"; exit 1; }
[ ! -e "$workspace-wal" ] || { echo "FAIL: --grab left a -wal beside the workspace"; exit 1; }
grep -q "^last=$workspace\$" "$work/config/BreakerLab/BreakerLab.conf" ||
  { echo "FAIL: --grab forgot the workspace used last"; exit 1; }
echo "ok: --grab left the workspace used last as it was"
