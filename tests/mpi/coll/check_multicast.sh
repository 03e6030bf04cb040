#!/bin/sh
# check_multicast.sh TILEMPIRUN MULTICAST_STREAM
# [Wallentowitz 2018] §3.3.1.1 on the namp adapter (optimsoc, rank 0 to 8 destinations, 20
# multicasts): the adapter's multicast takes fewer than half the cycles of 8 sends at 4 B (its
# concurrent allocations and single setup) and still fewer at 2048 B, where the data dominates
# (docs/EXPERIMENTS.md: +140 % and +4 % throughput).
set -u
run="$1"; prog="$2"
cycles() {
  out=$("$run" -n 9 --transport sim --preset optimsoc --adapter namp --compute none --timeout 120 \
        --coll bcast=namp_multicast "$prog" "$1" "$2" 20 2>&1) || { echo "$out"; exit 1; }
  echo "$out" | sed -n 's/^multicast_stream .*: \([0-9][0-9]*\) cycles$/\1/p'
}
sw4=$(cycles sw 4); hw4=$(cycles hw 4); sw2k=$(cycles sw 2048); hw2k=$(cycles hw 2048)
echo "4 B: 8 sends $sw4 cycles, multicast $hw4; 2048 B: 8 sends $sw2k, multicast $hw2k"
[ -n "$sw4" ] && [ -n "$hw4" ] && [ -n "$sw2k" ] && [ -n "$hw2k" ] || exit 1
[ $((hw4 * 2)) -lt "$sw4" ] && [ "$hw2k" -lt "$sw2k" ]
