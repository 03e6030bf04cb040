#!/bin/sh
# usage: expect_exit.sh STATUS PATTERN COMMAND [ARGS...]
# Runs COMMAND, shows its output, and succeeds only when it exits with STATUS
# and its output (stdout and stderr) matches the grep -E PATTERN.
set -u
want=$1
pattern=$2
shift 2
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$want" ]; then
  echo "expect_exit: exit status $rc, expected $want"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
  echo "expect_exit: output does not match '$pattern'"
  exit 1
fi
exit 0
