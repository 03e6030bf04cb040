#!/usr/bin/env bash
# tilempi-demo on the sim: no collective over all ranks may take less than one message between
# neighbours (the one-way ping-pong), and the result check must pass. A collective timed from each
# rank's own barrier exit broke this (a reduce's root that left the tree barrier last: 0.10 us
# against a 0.12 us message); the demo times from a common start where the clock is global.
#   demo_times.sh TILEMPIRUN TILEMPI_DEMO [tilempirun options...]
set -euo pipefail
run=$1 demo=$2
shift 2
out=$("$run" "$@" "$demo" 2>&1) || { printf '%s\n' "$out"; echo "demo_times: the job failed"; exit 1; }
printf '%s\n' "$out"
printf '%s\n' "$out" | awk '
  /ping-pong 0 <-> 1 \(one way\)/ { one = $(NF - 1) }
  /^  (barrier|bcast|reduce|allreduce|alltoall)/ { name[++n] = $1; t[n] = $(NF - 1) }
  /result check: ok/ { ok = 1 }
  END {
    bad = 0
    if (one == "" || n < 5) { print "demo_times: rows missing"; exit 1 }
    for (i = 1; i <= n; ++i)
      if (t[i] + 0 < one + 0) { printf "demo_times: %s took %s us, less than one message (%s us)\n", name[i], t[i], one; bad = 1 }
    if (!ok) { print "demo_times: the result check did not pass"; bad = 1 }
    exit bad
  }'
