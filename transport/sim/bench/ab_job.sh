#!/usr/bin/env bash
# Two builds of tilempi side by side on one sim job: wall time of the whole command, alternating
# A B A B so that a drift of the machine's speed falls on both, with the median of each and the
# median of the pair-by-pair ratios B/A. Modeled cycles must be equal: the script says so when
# they are not (a speed change must not be a model change).
#   transport/sim/bench/ab_job.sh BUILD_A BUILD_B [PAIRS=10] [-- TILEMPIRUN_ARGS... PROGRAM ARGS...]
# Default job: 20 alltoalls of 1 KiB among 64 ranks, packet model (docs/HWMODEL.md, Performance):
#   -n 64 --transport sim --compute none --set network_model=packet sim_alltoall_bench 1024 20
# The program is looked up in each build's bin/ when it is not a path. (sim_alltoall_bench calls
# MPI_Alltoall, which --coll chooses, only with its third argument `coll`: issue 38's job is
# `-n 1024 ... --coll alltoall=pairwise --set network_model=packet sim_alltoall_bench 8 1 coll`.)
set -eu
usage() { sed -n '2,11p' "$0"; exit 2; }
[ $# -ge 2 ] || usage
a=$(cd "$1" && pwd) b=$(cd "$2" && pwd)
shift 2
pairs=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then pairs=$1; shift; fi
case $pairs in ''|*[!0-9]*|0) echo "ab_job.sh: PAIRS wants a positive number, not '$pairs'" >&2; exit 2 ;; esac
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
job=("$@")
[ ${#job[@]} -gt 0 ] || job=(-n 64 --transport sim --compute none --set network_model=packet sim_alltoall_bench 1024 20)
for d in "$a" "$b"; do [ -x "$d/bin/tilempirun" ] || { echo "ab_job.sh: no $d/bin/tilempirun" >&2; exit 2; }; done

# The job's arguments with the program resolved in build $1: the first argument that names an
# executable in its bin/ (and is neither an option nor a path).
args_for() {
  local x done=0
  for x in "${job[@]}"; do
    if [ $done -eq 0 ] && [ "${x#-}" = "$x" ] && [ "${x#*/}" = "$x" ] && [ -f "$1/bin/$x" ] && [ -x "$1/bin/$x" ]; then
      printf '%s\n' "$1/bin/$x"
      done=1
    else
      printf '%s\n' "$x"
    fi
  done
}
mapfile -t ja < <(args_for "$a")
mapfile -t jb < <(args_for "$b")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cycles() { sed -n 's/.* \([0-9][0-9]*\) cycles = .*/\1/p' "$1" | tail -1; }
one() {  # build, args...: prints the wall seconds; leaves the output in $tmp/out
  local d=$1; shift
  local t0 t1
  t0=$(date +%s.%N)
  "$d/bin/tilempirun" "$@" > "$tmp/out" 2>&1 || { echo "ab_job.sh: the job failed with $d:" >&2; tail -5 "$tmp/out" >&2; exit 1; }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.6f\n", b - a}'
}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# A = $a"
echo "# B = $b"
echo "# job: tilempirun ${job[*]}"
one "$a" "${ja[@]}" > /dev/null; ca=$(cycles "$tmp/out")  # warm-up of each
one "$b" "${jb[@]}" > /dev/null; cb=$(cycles "$tmp/out")
[ "$ca" = "$cb" ] || echo "# NOTE: modeled cycles differ: A $ca, B $cb"
for i in $(seq "$pairs"); do
  wa=$(one "$a" "${ja[@]}")
  wb=$(one "$b" "${jb[@]}")
  echo "$wa $wb"
done > "$tmp/pairs"
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
ma=$(cut -d' ' -f1 "$tmp/pairs" | median)
mb=$(cut -d' ' -f2 "$tmp/pairs" | median)
mr=$(awk '{print $2 / $1}' "$tmp/pairs" | median)
lo=$(awk '{print $2 / $1}' "$tmp/pairs" | sort -g | head -1)
hi=$(awk '{print $2 / $1}' "$tmp/pairs" | sort -g | tail -1)
printf 'A median %.3f s, B median %.3f s, B/A median %.3f (pairs %.3f-%.3f), %d pairs, %s cycles\n' \
  "$ma" "$mb" "$mr" "$lo" "$hi" "$pairs" "${cb:-?}"
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
