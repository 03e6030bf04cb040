#!/bin/sh
# compare_cycles.sh TILEMPIRUN COLL_ONCE COLLECTIVE FAST_ALG SLOW_ALG BYTES
# Runs one collective on the sim transport (49 ranks, 7x7, --compute none: deterministic cycles)
# with two algorithms and succeeds when FAST_ALG takes fewer cycles than SLOW_ALG.
set -u
run="$1"; prog="$2"; coll="$3"; fast="$4"; slow="$5"; bytes="$6"
cycles() {
  out=$("$run" -n 49 --mesh 7x7 --transport sim --compute none --timeout 120 --coll "$coll=$1" "$prog" "$coll" "$bytes" 2>&1) || {
    echo "$out"; echo "run with $coll=$1 failed" >&2; exit 1; }
  echo "$out" | sed -n 's/.* \([0-9][0-9]*\) cycles = .*/\1/p' | head -n 1
}
a=$(cycles "$fast"); b=$(cycles "$slow")
echo "$coll, $bytes B, 49 ranks on 7x7: $fast $a cycles, $slow $b cycles"
[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
