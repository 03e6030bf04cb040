#!/usr/bin/env bash
# A tilempi-bench sweep interrupted with SIGINT and started again finishes without running again
# the configurations that had finished (their status files stay as they were), and its CSV equals
# that of a sweep run in one go. Then tilempi-sweep's own plans: a failed configuration is reported
# with its command, kept failed on the next run, and run again with --rerun-failed. Then an
# experiment script run twice: the second takes the first's results.
#   sweep_resume.sh BIN_DIR WORK_DIR
set -euo pipefail
bin=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }

sweep=(-a alltoall=linear,mesh_rounds --ranks 16 --sizes 16K,64K,128K,256K --trials 2 --no-conflicts)
"$bin/tilempi-bench" "${sweep[@]}" -j 2 --work-dir "$work/whole" --csv "$work/whole.csv"

# Interrupted once two configurations have finished.
"$bin/tilempi-bench" "${sweep[@]}" -j 1 --work-dir "$work/parts" --csv "$work/parts.csv" 2>"$work/first.err" &
pid=$!
for _ in $(seq 1 6000); do
  n=$( (find "$work/parts/runs" -name '*.status' 2>/dev/null || true) | wc -l)
  [ "$n" -ge 2 ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
kill -INT $pid 2>/dev/null || true
rc=0
wait $pid || rc=$?
cat "$work/first.err"
[ $rc -eq 130 ] || fail "the interrupted sweep exited with $rc, not 130 (did it finish before the interrupt?)"
[ ! -e "$work/parts.csv" ] || fail "an interrupted sweep wrote its CSV"
mkdir -p "$work/kept"
cp "$work/parts/runs/"*.status "$work/kept/"
kept=$(ls "$work/kept" | wc -l)
total=$(grep -c '"id"' "$work/parts/plan.json")
[ "$kept" -ge 2 ] && [ "$kept" -lt "$total" ] || fail "$kept of $total configurations finished before the interrupt"
grep -q "interrupted" "$work/first.err" || fail "no word of the interrupt"

"$bin/tilempi-bench" "${sweep[@]}" --work-dir "$work/parts" --csv "$work/parts.csv" -j 2 2>"$work/second.err" ||
  { cat "$work/second.err"; fail "the resumed sweep failed"; }
cat "$work/second.err"
grep -q "($kept of $total are there from an earlier run)" "$work/second.err" || fail "the resumed sweep did not take the $kept results"
for f in "$work/kept/"*.status; do
  cmp -s "$f" "$work/parts/runs/$(basename "$f")" || fail "$(basename "$f" .status) ran again"
done
cmp "$work/whole.csv" "$work/parts.csv" || fail "the resumed sweep's CSV differs from the sweep run in one go"
pgrep -af "$work/parts" && fail "processes of the sweep are still running"

# A plan of plain commands: one fails until a file exists.
plan=$work/plain
"$bin/tilempi-sweep" add "$plan" --id ok --output "$work/ok.txt" -- /bin/sh -c "echo done >$work/ok.txt"
"$bin/tilempi-sweep" add "$plan" --id flaky -- /bin/sh -c "test -e $work/flag"
rc=0
"$bin/tilempi-sweep" run "$plan" -q 2>"$work/plain1.err" || rc=$?
cat "$work/plain1.err"
[ $rc -eq 1 ] || fail "a sweep with a failed configuration exited with $rc"
grep -q "flaky failed (status 1, log $plan/runs/flaky.log): /bin/sh -c 'test -e $work/flag'" "$work/plain1.err" ||
  fail "the failure does not name the command"
touch "$work/flag"
rc=0
"$bin/tilempi-sweep" run "$plan" -q 2>"$work/plain2.err" || rc=$?
cat "$work/plain2.err"
[ $rc -eq 1 ] || fail "the failed configuration ran again without --rerun-failed"
grep -q "rerun-failed" "$work/plain2.err" || fail "the earlier failure is not reported"
"$bin/tilempi-sweep" run "$plan" -q --rerun-failed || fail "--rerun-failed did not run it again"
"$bin/tilempi-sweep" status "$plan" | grep -q "2 done, 0 failed, 0 pending" || fail "status does not say all done"
# A changed command is a new configuration: it runs again.
"$bin/tilempi-sweep" add "$plan" --id ok --output "$work/ok.txt" -- /bin/sh -c "echo again >$work/ok.txt"
"$bin/tilempi-sweep" run "$plan" -q
grep -q again "$work/ok.txt" || fail "the changed configuration did not run"
# Two runs of one sweep at once: the second says so and runs nothing.
busy=$work/busy
"$bin/tilempi-sweep" add "$busy" --id slow --output "$work/slow.txt" -- /bin/sh -c "sleep 2; echo >$work/slow.txt"
"$bin/tilempi-sweep" run "$busy" -q &
pid=$!
for _ in $(seq 1 200); do [ -e "$busy/runs/slow.log" ] && break; sleep 0.05; done
rc=0
"$bin/tilempi-sweep" run "$busy" -q 2>"$work/busy.err" || rc=$?
wait $pid
[ $rc -eq 1 ] && grep -q "another process runs the sweep in $busy" "$work/busy.err" ||
  { cat "$work/busy.err"; fail "a second run of a running sweep did not refuse (status $rc)"; }

# An experiment script's sweep (scripts/sweep-lib.sh): run again, it takes every result there and
# writes the same tables.
if [ -x "$bin/multicast_stream" ]; then
  script=$(cd "$(dirname "$0")/../../../scripts" && pwd)/wallentowitz2018-sv-osqm.sh
  BIN=$bin OUT=$work/script1 SWEEP_DIR=$work/script-sweep bash "$script" -j 2 >"$work/script1.out" 2>&1 ||
    { cat "$work/script1.out"; fail "the script failed"; }
  BIN=$bin OUT=$work/script2 SWEEP_DIR=$work/script-sweep bash "$script" -j 2 >"$work/script2.out" 2>&1 ||
    { cat "$work/script2.out"; fail "the script failed when run again"; }
  grep -q "0 configurations to run (12 of 12 are there from an earlier run)" "$work/script2.out" ||
    { cat "$work/script2.out"; fail "the script ran its sweep again"; }
  cmp "$work/script1/wallentowitz2018-sv-osqm.md" "$work/script2/wallentowitz2018-sv-osqm.md" || fail "the script's tables differ"
fi
echo "sweep_resume: ok"
