#!/usr/bin/env bash
# Return-to-sender flow control through MPI ([Lee 1999] §3.3.2): a program run on the mmachine
# adapter with receive buffers so small that messages are returned and sent again must still
# pass its own checks (every message once, in order, intact), and the report must show that
# messages were returned.
#   mmachine_bounce.sh TILEMPIRUN NP PROG [LAUNCHER ARGS...]
# BOUNCE_JOB_TIMEOUT: the job's --timeout in seconds (default 100).
set -u
run=$1 np=$2 prog=$3
shift 3
report=$(mktemp)
trap 'rm -f "$report"' EXIT
out=$("$run" -n "$np" --transport sim --preset mmachine --adapter mmachine --timeout "${BOUNCE_JOB_TIMEOUT:-100}" --report "$report" "$@" \
  "$prog" 2>&1) || { echo "$out"; echo "FAIL: the job failed"; exit 1; }
echo "$out" | tail -3
bounces=$(sed -n 's/.*"bounces": *\([0-9]*\).*/\1/p' "$report" | head -1)
retries=$(sed -n 's/.*"retries": *\([0-9]*\).*/\1/p' "$report" | head -1)
echo "bounces=$bounces retries=$retries"
[ -n "$bounces" ] && [ "$bounces" -gt 0 ] || { echo "FAIL: no message was returned"; exit 1; }
[ "$retries" = "$bounces" ] || { echo "FAIL: $bounces returned but $retries sent again"; exit 1; }
