#!/usr/bin/env bash
# expect_failure.sh STATUS REGEX -- tilempirun ARGS...
# Runs a job that must fail: checks its exit status (STATUS, or "nonzero"), that its output
# matches REGEX, and that it left no shared-memory object behind.
set -u
want=$1 regex=$2
shift 3
out=$(mktemp)
"$@" >"$out" 2>&1 &
pid=$!
wait $pid
status=$?
fail=0
if [ "$want" = nonzero ]; then
  [ $status -ne 0 ] || { echo "expected a nonzero exit status, got 0"; fail=1; }
elif [ $status -ne "$want" ]; then
  echo "expected exit status $want, got $status"; fail=1
fi
grep -Eq -- "$regex" "$out" || { echo "output does not match: $regex"; fail=1; }
left=$(ls /dev/shm 2>/dev/null | grep -E "^tilempi.*-$pid-" || true)
[ -z "$left" ] || { echo "shared memory left behind: $left"; fail=1; }
if [ $fail -ne 0 ]; then
  echo "---- output of: $*"; cat "$out"
fi
rm -f "$out"
exit $fail
