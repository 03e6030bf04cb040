#!/bin/sh
# check_fallback.sh LINES COMMAND...
# Runs COMMAND (tilempirun ... coll_fallback TEST), which must exit 0 and print "coll_fallback: ok",
# and counts the library's fallback warnings in its output: there must be exactly LINES (one per
# algorithm and communicator under TILEMPI_COLL_FALLBACK=warn, none under error and silent).
set -u
want="$1"; shift
out=$("$@" 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "check_fallback: the job exited with $rc"; exit 1; }
echo "$out" | grep -q '^coll_fallback: ok$' || { echo "check_fallback: no 'coll_fallback: ok'"; exit 1; }
n=$(echo "$out" | grep -c '^tilempi: warning: .* cannot run on this communicator')
echo "check_fallback: $n fallback warning line(s), want $want"
[ "$n" -eq "$want" ]
