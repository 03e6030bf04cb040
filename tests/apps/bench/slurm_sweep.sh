#!/usr/bin/env bash
# tilempi-bench --slurm on a real single-node Slurm cluster started here (slurm_cluster.sh) and
# ended when the test ends:
# 1. --slurm --no-wait: one job array and a merge job after it (afterok); the merged CSV equals
#    that of the same sweep run locally.
# 2. A task cancelled (scancel) before it ran: the merge job is dropped, and the same command
#    (waiting this time) submits only that task again, leaves the others' results as they were,
#    and merges a CSV equal to the local one.
#    Interrupted while waiting (SIGINT), the array goes on and the same command merges it.
# 3. An experiment script (wallentowitz2018-sv-osqm.sh) with --slurm: the same tables as run here.
# 4. Nothing is left: no job in the queue, no daemon, no tilempirun of the sweeps.
# Skipped (exit 77) where Slurm or munge is not installed.
#   slurm_sweep.sh BIN_DIR WORK_DIR
set -euo pipefail
bin=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/slurm_cluster.sh"
missing=$(slurm_cluster_missing)
if [ -n "$missing" ]; then
  echo "SKIPPED: Slurm is not installed (missing: $missing); Debian: apt-get install slurmctld slurmd munge slurm-client"
  exit 77
fi
fail() {
  echo "FAIL: $*" >&2
  tail -n 5 "$work"/cluster/*.log >&2 || true
  exit 1
}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
slurm_cluster_start "$work/cluster" || fail "the cluster did not start"
cd "$work"

sweep=(-a alltoall=linear,mesh_rounds -a bcast=binomial --ranks 4,9 --sizes 8,1K --trials 2 --timeout 120)
"$bin/tilempi-bench" "${sweep[@]}" -j 2 -q --work-dir local --csv local.csv

wait_queue_empty() {
  for _ in $(seq 1 600); do
    [ -z "$(squeue -h -o %i)" ] && return 0
    sleep 0.2
  done
  squeue >&2
  fail "jobs still queued after two minutes"
}

# 1. Submitted, not waited for: the merge job writes the CSV once the array ended.
"$bin/tilempi-bench" "${sweep[@]}" --slurm --group 3 --no-wait --work-dir s1 --csv s1.csv 2>s1.err ||
  { cat s1.err; fail "--slurm --no-wait failed"; }
cat s1.err
grep -q "merge job [0-9]* runs after it" s1.err || fail "no merge job"
wait_queue_empty
[ -f s1.csv ] || { cat s1/slurm/*.out; fail "the merge job wrote no CSV"; }
cmp local.csv s1.csv || fail "the CSV merged from the job array differs from the local run's"

# 2. One task cancelled before it ran (the array is submitted held; one task is cancelled, the
#    others released).
"$bin/tilempi-bench" "${sweep[@]}" --slurm --group 3 --no-wait --sbatch-arg=--hold --work-dir s2 --csv s2.csv \
  2>s2.err || { cat s2.err; fail "--slurm --no-wait --hold failed"; }
cat s2.err
array=$(sed -n 's/.*job array \([0-9]*\) submitted.*/\1/p' s2.err)
merge=$(sed -n 's/.*merge job \([0-9]*\) runs after.*/\1/p' s2.err)
[ -n "$array" ] && [ -n "$merge" ] || fail "no job ids in the output"
scancel "${array}_1"
scontrol release "$array" "$merge" 2>/dev/null || scontrol release "$array"
wait_queue_empty
[ ! -f s2.csv ] || fail "the merge job ran although a task was cancelled"
mkdir -p kept
cp s2/runs/*.status kept/
total=$(grep -c '"id"' s2/plan.json)
[ "$(ls kept | wc -l)" -lt "$total" ] || fail "every configuration ran although a task was cancelled"
"$bin/tilempi-bench" "${sweep[@]}" --slurm --group 3 --work-dir s2 --csv s2.csv 2>s2-resume.err ||
  { cat s2-resume.err; fail "the resumed --slurm sweep failed"; }
cat s2-resume.err
grep -q "as a Slurm job array: task 1 (" s2-resume.err || fail "the resumed sweep did not submit the cancelled task alone"
for f in kept/*.status; do
  cmp -s "$f" "s2/runs/$(basename "$f")" || fail "$(basename "$f" .status) ran again"
done
cmp local.csv s2.csv || fail "the CSV of the resumed job array differs from the local run's"

# 2b. Ctrl-C while waiting for an array stops the waiting, not the array; the same command later
#     submits nothing and merges.
"$bin/tilempi-bench" "${sweep[@]}" --slurm --group 6 --work-dir s3 --csv s3.csv 2>s3.err &
pid=$!
for _ in $(seq 1 600); do grep -q "waiting for them" s3.err && break; sleep 0.1; done
sleep 1
kill -INT $pid
rc=0
wait $pid || rc=$?
cat s3.err
[ $rc -eq 130 ] || fail "tilempi-bench --slurm interrupted while waiting exited with $rc"
grep -q "stopped waiting; job array [0-9]* goes on" s3.err || fail "no word of the array going on"
wait_queue_empty
"$bin/tilempi-bench" "${sweep[@]}" --slurm --group 6 --work-dir s3 --csv s3.csv 2>s3-merge.err ||
  { cat s3-merge.err; fail "merging after the interrupted wait failed"; }
cat s3-merge.err
grep -q "nothing to submit" s3-merge.err || fail "the array's results were not taken"
cmp local.csv s3.csv || fail "the CSV merged after an interrupted wait differs from the local run's"

# 3. An experiment script's sweep (scripts/sweep-lib.sh) through the cluster: the same tables as
#    the script run here.
if [ -x "$bin/multicast_stream" ]; then
  script=$here/../../../scripts/wallentowitz2018-sv-osqm.sh
  BIN=$bin OUT=$work/script-local SWEEP_DIR=$work/script-local-sweep bash "$script" -j 2 >script-local.out 2>&1 ||
    { cat script-local.out; fail "the script failed here"; }
  BIN=$bin OUT=$work/script-slurm SWEEP_DIR=$work/script-slurm-sweep bash "$script" --slurm --group 4 \
    >script-slurm.out 2>&1 || { cat script-slurm.out; fail "the script failed with --slurm"; }
  grep -q "as a Slurm job array: tasks 0,1,2 (" script-slurm.out || { cat script-slurm.out; fail "the script did not use Slurm"; }
  cmp script-local/wallentowitz2018-sv-osqm.md script-slurm/wallentowitz2018-sv-osqm.md || fail "the script's tables differ with --slurm"
fi

# 4. Nothing left running.
wait_queue_empty
pgrep -af "$work/(s[123]|script-)" && fail "processes of the sweeps are still running"
slurm_cluster_stop
pgrep -f "$work/cluster" >/dev/null && fail "a Slurm daemon is still running"
echo "slurm_sweep: ok"
