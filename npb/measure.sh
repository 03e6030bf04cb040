#!/bin/sh
# Runs the NPB kernels for a set of classes and rank counts and prints one
# Markdown table row per run: kernel, class, ranks, time, Mop/s, verification.
#
# usage: npb/measure.sh BINDIR "LAUNCHER" ["CLASSES"] ["RANKS"] ["KERNELS"]
#   BINDIR    directory holding npb-is, npb-ep, ...
#   LAUNCHER  command that takes -n N before the program, e.g. "mpirun.mpich"
#             or "tilempirun --transport sim"
# example: npb/measure.sh ../build-npb-mpich mpirun.mpich "S W A" "1 2 4"
set -u
bindir=$1
launcher=$2
classes=${3:-"S W A"}
ranks=${4:-"1 2 4"}
kernels=${5:-"is ep cg mg ft lu"}
echo "| kernel | class | ranks | time (s) | Mop/s total | Mop/s/process | verification |"
echo "|---|---|---|---|---|---|---|"
for k in $kernels; do
  for c in $classes; do
    for n in $ranks; do
      out=$($launcher -n "$n" "$bindir/npb-$k" -c "$c" 2>&1)
      rc=$?
      t=$(printf '%s\n' "$out" | sed -n 's/^ Time in seconds = *//p' | head -n 1)
      m=$(printf '%s\n' "$out" | sed -n 's/^ Mop\/s total *= *//p' | head -n 1)
      p=$(printf '%s\n' "$out" | sed -n 's/^ Mop\/s\/process *= *//p' | head -n 1)
      v=$(printf '%s\n' "$out" | sed -n 's/^ VERIFICATION //p' | head -n 1)
      [ -n "$v" ] || v="exit $rc"
      echo "| $(echo "$k" | tr a-z A-Z) | $c | $n | ${t:--} | ${m:--} | ${p:--} | $v |"
    done
  done
done
