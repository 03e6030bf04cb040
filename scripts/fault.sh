#!/usr/bin/env bash
# Fault injection: jobs whose ranks fail at a random point (tests/reliability/fault_rank.c):
# killed by a signal, exit without MPI_Finalize, MPI_Abort from several ranks at once, out of
# memory, MPI_Abort while every rank holds unflushed output (output), ranks returning from main
# without MPI_Finalize (nofinalize: one, nonefinalize: all); and jobs whose launcher is killed
# (startkill: SIGKILL) or interrupted (startterm: SIGTERM) at a random moment of the start of 40
# ranks. For each run it checks the launcher's exit status against the documented one
# (tilempirun --help: 128+N for a rank killed by signal N, the rank's own status, the
# MPI_Abort code), that no process of the job is left, that no shared-memory object of the job is
# left in /dev/shm, and that nothing is left in the job's temporary directory (TMPDIR); it
# reports the slowest job's wall time (a job must end within seconds: at most LIMIT).
#
#   scripts/fault.sh [-r RUNS] [-n RANKS] [-b BUILD_DIR] [-T TRANSPORTS] [-l LIMIT] [-s SEED] [CASE...]
#
# Defaults: 100 runs per case and transport, 4 ranks, build/, host and sim, a limit of 60 s
# (a loaded machine), cases signal exit abort oom output nofinalize nonefinalize startkill
# startterm. Seeds: SEED, SEED+1, ... (default: random,
# printed; a failing run prints its command line).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=100
ranks=4
build=$root/build
transports="host sim"
limit=60
seed=""
while getopts "r:n:b:T:l:s:" opt; do
  case $opt in
    r) runs=$OPTARG ;;
    n) ranks=$OPTARG ;;
    b) build=$OPTARG ;;
    T) transports=$OPTARG ;;
    l) limit=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) sed -n 2,16p "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(signal exit abort oom output nofinalize nonefinalize startkill startterm)
run=$build/bin/tilempirun
prog=$build/bin/fault_rank
for f in "$run" "$prog"; do [ -x "$f" ] || { echo "fault.sh: $f is missing (build first)" >&2; exit 2; }; done
[ -n "$seed" ] || seed=$((RANDOM * 32768 + RANDOM))
echo "fault: seeds from $seed, $runs runs per case and transport, $ranks ranks"
work=$(mktemp -d "${TMPDIR:-/tmp}/tilempi-fault.XXXXXX")
trap 'rm -rf "$work"' EXIT
signals=(9 11 15 6 7 8)  # the order of fault_rank.c's table

# The status the documentation promises for CASE and SEED (abort: any of the aborting ranks' codes).
expected() {
  local c=$1 s=$2
  case $c in
    signal) echo $((128 + ${signals[$((s / 7 % 6))]})) ;;
    exit) echo $((3 + s % 50)) ;;
    oom) echo 134 ;;
    nofinalize | nonefinalize) echo 1 ;;
    startkill) echo 137 ;;
    startterm) echo 143 ;;
    abort | output)
      local r out=""
      for ((r = 0; r < ranks; r++)); do (((r + s) % 3 != 0)) && out="$out $((40 + r))"; done
      echo "$out" ;;
    none) echo 0 ;;
  esac
}

passed=0
failed=0
n=0
for t in $transports; do
  extra=()
  [ "$t" = sim ] && extra=(--compute none)
  for c in "${cases[@]}"; do
    ok=0
    bad=0
    slowest=0
    declare -A seen=()
    for ((i = 0; i < runs; i++)); do
      s=$((seed + n))
      n=$((n + 1))
      token="tilempi-fault-$$-$n"
      tmp=$work/tmp-$n
      mkdir -p "$tmp"
      start=$(date +%s.%N)
      np=$ranks
      mode=$c
      case $c in startkill | startterm) np=40 mode=hold ;; esac
      TMPDIR=$tmp "$run" -n "$np" --transport "$t" "${extra[@]}" --timeout 120 "$prog" "$mode" "$s" "$token" \
        > "$work/out" 2> "$work/err" < /dev/null &
      pid=$!
      if [ "$c" = startkill ] || [ "$c" = startterm ]; then
        # A moment of the start drawn from the seed: 0 to 0.5 s.
        sleep "$(awk -v s="$s" 'BEGIN { printf "%.3f", (s % 500) / 1000 }')"
        kill -s "$([ "$c" = startkill ] && echo KILL || echo TERM)" $pid 2> /dev/null
      fi
      { wait $pid; } 2> /dev/null  # (bash's "Killed" notice of the startkill case)
      status=$?
      secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
      why=""
      want=$(expected "$c" "$s")
      [[ " $want " == *" $status "* ]] || why="exit status $status, documented: $want"
      left=$(pgrep -f -- "$token" || true)
      if [ -n "$left" ]; then
        sleep 1
        left=$(pgrep -f -- "$token" || true)
        [ -n "$left" ] && why="$why; processes left: $left" && kill -KILL $left 2> /dev/null
      fi
      if [ "$c" = output ]; then
        # Every line a rank printed before the abort is in the output: each rank printed at least
        # its lines of the rounds before the failing one.
        at=$(((s / ranks) % 40))
        for ((r = 0; r < ranks; r++)); do
          got=$(grep -c "^rank $r round " "$work/out" || true)
          [ "$got" -ge "$at" ] || why="$why; rank $r: $got lines of output, at least $at printed"
        done
      fi
      # (a killed launcher's watchdog removes the name a moment after it)
      for _ in 1 2 3 4 5 6 7 8 9 10; do
        shm=$(ls /dev/shm | grep -E "^tilempi(-sim)?-$pid-" || true)
        [ -z "$shm" ] && break
        sleep 0.2
      done
      [ -n "$shm" ] && why="$why; left in /dev/shm: $shm"
      tmpleft=$(ls -A "$tmp")
      [ -n "$tmpleft" ] && why="$why; left in TMPDIR: $tmpleft"
      awk -v a="$secs" -v b="$limit" 'BEGIN { exit !(a > b) }' && why="$why; took $secs s (limit $limit s)"
      awk -v a="$secs" -v b="$slowest" 'BEGIN { exit !(a > b) }' && slowest=$secs
      seen[$status]=$((${seen[$status]:-0} + 1))
      if [ -z "$why" ]; then
        ok=$((ok + 1))
      else
        bad=$((bad + 1))
        echo "FAIL: $t $c seed $s: ${why#; }"
        echo "  rerun: $run -n $ranks --transport $t ${extra[*]} $prog $c $s"
        tail -3 "$work/err" | sed 's/^/  | /'
      fi
      rm -rf "$tmp"
    done
    statuses=""
    for k in $(printf '%s\n' "${!seen[@]}" | sort -n); do statuses="$statuses $k:${seen[$k]}"; done
    unset seen
    printf 'fault: %-4s %-6s %4d runs, %4d as documented, %3d not; exit statuses (status:runs)%s; slowest %.2f s\n' \
      "$t" "$c" "$runs" "$ok" "$bad" "$statuses" "$slowest"
    passed=$((passed + ok))
    failed=$((failed + bad))
  done
done
echo "fault: $passed passed, $failed failed"
[ $failed -eq 0 ]
