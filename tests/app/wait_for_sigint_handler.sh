# Sourced by the Ctrl+C tests. A fixed sleep before `kill -INT` lets a loaded machine (a
# sanitizer build beside other tests) deliver the signal before the CLI has installed its
# handler, and the default action ends it silently. Waiting until the kernel reports SIGINT as
# caught (SigCgt in /proc/PID/status) makes the signal land on the handler on any machine.
#   wait_for_sigint_handler PID [SECONDS]  -> 0 once caught, 1 if PID ended or time ran out
wait_for_sigint_handler() {
  local pid=$1 limit=${2:-120} mask
  local deadline=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$deadline" ]; do
    mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null) || return 1
    [ -n "$mask" ] || return 1
    # SIGINT is signal 2: bit 1 of the mask.
    if (((0x$mask >> 1) & 1)); then return 0; fi
    sleep 0.02
  done
  return 1
}
