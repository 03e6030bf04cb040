#!/usr/bin/env bash
# Randomized MPI argument testing (tests/reliability/random_args.cpp): JOBS jobs of CALLS random
# calls each, with new seeds, on each transport. A failing job prints its seed and the command
# that replays it. Closing line: calls made, failures.
#
#   scripts/random-args.sh [-j JOBS] [-c CALLS] [-n RANKS] [-b BUILD_DIR] [-T TRANSPORTS] [-s SEED]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=50
calls=2000
ranks=5
build=$root/build
transports="host sim"
seed=""
while getopts "j:c:n:b:T:s:" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    c) calls=$OPTARG ;;
    n) ranks=$OPTARG ;;
    b) build=$OPTARG ;;
    T) transports=$OPTARG ;;
    s) seed=$OPTARG ;;
    *) sed -n 2,7p "$0" >&2; exit 2 ;;
  esac
done
run=$build/bin/tilempirun
prog=$build/bin/random_args
[ -x "$run" ] && [ -x "$prog" ] || { echo "random-args.sh: build first ($prog)" >&2; exit 2; }
[ -n "$seed" ] || seed=$((RANDOM * 32768 + RANDOM))
out=$(mktemp "${TMPDIR:-/tmp}/tilempi-random-args.XXXXXX")
trap 'rm -f "$out"' EXIT
total=0
invalid=0
failures=0
failed_jobs=0
for t in $transports; do
  extra=()
  [ "$t" = sim ] && extra=(--compute none)
  for ((i = 0; i < jobs; i++)); do
    s=$((seed + i))
    "$run" -n "$ranks" --transport "$t" "${extra[@]}" --timeout 300 "$prog" "$calls" "$s" > "$out" 2>&1 < /dev/null
    status=$?
    line=$(grep -E '^random_args: [0-9]+ calls made' "$out")
    made=$(echo "$line" | awk '{print $2}')
    inv=$(echo "$line" | awk '{print $8}')
    bad=$(grep -Eo '^random_args: [0-9]+ passed, [0-9]+ failed' "$out" | awk '{print $4}')
    total=$((total + ${made:-0}))
    invalid=$((invalid + ${inv:-0}))
    if [ "$status" -ne 0 ] || [ -z "$line" ]; then
      failed_jobs=$((failed_jobs + 1))
      failures=$((failures + ${bad:-1}))
      echo "FAIL: $t seed $s (exit status $status); replay: $run -n $ranks --transport $t ${extra[*]} $prog $calls $s"
      grep -E 'random_args: rank|tilempirun:' "$out" | head -5 | sed 's/^/  | /'
    fi
  done
  echo "random-args: $t: $jobs jobs of $calls calls on $ranks ranks, seeds $seed..$((seed + jobs - 1))"
done
echo "random-args: $total calls made, $invalid with an invalid argument, $failures failed in $failed_jobs jobs"
echo "random-args: $((total - failures)) passed, $failures failed"
[ "$failed_jobs" -eq 0 ]
