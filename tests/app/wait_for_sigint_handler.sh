# Sourced by the Ctrl+C tests. A fixed sleep before `kill -INT` lets a loaded machine (a
# sanitizer build beside other tests) deliver the signal before the CLI has installed its
# handler, and the default action ends it silently. Waiting until the kernel reports SIGINT as
# caught (SigCgt in /proc/PID/status) by the program itself makes the signal land on its
# handler on any machine: until `exec`, PID is a subshell of bash, which catches SIGINT too.
#   wait_for_sigint_handler PID PROGRAM [SECONDS]
#     -> 0 once PROGRAM runs as PID and catches SIGINT; 1 if PID ended or SECONDS (30) passed
wait_for_sigint_handler() {
  local pid=$1 program limit=${3:-30} mask
  program=$(readlink -f "$2")
  local deadline=$((SECONDS + limit))
  while [ "$SECONDS" -lt "$deadline" ]; do
    [ -e "/proc/$pid" ] || return 1
    if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$program" ]; then
      mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
      [ -n "$mask" ] || return 1
      # SIGINT is signal 2: bit 1 of the mask.
      if (((0x$mask >> 1) & 1)); then return 0; fi
    fi
    sleep 0.02
  done
  return 1
}
