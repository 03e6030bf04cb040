#!/usr/bin/env bash
# Wall-clock cost of the sim transport (results go to docs/SIM.md).
#   transport/sim/bench/run.sh BUILD_DIR [ROUNDS=20]
# 1. one simulated MPI call: a 2-rank ping-pong of 8 bytes, ITERS round trips (4 calls each);
# 2. ROUNDS alltoalls of 1 KiB per pair among 64 ranks on the 8x8 tilepro64 mesh (pairwise
#    Isend/Irecv, then MPI_Alltoall with the default algorithm or BENCH_COLL=name).
set -eu
build=${1:?usage: run.sh BUILD_DIR [ROUNDS]}
rounds=${2:-20}
run=$build/bin/tilempirun
tests=$build/bin
[ -x "$tests/sim_pingpong" ] || tests=$build/tests/transport/sim
now() { date +%s.%N; }
echo "# machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

iters=20000
t0=$(now)
out=$("$run" -n 2 --transport sim --compute none "$tests/sim_pingpong" 0 1 8 $iters 2>&1)
t1=$(now)
echo "$out" | head -1
awk -v a="$t0" -v b="$t1" -v n="$iters" 'BEGIN {
  w = b - a; printf "pingpong: %d round trips in %.2f s wall: %.2f us per round trip, %.2f us per MPI call\n", n, w, w / n * 1e6, w / (4 * n) * 1e6 }'

for mode in pairwise coll; do
  arg=""
  [ "$mode" = coll ] && arg=coll
  t0=$(now)
  out=$("$run" -n 64 --transport sim --compute none ${BENCH_COLL:+--coll alltoall=$BENCH_COLL} "$tests/sim_alltoall_bench" 1024 "$rounds" $arg 2>&1)
  t1=$(now)
  echo "$out"
  awk -v a="$t0" -v b="$t1" -v r="$rounds" -v m="$mode" 'BEGIN {
    w = b - a; printf "alltoall (%s): %d x 1 KiB among 64 ranks in %.2f s wall; ratio to SMPI 0.17 s / 0.53 s: %.1fx / %.1fx\n", m, r, w, w / 0.17, w / 0.53 }'
done
